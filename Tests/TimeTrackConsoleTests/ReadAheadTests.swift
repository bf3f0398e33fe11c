import Foundation
import TestSupport
import Testing

/// `import --all` in a pipe reads the next sources on other threads while one is applied; what
/// it writes must be exactly what importing the sources one by one writes, and a district's
/// server must still see one request at a time.
@Suite struct ReadAheadTests {
    func sql(_ store: String, _ query: String) throws -> String { try Binaries.sql(store, query) }

    @Test func readingAheadWritesWhatOneByOneWrites() throws {
        // All sources of the sample district at once (a pipe: read-ahead on)…
        let together = try ConsoleFixture()
        defer { together.remove() }
        // …and each source in a process of its own, in the same order.
        let oneByOne = try ConsoleFixture(importing: false)
        defer { oneByOne.remove() }
        let listed = (try together.json(["sources"])) as? [String: Any]
        let sources = (listed?["sources"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(sources.count >= 6)
        for source in sources {
            let result = try oneByOne.run(["--as", "ana", "import", source])
            #expect(result.status == 0, "\(source): \(result.stderr)")
        }
        let items = "SELECT id, kind, source_id, source_key, status, base_hash, title, sort_at, pending_revision FROM items ORDER BY seq"
        let revisions = "SELECT r.item_seq, r.number, r.state, r.content_hash FROM revisions r ORDER BY r.item_seq, r.number"
        let runs = "SELECT source_id, status, found, new, changed, unchanged, missing, problems FROM import_runs ORDER BY id"
        for query in [items, revisions, runs] {
            let expected = try sql(oneByOne.store, query)
            #expect(expected.split(separator: "\n").count >= sources.count)
            #expect(try sql(together.store, query) == expected, "\(query)")
        }
        #expect(try sql(together.store, "SELECT count(*) FROM import_runs WHERE status != 'ok'").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// Counts requests in flight at the server.
    final class InFlight: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 0
        private(set) var most = 0

        func enter() {
            lock.lock()
            current += 1
            most = max(most, current)
            lock.unlock()
        }

        func leave() {
            lock.lock()
            current -= 1
            lock.unlock()
        }

        var peak: Int {
            lock.lock()
            defer { lock.unlock() }
            return most
        }
    }

    @Test func sourcesOnOneHostTakeTurnsWhileReadAhead() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        let inFlight = InFlight()
        setup.server.handle { request in
            inFlight.enter()
            defer { inFlight.leave() }
            // Every page is slow, so overlapping requests would be seen.
            Thread.sleep(forTimeInterval: 0.03)
            if request.path.hasPrefix("/list-") { return .html(UnattendedRunTests.page(4, prefix: String(request.path.dropFirst(6).prefix(1)))) }
            if request.path.hasPrefix("/news/") { return .html("<div class='body'><p>Detail \(request.path)</p></div>") }
            return nil
        }
        for name in ["a", "b", "c", "d"] {
            try setup.dir.write(
                "imports/\(name).json",
                """
                { "id": "\(name)", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/list-\(name).html", "timeZone": "America/Denver",
                  "allowPrivateNetwork": ["127.0.0.1"],
                  "options": { "item": "article", "key": "h2", "fields": { "title": "h2", "link": "a@href" }, "detail": { "link": "link", "fields": {\
                 "body": ".body@html" } } } }
                """)
        }
        let result = try setup.run(["import", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try setup.sql("SELECT count(*) FROM items") == "16")
        #expect(try setup.sql("SELECT count(*) FROM import_runs WHERE status = 'ok'") == "4")
        // 4 listings + 16 detail pages (+ robots.txt), and never two at once.
        #expect(setup.server.requests.filter { $0.path != "/robots.txt" }.count == 20)
        #expect(inFlight.peak == 1)
    }
}
