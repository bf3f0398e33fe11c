import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackStore

/// Migration 11 on a store made by the version before it (`Tests/Fixtures/Stores/v10-sample.sqlite`:
/// the sample district and a Canvas feed imported, items approved, edited, locked and rejected):
/// every item, revision, lock, memo and audit entry the same after, the app's views the same, the
/// body stored once.
@Suite struct MigrationElevenTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Fixtures/Stores/v10-sample.sqlite")

    /// Whether the sqlite3 tool is there (on CI its absence is a failure: `.ci/run` installs it).
    static func haveSQLite3() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("sqlite3 is missing (.ci/run installs it)") }
            return false
        }
        return true
    }

    static func dump(_ path: String, _ sql: String) throws -> String {
        let result = try Binaries.runPath("/usr/bin/sqlite3", [path, sql])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func aVersionTenStoreMovesWithNothingLost() throws {
        guard Self.haveSQLite3() else { return }
        let dir = try TemporaryDirectory("migration11")
        defer { dir.remove() }
        let path = dir.path("store.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)
        let queries = [
            "SELECT seq, id, kind, status, live_revision, pending_revision, base_hash, missing_runs FROM items ORDER BY seq",
            "SELECT item_seq, number, state, content_hash, content, created_by, ifnull(run_id, ''), ifnull(went_live_at, '') FROM revisions ORDER BY"
                + " item_seq, number",
            "SELECT item_seq, field, locked_by FROM field_locks ORDER BY item_seq, field",
            "SELECT source_id, url, page_hash, signature, hex(payload) FROM page_memo ORDER BY source_id, url",
            "SELECT id, action, ifnull(item_id, ''), ifnull(detail, ''), hash FROM audit ORDER BY id",
            "SELECT id, school, title, summary, body, image_url, link, published_at, priority FROM published_announcements ORDER BY id",
            "SELECT * FROM published_events ORDER BY id", "SELECT * FROM published_school_info ORDER BY id", "SELECT * FROM published_deadlines ORDER BY id",
        ]
        #expect(try Self.dump(path, "PRAGMA user_version").trimmingCharacters(in: .whitespacesAndNewlines) == "10")
        let before = try queries.map { try Self.dump(path, $0) }
        let sizeBefore = try Self.dump(path, "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size")
        #expect(before[5].contains("<p>"), "the fixture has published bodies: \(before[5])")

        let store = try SQLiteStore(path: path, create: false)
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(try store.verifyAudit().brokenEntry == nil)
        store.close()

        // Migration 15 widened the status CHECK in place: the file is sound and takes the new statuses.
        #expect(try Self.dump(path, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        #expect(try Self.dump(path, "SELECT sql FROM sqlite_schema WHERE name = 'items'").contains("'withdrawn'"))

        let after = try queries.map { try Self.dump(path, $0) }
        for (index, query) in queries.enumerated() {
            #expect(after[index] == before[index], "changed by the migration: \(query)")
        }
        // Migration 12: memo rows have no file stamp yet (the next run reads their pages once).
        #expect(try Self.dump(path, "SELECT count(*), count(stamp) FROM page_memo").hasSuffix("|0\n"))
        #expect(try Self.dump(path, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        let schema = try Self.dump(path, "SELECT sql FROM sqlite_master WHERE name IN ('revisions', 'page_memo', 'announcements')")
        #expect(!schema.contains("WITHOUT ROWID") && !schema.contains("body TEXT"), "\(schema)")
        try _ = Self.dump(path, "VACUUM")
        let sizeAfter = try Self.dump(path, "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size")
        let (b, a) = (Int(sizeBefore.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, Int(sizeAfter.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
        // On a store this small the rowid tables' extra index outweighs the overflow pages saved;
        // the benchmark measures the difference at scale (docs/performance.md).
        print("MigrationElevenTests: \(b) bytes used before, \(a) after VACUUM")
    }

    /// Migration 13: item entries written to `page_memo` (under `item:` URLs) by versions 11 and
    /// 12 move to `item_memo`, by their item's number; an entry whose item is gone is dropped;
    /// page entries stay.
    @Test func itemMemoEntriesMoveToTheirTable() throws {
        guard Self.haveSQLite3() else { return }
        let dir = try TemporaryDirectory("migration13")
        defer { dir.remove() }
        let path = dir.path("store.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)
        // Item entries as versions 11 and 12 wrote them, for two stored items and a gone one.
        _ = try Self.dump(
            path,
            """
            INSERT INTO page_memo (source_id, url, page_hash, signature, payload)
                SELECT source_id, 'item:' || source_key, 'digest-' || seq, 'sig', CAST('hash-' || seq || ' dated' AS BLOB)
                FROM items WHERE source_id = 'hillcrest-absences' AND source_key IN ('absence-311', 'absence-312');
            INSERT INTO page_memo (source_id, url, page_hash, signature, payload) VALUES ('hillcrest-absences', 'item:absence-999', 'd', 'sig',\
             CAST('h' AS BLOB));
            """)
        let pagesBefore = try Self.dump(
            path, "SELECT source_id, url, page_hash, signature, hex(payload) FROM page_memo WHERE url NOT LIKE 'item:%' ORDER BY source_id, url")
        let expected = try Self.dump(
            path,
            "SELECT seq, 'sig', 'digest-' || seq, 'hash-' || seq || ' dated' FROM items WHERE source_id = 'hillcrest-absences' AND source_key IN"
                + " ('absence-311', 'absence-312') ORDER BY seq"
        )
        #expect(expected.split(separator: "\n").count == 2, "\(expected)")

        let store = try SQLiteStore(path: path, create: false)
        #expect(store.schemaVersion == Schema.currentVersion)
        let remembered = store.rememberedItems(sourceID: "hillcrest-absences", signature: "sig")
        #expect(remembered.keys.sorted() == ["absence-311", "absence-312"], "\(remembered.keys)")
        #expect(remembered["absence-311"].map { String(decoding: $0.payload, as: UTF8.self).hasSuffix(" dated") } == true)
        store.close()

        #expect(try Self.dump(path, "SELECT item_seq, signature, digest, payload FROM item_memo ORDER BY item_seq") == expected)
        #expect(try Self.dump(path, "SELECT count(*) FROM page_memo WHERE url LIKE 'item:%'") == "0\n")
        #expect(try Self.dump(path, "SELECT source_id, url, page_hash, signature, hex(payload) FROM page_memo ORDER BY source_id, url") == pagesBefore)
        #expect(try Self.dump(path, "PRAGMA foreign_key_check").isEmpty)
    }
}
