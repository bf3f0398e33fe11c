import Foundation
import TimeTrackCore

extension SQLiteStore {
    /// What the store holds on disk, for the benchmark: bytes in use (pages less free pages),
    /// the bytes of all revisions' content, and how many revisions there are.
    public func storageFigures() throws -> (usedBytes: Int, contentBytes: Int, revisions: Int) {
        let pageSize = try db.row("PRAGMA page_size", []) { $0.int(0) } ?? 0
        let pages = try db.row("PRAGMA page_count", []) { $0.int(0) } ?? 0
        let free = try db.row("PRAGMA freelist_count", []) { $0.int(0) } ?? 0
        let (content, revisions) =
            try db.row("SELECT coalesce(sum(length(CAST(content AS BLOB))), 0), count(*) FROM revisions", []) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        return ((pages - free) * pageSize, content, revisions)
    }
}
