import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackStore

/// The first piece of the PostgreSQL store: libpq loaded at run time, a connection to a real
/// server this test starts, values always bound as parameters, errors people can act on.
@Suite(.serialized) struct PostgresConnectionTests {
    @Test func boundParametersRoundTripAndErrorsSayWhat() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let server = try PostgresServer()
        defer { server.remove() }
        let db = try PostgresConnection(server.address())
        #expect(db.serverVersion >= 100_000)
        try db.query("CREATE TABLE notes (id integer PRIMARY KEY, body text)")
        // Text that would break SQL built by pasting it in goes through as a value.
        let hostile = "'); DROP TABLE notes; --\u{1F600} \"quoted\" \\ back"
        try db.query("INSERT INTO notes (id, body) VALUES ($1, $2), ($3, $4)", ["1", hostile, "2", nil])
        let rows = try db.query("SELECT id, body FROM notes ORDER BY id")
        #expect(rows.count == 2 && rows[0] == ["1", hostile] && rows[1] == ["2", nil], "\(rows)")
        #expect(try db.query("SELECT count(*) FROM notes WHERE body = $1", [hostile]) == [["1"]])
        // A failing statement says what PostgreSQL said, with its SQLSTATE.
        do {
            try db.query("INSERT INTO notes (id, body) VALUES ($1, $2)", ["1", "again"])
            Issue.record("a duplicate key was accepted")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("duplicate key") && error.context["sqlstate"] == "23505", "\(error.message) \(error.context)")
        }
        db.close()
        // A server that is not there: a clear error, no crash.
        do {
            _ = try PostgresConnection("postgresql:///postgres?host=\(server.dir.path("nowhere"))&user=postgres")
            Issue.record("connected to nothing")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("cannot connect to PostgreSQL") && error.fix?.contains("server is running") == true, "\(error.message)")
        }
    }
}

/// New items' inserts held and sent many at once: in order, as one statement, before anything
/// else runs; a savepoint that rolls back takes its held inserts with it; a failure surfaces
/// and ends the transaction.
@Suite(.serialized) struct PostgresHeldInsertTests {
    @Test func multiRowRepeatsTheTupleOnly() {
        #expect(HeldInserts.multiRow("INSERT INTO t (a, b)\nVALUES (?, ?)", count: 3) == "INSERT INTO t (a, b)\nVALUES (?, ?), (?, ?), (?, ?)")
        #expect(HeldInserts.multiRow("INSERT INTO t (a) VALUES (?)", count: 1) == "INSERT INTO t (a) VALUES (?)")
    }

    @Test func heldInsertsGoInOrderBeforeAnythingElse() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let server = try PostgresServer()
        defer { server.remove() }
        let db = try PostgresConnection(server.address())
        defer { db.close() }
        try db.execute(
            "CREATE TABLE parents (id integer PRIMARY KEY, name text); CREATE TABLE children (parent integer NOT NULL REFERENCES parents (id), note text)")
        let statements = ["INSERT INTO parents (id, name)\nVALUES (?, ?)", "INSERT INTO children (parent, note) VALUES (?, ?)"]
        func hold(_ id: Int) throws {
            try db.insertHeld(statements, [[.integer(Int64(id)), .text("p\(id)")], [.integer(Int64(id)), .text("'; DROP TABLE parents; --")]])
        }
        try db.transaction {
            for id in 1...70 { try hold(id) }  // 64 sent, 6 held
            // A query sees every held row: they are sent before it.
            #expect(try db.scalar("SELECT count(*) FROM parents") == "70")
            try hold(71)
            // A savepoint that rolls back drops what was held inside it, not what came before.
            _ = try? db.transaction { () throws -> Void in
                try hold(72)
                throw TimeTrackError(.validation, "no")
            }
            try hold(73)
        }
        #expect(try db.query("SELECT id FROM parents ORDER BY id").compactMap { $0.first ?? nil }.compactMap { Int($0) } == Array(1...71) + [73])
        #expect(try db.scalar("SELECT count(*) FROM children WHERE note = $1", ["'; DROP TABLE parents; --"]) == "72")
        // A held insert that fails (a duplicate) fails the transaction when it is sent: nothing stays.
        #expect(throws: TimeTrackError.self) {
            try db.transaction {
                try hold(100)
                try hold(1)
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM parents WHERE id = 100") == "0")
    }
}

/// The schema on a real PostgreSQL server: made at the current version, idempotent, the app's
/// views giving what the SQLite views give, the audit log append-only, the app's role reading
/// the views and nothing else, and a database that is not a store refused.
@Suite(.serialized) struct PostgresSchemaTests {
    @Test func theSchemaOnARealServer() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let server = try PostgresServer()
        defer { server.remove() }
        let admin = try PostgresConnection(server.address())
        try admin.execute("CREATE DATABASE district")
        try admin.execute("CREATE DATABASE other")
        let db = try PostgresConnection(server.address(database: "district"))
        #expect(try PostgresSchema.migrate(db) == Schema.currentVersion)
        #expect(try PostgresSchema.migrate(db) == Schema.currentVersion)  // nothing to do the second time

