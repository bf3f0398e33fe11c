import Foundation
import TimeTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// libpq, PostgreSQL's client library, loaded at run time (`libpq.so.5`) so that the default
/// build and a SQLite-only installation need nothing of PostgreSQL.
///
/// Only the calls the store needs are looked up.
final class LibPQ: @unchecked Sendable {
    typealias ConnectDB = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias Status = @convention(c) (OpaquePointer?) -> Int32
    typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias Finish = @convention(c) (OpaquePointer?) -> Void
    typealias ExecParams =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    typealias ResultStatus = @convention(c) (OpaquePointer?) -> Int32
    typealias ResultErrorField = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    typealias Count = @convention(c) (OpaquePointer?) -> Int32
    typealias GetValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafePointer<CChar>?
    typealias GetIsNull = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias Clear = @convention(c) (OpaquePointer?) -> Void
    typealias ServerVersion = @convention(c) (OpaquePointer?) -> Int32
    typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?) -> OpaquePointer?
    typealias ExecPrepared =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    typealias CmdTuples = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias Notifies = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    typealias FreeMem = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let connectdb: ConnectDB
    let status: Status
    let errorMessage: ErrorMessage
    let finish: Finish
    let execParams: ExecParams
    let resultStatus: ResultStatus
    let resultErrorField: ResultErrorField
    let ntuples: Count
    let nfields: Count
    let getvalue: GetValue
    let getisnull: GetIsNull
    let clear: Clear
    let serverVersion: ServerVersion
    let exec: Exec
    let cmdTuples: CmdTuples
    let prepare: Prepare
    let execPrepared: ExecPrepared
    let consumeInput: Status
    let notifies: Notifies
    let freemem: FreeMem

    /// The Debian package that carries the library, for the message when it is missing.
    static let package = "libpq5"

    /// The library, loaded once; a configuration error naming the package when it is missing.
    static func load() throws -> LibPQ {
        if let loaded = shared { return loaded }
        throw TimeTrackError(
            .configuration, "a PostgreSQL store needs libpq (libpq.so.5), which is not installed",
            fix: "apt-get install \(package)")
    }

    private static let shared: LibPQ? = {
        #if canImport(Glibc)
        for name in ["libpq.so.5", "libpq.so"] {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let library = LibPQ(handle) { return library }
        }
        #endif
        return nil
    }()

    private init?(_ handle: UnsafeMutableRawPointer) {
        func symbol<T>(_ name: String, _: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        guard let connectdb = symbol("PQconnectdb", ConnectDB.self), let status = symbol("PQstatus", Status.self),
            let errorMessage = symbol("PQerrorMessage", ErrorMessage.self), let finish = symbol("PQfinish", Finish.self),
            let execParams = symbol("PQexecParams", ExecParams.self), let resultStatus = symbol("PQresultStatus", ResultStatus.self),
            let resultErrorField = symbol("PQresultErrorField", ResultErrorField.self), let ntuples = symbol("PQntuples", Count.self),
            let nfields = symbol("PQnfields", Count.self), let getvalue = symbol("PQgetvalue", GetValue.self),
            let getisnull = symbol("PQgetisnull", GetIsNull.self), let clear = symbol("PQclear", Clear.self),
            let serverVersion = symbol("PQserverVersion", ServerVersion.self), let exec = symbol("PQexec", Exec.self),
            let cmdTuples = symbol("PQcmdTuples", CmdTuples.self), let consumeInput = symbol("PQconsumeInput", Status.self),
            let notifies = symbol("PQnotifies", Notifies.self), let freemem = symbol("PQfreemem", FreeMem.self),
            let prepare = symbol("PQprepare", Prepare.self), let execPrepared = symbol("PQexecPrepared", ExecPrepared.self)
        else { return nil }
        (self.prepare, self.execPrepared) = (prepare, execPrepared)
        (self.cmdTuples, self.consumeInput, self.notifies, self.freemem) = (cmdTuples, consumeInput, notifies, freemem)
        (self.connectdb, self.status, self.errorMessage, self.finish, self.execParams) = (connectdb, status, errorMessage, finish, execParams)
        (self.resultStatus, self.resultErrorField, self.ntuples, self.nfields, self.getvalue) = (resultStatus, resultErrorField, ntuples, nfields, getvalue)
        (self.getisnull, self.clear, self.serverVersion, self.exec) = (getisnull, clear, serverVersion, exec)
    }
}

