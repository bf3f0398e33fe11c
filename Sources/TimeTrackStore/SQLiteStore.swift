import CSQLite
import Foundation
import TimeTrackCore

/// The app's store in one SQLite file: WAL, a 10 s busy timeout, `BEGIN IMMEDIATE` writes,
/// foreign keys on, a versioned schema upgraded on open.
///
/// Every decision (approve, reject, edit, archive, restore, each imported item) is one
/// transaction that writes the item, its revision, its typed per-kind row and one audit entry,
/// so a process killed at any moment leaves all of a decision or none of it.
public final class SQLiteStore: ItemStore, SQLStore, PageMemo, FetchCache {
    /// The default store path when neither `--store` nor `TIMETRACK_STORE` is given.
    public static let defaultPath = "./timetrack.sqlite"

    public let location: String
    public private(set) var schemaVersion: Int = 0
    let db: Database
    /// The shared tables' connection: the same one.
    public private(set) lazy var engine = SQLEngine(db)
    /// The clock, replaceable in tests.
    public var now: () -> Date = { Date() }

    /// A file does not authenticate: its user is the Unix account running the tool.
    public var account: String? { nil }

    /// Whether the store was opened read-only (the file is not writable by this account).
    public private(set) var isReadOnly = false

    /// Opens the store at `path`, checking and upgrading it.
    ///
    /// SQLite decides whether a file is a healthy store: it opens it (replaying its write-ahead
    /// log), and when the main file looks shorter than its header says (as it legitimately is
    /// after a checkpoint was cut short by a kill or a full disk, the log still holding the
    /// pages), `PRAGMA quick_check` settles it. A file this account cannot write is opened
    /// read-only: reading commands work, writes fail with a message saying so.
    ///
    /// A new store is built in a temporary file beside `path` (schema, WAL mode, mode 0600) and
    /// linked into place in one step, so two processes starting at once never see a half-made
    /// store and never race on `PRAGMA journal_mode`.
    ///
    /// - Parameter create: create the file when it does not exist (imports do; `status` does not).
    /// - Throws: `.notFound` when the file is missing (or empty) and `create` is false;
    ///   `.storeUnusable` for a file that is not SQLite, is truncated or corrupt, is another
    ///   program's database, or was written by a newer schema. Nothing is written to a file that
    ///   is refused.
    /// - Parameter readOnly: open a reading connection (read-ahead lanes): SQLite refuses any
    ///   write on it (`SQLITE_OPEN_READONLY` and `PRAGMA query_only`); the store must exist.
    /// - Parameter group: a new store is made `0660` in this group (staff who share it), instead of
    ///   `0600`; an existing store this account owns is moved to it.
    public init(path: String, create: Bool = true, readOnly: Bool = false, group: gid_t? = nil) throws {
        location = path
        try SQLiteStore.refuseWritableByOthers(path)
        if readOnly {
            guard access(path, R_OK) == 0 else {
                throw TimeTrackError(.notFound, "no store here to read", fix: "run an import first, or pass --store PATH", context: ["file": path])
            }
            db = try Database(path: path, create: false, readOnly: true)
            isReadOnly = true
            try db.execute("PRAGMA busy_timeout = 10000; PRAGMA query_only = 1; PRAGMA temp_store = MEMORY")
            schemaVersion = try db.row("PRAGMA user_version") { $0.int(0) } ?? 0
            return
        }
        try SQLiteStore.prepareFile(path, create: create, group: group)
        let suspicious = try SQLiteStore.checkHeader(path: path)
        let (writable, immutable) = SQLiteStore.openMode(path)
        isReadOnly = !writable
        db = try Database(path: path, create: false, readOnly: !writable, immutable: immutable)
        try db.execute("PRAGMA busy_timeout = 10000")
        let version = try checkIdentity(suspicious: suspicious)
        // temp_store MEMORY: each imported item is its own savepoint, and SQLite keeps the pages
        // a savepoint may have to undo in a sub-journal; in memory that costs no file writes
        // (it holds only the few pages one item touches).
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        if writable {
            // WAL is kept in the file's header: set once, when the store was made. Asked again only
            // for a store made otherwise (an empty file, an old build), never on every open.
            let mode = try db.row("PRAGMA journal_mode") { $0.text(0).lowercased() } ?? ""
            if mode != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
            try migrate()
        } else {
            schemaVersion = version
            if schemaVersion < Schema.currentVersion {
                throw TimeTrackError(
                    .storeUnusable, "the store has schema version \(schemaVersion) and needs an upgrade, but this account cannot write it",
                    fix: "run timetrack-admin once as the store's owner to upgrade it, or check the file's permissions", context: ["file": path])
            }
        }
    }

