import Foundation
import TimeTrackCore

/// One import at a time per PostgreSQL store, whatever machine runs it: a session-scoped
/// advisory lock held on a connection of its own for as long as this object lives.
///
/// The server drops it when that connection ends (the process died, the machine went away), so a
/// lock left
/// by a killed run is simply taken over.
public final class PostgresRunLock: RunLock {
    private let connection: PostgresConnection

    /// Takes the lock, or throws `.busy` naming who holds it (the holder's connection says its
    /// start time, process and host in its `application_name`).
    public init(address: String) throws {
        connection = try PostgresConnection(address)
        let host = ProcessInfo.processInfo.hostName
        let started = StoreDate.format(Date())
        // application_name keeps 63 bytes: the time first, the host (which may be long) last.
        let holder = "timetrack import since \(started), pid \(getpid()) on \(host)"
        try connection.query("SELECT set_config('application_name', $1, false)", [String(holder.prefix(63))])
        // Up to three tries: a holder that is not found had just let go (its run ended between
        // the try and the look), so the lock is tried again rather than refused for nobody.
        var named: String?
        for _ in 0..<3 {
            if try connection.scalar("SELECT pg_try_advisory_lock(\(PostgresStore.importLock))") == "t" { return }
            let other = try? connection.scalar(
                """
                SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.objid = (\(PostgresStore.importLock)::bigint & 4294967295)::oid AND l.database =\
                 (SELECT oid FROM pg_database WHERE datname = current_database())
                LIMIT 1
                """)
            named = (other ?? nil).map { SafeText.visible($0) }.flatMap { $0.isEmpty ? nil : $0 }
            if named != nil { break }
        }
        connection.close()
        throw TimeTrackError(
            .busy, "another import is running on this store" + (named.map { " (\($0))" } ?? ""),
            fix: "this run stops here; the next scheduled run will pick up what is due")
    }

    deinit { connection.close() }
}
