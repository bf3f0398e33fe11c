import Foundation
import TestSupport
import Testing

/// `audit anchor` and `audit verify --anchor` through the binary, against each way someone who
/// can write the store file could rewrite its log (with the sqlite3 shell and, to chain a
/// rewritten log again, Python computing the chain's hashes as the tool does).
@Suite struct AuditAnchorTests {
    /// A store with decisions in its log, anchored with a key made in the test's folder.
    struct Anchored {
        let fixture: ConsoleFixture
        let sqlite3: String
        var anchors: String { fixture.dir.path("anchors.log") }
        var environment: [String: String] { ["TIMETRACK_ANCHOR_KEY": fixture.dir.path("keys/anchor.key")] }

        init() throws {
            fixture = try ConsoleFixture()
            sqlite3 = try #require(AuditVerifyTests.sqlite3, "the sqlite3 shell is missing (apt-get install sqlite3)")
            for id in try fixture.ids("announcements").prefix(3) { #expect(try fixture.run(["--as", "ana", "approve", id]).status == 0) }
            let anchored = try fixture.run(["--as", "ana", "audit", "anchor", "--out", anchors], environment: environment)
            #expect(anchored.status == 0, "\(anchored.stderr)")
            #expect(anchored.stderr.contains("made a new anchor key"), "\(anchored.stderr)")
        }

        func sql(_ statements: String) throws {
            let result = try Binaries.runPath(sqlite3, [fixture.store, statements])
            #expect(result.status == 0, "\(result.stderr)")
        }

        func verify(anchored: Bool = true) throws -> Binaries.Result {
            try fixture.run(["--as", "ana", "audit", "verify"] + (anchored ? ["--anchor", anchors] : []), environment: environment)
        }

        /// Computes every entry's hash again in id order, as a forger who read the code would.
        func rechain() throws {
            let script = """
                import hashlib, json, sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                prev = ""
                rows = db.execute("SELECT id, at, operator, action, item_seq, item_id, reason, detail, batch FROM audit ORDER BY id").fetchall()
                for (id, at, op, action, seq, item, reason, detail, batch) in rows:
                    entry = {"action": action, "at": at, "batch": batch, "detail": detail, "id": id, "item_id": item, "item_seq": seq,
                             "operator": op, "prev": prev, "reason": reason}
                    digest = hashlib.sha256(json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
                    db.execute("UPDATE audit SET prev_hash = ?, hash = ? WHERE id = ?", (prev, digest, id))
                    prev = digest
                db.commit()
                """
            let result = try Binaries.runPath("/usr/bin/python3", ["-c", script, fixture.store])
            #expect(result.status == 0, "\(result.stderr)")
        }

        func remove() { fixture.remove() }
    }

    @Test func anUntouchedLogHoldsItsAnchor() throws {
        let store = try Anchored()
        defer { store.remove() }
        let verified = try store.verify()
        #expect(verified.status == 0 && verified.stdout.contains("holds what the anchor"), "\(verified.stdout)\(verified.stderr)")
    }

