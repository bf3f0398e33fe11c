import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// The audit log is append-only and chained: tampering with raw SQL (as with sqlite3) is refused
/// by triggers, and once they are dropped, `verifyAudit` names the first entry that does not hold.
@Suite struct AuditChainTests {
    /// A store with five audit entries (1 operator-add, then submit/approve pairs), and a raw
    /// SQLite connection to it that knows nothing of the app.
    struct Fixture {
        let dir: TemporaryDirectory
        let path: String
        init() throws {
            dir = try TemporaryDirectory("audit")
            path = dir.path("s.sqlite")
            let store = try SQLiteStore(path: path)
            _ = try store.claimFirstAdmin("ana", login: nil)
            for title in ["One", "Two"] {
                let item = try Lifecycle(store).submit(Samples.post(title), school: "lincoln", by: "ana", note: nil)
                _ = try Lifecycle(store).approve(item.id, by: "ana")
            }
            store.close()
        }
        func raw(_ sql: String) throws { let db = try Database(path: path, create: false); defer { db.close() }; try db.execute(sql) }
        func verify() throws -> AuditVerification {
            let store = try SQLiteStore(path: path, create: false); defer { store.close() }; return try store.verifyAudit()
        }
    }

    /// The hashed text is documented (store-schema.md): a change to it would break every chain.
    @Test func theCanonicalTextOfAnEntry() {
        let fields = AuditChain.Fields(
            id: 7, at: "2026-09-01T12:00:00Z", operatorName: "sam (by ana)", action: "reject", itemSeq: 3, itemID: "p3", reason: "say \"no\"\n\\ok",
            detail: nil,
            batch: nil)
        let text =
            #"{"action":"reject","at":"2026-09-01T12:00:00Z","batch":null,"detail":null,"id":7,"item_id":"p3","item_seq":3,"operator":"sam (by"#
            + #" ana)","prev":"abc","reason":"say \"no\"\u000a\\ok"}"#
        #expect(AuditChain.hash(fields, previous: "abc") == SHA256.hex(text))
    }

    @Test func aStoresChainVerifies() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let result = try f.verify()
        #expect(result.holds)
        #expect(result.entries == 5)
    }

    @Test(arguments: ["UPDATE audit SET operator = 'mallory' WHERE id = 3", "DELETE FROM audit WHERE id = 2", "DELETE FROM audit"])
    func triggersRefuseChangesAndDeletions(_ sql: String) throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect { try f.raw(sql) } throws: { error in "\(error)".contains("the audit log is append-only") }
        #expect(try f.verify().holds)
    }

    static let dropTriggers = "DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; "

    @Test(arguments: [
        (dropTriggers + "UPDATE audit SET operator = 'mallory' WHERE id = 3", 3, "was changed after it was written"),
        (dropTriggers + "UPDATE audit SET reason = 'looked fine' WHERE id = 5", 5, "was changed after it was written"),
        (dropTriggers + "DELETE FROM audit WHERE id = 2", 3, "does not follow entry 1: entries before it were deleted or reordered"),
        (dropTriggers + "DELETE FROM audit WHERE id = 1", 2, "does not follow the start of the log"),
        // Reordering: entries 2 and 3 swap places (ids), with their hashes.
        (
            dropTriggers + "UPDATE audit SET id = -2 WHERE id = 2; UPDATE audit SET id = 2 WHERE id = 3; UPDATE audit SET id = 3 WHERE id = -2", 2,
            "does not follow entry 1"
        ),
    ])
    func tamperingIsNamedByTheFirstEntryThatDoesNotHold(_ sql: String, _ entry: Int, _ problem: String) throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        try f.raw(sql)
        let result = try f.verify()
        #expect(result.brokenEntry == Int64(entry), "\(result)")
        #expect(result.problem?.contains("entry \(entry) (") == true && result.problem?.contains(problem) == true, "\(result.problem ?? "")")
    }

    @Test func aStoreMadeBeforeTheChainIsChainedWhenUpgraded() throws {
        let dir = try TemporaryDirectory("audit")
        defer { dir.remove() }
        let path = dir.path("old.sqlite")
        try SQLiteStore.createOlderStore(path: path, version: 6)
        let old = try Database(path: path, create: false)
        try old.execute(
            """
            INSERT INTO operators (name, role, created_at) VALUES ('ana', 'admin', '2026-01-01T00:00:00Z');
            INSERT INTO audit (at, operator, action, detail) VALUES ('2026-01-01T00:00:00Z', 'ana', 'operator-add', 'ana as admin');
            INSERT INTO audit (at, operator, action, detail) VALUES ('2026-01-02T00:00:00Z', 'ana', 'operator-add', 'ben as staff');
            """)
        old.close()
        let store = try SQLiteStore(path: path, create: false)
        defer { store.close() }
        #expect(store.schemaVersion == Schema.currentVersion)
        _ = try store.addOperator("cy", role: .staff, login: nil, schools: [], by: "ana")
        let result = try store.verifyAudit()
        #expect(result.holds && result.entries == 3, "\(result)")
        #expect(throws: (any Error).self) { try store.db.execute("DELETE FROM audit WHERE id = 1") }
    }
}
