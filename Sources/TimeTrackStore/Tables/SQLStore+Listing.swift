import Foundation
import TimeTrackCore

/// Counts, pages of items, the review queue and the audit log's newest entries, on either engine.
extension SQLStore {
    public func counts() throws -> [ItemKind: [ItemStatus: Int]] {
        var result: [ItemKind: [ItemStatus: Int]] = [:]
        for (kind, status, count) in try sql.select(
            "SELECT kind, status, count(*) FROM items GROUP BY kind, status", [], { ($0.text(0), $0.text(1), $0.int(2)) })
        {
            guard let kind = ItemKind(rawValue: kind), let status = ItemStatus(rawValue: status) else { continue }
            result[kind, default: [:]][status] = count
        }
        return result
    }

    public func count(_ query: ItemQuery, cap: Int) throws -> Int {
        let (conditions, values) = Self.filter(query)
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try sql.integer("SELECT count(*) FROM (SELECT 1 FROM items \(whereClause) LIMIT ?) AS capped", values + [.integer(Int64(max(0, cap)))]) ?? 0
    }

    /// The WHERE conditions of a query's kind, status, source and date range.
    private static func filter(_ query: ItemQuery) -> (conditions: [String], values: [SQLValue]) {
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

    /// The review queue's two arms (pending content; missing long enough), each on its own
    /// partial index and each cut at `suffix` (`LIMIT ?`, in order or not), with `filter`
    /// (` AND …`) on both.
    ///
    /// Cut one by one, each arm is an index range read to its limit on either
    /// engine (PostgreSQL would otherwise read all of a long queue to sort it).
    private func reviewArms(_ columns: String, filter: String, suffix: String) -> String {
        let dialect = sql.dialect
        return """
            SELECT * FROM (SELECT \(columns) FROM items \(dialect.indexed("items_review")) WHERE pending_revision IS NOT NULL AND status IN\
             ('pending', 'published')\(filter)\(suffix)) AS waiting
            UNION ALL
            SELECT * FROM (SELECT \(columns) FROM items \(dialect.indexed("items_missing")) WHERE missing_runs > 0 AND (missing_runs >= ? OR\
             (kind = 'event' AND status = 'published' AND sort_at > ?)) AND pending_revision IS NULL AND status IN ('pending', 'published')\(filter)\(suffix))\
             AS missing
            UNION ALL
            SELECT * FROM (SELECT \(columns) FROM items WHERE status = 'withdrawn'\(filter)\(suffix)) AS withdrawn
            UNION ALL
            SELECT * FROM (SELECT \(columns) FROM items \(dialect.indexed("items_review_by")) WHERE review_by IS NOT NULL AND review_noted = review_by\
             AND status = 'published' AND pending_revision IS NULL AND missing_runs = 0\(filter)\(suffix)) AS due
            """
    }

    /// The values of `reviewArms`' placeholders: each arm's filter values and limit, the missing
    /// threshold and the clock (an upcoming event missing once is "possibly cancelled").
    private func reviewArmValues(_ filter: [SQLValue], upTo: SQLValue, missingThreshold: Int) -> [SQLValue] {
        filter + [upTo, .integer(Int64(missingThreshold)), .date(now())] + filter + [upTo] + filter + [upTo] + filter + [upTo]
    }

    public func list(_ query: ItemQuery) throws -> [ItemSummary] {
        var (conditions, values) = Self.filter(query)
        let columns = """
            id, kind, status, title, school, source_id, sort_at, pending_revision, missing_runs, updated_at, seq,
            CASE kind WHEN 'event' THEN (SELECT time_zone FROM events WHERE events.item_seq = items.seq)
                WHEN 'deadline' THEN (SELECT time_zone FROM deadlines WHERE deadlines.item_seq = items.seq) END AS zone, expires_at
            """
        let statement: String
        if query.needsReview {
            // Merged in (kind, seq) order: instant on a store with a million items and hundreds
            // of thousands waiting.
            let upTo = SQLValue.integer(Int64(max(0, query.limit) + max(0, query.offset)))
            statement =
                reviewArms(columns, filter: conditions.map { " AND " + $0 }.joined(), suffix: " ORDER BY kind, seq LIMIT ?")
                + " ORDER BY kind, seq LIMIT ? OFFSET ?"
            values = reviewArmValues(values, upTo: upTo, missingThreshold: query.missingThreshold)
        } else {
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let order = query.dated == nil ? "sort_at DESC, seq DESC" : "sort_at, seq"
            statement = "SELECT \(columns) FROM items \(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?"
        }
        values.append(.integer(Int64(max(0, query.limit))))
        values.append(.integer(Int64(max(0, query.offset))))
        return try sql.select(statement, values) { s in
            var summary = ItemSummary(
                id: s.text(0), kind: ItemKind(rawValue: s.text(1)) ?? .announcement, status: ItemStatus(rawValue: s.text(2)) ?? .pending,
                title: s.text(3), school: s.optionalText(4), sourceID: s.optionalText(5), sortDate: s.date(6),
                hasPendingRevision: !s.isNull(7), missingRuns: s.int(8), updatedAt: s.date(9) ?? Date(timeIntervalSince1970: 0),
                timeZone: s.optionalText(11))
            summary.expiresAt = s.date(12)
            return summary
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
        let statement = "SELECT count(*) FROM (" + reviewArms("1 AS one", filter: filter, suffix: " LIMIT ?") + " LIMIT ?) AS queue"
        let upTo = SQLValue.integer(Int64(max(0, cap)))
        return try sql.integer(statement, reviewArmValues(values, upTo: upTo, missingThreshold: missingThreshold) + [upTo]) ?? 0
    }

    public func audit(itemID: String?, limit: Int) throws -> [AuditEntry] {
        let columns = "id, at, operator, action, item_id, reason, detail, batch, undo"
        if let itemID {
            let row = try requireRow(itemID)
            return try sql.select(
                "SELECT \(columns) FROM audit WHERE item_seq = ? ORDER BY id DESC LIMIT ?", [.integer(row.seq), .integer(Int64(limit))], Self.auditEntry)
        }
        return try sql.select("SELECT \(columns) FROM audit ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))], Self.auditEntry)
    }

    public func audit(operatorName: String, limit: Int) throws -> [AuditEntry] {
        try sql.select(
            "SELECT id, at, operator, action, item_id, reason, detail, batch, undo FROM audit WHERE operator = ? ORDER BY id DESC LIMIT ?",
            [.text(operatorName), .integer(Int64(limit))], Self.auditEntry)
    }

    static func auditEntry(_ s: any SQLRow) -> AuditEntry {
        AuditEntry(
            id: s.int64(0), at: s.date(1) ?? Date(timeIntervalSince1970: 0), operatorName: s.text(2), action: s.text(3),
            itemID: s.optionalText(4), reason: s.optionalText(5), detail: s.optionalText(6), batch: s.optionalText(7), undo: s.optionalText(8))
    }

    public func published(_ kind: ItemKind) throws -> [PublishedItem] {
        try sql.select(
            """
            SELECT i.id, i.school, i.created_at, i.updated_at, r.content FROM items i
            JOIN revisions r ON r.item_seq = i.seq AND r.number = i.live_revision
            WHERE i.kind = ? AND i.status = 'published' ORDER BY i.seq
            """, [.text(kind.rawValue)]
        ) { s in
            PublishedItem(
                id: s.text(0), school: s.optionalText(1), content: try ItemContent.decode(kind: kind, json: s.text(4)),
                createdAt: s.date(2) ?? Date(timeIntervalSince1970: 0), updatedAt: s.date(3) ?? Date(timeIntervalSince1970: 0))
        }
    }
}

/// `agenda`: the times to come, each read on its own partial index.
extension SQLStore {
    public func agenda(from: Date, to: Date, limit: Int) throws -> [AgendaEntry] {
        let arms: [(column: String, what: ItemTimes.Moment, statuses: String)] = [
            ("publish_at", .publishAt, "'scheduled'"), ("expires_at", .expiresAt, "'published', 'scheduled'"), ("review_by", .reviewBy, "'published'"),
        ]
        var entries: [AgendaEntry] = []
        for arm in arms {
            entries += try sql.select(
                """
                SELECT \(arm.column), id, kind, status, title, school, source_id FROM items
                WHERE \(arm.column) IS NOT NULL AND \(arm.column) >= ? AND \(arm.column) <= ? AND status IN (\(arm.statuses))
                ORDER BY \(arm.column), seq LIMIT ?
                """, [.date(from), .date(to), .integer(Int64(max(0, limit)))]
            ) { s in
                AgendaEntry(
                    at: s.date(0) ?? from, what: arm.what, id: s.text(1), kind: ItemKind(rawValue: s.text(2)) ?? .announcement,
                    status: ItemStatus(rawValue: s.text(3)) ?? .published, title: s.text(4), school: s.optionalText(5), sourceID: s.optionalText(6))
            }
        }
        return Array(entries.sorted { ($0.at, $0.id) < ($1.at, $1.id) }.prefix(max(0, limit)))
    }
}
