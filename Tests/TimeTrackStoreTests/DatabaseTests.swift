import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// The connection layer tells the truth: transactions as SQLite sees them, values counted,
/// statements reset on every path, SQLite's code kept.
@Suite struct DatabaseTests {
    func database() throws -> (Database, TemporaryDirectory) {
        let dir = try TemporaryDirectory("db")
        let db = try Database(path: dir.path("t.sqlite"), create: true)
        try db.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER NOT NULL, y TEXT)")
        return (db, dir)
    }

    @Test func aMissingOrExtraValueIsAnErrorNotANull() throws {
        let (db, dir) = try database()
        defer { db.close(); dir.remove() }
        #expect(throws: TimeTrackError.self) { try db.run("INSERT INTO t (x, y) VALUES (?, ?)", [.integer(1)]) }
        #expect(throws: TimeTrackError.self) { try db.run("INSERT INTO t (x) VALUES (?)", [.integer(1), .text("extra")]) }
        #expect(try db.optionalInt("SELECT count(*) FROM t") == 0)
    }

    @Test func aFailedCommitLeavesNoTransactionOpen() throws {
        let (db, dir) = try database()
        defer { db.close(); dir.remove() }
        // A deferred foreign key makes COMMIT itself fail.
        try db.execute(
            "PRAGMA foreign_keys = ON; CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED)")
        #expect(throws: TimeTrackError.self) {
            try db.transaction { try db.run("INSERT INTO c (p) VALUES (42)") }
        }
        #expect(!db.inTransaction)
        // The next transaction starts cleanly and commits.
        try db.transaction { try db.run("INSERT INTO t (x) VALUES (1)") }
        #expect(try db.optionalInt("SELECT count(*) FROM t") == 1)
        #expect(!db.inTransaction)
    }

    @Test func nestedFailuresRollBackAlone() throws {
        let (db, dir) = try database()
        defer { db.close(); dir.remove() }
        try db.transaction {
            try db.run("INSERT INTO t (x) VALUES (1)")
            _ = try? db.transaction {
                try db.run("INSERT INTO t (x) VALUES (2)")
                try db.run("INSERT INTO t (x) VALUES (NULL)")  // NOT NULL: fails
            }
            try db.transaction { try db.run("INSERT INTO t (x) VALUES (3)") }
        }
        #expect(try db.rows("SELECT x FROM t ORDER BY x") { $0.int(0) } == [1, 3])
    }

    @Test func aMapperThatThrowsLeavesTheStatementReset() throws {
        let (db, dir) = try database()
        defer { db.close(); dir.remove() }
        try db.run("INSERT INTO t (x) VALUES (1), (2), (3)")
        struct Stop: Error {}
        #expect(throws: Stop.self) { _ = try db.rows("SELECT x FROM t ORDER BY x") { _ in throw Stop() } }
        // A statement left mid-step would hold a read transaction open.
        #expect(!db.inTransaction)
        #expect(try db.rows("SELECT x FROM t ORDER BY x") { $0.int(0) } == [1, 2, 3])
    }

    @Test func theSQLiteCodeIsKept() throws {
        let (db, dir) = try database()
        defer { db.close(); dir.remove() }
        let error = try #require(throws: TimeTrackError.self) { try db.run("INSERT INTO t (x) VALUES (NULL)") }
        #expect(error.context["sqliteCode"] == "1299")  // SQLITE_CONSTRAINT_NOTNULL (19 | 5 << 8)
    }

    @Test func aReadAheadConnectionCannotWrite() throws {
        let dir = try TemporaryDirectory("reader")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try Lifecycle(store).submit(Samples.announcement("kept"), school: nil, by: "ana", note: nil)
        let reader = try SQLiteStore(path: path, create: false, readOnly: true)
        defer { reader.close(); store.close() }
        #expect(try reader.counts()[.announcement]?[.pending] == 1)
        let error = try #require(throws: TimeTrackError.self) {
            _ = try Lifecycle(reader).submit(Samples.announcement("written"), school: nil, by: "ana", note: nil)
        }
        #expect(error.message.contains("read-only") || error.message.contains("readonly"), "\(error)")
        #expect(throws: TimeTrackError.self) {
            try reader.saveResponse(CachedResponse(etag: "\"x\"", lastModified: nil, contentType: nil, body: Data()), for: "https://x.example/")
        }
        #expect(try store.counts()[.announcement]?[.pending] == 1)
    }
}