    @Test func anEditedEntryIsFound() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_update; UPDATE audit SET operator = 'mallory' WHERE id = 3")
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("was changed after it was written"), "\(verified.stderr)")
    }

    @Test func aDeletedEntryIsFound() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE id = 3")
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("were deleted or reordered"), "\(verified.stderr)")
    }

    @Test func reorderedEntriesAreFound() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql(
            "DROP TRIGGER audit_no_update; UPDATE audit SET id = -id WHERE id IN (3, 4); UPDATE audit SET id = CASE id WHEN -3 THEN 4 ELSE 3 END"
                + " WHERE id IN (-3, -4)"
        )
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("tampered"), "\(verified.stderr)")
    }

    /// Chained again after an edit, the log verifies on its own; the anchor finds it.
    @Test func aLogChainedAgainIsFoundByTheAnchor() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; UPDATE audit SET operator = 'mallory' WHERE id = 2")
        try store.rechain()
        try store.sql(
            """
            CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never changed'); END;
            CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never deleted'); END;
            """)
        #expect(try store.verify(anchored: false).status == 0, "the forger's chain holds without an anchor")
        let verified = try store.verify()
        #expect(verified.status == 1, "\(verified.stdout)")
        #expect(verified.stderr.contains("rewritten and chained again"), "\(verified.stderr)")
    }

    @Test func aLogCutShortIsFoundByTheAnchor() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE id > (SELECT max(id) - 3 FROM audit)")
        try store.sql(
            "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never deleted'); END;")
        // Without an anchor the chain holds; only the decisions cut with it may show, as
        // statuses no entry made.
        let unanchored = try store.verify(anchored: false)
        #expect(unanchored.status == 0 || unanchored.stderr.contains("no decision in the log made"), "\(unanchored.stderr)")
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("cut short"), "\(verified.stderr)")
    }

    @Test func anEmptiedLogIsFoundByTheAnchor() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_delete; DELETE FROM audit")
        try store.sql(
            "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never deleted'); END;")
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("it was emptied"), "\(verified.stderr)")
    }

    /// Dropped guards fail `audit verify` and `status`; `store repair` puts them back.
    @Test func droppedGuardsAreReportedAndRestored() throws {
        let store = try Anchored()
        defer { store.remove() }
        try store.sql("DROP TRIGGER audit_no_delete; DROP TRIGGER audit_no_update; CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT 1; END;")
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("guards are missing: audit_no_delete, audit_no_update"), "\(verified.stderr)")
        let status = try store.fixture.run(["--as", "ana", "status"])
        #expect(status.status == 1 && status.stdout.contains("MISSING"), "\(status.stdout)")
        let repaired = try store.fixture.run(["--as", "ana", "store", "repair"])
        #expect(repaired.status == 0 && repaired.stdout.contains("restored"), "\(repaired.stdout)\(repaired.stderr)")
        #expect(try store.verify().status == 0)
        #expect(try store.fixture.run(["--as", "ana", "status"]).status == 0)
        let refused = try Binaries.runPath(store.sqlite3, [store.fixture.store, "DELETE FROM audit"])
        #expect(refused.status != 0 && refused.stderr.contains("append-only"))
    }

    /// An anchor someone edited, or signed with another key, proves nothing.
    @Test func aForgedAnchorIsRefused() throws {
        let store = try Anchored()
        defer { store.remove() }
        let line = try String(contentsOfFile: store.anchors, encoding: .utf8)
        try line.replacingOccurrences(of: " entries=", with: " entries=1").write(toFile: store.anchors, atomically: true, encoding: .utf8)
        let verified = try store.verify()
        #expect(verified.status == 1 && verified.stderr.contains("signature does not hold"), "\(verified.stderr)")
        // A fresh anchor signed with a key of the forger's own.
        let forged = try store.fixture.run(["--as", "ana", "audit", "anchor", "--out", store.anchors, "--key", store.fixture.dir.path("forger.key")])
        #expect(forged.status == 0)
        #expect(try store.verify().status == 1)
    }

    /// Verifying needs the admins' key: its `.pub` given alone works, and with no key at all the
    /// anchor is refused (one checked against its own key only would prove nothing).
    @Test func verifyingNeedsTheAdminsKey() throws {
        let store = try Anchored()
        defer { store.remove() }
        let publicKey = store.fixture.dir.path("keys/anchor.key.pub")
        let withPublic = try store.fixture.run(["--as", "ana", "audit", "verify", "--anchor", store.anchors, "--key", publicKey])
        #expect(withPublic.status == 0, "\(withPublic.stderr)")
        let noKey = try store.fixture.run(["--as", "ana", "audit", "verify", "--anchor", store.anchors, "--key", store.fixture.dir.path("nowhere.key")])
        #expect(noKey.status != 0 && noKey.stderr.contains("no key to check the anchor's signature against"), "\(noKey.stderr)")
    }

    /// A role raised by hand, outside the log, is found.
    @Test func aRoleRaisedByHandIsFound() throws {
        let store = try Anchored()
        defer { store.remove() }
        #expect(try store.fixture.run(["--as", "ana", "operator", "add", "sam", "--role", "staff", "--school", "hillcrest"]).status == 0)
        #expect(try store.verify(anchored: false).status == 0)
        try store.sql("UPDATE operators SET role = 'admin' WHERE name = 'sam'")
        let verified = try store.verify(anchored: false)
        #expect(verified.status == 1 && verified.stderr.contains("operators table was changed outside the log"), "\(verified.stderr)")
    }

    /// Issue 44: with `anchor` in `_settings.json`, every command that wrote to the log (an
    /// import, a decision) anchors its head, signed; a command that only reads does not; so an
    /// entry cut from the end after the last decision is found.
    @Test func everyCommandThatWritesTheLogAnchorsItsHead() throws {
        let sqlite3 = try #require(AuditVerifyTests.sqlite3, "the sqlite3 shell is missing (apt-get install sqlite3)")
        let dir = try TemporaryDirectory("auto-anchor")
        defer { dir.remove() }
        try ConsoleFixture.writeTwoSchools(into: dir)
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "anchor": "../anchors.log", "anchorKey": "../keys/anchor.key"}"#)
        let store = dir.path("t.sqlite")
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", store, "--imports", dir.path("imports"), "--as", "ana"] + words)
        }
        func anchors() -> [String] {
            ((try? String(contentsOfFile: dir.path("anchors.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let imported = try run(["import", "--all"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(anchors().count == 1, "\(imported.stderr)")
        let pending = (try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "announcements"]).stdout.utf8)) as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }
        #expect(pending.count >= 2)
        #expect(try run(["approve", pending[0]]).status == 0)
        #expect(anchors().count == 2)
        #expect(try run(["list", "announcements"]).status == 0)
        #expect(try run(["show", pending[0]]).status == 0)
        #expect(anchors().count == 2, "a reading command anchored")
        #expect(try run(["reject", pending[1], "--reason", "duplicate"]).status == 0)
        #expect(anchors().count == 3)
        #expect(try run(["audit", "verify", "--anchor", dir.path("anchors.log"), "--key", dir.path("keys/anchor.key.pub")]).status == 0)
        // The last decision's entry cut from the log: the automatic anchor saw it.
        let cut = try Binaries.runPath(
            sqlite3,
            [
                store,
                "DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE id = (SELECT max(id) FROM audit); CREATE TRIGGER audit_no_delete BEFORE DELETE ON"
                    + " audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never deleted'); END;",
            ])
        #expect(cut.status == 0, "\(cut.stderr)")
        let verified = try run(["audit", "verify", "--anchor", dir.path("anchors.log"), "--key", dir.path("keys/anchor.key.pub")])
        #expect(verified.status == 1 && verified.stderr.contains("cut short"), "\(verified.stdout) \(verified.stderr)")
    }
}
