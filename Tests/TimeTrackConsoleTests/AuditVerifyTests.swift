import Foundation
import TestSupport
import Testing

/// `audit verify` and `status` through the binary, on a store tampered with by the sqlite3 shell.
@Suite struct AuditVerifyTests {
    static var sqlite3: String? {
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func anEntryEditedWithSqlite3IsNamedByAuditVerifyAndStatus() throws {
        guard let sqlite3 = Self.sqlite3 else {
            try Skip.because("no sqlite3 shell (apt-get install sqlite3)")
            return
        }
        let fixture = try ConsoleFixture()
        defer { fixture.dir.remove() }
        let pending = try fixture.ids("announcements")
        #expect(try fixture.run(["--as", "ana", "approve", pending[0]]).status == 0)
        let clean = try fixture.run(["audit", "verify"])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("the audit log's chain verifies"))
        #expect(try fixture.run(["status"]).stdout.contains("the chain verifies"))

        // The triggers refuse the edit...
        let refused = try Binaries.runPath(sqlite3, [fixture.store, "UPDATE audit SET operator = 'mallory' WHERE action = 'approve'"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("append-only"))
        // ...until someone drops them; then the edited entry is named.
        let id = try Binaries.runPath(sqlite3, [fixture.store, "SELECT id FROM audit WHERE action = 'approve'"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let tampered = try Binaries.runPath(
            sqlite3, [fixture.store, "DROP TRIGGER audit_no_update; UPDATE audit SET operator = 'mallory' WHERE action = 'approve'"])
        #expect(tampered.status == 0, "\(tampered.stderr)")
        let broken = try fixture.run(["audit", "verify"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("entry \(id) (approve \(pending[0]) by mallory"), "\(broken.stderr)")
        #expect(broken.stderr.contains("was changed after it was written"))
        let status = try fixture.run(["--json", "status"])
        let audit = (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["audit"] as? [String: Any]
        #expect(audit?["verifies"] as? Bool == false)
    }
}
