import Foundation
import TestSupport
import Testing

/// `store grant` on a real PostgreSQL server: each role tried as a real database role, through
/// psql (the bypasses a person could try) and through the binary (the work each role does).
@Suite(.serialized) struct PostgresRolesTests {
    /// A granted store with the sample district and a second school's private records, and a
    /// login role per operator: an admin, a staff member of hillcrest, cron, a viewer, the app.
    struct Granted {
        let server: PostgresServer
        let database: String
        let dir: TemporaryDirectory
        /// The tables' owner's address (the server's superuser).
        let owner: String
        let tag = String(getpid())
        var imports: String { dir.path("imports") }

        func role(_ name: String) -> String { "\(name)_\(tag)" }
        func address(as role: String) -> String { server.address(database: database, user: role) }

        /// psql as `role`: (exit status, stdout + stderr).
        func sql(as role: String, _ query: String) throws -> (status: Int32, text: String) {
            let result = try Binaries.runPath("/usr/bin/psql", ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", address(as: role), "-c", query])
            return (result.status, result.stdout + result.stderr)
        }

        func run(as role: String, _ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", address(as: role), "--imports", imports] + words, currentDirectory: dir.url.path)
        }

        init() throws {
            server = try PostgresServer.shared()
            let owner = try server.database()
            self.owner = owner
            database = String(owner.split(separator: "?")[0].split(separator: "/").last ?? "")
            dir = try TemporaryDirectory("pg-roles")
            try ConsoleFixture.writeTwoSchools(into: dir)
            for name in ["ana", "sam", "cron", "vic", "app"] { _ = try Binaries.sql(owner, "CREATE ROLE \(role(name)) LOGIN") }
            // The owner (postgres) is the first operator and admin; it adds the others and grants.
            let setup: [[String]] = [
                ["operator", "add", "ana", "--role", "admin", "--login", role("ana")],
                ["operator", "add", "sam", "--role", "staff", "--school", "hillcrest", "--login", role("sam")],
                ["operator", "add", "cron", "--role", "importer", "--login", role("cron")],
                ["operator", "add", "vic", "--role", "viewer", "--login", role("vic")],
                ["store", "grant"],
            ]
            for words in setup {
                let result = try Binaries.run("timetrack-admin", ["--store", owner, "--imports", imports] + words, currentDirectory: dir.url.path)
                guard result.status == 0 else { throw NSError(domain: "\(words): \(result.stderr)", code: 1) }
            }
            _ = try Binaries.sql(owner, "GRANT timetrack_app TO \(role("app"))")
        }

        func remove() { dir.remove() }
    }

    @Test func eachRoleDoesItsPartAndNoMore() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let store = try Granted()
        defer { store.remove() }
        let (ana, sam, cron, vic, app) = (store.role("ana"), store.role("sam"), store.role("cron"), store.role("vic"), store.role("app"))

        // cron imports every school's sources (the importer's group), and nothing else.
        let imported = try store.run(as: cron, ["import", "--all"])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(try store.run(as: cron, ["approve", "a1"]).status != 0)