/// libpq's `PGnotify` (libpq-fe.h): a notification received on a connection that listens.
struct PGnotify {
    var relname: UnsafeMutablePointer<CChar>?
    var bePid: Int32
    var extra: UnsafeMutablePointer<CChar>?
    var next: UnsafeMutableRawPointer?
}

/// One connection to a PostgreSQL server through libpq.
///
/// Every value goes to the server as a bound parameter (`$1`, `$2`…), never into the SQL text.
///
/// `PostgresStore` works through it: statements prepared once per connection and run with bound
/// text parameters, rows read as text, transactions that hold the store's write lock, the
/// announcements of new pending items, and errors people can act on (PostgreSQL's message and
/// SQLSTATE).
public final class PostgresConnection {
    let pq: LibPQ
    private var handle: OpaquePointer?
    /// `SQLSession.auditHeadQuery`, asked of the server once: after `store grant` only admins
    /// read the log, and everyone learns its head from `timetrack_audit_head()`.
    lazy var auditHeadQuery: String = {
        let granted = (try? scalar("SELECT to_regprocedure('timetrack_audit_head()') IS NOT NULL")) == "t"
        return granted ? "SELECT id, hash FROM timetrack_audit_head()" : "SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1"
    }()

    // libpq's values (libpq-fe.h).
    static let connectionOK: Int32 = 0
    static let commandOK: Int32 = 1, tuplesOK: Int32 = 2
    static let sqlStateField = Int32(UInt8(ascii: "C"))

    /// Connects with a libpq connection string or URI (`postgresql://user@host/db`,
    /// `postgresql:///db?host=/run/postgresql`).
    public init(_ address: String) throws {
        pq = try LibPQ.load()
        handle = address.withCString { pq.connectdb($0) }
        guard let handle, pq.status(handle) == PostgresConnection.connectionOK else {
            let message = handle.flatMap { pq.errorMessage($0) }.map { String(cString: $0) } ?? "out of memory"
            if let handle { pq.finish(handle) }
            self.handle = nil
            throw TimeTrackError(
                .database, "cannot connect to PostgreSQL: " + SafeText.visible(message.trimmingCharacters(in: .whitespacesAndNewlines)),
                fix: "check the server is running and the address (user, host or socket folder, database), and that this account may log in")
        }
        // The server's NOTICEs (a DROP's cascade, an existing object skipped) would be printed
        // by libpq on our stderr, between the tool's own lines: warnings and errors only.
        try execute("SET client_min_messages = warning")
    }

    deinit { close() }

    /// Whether a store location is a PostgreSQL address (`postgresql://…`, `postgres://…`, or
    /// either scheme with a socket folder) rather than a file path.
    public static func isAddress(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgresql:") || lower.hasPrefix("postgres:")
    }