    /// Makes sure `path` can be a store before SQLite opens it: not a folder, not out of
    /// reach, created when missing (with `create`), moved to `group` when asked.
    static func prepareFile(_ path: String, create: Bool, group: gid_t?) throws {
        var info = stat()
        let exists = stat(path, &info) == 0
        if !exists && (errno == EACCES || errno == ENOTDIR) {
            // Not "no store here yet": there may well be one, in a folder this account cannot enter.
            let reason = String(cString: strerror(errno))
            throw TimeTrackError(
                .permission, "cannot reach the store: \(reason)",
                fix: "the folder holding it must be searchable by your account (`ls -ld` each folder of the path); ask its owner", context: ["file": path])
        }
        if exists && info.st_mode & S_IFMT == S_IFDIR {
            throw TimeTrackError(.storeUnusable, "is a folder, not a store file", fix: "pass --store FOLDER/timetrack.sqlite", context: ["file": path])
        }
        if exists && info.st_size == 0 && !create {
            throw TimeTrackError(
                .notFound, "the file is empty: no store here yet",
                fix: "run an import (`timetrack-admin import --all`) to make it a store, or pass --store PATH / set TIMETRACK_STORE",
                context: ["file": path])
        }
        if !exists {
            guard create else {
                throw TimeTrackError(
                    .notFound, "no store here yet",
                    fix: "run an import (`timetrack-admin import --all`) to create it, or pass --store PATH / set TIMETRACK_STORE",
                    context: ["file": path])
            }
            try SQLiteStore.createNew(at: path, group: group)
        } else if let group, info.st_uid == geteuid(), info.st_gid != group || info.st_mode & 0o777 != 0o660 {
            for file in [path, path + "-wal", path + "-shm"] where access(file, F_OK) == 0 {
                _ = chown(file, uid_t.max, group)
                _ = chmod(file, 0o660)
            }
        }
    }

    /// Whether this account may write the store, and whether to read it as immutable:
    /// read-only with no log to replay and no way to make the shared-memory index, the file is
    /// read as it stands (nobody who could change it is writing: there is no log).
    static func openMode(_ path: String) -> (writable: Bool, immutable: Bool) {
        let writable = access(path, W_OK) == 0
        var walInfo = stat()
        let hasLog = stat(path + "-wal", &walInfo) == 0 && walInfo.st_size > 0
        // (The folder's URL only when it is asked about: it is the slow part of opening.)
        let immutable =
            !writable && !hasLog
            && {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                return access(folder.isEmpty ? "." : folder, W_OK) != 0
            }()
        return (writable, immutable)
    }

    /// Refuses a damaged file, a store newer than this build, and a database that is not a
    /// Time Track store; returns the store's schema version.
    func checkIdentity(suspicious: String?) throws -> Int {
        if let suspicious {
            // Shorter than the header says: a healthy store whose log holds the rest, or a damaged one.
            let verdict = try quickCheck()
            if verdict != "ok" {
                throw TimeTrackError(
                    .storeUnusable, "the store is truncated or damaged: \(suspicious); SQLite's quick_check says: \(verdict)",
                    fix: "restore it from a backup, or save what is left with `sqlite3 FILE .recover`; nothing was written to it", context: ["file": location])
            }
        }
        let (appID, version, tables) = try readIdentity()
        if version > Schema.currentVersion {
            throw TimeTrackError(
                .storeUnusable,
                "the store has schema version \(version), newer than this timetrack-admin understands (\(Schema.currentVersion))",
                fix: "upgrade timetrack-admin, or open a store written by this version", context: ["file": location])
        }
        if appID != Schema.applicationID && !(appID == 0 && version == 0 && tables == 0) {
            throw TimeTrackError(
                .storeUnusable, "this SQLite database is not a Time Track store",
                fix: "pass --store with the path of a Time Track store, or a new file name to create one", context: ["file": location])
        }
        return version
    }

    /// `PRAGMA quick_check` (the first problem only): "ok" for a healthy store.
    ///
    /// Costs a read of the whole file; run on demand (a file that looks short, before an import).
    public func quickCheck() throws -> String {
        do {
            return try db.row("PRAGMA quick_check(1)") { $0.text(0) } ?? "no answer"
        } catch let error as TimeTrackError {
            return error.message
        }
    }