        // Migration 13 on a version-12 store: item entries leave page_memo for item_memo, by
        // their item's number; an entry whose item is gone is dropped; pages stay.
        try admin.execute("CREATE DATABASE older")
        let older = try PostgresConnection(server.address(database: "older"))
        defer { older.close() }
        #expect(try PostgresSchema.migrate(older, upTo: 12) == 12)
        try older.execute(
            """
            INSERT INTO items (seq, id, kind, status, title, source_id, source_key, base_hash, created_at, updated_at)
                VALUES (7, 'A7', 'announcement', 'pending', 'T', 'news', 'k1', 'h7', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
            INSERT INTO page_memo (source_id, url, page_hash, signature, payload) VALUES
                ('news', 'item:k1', 'digest-1', 'sig', convert_to('h7 dated', 'UTF8')),
                ('news', 'item:gone', 'digest-2', 'sig', convert_to('h8', 'UTF8')),
                ('news', 'https://school.example/news/', 'page', 'sig', '\\x0001ff'::bytea)
            """)
        #expect(try PostgresSchema.migrate(older) == Schema.currentVersion)
        #expect(
            try older.query("SELECT item_seq, signature, digest, payload FROM item_memo").map { $0.map { $0 ?? "" } } == [["7", "sig", "digest-1", "h7 dated"]])
        #expect(
            try older.query("SELECT url, encode(payload, 'hex') FROM page_memo").map { $0.map { $0 ?? "" } } == [["https://school.example/news/", "0001ff"]])
        // Every table and view of a new SQLite store, with the same columns in the same order.
        let files = try TemporaryDirectory("pg-parity")
        defer { files.remove() }
        let sqlite = try SQLiteStore(path: files.path("s.sqlite"))
        defer { sqlite.close() }
        let names = try sqlite.db.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name", []) {
            $0.text(0)
        }
        #expect(names.count >= 20)
        for name in names {
            let mine = try sqlite.db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)]) { $0.text(0) }
            let theirs = try db.query("SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", [name]).map {
                $0[0] ?? ""
            }
            #expect(mine == theirs, "\(name): SQLite \(mine), PostgreSQL \(theirs)")
        }

        // An announcement and a deadline, published: the views read the body from the live
        // revision and the deadline's weight and reminders from its course.
        let body = "<p>Doors open at 6. \"Quoted\" and 'single'.</p>"
        let content = String(
            decoding: try JSONSerialization.data(withJSONObject: ["title": "Back to school night", "body": body, "priority": "normal"]), as: UTF8.self)
        try db.query(
            "INSERT INTO items (seq, id, kind, status, school, title, base_hash, live_revision, created_at, updated_at) VALUES (1, 'a1',"
                + " 'announcement', 'published', 'hillcrest', $1, $2, 1, $3, $3)",
            ["Back to school night", String(repeating: "a", count: 64), "2026-09-01T12:00:00Z"])
        try db.query(
            "INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by) VALUES (1, 1, 'live', $1, $2, $3, 'ana')",
            [content, String(repeating: "a", count: 64), "2026-09-01T12:00:00Z"])
        try db.query("INSERT INTO announcements (item_seq, title, priority) VALUES (1, $1, 'normal')", ["Back to school night"])
        #expect(try db.query("SELECT id, body FROM published_announcements") == [["a1", body]])
        try db.query(
            "INSERT INTO items (seq, id, kind, status, title, base_hash, live_revision, created_at, updated_at) VALUES (2, 'd2', 'deadline',"
                + " 'published', 'Quiz', 'b', 1, $1, $1)",
            ["2026-09-01T12:00:00Z"])
        try db.query(
            "INSERT INTO courses (code, name, reminders, weights, created_at) VALUES ('CHEM-AP', 'AP Chemistry', '[4320,60]', '{\"quiz\": 20}', $1)",
            ["2026-09-01T12:00:00Z"])
        try db.query(
            "INSERT INTO deadlines (item_seq, title, course, due_at, time_zone, due_time_guessed, category) VALUES (2, 'Quiz', 'chem-ap',"
                + " '2026-10-09T21:30:00Z', 'America/Denver', 0, 'quiz')"
        )
        #expect(try db.query("SELECT course_name, weight, reminders FROM published_deadlines") == [["AP Chemistry", "20", "[4320,60]"]])
        // Case-insensitive keys, as on SQLite.
        #expect(throws: TimeTrackError.self) { try db.query("INSERT INTO courses (code, name, created_at) VALUES ('chem-ap', 'again', 'x')") }

        // The audit log is append-only.
        try db.query("INSERT INTO audit (id, at, operator, action) VALUES (1, $1, 'ana', 'approve')", ["2026-09-01T12:00:00Z"])
        for change in ["UPDATE audit SET action = 'reject'", "DELETE FROM audit"] {
            do {
                try db.query(change)
                Issue.record("\(change) went through")
            } catch let error as TimeTrackError {
                #expect(error.message.contains("append-only"), "\(error.message)")
            }
        }

        // The app's backend: a role that reads the views and nothing else.
        try db.execute("CREATE ROLE timetrack_app LOGIN; " + PostgresSchema.grantAppRead(to: "timetrack_app"))
        let app = try PostgresConnection(server.address(database: "district", user: "timetrack_app"))
        #expect(try app.query("SELECT id FROM published_announcements") == [["a1"]])
        for table in ["items", "revisions", "audit", "operators"] {
            do {
                try app.query("SELECT count(*) FROM \(table)")
                Issue.record("the app's role read \(table)")
            } catch let error as TimeTrackError {
                #expect(error.context["sqlstate"] == "42501", "\(table): \(error.message)")
            }
        }
        // A database with other tables is not taken for a store.
        let other = try PostgresConnection(server.address(database: "other"))
        try other.execute("CREATE TABLE payroll (id integer)")
        do {
            try PostgresSchema.migrate(other)
            Issue.record("a foreign database was migrated")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("not a Time Track store"), "\(error.message)")
        }
    }
}