    /// An address as it may be shown: the password (in the URI or as `password=`) replaced.
    public static func redacted(_ address: String) -> String {
        if var parts = URLComponents(string: address), parts.scheme != nil {
            if parts.password != nil { parts.password = "***" }
            parts.queryItems = parts.queryItems?.map { $0.name.lowercased() == "password" ? URLQueryItem(name: $0.name, value: "***") : $0 }
            return SafeText.visible(parts.string ?? "a PostgreSQL address")
        }
        return SafeText.visible(
            address.replacingOccurrences(of: #"password\s*=\s*\S+"#, with: "password=***", options: [.regularExpression, .caseInsensitive]))
    }

    /// Closes the connection; further calls fail.
    public func close() {
        if let handle { pq.finish(handle) }
        handle = nil
    }

    /// The server's version number (150018 for 15.18).
    public var serverVersion: Int { handle.map { Int(pq.serverVersion($0)) } ?? 0 }

    // MARK: Held inserts

    /// New items' inserts held to go as one statement (`insertHeld`): one round trip and one
    /// executor start-up for up to 64 items, where each item was one of each.
    var held = HeldInserts()

    /// Sends the held inserts as one statement (before any other statement, and before a commit).
    func sendHeld() throws {
        guard !held.isEmpty else { return }
        let parts = held.take()
        let combined = SQLDialect.postgres.combining(parts.map(\.sql)) ?? ""
        try executePrepared(combined, parts.flatMap(\.values).map(Self.parameter), text: Self.numbered)
    }

    /// Runs a script of statements that take no values (the schema's migrations).
    public func execute(_ script: String) throws {
        try sendHeld()
        guard let handle else { throw TimeTrackError(.database, "the PostgreSQL connection is closed") }
        let result = script.withCString { pq.exec(handle, $0) }
        defer { pq.clear(result) }
        try check(result)
    }

    /// Throws PostgreSQL's message (and SQLSTATE) unless `result` is a success.
    private func check(_ result: OpaquePointer?) throws {
        let status = pq.resultStatus(result)
        guard status != PostgresConnection.commandOK && status != PostgresConnection.tuplesOK else { return }
        let message = handle.flatMap { pq.errorMessage($0) }.map { String(cString: $0) } ?? "unknown error"
        let state = pq.resultErrorField(result, PostgresConnection.sqlStateField).map { String(cString: $0) }
        var error = TimeTrackError(
            .database, "PostgreSQL: " + SafeText.visible(message.trimmingCharacters(in: .whitespacesAndNewlines)),
            context: state.map { ["sqlstate": $0] } ?? [:])
        if let state { error.signals.insert(.sqlState(state)) }
        throw error
    }

    /// The first column of the first row (nil for none or NULL): a count, a flag.
    public func scalar(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try query(sql, parameters).first?.first ?? nil
    }

    /// Runs one statement with its parameters bound (nil is SQL NULL); returns its rows, each
    /// column as text or nil.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try execute(sql, parameters).rows
    }

    /// Runs one statement: its rows and how many rows it changed (`PQcmdTuples`).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?]) throws -> (rows: [[String?]], changed: Int) {
        try sendHeld()
        guard let handle else { throw TimeTrackError(.database, "the PostgreSQL connection is closed") }
        return try withParameters(parameters) { values in
            let result = sql.withCString { pq.execParams(handle, $0, Int32(parameters.count), nil, values, nil, nil, 0) }
            defer { pq.clear(result) }
            return try read(result)
        }
    }

    /// Statements prepared on this connection (by their SQL text) and their names: the store's
    /// statements are parsed and planned once per connection, not once per call.
    private var prepared: [String: String] = [:]

