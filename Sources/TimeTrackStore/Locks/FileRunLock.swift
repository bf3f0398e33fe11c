import Foundation
import TimeTrackCore

/// One import at a time per SQLite store: an exclusive `flock` on `STORE.import-lock`.
///
/// The kernel drops the lock when its process dies, so a lock left by a killed run is simply taken
/// over. (A PostgreSQL store's is `PostgresRunLock`, beside it.)
public final class FileRunLock: RunLock {
    private let fd: Int32
    public let path: String

    /// Takes the lock, or throws `.busy` saying who holds it.
    public init(storePath: String) throws {
        path = storePath + ".import-lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw TimeTrackError(
                .system, "cannot create the run lock \(path): \(String(cString: strerror(errno)))", fix: "check that the store's folder is writable")
        }
        // Shared like the store: a store in a staff group (0660) has its lock in that group too.
        var store = stat(), lock = stat()
        if stat(storePath, &store) == 0, fstat(fd, &lock) == 0, lock.st_uid == geteuid(), store.st_mode & 0o060 == 0o060 {
            _ = fchown(fd, uid_t.max, store.st_gid)
            _ = fchmod(fd, 0o660)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var holder = ""
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = pread(fd, &buffer, buffer.count, 0)
            if n > 0 { holder = String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            close(fd)
            throw TimeTrackError(
                .busy, "another import is running on this store" + (holder.isEmpty ? "" : " (\(holder))"),
                fix: "this run stops here; the next scheduled run will pick up what is due")
        }
        let note = "pid \(getpid()) since \(StoreDate.format(Date()))\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}
