import Foundation
import TimeTrackCore

/// How often a source is due (`"6h"`, `"30m"`, `"1d"`, `"daily 05:30"`, `"hourly"`).
public enum Schedule: Equatable, Sendable, CustomStringConvertible {
    case every(TimeInterval)
    case daily(hour: Int, minute: Int)

    /// Parses the schedule text of a source definition.
    public init?(_ text: String) {
        let t = text.trimmingSpaces().lowercased()
        if t == "hourly" { self = .every(3600); return }
        if t == "daily" { self = .daily(hour: 0, minute: 0); return }
        if t.hasPrefix("daily ") {
            let parts = t.dropFirst(6).split(separator: ":")
            guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
            self = .daily(hour: h, minute: m)
            return
        }
        // Checked before any conversion: "inf", "1e300d" and "nan" are not schedules.
        guard let unit = t.last, let n = Double(t.dropLast()), n.isFinite, n > 0, n <= 1_000_000 else { return nil }
        switch unit {
        case "m": self = .every(n * 60)
        case "h": self = .every(n * 3600)
        case "d": self = .every(n * 86_400)
        default: return nil
        }
        // At least 5 minutes, at most a year.
        if case .every(let seconds) = self, seconds < 300 || seconds > 366 * 86_400 { return nil }
    }

    public var description: String {
        switch self {
        case .every(let seconds):
            if seconds.truncatingRemainder(dividingBy: 86_400) == 0 { return "\(Int(seconds / 86_400))d" }
            if seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
            return "\(Int(seconds / 60))m"
        case .daily(let h, let m): return String(format: "daily %02d:%02d", h, m)
        }
    }
}

/// Which non-public addresses a source may reach.
public enum PrivateNetworkAllowance: Sendable, Equatable {
    case none
    case all
    /// Only these hosts or literal addresses (lowercased).
    case only(Set<String>)

    /// Whether a host (name or literal address) that resolves to a non-public address may be fetched.
    public func allows(host: String, address: String?) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .only(let set): return set.contains(host.lowercased()) || address.map { set.contains($0) } == true
        }
    }
}

/// One source: a JSON file in `Imports/` that says what to fetch, which importer reads it, and
/// how its items are reviewed.
///
/// See docs/source-definitions.md.
public struct SourceDefinition: Sendable {
    /// Whether imported items wait for a person or publish at once.
    public enum Review: String, Sendable { case required, auto }

    public var id: String
    public var name: String
    public var importer: String
    public var kind: ItemKind
    /// `url` as written in the file.
    public var urlText: String
    /// Where to fetch: a file URL (resolved against the definition's folder) or http(s).
    public var url: URL
    /// The public URL the page stands for, when `url` is a local file: links resolve against it,
    /// and URLs under its folder are read from the local file's folder.
    public var baseURL: URL?
    public var school: String?
    public var timeZone: TimeZone
    public var schedule: Schedule?
    public var review: Review
    /// What an accessibility finding does to an item of this source: `warn` (shown in review),
    /// or `hold` (kept pending, even when the source is trusted to publish at once).
    public enum AccessibilityPolicy: String, Sendable { case warn, hold }
    public var accessibility: AccessibilityPolicy = .warn
    /// Fetch the PDFs its items link to (School Info documents, links in bodies) and check them
    /// for a screen reader (`"checkPDFs": true`; poppler-utils).
    public var checkPDFs = false
    public var enabled: Bool
    /// Whether a run that finds nothing is a healthy run (`"mayBeEmpty": true`).
    ///
    /// An emergency pop-up or alert page is empty on most days. Such a run succeeds, raises no problem, holds
    /// nothing, and counts the source's items missing (so an alert taken down is noticed).
    /// Always true for alert sources.
    public var mayBeEmpty = false
    /// Allows fetching from loopback and private network addresses: all of them (`true`), or
    /// only the hosts and addresses listed (`["127.0.0.1", "intranet.district.local"]`).
    public var allowPrivateNetwork: PrivateNetworkAllowance
    /// A local source (a file `url`) may follow links to the web only when this is true
    /// (`"followRemoteLinks": true`).
    ///
    /// A web source never follows links to local files.
    public var followsRemoteLinks: Bool = false
    /// Importer-specific options, validated by the importer.
    public var options: [String: JSONValue]
    /// The definition file's path.
    public var file: String