    /// Runs a statement prepared once per connection (`PQprepare`, then `PQexecPrepared`);
    /// `text` turns `sql` into what the server is sent, once, when it is prepared.
    @discardableResult
    func executePrepared(_ sql: String, _ parameters: [String?], text: (String) -> String = { $0 }) throws -> (rows: [[String?]], changed: Int) {
        try sendHeld()
        guard let handle else { throw TimeTrackError(.database, "the PostgreSQL connection is closed") }
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "tt\(prepared.count + 1)"
            let result = name.withCString { n in text(sql).withCString { pq.prepare(handle, n, $0, 0, nil) } }
            defer { pq.clear(result) }
            try check(result)
            prepared[sql] = name
        }
        return try withParameters(parameters) { values in
            let result = name.withCString { pq.execPrepared(handle, $0, Int32(parameters.count), values, nil, nil, 0) }
            defer { pq.clear(result) }
            return try read(result)
        }
    }

    /// The parameters as C strings that live while `body` runs.
    private func withParameters<T>(_ parameters: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> T) rethrows -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
    }

    /// A result's rows (each column as text or nil) and the rows it changed; its error thrown.
    private func read(_ result: OpaquePointer?) throws -> (rows: [[String?]], changed: Int) {
        try check(result)
        var rows: [[String?]] = []
        let count = pq.ntuples(result), columns = pq.nfields(result)
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(
                (0..<columns).map { column in
                    pq.getisnull(result, row, column) != 0 ? nil : pq.getvalue(result, row, column).map { String(cString: $0) }
                })
        }
        let changed = pq.cmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        return (rows, changed)
    }

    // MARK: Transactions

    /// Transactions and savepoints open on this connection (0: none).
    private(set) var depth = 0

    /// Runs `body` as one transaction (`BEGIN … COMMIT`, rolled back if it throws) holding the
    /// store's write lock (`PostgresStore.writeLock`); inside another, as a savepoint that rolls
    /// back alone.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let name = "s\(depth)"
        // The store's write lock with the BEGIN (one round trip): writers take turns.
        do {
            try execute(depth == 0 ? "BEGIN; SELECT pg_advisory_xact_lock(\(PostgresStore.writeLock))" : "SAVEPOINT \(name)")
        } catch {
            // A BEGIN whose lock was refused (a cancelled wait) leaves nothing open behind it.
            if depth == 0 { try? execute("ROLLBACK") }
            throw error
        }
        depth += 1
        let announced = announcements.count
        /// Undoes this level: its savepoint, or the whole transaction.
        func rollBack() {
            (auditHead, itemHead) = (nil, nil)
            // Inserts held since this level began go with it (those before it were sent when
            // its savepoint was).
            held.drop()
            announcements.removeSubrange(min(announced, announcements.count)...)
            try? execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
        }
        let result: T
        do {
            result = try body()
        } catch {
            depth -= 1
            rollBack()
            throw error
        }
        depth -= 1
        do {
            // The transaction's announcements go with it (the server delivers them on commit).
            if depth == 0 {
                try sendAnnouncements()
                (auditHead, itemHead) = (nil, nil)
            }
            try execute(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(name)")
        } catch {
            // A COMMIT the server refused (or never got): whatever is still open is rolled back.
            rollBack()
            throw error
        }
        return result
    }

    /// The audit chain's head as this transaction wrote it (`SQLSession.auditHead`).
    var auditHead: (id: Int64, hash: String)?
    /// The last item number this transaction gave (`SQLSession.itemHead`).
    var itemHead: Int64?

    /// Item ids with new pending content in the open transaction, announced when it commits.
    private var announcements: [String] = []

    /// Tells listening consoles of `id` with the transaction (at once outside one).
    func announcePending(_ id: String) throws {
        announcements.append(id)
        if depth == 0 { try sendAnnouncements() }
    }

    /// `NOTIFY` of the ids gathered, comma-separated, in payloads under PostgreSQL's 8,000 bytes.
    private func sendAnnouncements() throws {
        defer { announcements.removeAll() }
        var payload = ""
        for id in announcements {
            if !payload.isEmpty && payload.utf8.count + id.utf8.count >= 7_000 {
                try execute("SELECT pg_notify($1, $2)", [PostgresStore.pendingChannel, payload])
                payload = ""
            }
            payload += payload.isEmpty ? id : "," + id
        }
        if !payload.isEmpty { try execute("SELECT pg_notify($1, $2)", [PostgresStore.pendingChannel, payload]) }
    }

    // MARK: Notifications

    /// Reads what the server sent and returns the notifications received since the last call
    /// (channel, payload and the sending backend's pid), without waiting.
    func notifications() throws -> [(channel: String, payload: String, pid: Int32)] {
        guard let handle else { throw TimeTrackError(.database, "the PostgreSQL connection is closed") }
        guard pq.consumeInput(handle) == 1 else {
            let message = pq.errorMessage(handle).map { String(cString: $0) } ?? "connection lost"
            throw TimeTrackError(.database, "PostgreSQL: " + SafeText.visible(message.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        var received: [(String, String, Int32)] = []
        while let raw = pq.notifies(handle) {
            let notice = raw.assumingMemoryBound(to: PGnotify.self)
            received.append(
                (notice.pointee.relname.map { String(cString: $0) } ?? "", notice.pointee.extra.map { String(cString: $0) } ?? "", notice.pointee.bePid))
            pq.freemem(raw)
        }
        return received
    }
}
