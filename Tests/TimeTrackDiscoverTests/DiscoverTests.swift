import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackDiscover
import TimeTrackImport
import TimeTrackKit

/// `discover` on fixture sites in each platform's public markup, served on 127.0.0.1: it finds
/// every source, recognizes the platform, and its proposals, unedited, read the items right.
@Suite struct DiscoverTests {
    static let zone = TimeZone(identifier: "America/Chicago") ?? .current
    static let now = ISO8601DateFormatter().date(from: "2026-10-01T12:00:00Z") ?? Date()

    /// An imports folder whose settings ask for no pause between requests (the server is ours).
    static func imports() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("discover")
        try dir.write("_settings.json", #"{"requestDelay": 0}"#)
        return dir
    }

    static func discover(_ start: String, imports: TemporaryDirectory, maxPages: Int = 20) throws -> DiscoveryResult {
        var settings = Discovery.Settings(zone: zone, importsPath: imports.url.path, version: "test")
        settings.allowPrivate = true
        settings.now = now
        settings.maxPages = maxPages
        guard let url = URL(string: start) else { throw TimeTrackError(.usage, "bad start \(start)") }
        return try Discovery(settings: settings).run(url)
    }

    /// What a proposal's definition reads now, through the real pipeline.
    static func extract(_ proposal: Proposal, imports: TemporaryDirectory) throws -> ImportResult {
        let source = try SourceDefinition.parse(proposal.definition, file: imports.path("\(proposal.id).json"))
        var pipeline = ImportPipeline(importsRoot: imports.url)
        pipeline.http = try WebClient.forSource(source, cache: nil, version: "test")
        pipeline.now = { now }
        return try pipeline.extract(source)
    }

    /// Items of `keys` read with every field right; the misses described.
    static func score(_ result: ImportResult, keys: [KeyItem]) -> (right: Int, misses: [String]) {
        var right = 0
        var misses: [String] = []
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for key in keys {
            guard let item = result.items.first(where: { $0.content.title == key.title }) else {
                misses.append("missing '\(key.title)'")
                continue
            }
            var wrong: [String] = []
            switch item.content {
            case .announcement(let a):
                formatter.dateFormat = "yyyy-MM-dd"
                if a.publishedAt.map(formatter.string) != key.when { wrong.append("date \(a.publishedAt.map(formatter.string) ?? "-")") }
                if let link = key.link, a.link != link { wrong.append("link \(a.link ?? "-")") }
            case .event(let e):
                formatter.dateFormat = key.when.contains("T") ? "yyyy-MM-dd'T'HH:mm" : "yyyy-MM-dd"
                if formatter.string(from: e.start) != key.when || e.allDay == key.when.contains("T") {
                    wrong.append("start \(formatter.string(from: e.start)) allDay \(e.allDay)")
                }
                if let link = key.link, e.link != link { wrong.append("link \(e.link ?? "-")") }
                if let location = key.location, e.locationName != location { wrong.append("location \(e.locationName ?? "-")") }
            case .schoolInfo(let info):
                if let link = key.link, info.url != link { wrong.append("url \(info.url)") }
            default:
                wrong.append("kind")
            }
            if wrong.isEmpty { right += 1 } else { misses.append("'\(key.title)': " + wrong.joined(separator: ", ")) }
        }
        return (right, misses)
    }

