import Foundation
import TimeTrackCore

extension SQLiteStore {
    /// The row of `items` that reads need.
    struct ItemRow {
        var seq: Int64
        var id: String
        var kind: ItemKind
        var status: ItemStatus
        var school: String?
        var sourceID: String?
        var sourceKey: String?
        var sourceURL: String?
        var fetchedAt: Date?
        var pageHash: String?
        var importer: String?
        var importerVersion: String?
        var liveRevision: Int?
        var pendingRevision: Int?
        var baseHash: String
        var approvedBy: String?
        var approvedAt: Date?
        var rejectReason: String?
        var archivedFrom: ItemStatus?
        var missingRuns: Int
        var createdAt: Date
        var updatedAt: Date

        /// The revision new work builds on: the pending one if any, else the live one.
        var baseRevision: Int? { pendingRevision ?? liveRevision }
    }

    static let itemColumns = """
        seq, id, kind, status, school, source_id, source_key, source_url, fetched_at, page_hash, importer, importer_version,
        live_revision, pending_revision, base_hash, approved_by, approved_at, reject_reason, archived_from, missing_runs,
        created_at, updated_at
        """

    func itemRow(_ s: Statement) throws -> ItemRow {
        guard let kind = ItemKind(rawValue: s.text(2)), let status = ItemStatus(rawValue: s.text(3)) else {
            throw TimeTrackError(.database, "item \(s.text(1)) has an unknown kind or status", fix: "the store was changed by hand; check it with sqlite3", context: ["file": location])
        }
        return ItemRow(
            seq: s.int64(0), id: s.text(1), kind: kind, status: status, school: s.optionalText(4), sourceID: s.optionalText(5),
            sourceKey: s.optionalText(6), sourceURL: s.optionalText(7), fetchedAt: s.date(8), pageHash: s.optionalText(9),
            importer: s.optionalText(10), importerVersion: s.optionalText(11), liveRevision: s.optionalInt(12),
            pendingRevision: s.optionalInt(13), baseHash: s.text(14), approvedBy: s.optionalText(15), approvedAt: s.date(16),
            rejectReason: s.optionalText(17), archivedFrom: s.optionalText(18).flatMap(ItemStatus.init(rawValue:)),
            missingRuns: s.int(19), createdAt: s.date(20) ?? Date(timeIntervalSince1970: 0), updatedAt: s.date(21) ?? Date(timeIntervalSince1970: 0))
    }

    /// The sequence number an id names, or nil when the id cannot be one of ours.
    static func sequence(of id: String) -> (ItemKind, Int64)? {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, let kind = ItemKind.forIDPrefix(first), let seq = Int64(trimmed.dropFirst()), seq > 0 else { return nil }
        return (kind, seq)
    }

    /// The items row for an id, or a `.notFound` error saying "no item X".
    func requireRow(_ id: String) throws -> ItemRow {
        let missing = TimeTrackError(.notFound, "no item \(id)", fix: "`list` shows item ids", context: ["item": id])
        guard let (kind, seq) = SQLiteStore.sequence(of: id) else { throw missing }
        let row = try db.row("SELECT \(SQLiteStore.itemColumns) FROM items WHERE seq = ? AND kind = ?", [.integer(seq), .text(kind.rawValue)], itemRow)
        guard let row else { throw missing }
        return row
    }

    func content(of row: ItemRow, revision: Int) throws -> ItemContent {
        guard let json = try db.row("SELECT content FROM revisions WHERE item_seq = ? AND number = ?", [.integer(row.seq), .integer(revision)], { $0.text(0) }) else {
            throw TimeTrackError(.database, "revision \(revision) of \(row.id) is missing", fix: "the store was changed by hand; check it with sqlite3", context: ["item": row.id])
        }
        return try ItemContent.decode(kind: row.kind, json: json)
    }

    func locks(of seq: Int64) throws -> [String] {
        try db.rows("SELECT field FROM field_locks WHERE item_seq = ? ORDER BY field", [.integer(seq)]) { $0.text(0) }
    }

    func lockStates(of seq: Int64) throws -> [FieldLock] {
        try db.rows("SELECT field, locked_by, locked_at, upstream FROM field_locks WHERE item_seq = ? ORDER BY field", [.integer(seq)]) { s in
            FieldLock(
                field: s.text(0), lockedBy: s.text(1), lockedAt: s.date(2) ?? Date(timeIntervalSince1970: 0),
                upstream: s.optionalText(3).flatMap { try? JSONCoding.decoder().decode(JSONValue.self, from: Data($0.utf8)) })
        }
    }

    public func fieldLocks(_ id: String) throws -> [FieldLock] {
        try lockStates(of: try requireRow(id).seq)
    }

    func makeItem(_ row: ItemRow) throws -> Item {
        let shownRevision = row.liveRevision ?? row.pendingRevision ?? 1
        let content = try content(of: row, revision: shownRevision)
        let pending: ItemContent? = (row.liveRevision != nil && row.pendingRevision != nil) ? try self.content(of: row, revision: row.pendingRevision ?? 1) : nil
        var provenance: Provenance?
        if let sourceID = row.sourceID, let url = row.sourceURL {
            provenance = Provenance(
                sourceID: sourceID, sourceURL: url, fetchedAt: row.fetchedAt ?? row.createdAt, pageHash: row.pageHash ?? "",
                importer: row.importer ?? "", importerVersion: row.importerVersion ?? "")
        }
        return Item(
            id: row.id, kind: row.kind, status: row.status, school: row.school, content: content, pendingContent: pending,
            pendingRevision: row.pendingRevision, provenance: provenance, sourceKey: row.sourceKey, createdAt: row.createdAt,
            updatedAt: row.updatedAt, approvedBy: row.approvedBy, approvedAt: row.approvedAt, rejectReason: row.rejectReason,
            lockedFields: try locks(of: row.seq), missingRuns: row.missingRuns, archivedFrom: row.archivedFrom)
    }