    /// A configuration error for this definition's file and a field.
    public func error(_ field: String, _ message: String, fix: String? = nil) -> TimeTrackError {
        TimeTrackError(.configuration, message, fix: fix, context: ["file": file, "field": field])
    }

    /// A definition file's text with `"enabled"` set, changing nothing else: the value of an
    /// `"enabled"` key at the top level replaced, or the key added after the opening brace.
    ///
    /// Only the top level counts: an `"enabled"` inside `options` (or inside a string) is left as
    /// it is.
    public static func settingEnabled(_ enabled: Bool, in text: String) -> String {
        let value = enabled ? "true" : "false"
        if let range = topLevelEnabled(in: text) {
            return text.replacingCharacters(in: range, with: "\"enabled\": \(value)")
        }
        guard let brace = text.firstIndex(of: "{") else { return text }
        return String(text[...brace]) + "\n  \"enabled\": \(value)," + String(text[text.index(after: brace)...])
    }

    /// Where `"enabled": true|false` is written at the top level of a JSON object's text.
    static func topLevelEnabled(in text: String) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case "\"":
                // A string: skip to its end; at the top level a key "enabled" is checked.
                let start = index
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\" {
                        index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                    } else {
                        index = text.index(after: index)
                    }
                }
                guard index < text.endIndex else { return nil }
                if depth == 1, text[start...index] == "\"enabled\"",
                    let match = text[start...].range(of: #"^"enabled"\s*:\s*(true|false)"#, options: .regularExpression)
                {
                    return match
                }
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Reads and checks one definition file.
    ///
    /// Errors name the file, the field and what is wrong.
    public static func load(file: String) throws -> SourceDefinition {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw TimeTrackError(.configuration, "cannot read the source definition", fix: "check the path", context: ["file": file])
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw TimeTrackError(.configuration, "not valid JSON: \(error)", fix: "check commas, quotes and braces", context: ["file": file])
        }
        guard let object = value.objectValue else {
            throw TimeTrackError(.configuration, "a source definition must be a JSON object", context: ["file": file])
        }
        return try parse(object, file: file)
    }

    static let knownKeys: Set<String> = [
        "id", "name", "importer", "kind", "url", "baseURL", "school", "timeZone", "schedule", "review", "accessibility", "checkPDFs", "enabled",
        "allowPrivateNetwork", "mayBeEmpty",
        "followRemoteLinks", "options", "$comment", "description",
    ]

    /// Checks a definition's fields.
    public static func parse(_ object: [String: JSONValue], file: String) throws -> SourceDefinition {
        func fail(_ field: String, _ message: String, fix: String? = nil) -> TimeTrackError {
            TimeTrackError(.configuration, message, fix: fix, context: ["file": file, "field": field])
        }
        func string(_ key: String, required: Bool) throws -> String? {
            guard let value = object[key], value != .null else {
                if required { throw fail(key, "is required") }
                return nil
            }
            guard let s = value.stringValue, !s.unicodeScalars.allSatisfy(Whitespace.isSpace) else { throw fail(key, "must be a non-empty string") }
            return s
        }
        for key in object.keys where !knownKeys.contains(key) {
            throw fail(
                key, "is not a source definition field", fix: "known fields: " + knownKeys.filter { !$0.hasPrefix("$") }.sorted().joined(separator: ", "))
        }
        guard let id = try string("id", required: true) else { throw fail("id", "is required") }
        guard id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw fail("id", "'\(id.prefix(80))' must be letters, digits, '-' or '_' (at most 64)")
        }
        let name = try string("name", required: false) ?? id
        guard let importer = try string("importer", required: true) else { throw fail("importer", "is required") }
        guard let kindText = try string("kind", required: true) else { throw fail("kind", "is required") }
        guard let kind = ItemKind(word: kindText) else {
            throw fail("kind", "'\(kindText.prefix(80))' is not a kind", fix: "use one of: " + ItemKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let urlText = try string("url", required: true) else { throw fail("url", "is required") }
        let url = try resolve(urlText, beside: file, fail: fail)
        var baseURL: URL?
        if let text = try string("baseURL", required: false) {
            guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https", parsed.host != nil else {
                throw fail("baseURL", "'\(text.prefix(200))' must be an absolute http(s) URL")
            }
            baseURL = parsed
        }
        let zoneName = try string("timeZone", required: false) ?? "UTC"
        guard let timeZone = zone(named: zoneName) else {
            throw fail("timeZone", "'\(zoneName.prefix(80))' is not a known time zone", fix: "use an IANA name like America/Denver")
        }
        var schedule: Schedule?
        if let text = try string("schedule", required: false) {
            guard let parsed = Schedule(text) else {
                throw fail(
                    "schedule", "'\(text.prefix(80))' is not a schedule",
                    fix: "use \"6h\", \"30m\", \"1d\", \"hourly\" or \"daily 05:30\" (from 5 minutes to a year)")
            }
            schedule = parsed
        }
        let reviewText = try string("review", required: false) ?? "required"
        guard let review = Review(rawValue: reviewText) else { throw fail("review", "'\(reviewText.prefix(80))' must be \"required\" or \"auto\"") }
        if review == .auto && kind == .alert {
            throw fail("review", "alerts are approved by a person with the alerts right, never automatically: leave out \"review\" (docs/alerts.md)")
        }
        func bool(_ key: String, default value: Bool) throws -> Bool {
            guard let v = object[key], v != .null else { return value }
            guard let b = v.boolValue else { throw fail(key, "must be true or false") }
            return b
        }
        var options: [String: JSONValue] = [:]
        if let v = object["options"], v != .null {
            guard let o = v.objectValue else { throw fail("options", "must be a JSON object") }
            options = o
        }
        var definition = SourceDefinition(
            id: id, name: name, importer: importer, kind: kind, urlText: urlText, url: url, baseURL: baseURL,
            school: try string("school", required: false), timeZone: timeZone, schedule: schedule, review: review,
            enabled: try bool("enabled", default: true), allowPrivateNetwork: try privateNetworkAllowance(object["allowPrivateNetwork"], fail: fail),
            options: options, file: file)
        definition.followsRemoteLinks = try bool("followRemoteLinks", default: false)
        // An alert page is empty on most days: healthy, always.
        definition.mayBeEmpty = try bool("mayBeEmpty", default: false) || kind == .alert
        let policy = try string("accessibility", required: false) ?? "warn"
        guard let accessibility = AccessibilityPolicy(rawValue: policy) else {
            throw fail("accessibility", "'\(policy.prefix(80))' must be \"warn\" or \"hold\"")
        }
        definition.accessibility = accessibility
        definition.checkPDFs = try bool("checkPDFs", default: false)
        return definition
    }

    /// Where a definition's `url` points: a web address, or a file path resolved against the
    /// definition's folder.
    static func resolve(_ urlText: String, beside file: String, fail: (String, String, String?) -> TimeTrackError) throws -> URL {
        guard let scheme = URL(string: urlText)?.scheme?.lowercased(), scheme.count > 1 else {
            return URL(fileURLWithPath: urlText, relativeTo: folderURL(of: file)).standardizedFileURL
        }
        guard scheme == "http" || scheme == "https" || scheme == "file" else {
            throw fail("url", "'\(urlText.prefix(200))' uses \(scheme.prefix(20)):, only http, https and file paths are allowed", nil)
        }
        guard let parsed = URL(string: urlText) else { throw fail("url", "'\(urlText.prefix(200))' is not a valid URL", nil) }
        return parsed
    }

    /// `allowPrivateNetwork`: true, false, or a list of bare hosts and addresses.
    static func privateNetworkAllowance(_ value: JSONValue?, fail: (String, String, String?) -> TimeTrackError) throws -> PrivateNetworkAllowance {
        switch value {
        case nil, .null?: return .none
        case .bool(let b)?: return b ? .all : .none
        case .array(let list)?:
            let hosts = list.compactMap(\.stringValue)
            guard hosts.count == list.count, !hosts.isEmpty else {
                throw fail("allowPrivateNetwork", "must be true, false, or a list of hosts and addresses", nil)
            }
            var allowed: Set<String> = []
            for host in hosts {
                // "[::1]" is the address ::1; "127.0.0.1:8080" or a URL would never match a host.
                let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
                var address = in6_addr()
                guard !bare.contains("/"), !bare.contains(":") || inet_pton(AF_INET6, bare, &address) == 1, !bare.isEmpty else {
                    throw fail(
                        "allowPrivateNetwork", "'\(host.prefix(200))' is not a host or an address (a port or a URL never matches)",
                        "list bare hosts and addresses, like [\"127.0.0.1\", \"::1\", \"intranet.district.local\"]: any port of them is allowed")
                }
                allowed.insert(bare.lowercased())
            }
            return .only(allowed)
        default: throw fail("allowPrivateNetwork", "must be true, false, or a list of hosts and addresses", nil)
        }
    }

    /// Zones already looked up by name: a folder's definitions name a few zones many times, and
    /// each `TimeZone(identifier:)` reads the zone's rules again.
    private static let zones = ProcessCache<String, TimeZone?>(limit: 1_000)

    static func zone(named name: String) -> TimeZone? { zones.value(name) { TimeZone(identifier: name) } }

    /// Folders' URLs, by path: a folder of definitions shares one.
    private static let folders = ProcessCache<String, URL>(limit: 1_000)

    /// The folder holding a definition file, as a file URL:
    /// `URL(fileURLWithPath: file).deletingLastPathComponent()`, kept by the folder's path when
    /// that path is absolute (a relative one depends on the working directory).
    static func folderURL(of file: String) -> URL {
        guard file.hasPrefix("/"), let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return URL(fileURLWithPath: file).deletingLastPathComponent() }
        return folders.value(String(file[..<slash])) { URL(fileURLWithPath: file).deletingLastPathComponent() }
    }

    /// Every `*.json` definition in a folder (not recursive), sorted by id, and the errors of the bad ones.
    public static func loadAll(folder: String) -> (sources: [SourceDefinition], errors: [TimeTrackError]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return ([], [TimeTrackError(.configuration, "cannot read the imports folder", fix: "pass --imports DIR", context: ["file": folder])])
        }
        var sources: [SourceDefinition] = []
        var errors: [TimeTrackError] = []
        var seen: [String: String] = [:]
        let paths = names.sorted().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.hasPrefix("_") }.map {
            (folder as NSString).appendingPathComponent($0)
        }
        // Read and checked on all cores (a district has a file per source and kind); the
        // results are taken in file order, so which of two files keeps an id does not change.
        let loaded = Parallel.map(paths, minimumPerWorker: 16) { path in Result { try load(file: path) } }
        for (path, outcome) in zip(paths, loaded) {
            do {
                let source = try outcome.get()
                if let other = seen[source.id] {
                    errors.append(
                        TimeTrackError(
                            .configuration, "id '\(source.id)' is already used by \(other)", fix: "give each source its own id",
                            context: ["file": path, "field": "id"]
                        ).with(.definitionFile(path)))
                    continue
                }
                seen[source.id] = path
                sources.append(source)
            } catch let error as TimeTrackError {
                errors.append(error.with(.definitionFile(path)))
            } catch {
                errors.append(TimeTrackError(.configuration, "\(error)", context: ["file": path]).with(.definitionFile(path)))
            }
        }
        return (sources.sorted { $0.id < $1.id }, errors)
    }

    /// A copy reading a local file instead of `url` (`extract --file`, `import --file`).
    public func readingFile(_ path: String) -> SourceDefinition {
        var copy = self
        let fileURL = URL(fileURLWithPath: path).standardizedFileURL
        if copy.baseURL == nil, url.scheme == "http" || url.scheme == "https" { copy.baseURL = url }
        copy.url = fileURL
        return copy
    }

    /// The URL links on the first page resolve against: `baseURL`, else `url`.
    public var publicURL: URL { baseURL ?? url }
}
