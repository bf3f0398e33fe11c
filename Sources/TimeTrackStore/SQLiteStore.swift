import CSQLite
import Foundation
import TimeTrackCore

/// The app's store in one SQLite file: WAL, a 10 s busy timeout, `BEGIN IMMEDIATE` writes,
/// foreign keys on, a versioned schema upgraded on open.
///
/// Every decision (approve, reject, edit, archive, restore, each imported item) is one
/// transaction that writes the item, its revision, its typed per-kind row and one audit entry,
/// so a process killed at any moment leaves all of a decision or none of it.
public final class SQLiteStore: ItemStore {
    /// The default store path when neither `--store` nor `TIMETRACK_STORE` is given.
    public static let defaultPath = "./timetrack.sqlite"

    public let location: String
    public private(set) var schemaVersion: Int = 0
    let db: Database
    /// The clock, replaceable in tests.
    var now: () -> Date = { Date() }

    /// Opens the store at `path`, checking and upgrading it.
    ///
    /// - Parameter create: create the file when it does not exist (imports do; `status` does not).
    /// - Throws: `.notFound` when the file is missing and `create` is false; `.storeUnusable` for a
    ///   file that is not SQLite, is truncated or corrupt, is another program's database, or was
    ///   written by a newer schema. Nothing is written to a file that is refused.
    public init(path: String, create: Bool = true) throws {
        location = path
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw TimeTrackError(.storeUnusable, "is a folder, not a store file", fix: "pass --store FOLDER/timetrack.sqlite", context: ["file": path])
            }
            try SQLiteStore.checkHeader(path: path)
        } else if !create {
            throw TimeTrackError(
                .notFound, "no store here yet",
                fix: "run an import (`timetrack-admin import --all`) to create it, or pass --store PATH / set TIMETRACK_STORE",
                context: ["file": path])
        }
        db = try Database(path: path, create: create)
        try db.execute("PRAGMA busy_timeout = 10000")
        let (appID, version, tables) = try readIdentity()
        if version > Schema.currentVersion {
            throw TimeTrackError(
                .storeUnusable,
                "the store has schema version \(version), newer than this timetrack-admin understands (\(Schema.currentVersion))",
                fix: "upgrade timetrack-admin, or open a store written by this version", context: ["file": path])
        }
        if appID != Schema.applicationID && !(appID == 0 && version == 0 && tables == 0) {
            throw TimeTrackError(
                .storeUnusable, "this SQLite database is not a Time Track store",
                fix: "pass --store with the path of a Time Track store, or a new file name to create one", context: ["file": path])
        }
        // temp_store MEMORY: each imported item is its own savepoint, and SQLite keeps the pages
        // a savepoint may have to undo in a sub-journal; in memory that costs no file writes
        // (it holds only the few pages one item touches).
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        try migrate()
    }

    /// Closes the connection.
    public func close() { db.close() }

    /// The first column of every row of a read-only query, as text: for tools and tests
    /// (`PRAGMA integrity_check`, counts). Writes are refused.
    public func firstColumn(_ sql: String) throws -> [String] {
        let trimmed = sql.trimmingCharacters(in: .whitespaces).lowercased()
        guard trimmed.hasPrefix("select") || trimmed.hasPrefix("pragma integrity_check") || trimmed.hasPrefix("pragma quick_check") else {
            throw TimeTrackError(.usage, "only SELECT and integrity checks are allowed here")
        }
        return try db.rows(sql) { $0.optionalText(0) ?? "NULL" }
    }

    // MARK: Opening

    /// Refuses files that are not SQLite, or are shorter than their header says, before SQLite touches them.
    static func checkHeader(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TimeTrackError(.storeUnusable, "cannot read the file", fix: "check its permissions", context: ["file": path])
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        let size = (try? handle.seekToEnd()) ?? 0
        if header.isEmpty { return }  // an empty file is a new, empty database
        let bytes = [UInt8](header)
        let magic = Array("SQLite format 3\u{0}".utf8)
        guard bytes.count == 100, Array(bytes[0..<16]) == magic else {
            throw TimeTrackError(
                .storeUnusable, "the file is not a SQLite database",
                fix: "pass --store with the path of a Time Track store, or move this file away", context: ["file": path])
        }
        func be32(_ offset: Int) -> UInt64 {
            UInt64(bytes[offset]) << 24 | UInt64(bytes[offset + 1]) << 16 | UInt64(bytes[offset + 2]) << 8 | UInt64(bytes[offset + 3])
        }
        var pageSize = UInt64(bytes[16]) << 8 | UInt64(bytes[17])
        if pageSize == 1 { pageSize = 65_536 }
        let pageCount = be32(28)
        let headerValid = be32(24) == be32(92)
        if headerValid && pageCount > 0 && size < pageSize * pageCount {
            throw TimeTrackError(
                .storeUnusable, "the store is truncated: \(size) bytes on disk, \(pageSize * pageCount) expected",
                fix: "restore it from a backup; nothing was written to it", context: ["file": path])
        }
    }

    private func readIdentity() throws -> (Int32, Int, Int) {
        let appID = try db.row("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
        let version = try db.row("PRAGMA user_version") { $0.int(0) } ?? 0
        let tables = try db.row("SELECT count(*) FROM sqlite_master") { $0.int(0) } ?? 0
        return (appID, version, tables)
    }

    private func migrate() throws {
        schemaVersion = try db.row("PRAGMA user_version") { $0.int(0) } ?? 0
        guard schemaVersion < Schema.currentVersion else { return }
        try db.transaction {
            // Another process may have migrated while we waited for the write lock.
            var version = try db.row("PRAGMA user_version") { $0.int(0) } ?? 0
            while version < Schema.currentVersion {
                try db.execute(Schema.migrations[version])
                version += 1
            }
            try db.execute("PRAGMA user_version = \(version); PRAGMA application_id = \(Schema.applicationID)")
            schemaVersion = version
        }
    }

    /// Applies migrations up to `version` only: used by tests to write an older store.
    static func createOlderStore(path: String, version: Int) throws {
        let db = try Database(path: path, create: true)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.transaction {
            for index in 0..<version { try db.execute(Schema.migrations[index]) }
            try db.execute("PRAGMA user_version = \(version); PRAGMA application_id = \(Schema.applicationID)")
        }
        db.close()
    }
}
