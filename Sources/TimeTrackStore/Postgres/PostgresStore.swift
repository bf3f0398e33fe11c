import Foundation
import TimeTrackCore

/// The app's store in a PostgreSQL database: the same tables, columns and values as
/// `SQLiteStore`'s, so `TimeTrackReview.Lifecycle` decides on either engine with no rule written
/// twice, and the shared tables (operators, runs, places, courses, memos, the HTTP cache) and
/// listing queries are `SQLStore`'s, written once for both.
///
/// What PostgreSQL adds: writers take turns on a transaction-scoped advisory lock (`writeLock`),
/// so item numbers stay dense and the audit chain never forks whatever machine writes; a
/// decision also reads its row `FOR UPDATE`; the operator is the database role
/// (`session_user`), so the server's authentication is the tool's; new pending items are
/// announced with `NOTIFY` on `timetrack_pending`.
public final class PostgresStore: ItemStore, SQLStore, PageMemo, FetchCache, PendingAnnouncements {
    let db: PostgresConnection
    public let location: String
    public var now: () -> Date = { Date() }
    public private(set) var schemaVersion = 0
    public let engine: SQLEngine
    /// The database role this connection logged in as (`session_user`): the operator's login.
    public let account: String?

    /// The store's write lock: every transaction takes it when it begins and holds it to its end
    /// (`pg_advisory_xact_lock`), so writers on every machine take turns as SQLite's do, in one
    /// order (no deadlock between a desk's row and an import's batch); readers never wait.
    static let writeLock = "5454413102"
    /// The advisory lock one import holds for its whole run (session-scoped).
    static let importLock = "5454413103"
    /// The channel new pending items are announced on.
    public static let pendingChannel = "timetrack_pending"

    /// Connects to `address`, migrating the schema, and making it in an empty database when
    /// `create` (imports do; `status` does not, as for a SQLite file).
    ///
    /// `readOnly`: the connection
    /// refuses writes (read-ahead lanes).
    /// - Throws: `.notFound` when the database holds no store and `create` is false.
    public init(address: String, create: Bool = true, readOnly: Bool = false) throws {
        db = try PostgresConnection(address)
        location = PostgresConnection.redacted(address)
        engine = SQLEngine(db)
        if !create || readOnly, try db.scalar("SELECT to_regclass('timetrack_schema') IS NOT NULL") != "t" {
            db.close()
            throw TimeTrackError(
                .notFound, "no store in this PostgreSQL database yet",
                fix: "run an import (`timetrack-admin import --all`) to make it here, or check the database's name in the address", context: ["store": location]
            )
        }
        if readOnly {
            try db.execute("SET default_transaction_read_only = on")
            schemaVersion = Int(try db.scalar("SELECT version FROM timetrack_schema") ?? "") ?? 0
        } else {
            schemaVersion = try PostgresSchema.migrate(db)
        }
        account = try db.scalar("SELECT session_user")
    }

    public func close() { db.close() }
    public var auditEntriesWritten: Int { engine.auditAppends }

    /// This connection's server process (its own announcements are not news to it), once listening.
    private var listeningAs: Int32?

    public func newlyPending() -> [String] {
        guard let own = listeningAs else {
            try? db.execute("LISTEN \(Self.pendingChannel)")
            listeningAs = Int32(((try? db.scalar("SELECT pg_backend_pid()")) ?? nil).flatMap { Int32($0) } ?? 0)
            return []
        }
        // A payload names the items of one transaction, comma-separated.
        return ((try? db.notifications()) ?? []).filter { $0.channel == Self.pendingChannel && $0.pid != own }.flatMap {
            $0.payload.split(separator: ",").map(String.init)
        }
    }

    /// The server answers and the schema is there (PostgreSQL keeps its own files consistent).
    public func requireHealthy() throws {
        guard try db.scalar("SELECT version FROM timetrack_schema").flatMap({ Int($0) }) == schemaVersion else {
            throw TimeTrackError(
                .storeUnusable, "the store's schema table is missing or changed", fix: "restore the database from a backup (pg_dump)",
                context: ["store": location])
        }
    }
}
