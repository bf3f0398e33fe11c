import Foundation
import TestSupport
import Testing

/// What an import of the sample district stores, item by item: every item's id, every revision's
/// content hash and every audit entry's action, against a recorded copy.
///
/// Work on how imports run (speed, batching, memos) must leave this the same; a change of what is
/// stored shows up
/// here and is recorded on purpose (`TIMETRACK_RECORD=1 swift test --filter StoredContentTests`).
@Suite struct StoredContentTests {
    static let recorded = ConsoleFixture.root.appendingPathComponent("Tests/Fixtures/Stored/sample-district.txt")

    @Test func theSampleDistrictIsStoredAsRecorded() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        // A second import changes nothing.
        let again = try fixture.run(["--as", "ana", "import", "--all"])
        #expect(again.status == 0, "\(again.stderr)")
        func query(_ sql: String) throws -> String {
            let result = try Binaries.runPath("/usr/bin/sqlite3", [fixture.store, sql])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let stored =
            "# items and revisions: source|key|id|kind|status|revision|state|content hash\n"
            + (try query(
                "SELECT i.source_id, i.source_key, i.id, i.kind, i.status, r.number, r.state, r.content_hash FROM items i JOIN revisions r ON"
                    + " r.item_seq = i.seq ORDER BY i.source_id, i.source_key, r.number"
            ))
            + "# audit: action|item|detail\n"
            + (try query("SELECT action, ifnull(item_id, ''), ifnull(detail, '') FROM audit WHERE action NOT LIKE 'operator%' ORDER BY id"))
        if ProcessInfo.processInfo.environment["TIMETRACK_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: Self.recorded.deletingLastPathComponent(), withIntermediateDirectories: true)
            try stored.write(to: Self.recorded, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.recorded, encoding: .utf8)
        let (mine, theirs) = (stored.split(separator: "\n"), expected.split(separator: "\n"))
        #expect(mine.count == theirs.count, "\(mine.count) lines stored, \(theirs.count) recorded")
        for (line, recordedLine) in zip(mine, theirs) where line != recordedLine {
            Issue.record("stored:   \(line)\nrecorded: \(recordedLine)")
            break
        }
    }
}
