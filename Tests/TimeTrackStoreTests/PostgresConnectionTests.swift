import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackStore

/// The first piece of the PostgreSQL store: libpq loaded at run time, a connection to a real
/// server this test starts, values always bound as parameters, errors people can act on.
@Suite(.serialized) struct PostgresConnectionTests {
    @Test func boundParametersRoundTripAndErrorsSayWhat() throws {
        if let reason = PostgresServer.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record(Comment(rawValue: "PostgreSQL test not run: \(reason)")) }
            print("PostgresConnectionTests skipped: \(reason)")
            return
        }
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
