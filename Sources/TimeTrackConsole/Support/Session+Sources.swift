import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

extension Session {
    /// All source definitions in the imports folder, and the errors of the bad ones.
    public func sources() -> (sources: [SourceDefinition], errors: [TimeTrackError]) {
        SourceDefinition.loadAll(folder: importsPath)
    }

    /// The zone an item's dates are typed and read in: an event's own `timeZone`, else its
    /// source's, else this machine's.
    func zone(of item: Item) -> TimeZone {
        if case .event(let event) = item.content, let zone = TimeZone(identifier: event.timeZone) { return zone }
        if case .deadline(let deadline) = item.content, let zone = TimeZone(identifier: deadline.timeZone) { return zone }
        return zone(ofSource: item.provenance?.sourceID)
    }

    /// The district's zone, for times that belong to no one item (the audit log, a preview's
    /// stamp): the zone most of its sources are in (the machine's without sources); UTC with
    /// `--utc`.
    var districtZone: TimeZone {
        if utc { return TimeZone(identifier: "UTC") ?? .current }
        _ = zone(ofSource: nil)  // reads the sources' zones once
        var counts: [String: Int] = [:]
        for zone in (sourceZones ?? [:]).values { counts[zone.identifier, default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { TimeZone(identifier: $0.key) } ?? .current
    }

    /// A source's zone for the times of its runs: its own, UTC with `--utc`.
    func runZone(ofSource sourceID: String?) -> TimeZone {
        utc ? TimeZone(identifier: "UTC") ?? .current : zone(ofSource: sourceID)
    }

    /// A source's time zone (the machine's for none or an unknown one); the definitions are
    /// read once per session, not once per item shown.
    func zone(ofSource sourceID: String?) -> TimeZone {
        if sourceZones == nil {
            sourceZones = Dictionary(sources().sources.map { ($0.id, $0.timeZone) }, uniquingKeysWith: { first, _ in first })
        }
        guard let sourceID else { return TimeZone.current }
        if sourceZones == nil {
            sourceZones = Dictionary(sources().sources.map { ($0.id, $0.timeZone) }, uniquingKeysWith: { first, _ in first })
        }
        return sourceZones?[sourceID] ?? TimeZone.current
    }

    /// A source by id (from the imports folder) or by the path of its definition file.
    public func source(_ word: String) throws -> SourceDefinition {
        if word.hasSuffix(".json") || word.contains("/") {
            guard FileManager.default.fileExists(atPath: word) else {
                throw TimeTrackError(
                    .configuration, "no source definition file here", fix: "check the path, or give a source id (`sources` lists them)", context: ["file": word]
                )
            }
            return try SourceDefinition.load(file: word)
        }
        let (all, errors) = sources()
        if let found = all.first(where: { $0.id == word }) { return found }
        if let broken = errors.first(where: { ($0.definitionFile as NSString?)?.lastPathComponent.hasPrefix(word) == true }) { throw broken }
        let known = all.map(\.id)
        throw TimeTrackError(
            .usage, "no source '\(word)' in \(importsPath)",
            fix: known.isEmpty ? "add a definition to \(importsPath) or pass --imports DIR" : "sources: " + known.joined(separator: ", "))
    }

    /// The HTTP client for a source: settings from `_settings.json` beside its definition,
    /// its private-network permission, and the store's validator cache (nil: no cache).
    public func webClient(for source: SourceDefinition, cache: FetchCache?) throws -> WebClient {
        try WebClient.forSource(source, cache: cache, version: Console.version)
    }

    /// The pipeline for a source: pages are confined to the folder of its definition.
    public func pipeline(for source: SourceDefinition) -> ImportPipeline {
        ImportPipeline(importsRoot: URL(fileURLWithPath: source.file).deletingLastPathComponent())
    }

}

/// Dates as people read them, in a given zone.
enum Display {
    static func date(_ date: Date?, zone: TimeZone, allDay: Bool = false) -> String {
        guard let date else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = allDay ? "yyyy-MM-dd" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date) + (allDay ? "" : " " + abbreviation(zone, at: date))
    }

    /// The zone's abbreviation from the tz database as people know it (`MDT`, `NZST`), not
    /// Foundation's `GMT-6` on Linux; the offset where the database has no letters for it.
    static func abbreviation(_ zone: TimeZone, at date: Date) -> String {
        if zone.identifier == "UTC" || zone.identifier == "GMT" && zone.secondsFromGMT() == 0 { return "UTC" }
        if let names = TZNames.names(of: zone.identifier) {
            return zone.isDaylightSavingTime(for: date) ? (names.daylight ?? names.standard) : names.standard
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = zone
        formatter.dateFormat = "zzz"
        let named = formatter.string(from: date)
        return named.isEmpty ? (zone.abbreviation(for: date) ?? zone.identifier) : named
    }

    /// ISO 8601 with the zone's offset: `2026-09-10T17:00:00-05:00`.
    static func iso(_ date: Date?, zone: TimeZone) -> String? {
        guard let date else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// The abbreviations the tz database itself gives a zone's current rule (`NZST`/`NZDT`,
/// `MST`/`MDT`, `-03`), read from the POSIX TZ string at the end of its zoneinfo file: the
/// names people in that zone read, where ICU's English names have only `GMT+12`.
enum TZNames {
    struct Names: Sendable {
        var standard: String
        var daylight: String?
    }

    nonisolated(unsafe) private static var cache: [String: Names?] = [:]
    private static let lock = NSLock()

    /// The standard and daylight names of a zone's current rule, or nil when its zoneinfo file
    /// cannot be read (the caller falls back on ICU).
    static func names(of identifier: String) -> Names? {
        lock.lock()
        defer { lock.unlock() }
        if let known = cache[identifier] { return known }
        let found = read(identifier)
        cache[identifier] = found
        return found
    }

    private static func read(_ identifier: String) -> Names? {
        guard !identifier.contains(".."), !identifier.hasPrefix("/") else { return nil }
        let folder = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        guard let data = FileManager.default.contents(atPath: folder + "/" + identifier), data.count > 44, data.prefix(4) == Data("TZif".utf8),
            data[data.startIndex + 4] >= UInt8(ascii: "2"), data.last == 10
        else { return nil }
        // The footer: "\n" TZ-string "\n" at the very end.
        let body = data.dropLast()
        guard let start = body.lastIndex(of: 10) else { return nil }
        return parse(String(decoding: body[body.index(after: start)...], as: UTF8.self))
    }

    /// Reads the names from a POSIX TZ string: `NZST-12NZDT,M9.5.0,M4.1.0/3`, `<-03>3`.
    static func parse(_ rule: String) -> Names? {
        var rest = Substring(rule)
        func name() -> String? {
            if rest.first == "<" {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                let quoted = rest[rest.index(after: rest.startIndex)..<end]
                rest = rest[rest.index(after: end)...]
                return quoted.isEmpty ? nil : String(quoted)
            }
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
            return String(letters)
        }
        guard let standard = name() else { return nil }
        rest = rest.drop { "+-0123456789:".contains($0) }
        return Names(standard: standard, daylight: rest.isEmpty || rest.first == "," ? nil : name())
    }
}
