import Foundation
import TestSupport
import Testing
import TimeTrackStore

/// `store copy` through the binary: a store made by an earlier version (the sample district, a
/// Canvas feed, decisions, a lock, memos) into an empty PostgreSQL database on a real server and
/// back into a new file: every row the same, the audit chain verifying on both sides.
@Suite(.serialized) struct StoreCopyTests {
    static let fixture = ConsoleFixture.root.appendingPathComponent("Tests/Fixtures/Stores/v10-sample.sqlite")

    static func dump(_ path: String) throws -> [String] {
        let queries = [
            "SELECT * FROM items ORDER BY seq", "SELECT * FROM revisions ORDER BY item_seq, number", "SELECT * FROM field_locks ORDER BY item_seq, field",
            "SELECT source_id, url, page_hash, signature, hex(payload) FROM page_memo ORDER BY source_id, url", "SELECT * FROM audit ORDER BY id",
            "SELECT * FROM operators ORDER BY name", "SELECT * FROM import_runs ORDER BY id", "SELECT * FROM courses ORDER BY code",
            "SELECT * FROM source_state ORDER BY source_id", "SELECT * FROM published_announcements ORDER BY id", "SELECT * FROM published_events ORDER BY id",
            "SELECT * FROM published_deadlines ORDER BY id", "SELECT * FROM announcements ORDER BY item_seq", "SELECT * FROM deadlines ORDER BY item_seq",
        ]
        return try queries.map { query in
            let result = try Binaries.runPath("/usr/bin/sqlite3", [path, query])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
    }

    @Test func aStoreGoesToPostgreSQLAndComesBackTheSame() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let server = try PostgresServer()
        defer { server.remove() }
        try PostgresConnection(server.address()).execute("CREATE DATABASE district")
        let dir = try TemporaryDirectory("store-copy")
        defer { dir.remove() }
        let original = dir.path("district.sqlite"), back = dir.path("back.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: original)
        func run(_ words: [String]) throws -> Binaries.Result { try Binaries.run("timetrack-admin", words, currentDirectory: dir.url.path) }
        #expect(try run(["--store", original, "status"]).status == 0)  // migrated to the current version

        let there = try run(["store", "copy", "--from", original, "--to", server.address(database: "district")])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("copied 43 items") && there.stdout.contains("the audit chain verifies there"), "\(there.stdout)")
        let again = try run(["store", "copy", "--from", original, "--to", server.address(database: "district")])
        #expect(again.status != 0 && again.stderr.contains("already holds items"), "\(again.stderr)")

        let home = try run(["--json", "store", "copy", "--from", server.address(database: "district"), "--to", back])
        #expect(home.status == 0, "\(home.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(home.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["auditVerifies"] as? Bool == true && (report["auditEntries"] as? Int ?? 0) > 50, "\(home.stdout)")
        let (before, after) = (try Self.dump(original), try Self.dump(back))
        for (index, (a, b)) in zip(before, after).enumerated() { #expect(a == b, "table \(index) differs after the round trip") }
        #expect(before[1].contains("Lab report 3") && before[2].contains("title"), "the fixture has deadlines and a lock")
        #expect(try run(["--store", back, "audit", "verify"]).status == 0)
        #expect(try run(["store", "copy", "--from", server.address(database: "district"), "--to", back]).stderr.contains("exists"))
    }
}