        // The staff member of hillcrest, through psql: no role change, no forged or changed
        // log entry, no other school's absences, no decision outside the school.
        let lincoln = "SELECT count(*) FROM items WHERE kind = 'absence' AND school = 'lincoln'"
        #expect(try store.sql(as: ana, lincoln).text.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "the admin sees it")
        #expect(try store.sql(as: sam, lincoln).text.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(
            try store.sql(as: sam, "SELECT count(*) FROM revisions WHERE content LIKE '%Custody hearing%'").text.trimmingCharacters(in: .whitespacesAndNewlines)
                == "0")
        #expect(
            try store.sql(as: sam, "SELECT count(*) FROM absence_reports").text.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "hillcrest's three only"
        )
        let refused: [(String, String)] = [
            ("UPDATE operators SET role = 'admin' WHERE name = 'sam'", "permission denied"),
            ("INSERT INTO operators (name, role, created_at, login, active) VALUES ('sam2', 'admin', '2026-01-01', 'x', 1)", "permission denied"),
            ("SELECT timetrack_operator_set('sam', 'admin', '\(sam)', NULL, 1, '2026-01-01')", "permission denied"),
            ("GRANT timetrack_admin TO \(sam)", "must have admin option"),
            ("UPDATE audit SET operator = 'mallory'", "permission denied"),
            ("DELETE FROM audit", "permission denied"),
            ("INSERT INTO audit (id, at, operator, action) VALUES (1000000, '2026-01-01', 'ana', 'approve')", "row-level security"),
            ("SELECT count(*) FROM audit WHERE action = 'approve'", "permission denied"),
        ]
        for (query, expected) in refused {
            let result = try store.sql(as: sam, query)
            #expect(result.status != 0 && result.text.contains(expected), "\(query): \(result.text)")
        }
        let outside = try store.sql(as: sam, "UPDATE items SET status = 'published' WHERE kind = 'absence' AND school = 'lincoln' RETURNING id")
        #expect(outside.status == 0 && outside.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(outside.text)")
        let publicItem = try store.sql(as: sam, "UPDATE items SET status = 'published' WHERE kind = 'announcement' RETURNING id")
        #expect(publicItem.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "staff decide no announcement: \(publicItem.text)")

        // Through the binary, sam does sam's work: hillcrest's absences and posts.
        let listed = try JSONSerialization.jsonObject(with: Data(try store.run(as: sam, ["--json", "list", "absences"]).stdout.utf8)) as? [[String: Any]] ?? []
        #expect(listed.count == 3 && listed.allSatisfy { ($0["school"] as? String) == "hillcrest" }, "\(listed)")
        let absence = try #require(listed.first?["id"] as? String)
        let approved = try store.run(as: sam, ["approve", absence])
        #expect(approved.status == 0, "\(approved.stderr)")
        let posts = try JSONSerialization.jsonObject(with: Data(try store.run(as: sam, ["--json", "list", "posts"]).stdout.utf8)) as? [[String: Any]] ?? []
        let post = try #require(posts.first?["id"] as? String)
        #expect(try store.run(as: sam, ["reject", post, "--reason", "off topic"]).status == 0)

        // The viewer reads published exported items only; the app only the published views.
        #expect(
            try store.sql(as: vic, "SELECT count(*) FROM items WHERE kind IN ('absence', 'ticket')").text.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        )
        #expect(try store.sql(as: vic, "SELECT count(*) FROM items WHERE status <> 'published'").text.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try store.sql(as: app, "SELECT count(*) FROM items").text.contains("permission denied"))
        #expect(try store.sql(as: app, "SELECT count(*) FROM absence_reports").text.contains("permission denied"))
        #expect(try store.sql(as: app, "SELECT count(*) FROM published_posts").status == 0)

        // The admin manages operators through the checked function; the log still verifies.
        let changed = try store.run(as: ana, ["operator", "role", "sam", "viewer"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            try store.sql(as: sam, "SELECT count(*) FROM absence_reports").text.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "sam is a viewer now")
        let verified = try store.run(as: ana, ["audit", "verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// Issue 44: as each role, through psql, a decision written as plain SQL is refused when it
    /// commits (it has no audit entry of a decision that role may take), nothing of it stays,
    /// and only admins read the log; the same decisions through the tool work and are audited;
    /// a status the tables' owner writes past the tool is found by `audit verify`.
    @Test func noRoleDecidesByPlainSQL() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let store = try Granted()
        defer { store.remove() }
        let (ana, sam, cron, vic) = (store.role("ana"), store.role("sam"), store.role("cron"), store.role("vic"))
        let imported = try store.run(as: cron, ["import", "--all"])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        func owner(_ query: String) throws -> String { try Binaries.sql(store.owner, query).trimmingCharacters(in: .whitespacesAndNewlines) }
        let state = """
            SELECT (SELECT count(*) FROM items WHERE status <> 'pending') || '/' || (SELECT count(*) FROM revisions WHERE state = 'live') || '/' ||
                (SELECT count(*) FROM absence_reports WHERE outcome IS NOT NULL) || '/' || (SELECT count(*) FROM tickets WHERE reply_count > 0) || '/' ||
                (SELECT count(*) FROM field_locks) || '/' || (SELECT count(*) FROM audit)
            """
        let before = try owner(state)
        let attempts: [(String, String)] = [
            (cron, "UPDATE items SET status = 'published' WHERE kind = 'announcement'"),
            (cron, "UPDATE items SET status = 'published', approved_by = 'cron' WHERE kind = 'absence' AND school = 'lincoln'"),
            (cron, "UPDATE absence_reports SET outcome = 'excused'"),
            (cron, "UPDATE revisions SET state = 'live' WHERE number = 1"),
            (cron, "UPDATE tickets SET replies = '[{\"by\": \"cron\", \"text\": \"x\"}]', reply_count = 1"),
            (cron, "INSERT INTO field_locks (item_seq, field, locked_by, locked_at) SELECT seq, 'title', 'cron', '2026-01-01' FROM items LIMIT 1"),
            (sam, "UPDATE items SET status = 'published' WHERE kind = 'post' AND school = 'hillcrest'"),
            (sam, "UPDATE absence_reports SET outcome = 'excused'"),
            (sam, "UPDATE items SET status = 'rejected', reject_reason = 'spam' WHERE kind = 'ticket'"),
            (ana, "UPDATE items SET status = 'published' WHERE kind = 'announcement'"),
            (ana, "UPDATE absence_reports SET outcome = 'unexcused'"),
            (ana, "UPDATE revisions SET content = replace(content, 'a', 'b') WHERE number = 1"),
        ]
        for (role, query) in attempts {
            let result = try store.sql(as: role, query)
            #expect(result.status != 0, "\(role): \(query) was let through")
            #expect(result.text.contains("goes through timetrack-admin") || result.text.contains("permission denied"), "\(role): \(query): \(result.text)")
        }
        #expect(try store.sql(as: vic, "UPDATE items SET status = 'published'").text.contains("permission denied"))
        #expect(try owner(state) == before, "a refused write left something behind")
        // Only admins read the log (the others append after its head through the tool).
        for role in [sam, cron, vic] {
            #expect(try store.sql(as: role, "SELECT id, hash FROM audit").text.contains("permission denied"), "\(role) reads the log")
        }
        #expect(try store.sql(as: ana, "SELECT count(*) FROM audit").status == 0)

        // The same decisions through the tool, each with its audit entry.
        let absences = try JSONSerialization.jsonObject(with: Data(try store.run(as: sam, ["--json", "list", "absences"]).stdout.utf8)) as? [[String: Any]]
        let absence = try #require(absences?.first?["id"] as? String)
        let excused = try store.run(as: sam, ["approve", absence])
        #expect(excused.status == 0, "\(excused.stderr)")
        #expect(try owner("SELECT operator || ' ' || action FROM audit WHERE item_id = '\(absence)' ORDER BY id DESC LIMIT 1") == "sam approve")
        let news = try JSONSerialization.jsonObject(with: Data(try store.run(as: ana, ["--json", "list", "announcements"]).stdout.utf8)) as? [[String: Any]]
        let announcement = try #require(news?.first?["id"] as? String)
        #expect(try store.run(as: ana, ["approve", announcement]).status == 0)
        #expect(try store.run(as: ana, ["edit", announcement, "title=Edited by ana"]).status == 0)
        #expect(try store.run(as: cron, ["import", "--all"]).status == 0, "an import after decisions")
        let verified = try store.run(as: ana, ["audit", "verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        // The owner is not held by the guard, but a status it writes past the tool is found.
        _ = try owner("UPDATE items SET status = 'published' WHERE kind = 'post' AND status = 'pending'")
        let found = try store.run(as: ana, ["audit", "verify"])
        #expect(found.status != 0 && (found.stdout + found.stderr).contains("no decision in the log made"), "\(found.stdout)\(found.stderr)")
    }

    /// A PostgreSQL login that is no operator of the store is told so, and what to ask for.
    @Test func aLoginThatIsNoOperatorIsToldWhatToAskFor() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let store = try Granted()
        defer { store.remove() }
        let eve = store.role("eve")
        _ = try Binaries.sql(store.owner, "CREATE ROLE \(eve) LOGIN")
        let result = try store.run(as: eve, ["status"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not an operator of this store") && result.stderr.contains("operator add"), "\(result.stderr)")
        #expect(!result.stderr.contains("permission denied for table"), "\(result.stderr)")
    }
}
