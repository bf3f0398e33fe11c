import Foundation
import TestSupport
import Testing

/// Issue 45, acceptance 1: discover on every real capture, zero-touch.
///
/// Every real capture of `../shared/realworld/platforms`, served on
/// 127.0.0.1 at the path its platform uses, read zero-touch: `discover --write --enable`, then
/// `import --all`, and the items scored against `Tests/Fixtures/Discover/realworld-expectations.json`
/// (written from the corpus README). The figures go to `.build/discover-corpus.txt`, which
/// `.ci/run` prints.
@Suite struct DiscoverCorpusTests {
    static let pages = ConsoleFixture.root.deletingLastPathComponent().appendingPathComponent("shared/realworld/platforms/pages")
    static let expectations = ConsoleFixture.root.appendingPathComponent("Tests/Fixtures/Discover/realworld-expectations.json")

    @Test func everyCaptureIsReadZeroTouch() throws {
        guard FileManager.default.fileExists(atPath: Self.pages.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld/platforms)")
            return
        }
        let cases = try CorpusCase.load(Self.expectations)
        let listed = try FileManager.default.subpathsOfDirectory(atPath: Self.pages.path).filter { $0.contains(".") }
        #expect(Set(listed) == Set(cases.map(\.file)), "every capture has its expectation: \(Set(listed).symmetricDifference(cases.map(\.file)))")
        let collected = Collected()
        // Two at a time: each capture is its own server, store and binary runs.
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            do {
                let outcome = try Self.run(cases[index])
                collected.add(outcome)
            } catch {
                collected.fail("\(cases[index].file): \(error)")
            }
        }
        let (outcomes, failures) = collected.values
        #expect(failures.isEmpty, "\(failures)")
        let report = CorpusReport(outcomes.sorted { $0.file < $1.file })
        // `.ci/run` prints the file after the tests (a failing expectation below prints it too).
        try? Data((report.text + "\n").utf8).write(to: ConsoleFixture.root.appendingPathComponent(".build/discover-corpus.txt"))
        #expect(report.share(report.right, of: report.expected) >= 0.90, "\(report.text)")
        for family in report.families where family.expected > 0 {
            #expect(report.share(family.right, of: family.expected) >= 0.80, "\(family.name): \(report.text)")
        }
        #expect(Double(report.junk) <= 0.05 * Double(max(1, report.read)), "\(report.text)")
        for outcome in outcomes {
            // Nothing read where the page has nothing (an empty alert module, a content page).
            if outcome.expected == 0 { #expect(outcome.read == 0, "\(outcome.file): \(outcome.titles)") }
            // Every alert mechanism of the corpus is proposed as an alert source, empty or not.
            if outcome.kind == "alert" { #expect(outcome.proposedKinds.contains("alert"), "\(outcome.file): \(outcome.proposedKinds)") }
        }
    }

    /// The outcomes the concurrent runs add, under a lock.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [CorpusOutcome] = []
        private var failures: [String] = []
        func add(_ outcome: CorpusOutcome) { lock.withLock { outcomes.append(outcome) } }
        func fail(_ failure: String) { lock.withLock { failures.append(failure) } }
        var values: ([CorpusOutcome], [String]) { lock.withLock { (outcomes, failures) } }
    }

    /// One capture: served, discovered, written, imported, scored.
    static func run(_ corpusCase: CorpusCase) throws -> CorpusOutcome {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/robots.txt", .init(status: 404))
        let body = try Data(contentsOf: pages.appendingPathComponent(corpusCase.file))
        server.route(corpusCase.path, .init(status: 200, headers: ["Content-Type": corpusCase.type], body: body))
        for (path, file) in corpusCase.routes {
            let answer = try file.isEmpty ? Data() : Data(contentsOf: pages.appendingPathComponent(file))
            server.route(path, .init(status: 200, headers: ["Content-Type": "text/html"], body: answer))
        }
        let dir = try TemporaryDirectory("corpus")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
        let base = ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports")]
        let found = try Binaries.run(
            "timetrack-admin",
            base + ["--json", "discover", server.base + corpusCase.path, "--allow-private", "--write", "--enable", "--zone", corpusCase.zone])
        let object = (try? JSONSerialization.jsonObject(with: Data(found.stdout.utf8))) as? [String: Any] ?? [:]
        let proposals = object["proposals"] as? [[String: Any]] ?? []
        let written = proposals.contains { $0["written"] is String }
        var rows: [CorpusItem] = []
        if written {
            _ = try Binaries.run("timetrack-admin", base + ["import", "--all", "--quiet"])
            rows = try items(dir.path("s.sqlite"), zone: corpusCase.zone)
        }
        return corpusCase.score(rows, proposedKinds: Set(proposals.compactMap { $0["kind"] as? String }))
    }

    /// The store's items: kind, title and when (the start, the posting or the date) in `zone`.
    static func items(_ store: String, zone: String) throws -> [CorpusItem] {
        let query = """
            SELECT i.kind || char(31) || replace(replace(i.title, char(10), ' '), char(13), ' ') || char(31) ||
              coalesce(json_extract(r.content, '$.start'), json_extract(r.content, '$.publishedAt'), json_extract(r.content, '$.date'), i.sort_at, '')
            FROM items i JOIN revisions r ON r.item_seq = i.seq AND r.number = coalesce(i.pending_revision, i.live_revision)
            """
        let text = try Binaries.sql(store, query)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { return nil }
            return CorpusItem(
                kind: parts[0], title: parts[1].split(whereSeparator: \.isWhitespace).joined(separator: " "), when: CorpusItem.local(parts[2], zone))
        }
    }
}
