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

    public func counts() throws -> [ItemKind: [ItemStatus: Int]] {
        var result: [ItemKind: [ItemStatus: Int]] = [:]
        for (kind, status, count) in try db.rows("SELECT kind, status, count(*) FROM items GROUP BY kind, status", [], { ($0.text(0), $0.text(1), $0.int(2)) }) {
            guard let kind = ItemKind(rawValue: kind), let status = ItemStatus(rawValue: status) else { continue }
            result[kind, default: [:]][status] = count
        }
        return result
    }

    public func count(_ query: ItemQuery, cap: Int) throws -> Int {
        let (conditions, values) = filter(query)
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try db.optionalInt("SELECT count(*) FROM (SELECT 1 FROM items \(whereClause) LIMIT ?)", values + [.integer(Int64(max(0, cap)))]) ?? 0
    }

    /// The WHERE conditions of a query's kind, status, source and date range.
    private func filter(_ query: ItemQuery) -> (conditions: [String], values: [SQLValue]) {
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
        if let dated = query.dated {
            conditions.append("sort_at >= ? AND sort_at <= ?")
            values += [.date(dated.lowerBound), .date(dated.upperBound)]
        }
        return (conditions, values)
    }

    public func list(_ query: ItemQuery) throws -> [ItemSummary] {
        var (conditions, values) = filter(query)
        let columns = """
            id, kind, status, title, school, source_id, sort_at, pending_revision, missing_runs, updated_at, seq,
            CASE kind WHEN 'event' THEN (SELECT time_zone FROM events WHERE events.item_seq = items.seq)
                WHEN 'deadline' THEN (SELECT time_zone FROM deadlines WHERE deadlines.item_seq = items.seq) END AS zone
            """
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
            let order = query.dated == nil ? "sort_at DESC, seq DESC" : "sort_at, seq"
            sql = "SELECT \(columns) FROM items \(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?"
        }
        values.append(.integer(Int64(max(0, query.limit))))
        values.append(.integer(Int64(max(0, query.offset))))
        return try db.rows(sql, values) { s in
            ItemSummary(
                id: s.text(0), kind: ItemKind(rawValue: s.text(1)) ?? .announcement, status: ItemStatus(rawValue: s.text(2)) ?? .pending,
                title: s.text(3), school: s.optionalText(4), sourceID: s.optionalText(5), sortDate: s.date(6),
                hasPendingRevision: !s.isNull(7), missingRuns: s.int(8), updatedAt: s.date(9) ?? Date(timeIntervalSince1970: 0),
                timeZone: s.optionalText(11))
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

    public func audit(itemID: String?, limit: Int) throws -> [AuditEntry] {
        let map = SQLiteStore.auditEntry
        if let itemID {
            let row = try requireRow(itemID)
            return try db.rows(
                "SELECT id, at, operator, action, item_id, reason, detail, batch FROM audit WHERE item_seq = ? ORDER BY id DESC LIMIT ?",
                [.integer(row.seq), .integer(Int64(limit))], map)
        }
        return try db.rows("SELECT id, at, operator, action, item_id, reason, detail, batch FROM audit ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))], map)
    }

    public func audit(operatorName: String, limit: Int) throws -> [AuditEntry] {
        try db.rows(
            "SELECT id, at, operator, action, item_id, reason, detail, batch FROM audit WHERE operator = ? ORDER BY id DESC LIMIT ?",
            [.text(operatorName), .integer(Int64(limit))], SQLiteStore.auditEntry)
    }

    static func auditEntry(_ s: Statement) -> AuditEntry {
        AuditEntry(
            id: s.int64(0), at: s.date(1) ?? Date(timeIntervalSince1970: 0), operatorName: s.text(2), action: s.text(3),
            itemID: s.optionalText(4), reason: s.optionalText(5), detail: s.optionalText(6), batch: s.optionalText(7))
    }
}
