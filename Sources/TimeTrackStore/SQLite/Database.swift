import CSQLite
import Foundation
import TimeTrackCore

/// A value bound to or read from an SQL statement.
enum SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
    static func real(_ value: Double?) -> SQLValue { value.map { .real($0) } ?? .null }
    static func date(_ value: Date?) -> SQLValue { value.map { .text(StoreDate.format($0)) } ?? .null }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

/// A thin, owned connection to one SQLite file: statements cached by SQL text, typed errors.
///
/// Not thread-safe: one connection belongs to one thread at a time. An import that reads
/// sources ahead gives each reading thread a connection of its own; other processes use theirs.
final class Database {
    let path: String
    private(set) var handle: OpaquePointer?
    private var cache: [StatementKey: OpaquePointer] = [:]

    /// Opens (and with `create`, creates) the file.
    ///
    /// Does not read it yet.
    ///
    /// `immutable` (read-only only): the file is read as it is, without the shared-memory index a
    /// WAL store needs: for a store this account may not write, in a folder it may not write,
    /// and with no write-ahead log to replay.
    init(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws {
        self.path = path
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        var name = path
        if readOnly && immutable {
            flags |= SQLITE_OPEN_URI
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            name = "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw TimeTrackError(
                .storeUnusable, "cannot open the store: \(message)",
                fix: "check that the folder exists and is writable, or pass --store PATH", context: ["file": path])
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Finalizes cached statements and closes the connection.
    func close() {
        for statement in cache.values { sqlite3_finalize(statement) }
        cache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The last error message of the connection.
    ///
    /// On one line: SQLite quotes schema text (with its line breaks) when the schema is damaged.
    var errorMessage: String {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection closed"
        return message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    func error(_ rc: Int32, sql: String?) -> TimeTrackError {
        var error = describe(rc, sql: sql)
        // SQLite's own (extended) result code stays with the error, whatever it is called here:
        // `--json` shows it in the context.
        error.context["sqliteCode"] = String(rc)
        return error
    }

    private func describe(_ rc: Int32, sql: String?) -> TimeTrackError {
        let primary = rc & 0xff
        var context = ["file": path]
        if let sql { context["sql"] = String(sql.prefix(200)) }
        switch primary {
        case SQLITE_NOTADB:
            return TimeTrackError(
                .storeUnusable, "the file is not a SQLite database", fix: "pass --store with the path of a Time Track store, or move this file away",
                context: context)
        case SQLITE_CORRUPT:
            return TimeTrackError(
                .storeUnusable, "the store is corrupt (\(errorMessage))", fix: "restore it from a backup; `sqlite3 FILE .recover` may save what is left",
                context: context)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return TimeTrackError(
                .busy, "the store is busy: another process held it longer than the 10 s wait", fix: "try again; check `runs` for a long import",
                context: context)
        case SQLITE_READONLY:
            let (what, fix) = Database.readOnlyCause(path)
            return TimeTrackError(.storeUnusable, "\(what) (\(errorMessage))", fix: fix, context: context)
        case SQLITE_FULL:
            return TimeTrackError(
                .database, "the disk holding the store is full",
                fix: "free some space and run the command again: the step that hit the full disk was rolled back whole, and what was finished before"
                    + " it is kept (an import resumes where it stopped)", context: context)
        default:
            return TimeTrackError(.database, errorMessage, context: context)
        }
    }

    /// Why a store cannot be written, as (what, how to fix it): the file itself, its folder
    /// (where SQLite must create its journal files), or a file system mounted read-only.
    static func readOnlyCause(_ path: String) -> (String, String) {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        if access(path, W_OK) != 0 && errno == EROFS || access(folder, W_OK) != 0 && errno == EROFS {
            return ("the file system holding the store is mounted read-only", "remount it read-write, or move the store (--store PATH)")
        }
        if access(path, W_OK) != 0 {
            return ("the store file is read-only for this account", "give this account write permission on \(path) (ls -l shows its owner and mode)")
        }
        if access(folder, W_OK) != 0 {
            return (
                "the store's folder \(folder) is read-only for this account, and SQLite writes its journal files (-wal, -shm) beside the store",
                "make \(folder) writable for the accounts that use the store (chmod, or chgrp to their group), or move the store to a folder they can write"
            )
        }
        return ("the store is read-only", "check the permissions of \(path) and of its folder")
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            sqlite3_free(message)
            throw error(rc, sql: sql)
        }
    }

    /// A cached prepared statement for `sql`, reset and with `values` bound.
    func statement(_ sql: String, _ values: [SQLValue] = []) throws -> Statement {
        let raw: OpaquePointer
        if let cached = cache[StatementKey(sql)] {
            raw = cached
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw error(rc, sql: sql) }
            cache[StatementKey(sql)] = prepared
            raw = prepared
        }
        let statement = Statement(raw: raw, database: self, sql: sql)
        try statement.bind(values)
        return statement
    }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        let statement = try statement(sql, values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// All rows of a query, mapped.
    ///
    /// The statement is reset however the mapping ends.
    func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> [T] {
        let statement = try statement(sql, values)
        defer { sqlite3_reset(statement.raw) }
        var result: [T] = []
        while try statement.step() { result.append(try map(statement)) }
        return result
    }

    /// Each row of a query, handed to `body` as it is read (nothing accumulated).
    func each(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
        let statement = try statement(sql, values)
        defer { sqlite3_reset(statement.raw) }
        while try statement.step() { try body(statement) }
    }

    /// Runs `body` reading one snapshot of the file (a deferred transaction: no write lock).
    func snapshot<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN DEFERRED")
        defer { _ = try? run("COMMIT") }
        return try body()
    }

    /// The first row of a query, mapped, or nil.
    func row<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> T? {
        let statement = try statement(sql, values)
        defer { sqlite3_reset(statement.raw) }
        return try statement.step() ? try map(statement) : nil
    }

    /// The first column of the first row as an integer, or nil for no row or NULL.
    func optionalInt(_ sql: String, _ values: [SQLValue] = []) throws -> Int? {
        let value: Int?? = try row(sql, values) { $0.optionalInt(0) }
        return value ?? nil
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Savepoints open inside the current transaction (names `s0`, `s1`, …).
    private var savepoints = 0

    /// The audit chain's head as this transaction wrote it (`SQLSession.auditHead`).
    var auditHead: (id: Int64, hash: String)?
    var auditHeadQuery: String { "SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1" }
    /// The last item number this transaction gave (`SQLSession.itemHead`).
    var itemHead: Int64?

    /// Whether a transaction is open, as SQLite itself says (not a counter of ours: a failed
    /// COMMIT or an automatic rollback can end a transaction behind our back).
    var inTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; rolls back if it throws.
    ///
    /// Inside another transaction it runs as a savepoint, so a failing inner part rolls back alone.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so two writers queue on the busy timeout
    /// instead of failing with "database is locked" on a lock upgrade.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if !inTransaction {
            savepoints = 0
            (auditHead, itemHead) = (nil, nil)
            try run("BEGIN IMMEDIATE")
            defer { (auditHead, itemHead) = (nil, nil) }
            do {
                let result = try body()
                try run("COMMIT")
                return result
            } catch {
                // COMMIT may have failed (disk full, busy): roll back whatever is still open.
                if inTransaction { _ = try? run("ROLLBACK") }
                savepoints = 0
                throw error
            }
        }
        // Prepared once and cached like any statement: an import opens a savepoint per item.
        let name = "s\(savepoints)"
        try run("SAVEPOINT \(name)")
        savepoints += 1
        defer { savepoints -= 1 }
        do {
            let result = try body()
            try run("RELEASE \(name)")
            return result
        } catch {
            (auditHead, itemHead) = (nil, nil)
            if inTransaction {
                _ = try? run("ROLLBACK TO \(name)")
                _ = try? run("RELEASE \(name)")
            }
            throw error
        }
    }
}

/// A prepared statement in use: step through rows and read columns.
struct Statement {
    let raw: OpaquePointer
    unowned let database: Database
    let sql: String