    public func item(_ id: String) throws -> Item { try makeItem(try requireRow(id)) }

    public func counts() throws -> [ItemKind: [ItemStatus: Int]] {
        var result: [ItemKind: [ItemStatus: Int]] = [:]
        for (kind, status, count) in try db.rows("SELECT kind, status, count(*) FROM items GROUP BY kind, status", [], { ($0.text(0), $0.text(1), $0.int(2)) }) {
            guard let kind = ItemKind(rawValue: kind), let status = ItemStatus(rawValue: status) else { continue }
            result[kind, default: [:]][status] = count
        }
        return result
    }

    public func list(_ query: ItemQuery) throws -> [ItemSummary] {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let kind = query.kind {
            conditions.append("kind = ?")
            values.append(.text(kind.rawValue))
        }
        if let status = query.status {
            conditions.append("status = ?")
            values.append(.text(status.rawValue))
        }
        if let source = query.sourceID {
            conditions.append("source_id = ?")
            values.append(.text(source))
        }
        let columns = "id, kind, status, title, school, source_id, sort_at, pending_revision, missing_runs, updated_at, seq"
        let sql: String
        if query.needsReview {
            // Two arms, each on its own partial index, merged in (kind, seq) order: instant on
            // a store with a million items and hundreds of thousands waiting.
            let filter = conditions.map { " AND " + $0 }.joined()
            sql = """
                SELECT \(columns) FROM items INDEXED BY items_review WHERE pending_revision IS NOT NULL AND status IN ('pending', 'published')\(filter)
                UNION ALL
                SELECT \(columns) FROM items INDEXED BY items_missing WHERE missing_runs > 0 AND missing_runs >= ? AND pending_revision IS NULL AND status IN ('pending', 'published')\(filter)
                ORDER BY kind, seq LIMIT ? OFFSET ?
                """
            values = values + [.integer(Int64(query.missingThreshold))] + values
        } else {
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            sql = "SELECT \(columns) FROM items \(whereClause) ORDER BY sort_at DESC, seq DESC LIMIT ? OFFSET ?"
        }
        values.append(.integer(Int64(max(0, query.limit))))
        values.append(.integer(Int64(max(0, query.offset))))
        return try db.rows(sql, values) { s in
            ItemSummary(
                id: s.text(0), kind: ItemKind(rawValue: s.text(1)) ?? .announcement, status: ItemStatus(rawValue: s.text(2)) ?? .pending,
                title: s.text(3), school: s.optionalText(4), sourceID: s.optionalText(5), sortDate: s.date(6),
                hasPendingRevision: !s.isNull(7), missingRuns: s.int(8), updatedAt: s.date(9) ?? Date(timeIntervalSince1970: 0))
        }
    }

    /// How many items wait in the review queue, counted up to `cap` (an exact count of a huge
    /// queue is not worth its time).
    public func reviewCount(kind: ItemKind?, sourceID: String?, missingThreshold: Int, cap: Int) throws -> Int {
        var filter = ""
        var values: [SQLValue] = []
        if let kind {
            filter += " AND kind = ?"
            values.append(.text(kind.rawValue))
        }
        if let sourceID {
            filter += " AND source_id = ?"
            values.append(.text(sourceID))
        }
        let sql = """
            SELECT count(*) FROM (
                SELECT 1 FROM items INDEXED BY items_review WHERE pending_revision IS NOT NULL AND status IN ('pending', 'published')\(filter)
                UNION ALL
                SELECT 1 FROM items INDEXED BY items_missing WHERE missing_runs > 0 AND missing_runs >= ? AND pending_revision IS NULL AND status IN ('pending', 'published')\(filter)
                LIMIT ?)
            """
        return try db.optionalInt(sql, values + [.integer(Int64(missingThreshold))] + values + [.integer(Int64(cap))]) ?? 0
    }

    public func revisions(of id: String) throws -> [Revision] {
        let row = try requireRow(id)
        return try db.rows(
            "SELECT number, state, content, content_hash, created_at, created_by, note FROM revisions WHERE item_seq = ? ORDER BY number",
            [.integer(row.seq)]
        ) { s in
            Revision(
                itemID: row.id, number: s.int(0), state: Revision.State(rawValue: s.text(1)) ?? .superseded,
                content: try ItemContent.decode(kind: row.kind, json: s.text(2)), contentHash: s.text(3),
                createdAt: s.date(4) ?? row.createdAt, createdBy: s.text(5), note: s.optionalText(6))
        }
    }

    public func audit(itemID: String?, limit: Int) throws -> [AuditEntry] {
        let map: (Statement) -> AuditEntry = { s in
            AuditEntry(
                id: s.int64(0), at: s.date(1) ?? Date(timeIntervalSince1970: 0), operatorName: s.text(2), action: s.text(3),
                itemID: s.optionalText(4), reason: s.optionalText(5), detail: s.optionalText(6))
        }
        if let itemID {
            let row = try requireRow(itemID)
            return try db.rows(
                "SELECT id, at, operator, action, item_id, reason, detail FROM audit WHERE item_seq = ? ORDER BY id DESC LIMIT ?",
                [.integer(row.seq), .integer(Int64(limit))], map)
        }
        return try db.rows("SELECT id, at, operator, action, item_id, reason, detail FROM audit ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))], map)
    }
}
