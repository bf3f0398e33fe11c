import Foundation
import TimeTrackCore

/// The one door to a store: a location (a file path, or a `postgresql://` address) becomes an
/// open store, with its engine's run lock and read-only connections for the read-ahead lanes.
///
/// Nothing else in the program picks an engine; the import module sees only the protocols.
public enum StoreLocation {
    /// The engines a store can live in.
    ///
    /// Every place that differs by engine switches over this exhaustively, so a third engine cannot
    /// compile without saying what it does.
    public enum Engine: Sendable, Equatable {
        case sqlite
        case postgres
    }

    /// An open store and what an import needs besides it.
    public struct Opened {
        public let engine: Engine
        public let store: any ImportStore
        /// Takes the store's run lock (a lock file beside a SQLite store, an advisory lock on
        /// PostgreSQL), or throws `.busy` naming who holds it.
        public let runLock: () throws -> any RunLock
        /// Opens one more connection to the same store, read-only (a read-ahead lane), typed as
        /// what a lane reads: it has none of the store's writing calls.
        public let reader: @Sendable () throws -> any ReadingLane
    }

    /// The engine a location names; a server address of another database is refused.
    public static func engine(of location: String) throws -> Engine {
        if PostgresConnection.isAddress(location) { return .postgres }
        guard !isServerAddress(location) else {
            throw TimeTrackError(
                .configuration, "\(PostgresConnection.redacted(location)) is a database server's address, and the store keeps to SQLite files and PostgreSQL",
                fix: "give --store (or TIMETRACK_STORE) a file path, or a postgresql://USER@HOST/DB address")
        }
        return .sqlite
    }

    /// Whether a location is a database server's address (`scheme://…`, or `postgres:`,
    /// `postgresql:`, `mysql:`… with a socket folder) rather than a file path.
    public static func isServerAddress(_ location: String) -> Bool {
        let lower = location.lowercased()
        let hasScheme = location.range(of: #"^[a-zA-Z][a-zA-Z0-9+.-]*://"#, options: .regularExpression) != nil
        return hasScheme || ["postgresql:", "postgres:", "mysql:", "mariadb:", "sqlserver:"].contains { lower.hasPrefix($0) }
    }

    /// Opens the store at `location`: `create` makes a SQLite file that is not there yet (a
    /// PostgreSQL store's schema is made in its empty database whenever it is opened); `group`:
    /// a new SQLite file is shared with this Unix group (0660).
    public static func open(_ location: String, create: Bool = false, group: gid_t? = nil) throws -> Opened {
        switch try engine(of: location) {
        case .sqlite:
            let store = try SQLiteStore(path: location, create: create, group: group)
            let path = store.location
            return Opened(
                engine: .sqlite, store: store, runLock: { try FileRunLock(storePath: path) },
                reader: { try SQLiteStore(path: path, create: false, readOnly: true) })
        case .postgres:
            let store = try PostgresStore(address: location, create: create)
            return Opened(
                engine: .postgres, store: store, runLock: { try PostgresRunLock(address: location) },
                reader: { try PostgresStore(address: location, readOnly: true) })
        }
    }
}