    /// Issue 45: one proposal per content.
    ///
    /// A news page and the feed that carries the same
    /// items, an events page and the calendar file that feeds it, are proposed once, as the
    /// source whose items carry more, the other named beside it; every proposal has a schedule.
    @Test func aFeedAndThePageItMirrorsAreProposedOnce() throws {
        for name in ["Weebly", "Blackboard Web Community Manager"] {
            let server = try TestHTTPServer()
            defer { server.stop() }
            let site = try #require(Self.sites(server.base).first { $0.name == name })
            site.serve(on: server)
            let imports = try Self.imports()
            defer { imports.remove() }
            let result = try Self.discover(server.base + "/", imports: imports)
            let folded = result.proposals.filter { !$0.sameContent.isEmpty }
            #expect(folded.count == 1, "\(name): \(result.proposals.map { ($0.url, $0.sameContent.map(\.url)) })")
            let urls = Set(result.proposals.map(\.url))
            for same in folded.flatMap(\.sameContent) { #expect(!urls.contains(same.url), "\(name): \(same.url) proposed twice") }
            #expect(result.proposals.allSatisfy { $0.definition["schedule"]?.stringValue != nil }, "\(name): a proposal with no schedule")
        }
    }

    static func sites(_ base: String) -> [FixtureSite] { PlatformSites.all(base) + MorePlatformSites.all(base) + [UnknownPlatformSite.site(base)] }

    @Test func everyPlatformSiteIsRecognizedAndItsSourcesReadRight() throws {
        var right = 0
        var total = 0
        for index in Self.sites("").indices {
            let server = try TestHTTPServer()
            defer { server.stop() }
            let site = Self.sites(server.base)[index]
            site.serve(on: server)
            let imports = try Self.imports()
            defer { imports.remove() }
            let result = try Self.discover(server.base + "/", imports: imports)
            if site.name == UnknownPlatformSite.name {
                #expect(result.platforms.isEmpty, "recognized \(result.platforms.map(\.platform)) on a site of no known platform")
            } else {
                #expect(result.platforms.map(\.platform).contains(site.name), "\(site.name): recognized \(result.platforms.map(\.platform))")
            }
            for (path, keys) in site.keys.sorted(by: { $0.key < $1.key }) {
                total += keys.count
                // A page whose items a feed or calendar carries too is proposed once, as that
                // source, and named beside it (issue 45: enabling both made every item twice).
                let url = server.base + path
                guard let proposal = result.proposals.first(where: { $0.url == url || $0.sameContent.contains { $0.url == url } }) else {
                    Issue.record("\(site.name): no source proposed for \(path); proposed: \(result.proposals.map(\.url))")
                    continue
                }
                let extracted = try Self.extract(proposal, imports: imports)
                // Folded into the richer source: the same items (each title, on its date), read
                // with that source's fields, not this path's.
                let folded = proposal.url != url
                let scored = Self.score(extracted, keys: folded ? keys.map { KeyItem(title: $0.title, when: $0.when) } : keys)
                right += scored.right
                #expect(scored.misses.isEmpty, "\(site.name) \(path) (\(proposal.how)): \(scored.misses) \(extracted.problems)")
            }
        }
        #expect(total >= 100, "answer keys: \(total) items")
        let pages = Self.sites("").map { $0.pages.count + $0.other.count }.reduce(0, +)
        #expect(pages >= 25, "fixture pages: \(pages)")
        #expect(Double(right) >= 0.9 * Double(total), "\(right) of \(total) items right")
        print("discover on platform sites: \(right) of \(total) items right")
    }
}

/// The recognizers that come with the tool: each reads, and each page template is a definition
/// its importer accepts (a mistake in one is found here, not on a district's first run).
@Suite struct BundledRecognizerTests {
    @Test func everyTemplateIsADefinitionItsImporterAccepts() throws {
        let dir = try TemporaryDirectory("recognizers")
        defer { dir.remove() }
        let (recognizers, errors) = Recognizer.load(folder: nil)
        #expect(errors.isEmpty, "\(errors)")
        #expect(recognizers.count >= 10, "\(recognizers.map(\.platform))")
        for recognizer in recognizers {
            for template in recognizer.pages {
                var object = template.definition
                let url = (object["url"]?.stringValue ?? "{page}").replacingOccurrences(of: "{page}", with: "https://d.example/news").replacingOccurrences(
                    of: "{origin}", with: "https://d.example")
                object["url"] = .string(url)
                object["id"] = .string("t")
                object["kind"] = .string(template.kind.rawValue)
                object["timeZone"] = .string("UTC")
                do {
                    let source = try SourceDefinition.parse(object, file: dir.path("t.json"))
                    _ = try ImporterRegistry.make(for: source)
                } catch {
                    Issue.record("\(recognizer.platform) \(template.name): \(error)")
                }
            }
        }
    }

    @Test func aDistrictsOwnRecognizerIsReadAndABrokenOneReported() throws {
        let dir = try TemporaryDirectory("own-recognizers")
        defer { dir.remove() }
        try dir.write("catapult.json", #"{"platform": "CatapultK12", "fingerprints": [{"markup": "catapultcms"}], "pages": []}"#)
        try dir.write("broken.json", #"{"platform": "Broken", "fingerprints": [{"selector": "div["}]}"#)
        // Counts a district typed wildly are clamped, never a trap (Int of 1e300 traps).
        try dir.write(
            "huge.json",
            #"{"platform": "Huge", "minimum": 1e300, "fingerprints": [{"markup": "x"}], "pages": [{"name": "n", "kind": "announcement", "match":"#
                + #" "li", "minimumItems": -5e300, "definition": {"importer": "html"}}]}"#
        )
        let (recognizers, errors) = Recognizer.load(folder: dir.url.path)
        #expect(recognizers.contains { $0.platform == "CatapultK12" } && recognizers.contains { $0.platform == "Huge" })
        #expect(errors.count == 1 && errors[0].description.contains("broken.json") && errors[0].description.contains("fingerprints[0].selector"), "\(errors)")
    }
}