    /// Refuses a damaged store before anything is written to it (imports ask before their first run row).
    public func requireHealthy() throws {
        let verdict = try quickCheck()
        guard verdict == "ok" else {
            throw TimeTrackError(
                .storeUnusable, "the store is damaged: SQLite's quick_check says: \(verdict)",
                fix: "restore it from a backup, or save what is left with `sqlite3 FILE .recover`; nothing was written to it", context: ["file": location])
        }
    }

    /// Makes a new, empty store at `path`: built in a temporary file beside it, then linked into
    /// place (fails harmlessly when another process made it first).
    static func createNew(at path: String, group: gid_t? = nil) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw TimeTrackError(
                .storeUnusable, "cannot create the store: \(reason)",
                fix: "check that the folder \(folder) exists and is writable, or pass --store PATH", context: ["file": path])
        }
        if let group {
            // Before anything is in it: the staff group reads and writes, nobody else.
            guard fchown(fd, uid_t.max, group) == 0, fchmod(fd, 0o660) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                unlink(temporary)
                throw TimeTrackError(
                    .storeUnusable, "cannot give the new store to group \(group): \(reason)",
                    fix: "you must be a member of the group (`id` lists yours)", context: ["file": path])
            }
        }
        Glibc.close(fd)
        defer {
            unlink(temporary)
            unlink(temporary + "-wal")
            unlink(temporary + "-shm")
        }
        do {
            let db = try Database(path: temporary, create: false)
            try db.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON")
            try db.transaction {
                for number in 1...Schema.currentVersion { try Schema.apply(number, on: db) }
                try db.execute("PRAGMA user_version = \(Schema.currentVersion); PRAGMA application_id = \(Schema.applicationID)")
            }
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()
        } catch var error as TimeTrackError {
            error.context["file"] = path
            throw error
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw TimeTrackError(
                .storeUnusable, "cannot create the store: \(reason)", fix: "check that the folder is writable, or pass --store PATH", context: ["file": path])
        }
    }

    /// Closes the connection.
    public func close() { db.close() }
    public var auditEntriesWritten: Int { engine.auditAppends }

    /// Refuses a store (or its log or shared-memory index) that any account may write: whoever
    /// could write it could change what families see, and the audit.
    ///
    /// Nothing is read from it.
    static func refuseWritableByOthers(_ path: String) throws {
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & S_IWOTH != 0 else { continue }
            throw TimeTrackError(
                .storeUnusable,
                String(
                    format: "any account on this machine may write %@ (mode %04o); it is not opened", (file as NSString).lastPathComponent,
                    info.st_mode & 0o7777),
                fix: "chmod o-w \(path)*  (0600 for one account; for a staff group: chgrp GROUP \(path)*; chmod 0660 \(path)*)", context: ["file": path])
        }
    }

    /// The first column of every row of a read-only query, as text: for tools and tests
    /// (`PRAGMA integrity_check`, counts).
    ///
    /// Writes are refused.
    public func firstColumn(_ sql: String) throws -> [String] {
        let trimmed = sql.trimmingCharacters(in: .whitespaces).lowercased()
        guard trimmed.hasPrefix("select") || trimmed.hasPrefix("pragma integrity_check") || trimmed.hasPrefix("pragma quick_check") else {
            throw TimeTrackError(.usage, "only SELECT and integrity checks are allowed here")
        }
        return try db.rows(sql) { $0.optionalText(0) ?? "NULL" }
    }

    // MARK: Opening

    /// Refuses files that are not SQLite before SQLite touches them.
    ///
    /// Returns a description when the main file is shorter than its header says (for SQLite to
    /// judge), nil otherwise.
    static func checkHeader(path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TimeTrackError(
                .storeUnusable, "cannot read the file: \(String(cString: strerror(errno)))", fix: "check its permissions", context: ["file": path])
        }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = read(fd, &bytes, 100)
        var info = stat()
        let size = fstat(fd, &info) == 0 ? UInt64(max(0, info.st_size)) : 0
        if count == 0 { return nil }  // an empty file is a new, empty database
        let magic = Array("SQLite format 3\u{0}".utf8)
        guard count == 100, Array(bytes[0..<16]) == magic else {
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
            return "\(size) bytes on disk, \(pageSize * pageCount) expected"
        }
        return nil
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
                version += 1
                try Schema.apply(version, on: db)
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
            for number in stride(from: 1, through: version, by: 1) { try Schema.apply(number, on: db) }
            try db.execute("PRAGMA user_version = \(version); PRAGMA application_id = \(Schema.applicationID)")
        }
        db.close()
    }
}