    func bind(_ values: [SQLValue]) throws {
        // A missing value would silently be NULL, an extra one ignored: both are bugs.
        let expected = Int(sqlite3_bind_parameter_count(raw))
        guard expected == values.count else {
            throw TimeTrackError(
                .database, "the statement takes \(expected) values, \(values.count) were given",
                context: ["file": database.path, "sql": String(sql.prefix(200))])
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(raw, index)
            case .integer(let v): rc = sqlite3_bind_int64(raw, index, v)
            case .real(let v): rc = sqlite3_bind_double(raw, index, v)
            case .text(var v):
                // Its UTF-8 in place with its length: no C string made, no strlen.
                rc = v.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(raw, index, "", 0, csqlite_transient()) }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(raw, index, $0, Int32(bytes.count), csqlite_transient())
                    }
                }
            case .blob(let v):
                rc = v.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(raw, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_transient())
                }
            }
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// Advances to the next row; false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(raw)
            return false
        default:
            let error = database.error(rc, sql: sql)
            sqlite3_reset(raw)
            throw error
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    /// A column's value as stored, whatever its type.
    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(raw, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(raw, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(raw, column))
        case SQLITE_BLOB: return .blob(data(column))
        default: return .text(text(column))
        }
    }
    var columnCount: Int32 { sqlite3_column_count(raw) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(raw, column)) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(raw, column) }
    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func data(_ column: Int32) -> Data {
        guard let pointer = sqlite3_column_blob(raw, column) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_column_bytes(raw, column)))
    }
    func date(_ column: Int32) -> Date? { optionalText(column).flatMap(StoreDate.parse) }
}

/// A statement cache key: the SQL text, hashed by its length and ends only.
///
/// Hashing a whole 500-byte insert for every row written cost more than binding its values; texts
/// that share
/// length and ends are still told apart by `==`.
struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            let raw = UnsafeRawBufferPointer(bytes)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(48)))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(48)))
        }
    }

    static func == (a: StatementKey, b: StatementKey) -> Bool { a.sql == b.sql }
}
