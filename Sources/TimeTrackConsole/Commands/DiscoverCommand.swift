import Foundation
import TimeTrackCore
import TimeTrackDiscover
import TimeTrackExport
import TimeTrackKit

extension Console {
    static var discoverCommand: CommandSpec { DiscoverCommand.spec }

    struct DiscoverCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "discover",
            summary: "from a district's or a school's home page, find its sources (feeds, a platform's pages, listings, documents) and propose a"
                + " definition for each")
        @Positional("URL", count: 1...1, completes: []) var words: [String]
        @Option("max-pages", value: "N", help: "pages of the site to read at most, 1-500 (default 30)") var maxPages: String?
        @Option("zone", value: "Z", help: "the time zone of the site's dates (default: this machine's)") var zone: String?
        @Flag("write", help: "save the proposals into the imports folder (disabled until `sources enable ID`; an existing file is never replaced)") var write:
            Bool
        @Flag("enable", help: "with --write: save them enabled, so the next `import --all` reads them") var enable: Bool
        @Flag("allow-private", help: "the site is on a private or loopback address (an intranet, a test server): read it, and say so in the definitions")
        var allowPrivate: Bool

        func run(_ session: Session) throws -> Int32 {
            let start = try discoverStart(words[0])
            let zoneText = zone ?? TimeZone.current.identifier
            guard let zone = TimeZone(identifier: zoneText) else {
                throw TimeTrackError(.usage, "discover: --zone '\(zoneText)' is not a time zone", fix: "e.g. --zone America/Denver")
            }
            let maxText = maxPages ?? "30"
            guard let maxPages = Int(maxText), (1...500).contains(maxPages) else {
                throw TimeTrackError(.usage, "discover: --max-pages must be a number from 1 to 500")
            }
            if enable && !write {
                throw TimeTrackError(.usage, "discover: --enable goes with --write", fix: "discover URL --write --enable")
            }
            var settings = Discovery.Settings(zone: zone, importsPath: session.importsPath, version: Console.version)
            settings.maxPages = maxPages
            settings.allowPrivate = allowPrivate
            let discovery = Discovery(settings: settings)
            Interrupt.install()
            Interrupt.clear()
            discovery.shouldStop = { Interrupt.requested }
            let progress = Progress(label: "discover", enabled: isatty(2) == 1 && !session.output.json)
            discovery.progress = { pages, sources in progress.update(pages: pages, items: sources) }
            let result: DiscoveryResult
            do {
                result = try discovery.run(start)
            } catch let error as TimeTrackError where error.code == .refusedAddress && !settings.allowPrivate {
                progress.finish()
                throw TimeTrackError(
                    .refusedAddress, "discover: \(error.message)",
                    fix: "if the site really is on your network, run discover \(start.absoluteString) --allow-private", context: error.context)
            }
            progress.finish()
            let written = write ? try writeProposals(result.proposals, enabled: enable, session: session) : [:]
            if session.output.json {
                session.output.printJSON(discoveryJSON(result, written: written))
            } else {
                printDiscovery(result, written: written, session: session)
            }
            return result.proposals.isEmpty ? 1 : 0
        }
    }

    /// The start address: an http(s) URL, `https://` added to a bare host; a calendar's
    /// `webcal://` address is its `https://` one.
    static func discoverStart(_ word: String) throws -> URL {
        var text = word.contains("://") ? word : "https://" + word
        if text.lowercased().hasPrefix("webcal://") { text = "https://" + text.dropFirst("webcal://".count) }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw TimeTrackError(.usage, "discover: '\(word)' is not a web address", fix: "e.g. discover https://www.district.example.org/")
        }
        return url
    }

    /// Writes each proposal as `ID.json` (the next free id when one exists); the paths by id.
    static func writeProposals(_ proposals: [Proposal], enabled: Bool, session: Session) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: session.importsPath, withIntermediateDirectories: true)
        var written: [String: String] = [:]
        for proposal in proposals where proposal.confidence > .low {
            var id = proposal.id
            var number = 2
            while FileManager.default.fileExists(atPath: (session.importsPath as NSString).appendingPathComponent("\(id).json")) {
                id = "\(proposal.id)-\(number)"
                number += 1
            }
            var object = proposal.definition
            object["id"] = .string(id)
            object["name"] = .string(id)
            object["enabled"] = .bool(enabled)
            object["description"] = .string("proposed by discover (\(proposal.how)): \(proposal.why)")
            let path = (session.importsPath as NSString).appendingPathComponent("\(id).json")
            _ = try SourceDefinition.parse(object, file: path)
            try AtomicFile.write(Data(((try? JSONCoding.prettyString(JSONValue.object(object))) ?? "{}").utf8), to: path)
            written[proposal.id] = path
        }
        return written
    }

    static func printDiscovery(_ result: DiscoveryResult, written: [String: String], session: Session) {
        let out = session.output
        // Recognizer files are a district's data: printed through the one cleaning step.
        for platform in result.platforms { out.line(SafeText.visible("platform: \(platform.platform) (" + platform.why.joined(separator: "; ") + ")")) }
        if result.platforms.isEmpty {
            let inferred = result.proposals.filter { $0.origin == .inferred }.count
            out.line("platform: none recognized" + (inferred > 0 ? "; \(inferred) source\(inferred == 1 ? "" : "s") inferred from what the pages hold" : ""))
        }
        out.line(
            "\(result.pagesRead) pages read, \(result.proposals.count) sources found" + (result.interrupted ? " (stopped early: what was found so far)" : ""))
        for (index, proposal) in result.proposals.enumerated() {
            out.line()
            let count = proposal.sample.map { "\($0.count) items, \($0.problems.count) problems" } ?? "not read"
            let confidence = proposal.confidence.rawValue
            out.line("\(index + 1). \(proposal.id)  \(proposal.kind.rawValue) · \(proposal.importer) · \(count) · confidence \(confidence)")
            out.line("   " + SafeText.visible(proposal.url))
            out.line("   found by: \(proposal.how); \(SafeText.visible(proposal.why))")
            for same in proposal.sameContent {
                out.line("   the same items as \(same.id) (\(SafeText.visible(same.url))): proposed once, not written")
            }
            for item in proposal.sample?.items ?? [] {
                let zone = TimeZone(identifier: proposal.definition["timeZone"]?.stringValue ?? "") ?? .current
                out.line("   · " + SafeText.visible(TextNormalizer.truncate(item.content.title, to: 60)) + "  │ " + when(item.content, zone: zone))
            }
            if let problem = proposal.sample?.problems.first { out.note("   " + problem.description) }
            if let path = written[proposal.id] { out.line("   written: \(path)") }
        }
        for note in result.notes.prefix(10) { out.note("note: " + note) }
        if result.proposals.isEmpty && !result.interrupted {
            // Nothing: what was tried, and how to read the address by hand.
            out.line(
                "nothing proposed: no feed or calendar the pages declare, no platform's known pages, no dated listing, document list or"
                    + " JSON list found in \(result.pagesRead) page(s)")
            out.line(
                "read it by hand: `try URL` (a page: choose the item and fields), or a definition with the feed, ical or json importer for a"
                    + " feed, a calendar or a JSON answer (docs/importers/README.md)")
        }
        if written.isEmpty && !result.proposals.isEmpty {
            out.line()
            out.line("save them with --write (disabled until `sources enable ID`), or open one with `try URL --suggest`")
        } else if !written.isEmpty {
            out.line()
            out.line("\(written.count) definitions written; `import ID` reads one now (its items wait for review)")
        }
    }

    static func discoveryJSON(_ result: DiscoveryResult, written: [String: String]) -> JSONValue {
        .object([
            "pagesRead": .number(Double(result.pagesRead)), "interrupted": .bool(result.interrupted),
            "platforms": .array(result.platforms.map { .object(["platform": .string($0.platform), "why": .array($0.why.map(JSONValue.string))]) }),
            "proposals": .array(
                result.proposals.map { proposal in
                    let zone = TimeZone(identifier: proposal.definition["timeZone"]?.stringValue ?? "") ?? .current
                    return .object([
                        "id": .string(proposal.id), "kind": .string(proposal.kind.rawValue), "importer": .string(proposal.importer.rawValue),
                        "url": .string(proposal.url),
                        "how": .string(proposal.how), "why": .string(proposal.why), "confidence": .string(proposal.confidence.rawValue),
                        "definition": .object(proposal.definition), "written": written[proposal.id].map(JSONValue.string) ?? .null,
                        "items": .number(Double(proposal.sample?.count ?? 0)),
                        "sameContent": .array(proposal.sameContent.map { .object(["id": .string($0.id), "url": .string($0.url)]) }),
                        "sample": .array((proposal.sample?.items ?? []).map { itemJSON($0, zone: zone) }),
                        "problems": .array((proposal.sample?.problems ?? []).map { (try? JSONCoding.value($0)) ?? .null }),
                    ])
                }),
            "notes": .array(result.notes.map(JSONValue.string)),
        ])
    }
}
