import Foundation
import TimeTrackCore

extension SQLiteStore {
    static let itemColumns = """
        seq, id, kind, status, school, source_id, source_key, source_url, fetched_at, page_hash, importer, importer_version,
        live_revision, pending_revision, base_hash, approved_by, approved_at, reject_reason, archived_from, missing_runs,
        created_at, updated_at, guessed
        """

    func itemRow(_ s: Statement) throws -> ItemRow {
        guard let kind = ItemKind(rawValue: s.text(2)), let status = ItemStatus(rawValue: s.text(3)) else {
            throw TimeTrackError(.database, "item \(s.text(1)) has an unknown kind or status", fix: "the store was changed by hand; check it with sqlite3", context: ["file": location])
        }
        var row = ItemRow(
            seq: s.int64(0), id: s.text(1), kind: kind, status: status, school: s.optionalText(4), sourceID: s.optionalText(5),
            sourceKey: s.optionalText(6), sourceURL: s.optionalText(7), fetchedAt: s.date(8), pageHash: s.optionalText(9),
            importer: s.optionalText(10), importerVersion: s.optionalText(11), liveRevision: s.optionalInt(12),
            pendingRevision: s.optionalInt(13), baseHash: s.text(14), approvedBy: s.optionalText(15), approvedAt: s.date(16),
            rejectReason: s.optionalText(17), archivedFrom: s.optionalText(18).flatMap(ItemStatus.init(rawValue:)),
            missingRuns: s.int(19), createdAt: s.date(20) ?? Date(timeIntervalSince1970: 0), updatedAt: s.date(21) ?? Date(timeIntervalSince1970: 0))
        if let guessed = s.optionalText(22), !guessed.isEmpty { row.guessed = guessed.split(separator: "\n").map(String.init) }
        return row
    }
}
