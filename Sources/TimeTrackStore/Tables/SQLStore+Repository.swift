import Foundation
import TimeTrackCore

/// The repository the lifecycle service decides through: rows, revisions, locks and audit
/// entries read and written in SQL, and nothing else (the rules are `TimeTrackReview`'s). Written
/// once for both engines; where they differ, `SQLDialect` says it.
extension SQLStore {
    static var itemColumns: String {
        """
        seq, id, kind, status, school, source_id, source_key, source_url, fetched_at, page_hash, importer, importer_version,
        live_revision, pending_revision, base_hash, approved_by, approved_at, reject_reason, archived_from, missing_runs,
        created_at, updated_at, guessed
        """
    }

    func itemRow(_ s: any SQLRow) throws -> ItemRow {
        guard let kind = ItemKind(rawValue: s.text(2)), let status = ItemStatus(rawValue: s.text(3)) else {
            throw TimeTrackError(
                .database, "item \(s.text(1)) has an unknown kind or status", fix: "the store was changed by hand; check it with sqlite3 or psql",
                context: ["store": location])
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

    public func transaction<T>(_ body: () throws -> T) throws -> T { try sql.transaction(body) }

    public var inTransaction: Bool { sql.inTransaction }

    /// Rows read inside a transaction are held until it ends (`SQLDialect.forUpdate`).
    private var lockClause: String { sql.inTransaction ? sql.dialect.forUpdate : "" }

    public func row(id: String) throws -> ItemRow? {
        guard let (kind, seq) = ItemKind.parseID(id) else { return nil }
        return try sql.first("SELECT \(Self.itemColumns) FROM items WHERE seq = ? AND kind = ?" + lockClause, [.integer(seq), .text(kind.rawValue)], itemRow)
    }

    public func row(sourceID: String, key: String) throws -> ItemRow? {
        try sql.first("SELECT \(Self.itemColumns) FROM items WHERE source_id = ? AND source_key = ?" + lockClause, [.text(sourceID), .text(key)], itemRow)
    }

    public func activeRows(sourceID: String) throws -> [ItemRow] {
        try sql.select(
            "SELECT \(Self.itemColumns) FROM items WHERE source_id = ? AND status IN ('pending', 'published', 'scheduled') ORDER BY seq", [.text(sourceID)],
            itemRow)
    }

    public func presenceToCount(sourceID: String, seenKeys: Set<String>) throws -> [(id: String, key: String?, missingRuns: Int)] {
        // The source's keys come from the (source_id, source_key) index alone: no item row is read
        // for an item seen. Seen items still counted missing come from the partial index on
        // missing_runs, which holds only the items counted missing anywhere.
        var numbers = Set(
            try sql.select("SELECT seq, source_key FROM items WHERE source_id = ?", [.text(sourceID)]) { s in (s.int64(0), s.optionalText(1)) }
                .filter { !($0.1.map(seenKeys.contains) ?? false) }.map(\.0))
        numbers.formUnion(
            try sql.select("SELECT seq FROM items \(sql.dialect.indexed("items_missing")) WHERE missing_runs > 0 AND source_id = ?", [.text(sourceID)]) {
                $0.int64(0)
            })
        let sorted = numbers.sorted()
        var found: [(seq: Int64, id: String, key: String?, missingRuns: Int)] = []
        for start in stride(from: 0, to: sorted.count, by: 500) {
            let chunk = sorted[start..<min(start + 500, sorted.count)]
            found += try sql.select(
                "SELECT seq, id, source_key, missing_runs FROM items WHERE status IN ('pending', 'published', 'scheduled') AND seq IN"
                    + " (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))",
                chunk.map { .integer($0) }
            ) { ($0.int64(0), $0.text(1), $0.optionalText(2), $0.int(3)) }
        }
        return found.sorted { $0.seq < $1.seq }.map { ($0.id, $0.key, $0.missingRuns) }
    }

    public func sourceKeys(sourceID: String) throws -> Set<String> {
        Set(try sql.select("SELECT source_key FROM items WHERE source_id = ? AND source_key IS NOT NULL", [.text(sourceID)]) { $0.text(0) })
    }

    public func content(of row: ItemRow, revision: Int) throws -> ItemContent {
        guard
            let json = try sql.first(
                "SELECT content FROM revisions WHERE item_seq = ? AND number = ?", [.integer(row.seq), .integer(Int64(revision))], { $0.text(0) })
        else {
            throw TimeTrackError(
                .database, "revision \(revision) of \(row.id) is missing", fix: "the store was changed by hand; check it with sqlite3 or psql",
                context: ["item": row.id])
        }
        return try ItemContent.decode(kind: row.kind, json: json)
    }

    public func revisionStates(of row: ItemRow) throws -> [(number: Int, state: Revision.State)] {
        try sql.select("SELECT number, state FROM revisions WHERE item_seq = ? ORDER BY number", [.integer(row.seq)]) { s in
            (s.int(0), Revision.State(rawValue: s.text(1)) ?? .superseded)
        }
    }

    public func revisions(of row: ItemRow) throws -> [Revision] {
        try sql.select(
            "SELECT number, state, content, content_hash, created_at, created_by, note, went_live_at FROM revisions WHERE item_seq = ? ORDER BY number",
            [.integer(row.seq)]
        ) { s in
            Revision(
                itemID: row.id, number: s.int(0), state: Revision.State(rawValue: s.text(1)) ?? .superseded,
                content: try ItemContent.decode(kind: row.kind, json: s.text(2)), contentHash: s.text(3),
                createdAt: s.date(4) ?? row.createdAt, createdBy: s.text(5), note: s.optionalText(6), wentLiveAt: s.date(7))
        }
    }

    public func lastRevisionNumber(of row: ItemRow) throws -> Int {
        try sql.integer("SELECT max(number) FROM revisions WHERE item_seq = ?", [.integer(row.seq)]) ?? 0
    }

    public func locks(of row: ItemRow) throws -> [FieldLock] {
        try sql.select("SELECT field, locked_by, locked_at, upstream FROM field_locks WHERE item_seq = ? ORDER BY field", [.integer(row.seq)]) { s in
            FieldLock(
                field: s.text(0), lockedBy: s.text(1), lockedAt: s.date(2) ?? Date(timeIntervalSince1970: 0),
                upstream: s.optionalText(3).flatMap { try? JSONValue(parsing: $0) })
        }
    }

    public func insertRow(_ row: ItemRow, content: ItemContent) throws -> ItemRow {
        // The number is read and used under the write lock: alone, the insert is its own transaction.
        guard sql.inTransaction else { return try sql.transaction { try insertRow(row, content: content) } }
        var row = row
        (row.seq, row.id) = try nextItem(row.kind)
        try sql.run(Self.itemInsert, Self.itemValues(row, content))
        try Projection(content).write(itemSeq: row.seq, in: sql)
        return row
    }

    public func insertItem(_ row: ItemRow, content: ItemContent, revision: NewRevision, decision: (ItemRow) -> NewAuditEntry) throws -> ItemRow {
        guard sql.inTransaction else { return try sql.transaction { try insertItem(row, content: content, revision: revision, decision: decision) } }
        var row = row
        (row.seq, row.id) = try nextItem(row.kind)
        let projection = Projection(content)
        let (appendValues, head) = try auditValues(decision(row))
        let statements = [Self.itemInsert, projection.insert, Self.revisionInsert, Self.auditAppend]
        let values = [Self.itemValues(row, content), [.integer(row.seq)] + projection.values, Self.revisionValues(revision, to: row), appendValues]
        // The row, its typed row, its revision and the audit entry: on PostgreSQL held and sent
        // with the next items' as one statement; on SQLite one at a time.
        try sql.insertHeld(statements, values)
        if revision.state == .pending { try sql.announcePending(row.id) }
        sql.auditHead = head
        engine.auditAppends += 1
        return row
    }

    /// The next item's number and id: the highest number plus one, read while no other writer
    /// can insert (the store's write lock: `BEGIN IMMEDIATE` on SQLite, the advisory lock every
    /// PostgreSQL transaction takes, whatever machine it runs on), then counted on for the rest
    /// of the transaction.
    ///
    /// Numbers stay dense, as ids people type should be. Call it inside a
    /// transaction.
    private func nextItem(_ kind: ItemKind) throws -> (Int64, String) {
        let seq = try sql.itemHead.map { $0 + 1 } ?? Int64(sql.integer("SELECT coalesce(max(seq), 0) + 1 FROM items") ?? 1)
        sql.itemHead = seq
        return (seq, kind.idPrefix + String(seq))
    }

    private static var itemInsert: String {
        """
        INSERT INTO items (seq, id, kind, status, school, title, sort_at, source_id, source_key, source_url, fetched_at, page_hash, importer,
                           importer_version, live_revision, pending_revision, base_hash, approved_by, approved_at, reject_reason,
                           archived_from, missing_runs, guessed, created_at, updated_at, publish_at, expires_at, review_by)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    }

    private static func itemValues(_ row: ItemRow, _ content: ItemContent) -> [SQLValue] {
        [
            .integer(row.seq), .text(row.id), .text(row.kind.rawValue), .text(row.status.rawValue), .text(row.school), .text(String(content.title.prefix(300))),
            .date(content.sortDate),
        ]
            + rowValues(row) + [.date(row.createdAt), .date(row.updatedAt)] + timeValues(content)
    }

    /// The columns every row write sets, in `items` order from `source_id` to `missing_runs`, then `guessed`.
    private static func rowValues(_ row: ItemRow) -> [SQLValue] {
        [
            .text(row.sourceID), .text(row.sourceKey), .text(row.sourceURL), .date(row.fetchedAt), .text(row.pageHash), .text(row.importer),
            .text(row.importerVersion), row.liveRevision.map { .integer(Int64($0)) } ?? .null, row.pendingRevision.map { .integer(Int64($0)) } ?? .null,
            .text(row.baseHash), .text(row.approvedBy), .date(row.approvedAt), .text(row.rejectReason), .text(row.archivedFrom?.rawValue),
            .integer(Int64(row.missingRuns)), .text(row.guessed.isEmpty ? nil : row.guessed.joined(separator: "\n")),
        ]
    }

    public func updateRow(_ row: ItemRow) throws {
        try sql.run(
            """
            UPDATE items SET source_id = ?, source_key = ?, source_url = ?, fetched_at = ?, page_hash = ?, importer = ?, importer_version = ?,
                live_revision = ?, pending_revision = ?, base_hash = ?, approved_by = ?, approved_at = ?, reject_reason = ?, archived_from = ?,
                missing_runs = ?, guessed = ?, status = ?, school = ?, updated_at = ?
            WHERE seq = ?
            """,
            Self.rowValues(row) + [.text(row.status.rawValue), .text(row.school), .date(row.updatedAt), .integer(row.seq)])
    }

    /// The item's times as its `publish_at`, `expires_at` and `review_by` columns.
    private static func timeValues(_ content: ItemContent) -> [SQLValue] {
        let times = content.times
        return [.date(times.publishAt), .date(times.expiresAt), .date(times.reviewBy)]
    }

    public func project(_ content: ItemContent, of row: ItemRow) throws {
        try Projection(content).write(itemSeq: row.seq, in: sql)
        try sql.run(
            "UPDATE items SET title = ?, sort_at = ?, publish_at = ?, expires_at = ?, review_by = ? WHERE seq = ?",
            [.text(String(content.title.prefix(300))), .date(content.sortDate)] + Self.timeValues(content) + [.integer(row.seq)])
    }

    public func addRevision(_ revision: NewRevision, to row: ItemRow) throws {
        try sql.run(Self.revisionInsert, Self.revisionValues(revision, to: row))
        // Consoles listening learn of a pending one when (and only if) the transaction commits.
        if revision.state == .pending { try sql.announcePending(row.id) }
    }

    public func addRevision(_ revision: NewRevision, to row: ItemRow, audit entry: NewAuditEntry) throws {
        guard sql.inTransaction else { return try sql.transaction { try addRevision(revision, to: row, audit: entry) } }
        let (appendValues, head) = try auditValues(entry)
        if let combined = sql.dialect.combining([Self.revisionInsert, Self.auditAppend]) {
            try sql.run(combined, Self.revisionValues(revision, to: row) + appendValues)
            if revision.state == .pending { try sql.announcePending(row.id) }
        } else {
            try addRevision(revision, to: row)
            try sql.run(Self.auditAppend, appendValues)
        }
        sql.auditHead = head
        engine.auditAppends += 1
    }

    private static var revisionInsert: String {
        "INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by, run_id, note, went_live_at) VALUES (?, ?, ?,"
            + " ?, ?, ?, ?, ?, ?, ?)"
    }

    private static func revisionValues(_ revision: NewRevision, to row: ItemRow) -> [SQLValue] {
        [
            .integer(row.seq), .integer(Int64(revision.number)), .text(revision.state.rawValue), .text(revision.json), .text(revision.hash),
            .date(revision.at), .text(revision.by), revision.runID.map { .integer($0) } ?? .null, .text(revision.note),
            .date(revision.state == .live ? revision.at : nil),
        ]
    }

    public func setRevisionState(_ state: Revision.State, number: Int, of row: ItemRow, at: Date) throws {
        try sql.run(
            "UPDATE revisions SET state = ?, went_live_at = CASE WHEN ? = 1 AND went_live_at IS NULL THEN ? ELSE went_live_at END WHERE item_seq = ?"
                + " AND number = ?",
            [.text(state.rawValue), .bool(state == .live), .date(at), .integer(row.seq), .integer(Int64(number))])
    }

    public func putLock(_ lock: FieldLock, upstreamAt: Date?, on row: ItemRow) throws {
        let upstream = lock.upstream.flatMap { try? JSONCoding.compactString($0) }
        try sql.run(
            """
            INSERT INTO field_locks (item_seq, field, locked_by, locked_at, upstream, upstream_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (item_seq, field) DO UPDATE SET locked_by = excluded.locked_by, locked_at = excluded.locked_at,
                upstream = excluded.upstream,
                upstream_at = CASE WHEN excluded.upstream \(sql.dialect.same) field_locks.upstream THEN coalesce(field_locks.upstream_at, excluded.upstream_at)
                                   ELSE excluded.upstream_at END
            """,
            [.integer(row.seq), .text(lock.field), .text(lock.lockedBy), .date(lock.lockedAt), .text(upstream), .date(upstream == nil ? nil : upstreamAt)])
    }

    public func removeLock(_ field: String, from row: ItemRow) throws {
        try sql.run("DELETE FROM field_locks WHERE item_seq = ? AND field = ?", [.integer(row.seq), .text(field)])
    }

    public func absenceStudents() throws -> [String] {
        let student = sql.dialect.jsonText("r.content", "student")
        return try sql.select(
            "SELECT DISTINCT \(student) FROM revisions r JOIN items i ON i.seq = r.item_seq WHERE i.kind = 'absence' AND \(student) IS NOT NULL", []
        ) { $0.text(0) }
    }

    public func appendAudit(_ entry: NewAuditEntry) throws {
        // The head is read and extended under the write lock: alone, the append is its own transaction.
        guard sql.inTransaction else { return try sql.transaction { try appendAudit(entry) } }
        let (values, head) = try auditValues(entry)
        try sql.run(Self.auditAppend, values)
        sql.auditHead = head
        engine.auditAppends += 1
    }

    private static var auditAppend: String {
        "INSERT INTO audit (id, at, operator, action, item_seq, item_id, reason, detail, batch, prev_hash, hash, undo) VALUES (?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?, ?)"
    }

    /// The values that append `entry` to the audit chain (`auditAppend`), and the chain's head
    /// after it.
    ///
    /// The next link: the last entry's id and hash, read in the caller's transaction while no
    /// other appender can come between (the store's write lock, as for item numbers). Within one
    /// transaction the head is known after the first append: the lock is still held. Call it
    /// inside a transaction.
    private func auditValues(_ entry: NewAuditEntry) throws -> ([SQLValue], head: (id: Int64, hash: String)) {
        let last = try sql.auditHead ?? sql.first(sql.auditHeadQuery) { ($0.int64(0), $0.text(1)) }
        let fields = AuditChain.Fields(
            id: (last?.0 ?? 0) + 1, at: StoreDate.format(entry.at), operatorName: entry.operatorName, action: entry.action.rawValue, itemSeq: entry.itemSeq,
            itemID: entry.itemID, reason: entry.reason, detail: entry.detail, batch: entry.batch)
        let previous = last?.1 ?? ""
        let hash = AuditChain.hash(fields, previous: previous)
        return (
            [
                .integer(fields.id), .text(fields.at), .text(entry.operatorName), .text(entry.action.rawValue), entry.itemSeq.map { .integer($0) } ?? .null,
                .text(entry.itemID),
                .text(entry.reason), .text(entry.detail), .text(entry.batch), .text(previous), .text(hash), .text(entry.undo),
            ],
            (fields.id, hash)
        )
    }

    /// Walks the whole audit chain (the first entry that does not hold, and why), checks the
    /// append-only guards, the anchor when given, and that the operators table is what the
    /// log's last operator change left.
    public func verifyAudit(anchor: AuditAnchor?) throws -> AuditVerification {
        let rows = try sql.select(AuditChain.selectAll, [], AuditChain.fields)
        var result = AuditChain.verify(rows)
        result.missingGuards = try missingAuditGuards()
        if let anchor {
            result.anchored = true
            if result.problem == nil { result.problem = AuditChain.problem(rows, against: anchor) }
        }
        if result.problem == nil { result.problem = try operatorsProblem(rows) }
        if result.problem == nil { result.problem = try undecidedStatuses() }
        return result
    }

    /// The actions whose entry can leave an item in each decided status.
    static var decidingActions: [ItemStatus: [AuditAction]] {
        [
            .published: [.approve, .revert, .restore, .undoItem, .reply, .close, .reopen, .edit, .excuse],
            .rejected: [.reject, .restore, .undoItem, .unexcuse],
            .archived: [.archive, .undoItem],
        ]
    }

    /// Items whose status no decision in the log made.
    ///
    /// Published, rejected or archived with no entry of an action that leaves an item so (a
    /// status written into the store by hand, past the tool). Nil when every decided item has one.
    func undecidedStatuses() throws -> String? {
        var found: [String] = []
        for (status, actions) in Self.decidingActions.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let names = actions.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            found += try sql.select(
                "SELECT id FROM items i WHERE status = ? AND NOT EXISTS (SELECT 1 FROM audit a WHERE a.item_seq = i.seq AND a.action IN (\(names)))"
                    + " ORDER BY seq LIMIT 5", [.text(status.rawValue)]
            ) { "\($0.text(0)) (\(status.rawValue))" }
        }
        guard !found.isEmpty else { return nil }
        return "no decision in the log made the status of " + found.prefix(5).joined(separator: ", ")
            + ": it was written into the store past the tool (restore the store from a backup, or decide the item again with the tool)"
    }

    /// The guards the log lacks, by name.
    func missingAuditGuards() throws -> [String] {
        switch sql.dialect {
        case .sqlite:
            let present = try sql.select("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit'", []) {
                ($0.text(0), $0.optionalText(1) ?? "")
            }
            // The trigger's text must be ours, word for word: one of the same name that does
            // nothing is no guard.
            func folded(_ sql: String) -> String { sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ") }
            let expected = AuditChain.triggerStatements.map { folded($0.replacingOccurrences(of: "IF NOT EXISTS ", with: "")) }
            return AuditChain.sqliteGuards.filter { name in !present.contains { $0.0 == name && expected.contains(folded($0.1)) } }
        case .postgres:
            let trigger =
                try sql.integer(
                    "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'audit'::regclass AND tgname = 'audit_append_only' AND tgenabled <> 'D'") ?? 0
            let function =
                try sql.integer("SELECT count(*) FROM pg_proc WHERE proname = 'timetrack_audit_append_only' AND prosrc LIKE '%RAISE EXCEPTION%'") ?? 0
            return trigger == 1 && function == 1 ? [] : ["audit_append_only"]
        }
    }

    public func repairAuditGuards() throws -> [String] {
        try sql.transaction {
            let missing = try missingAuditGuards()
            guard !missing.isEmpty else { return [] }
            switch sql.dialect {
            case .sqlite:
                for name in missing { try sql.run("DROP TRIGGER IF EXISTS \(name)", []) }
                for statement in AuditChain.triggerStatements { try sql.run(statement, []) }
            case .postgres:
                try sql.run("DROP TRIGGER IF EXISTS audit_append_only ON audit", [])
                try sql.run(PostgresSchema.auditGuardFunction.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"), [])
                try sql.run(PostgresSchema.auditGuardTrigger, [])
            }
            return missing
        }
    }

    /// Why the operators table is not what the log's operator changes left, or nil.
    ///
    /// Each change records the table's digest after it (`operators:HEX` as its batch); entries
    /// written before
    /// digests existed are not checked.
    func operatorsProblem(_ rows: [(AuditChain.Fields, prev: String?, hash: String?)]) throws -> String? {
        guard let last = rows.last(where: { $0.0.batch?.hasPrefix(AuditChain.operatorsBatch) == true }), let recorded = last.0.batch else { return nil }
        let now = try operatorsDigest()
        guard recorded != now else { return nil }
        return "the operators table was changed outside the log: it is not what entry \(last.0.id) (\(last.0.action) by \(last.0.operatorName)) left; "
            + "compare `operator list` with `audit` (a role may have been raised by hand)"
    }

    /// `operators:` and the SHA-256 of every operator's name, role, login, schools and state.
    func operatorsDigest() throws -> String {
        let rows = try sql.select("SELECT name, role, login, schools, active FROM operators ORDER BY name", []) { s in
            [s.text(0), s.text(1), s.optionalText(2) ?? "", s.optionalText(3) ?? "", String(s.int(4))].joined(separator: "\u{1F}")
        }
        return AuditChain.operatorsBatch + SHA256.hex(rows.joined(separator: "\u{1E}"))
    }
}

/// The times `import --due` applies (`Lifecycle.applyDue`).
extension SQLStore {
    public func dueRows(at: Date) throws -> [String] {
        let now = SQLValue.date(at)
        return try sql.select(
            """
            SELECT id FROM items WHERE (status IN ('published', 'scheduled') AND expires_at IS NOT NULL AND expires_at <= ?)
                OR (status = 'scheduled' AND publish_at IS NOT NULL AND publish_at <= ?)
                OR (status = 'published' AND review_by IS NOT NULL AND review_by <= ? AND (review_noted IS NULL OR review_noted <> review_by))
            ORDER BY seq
            """, [now, now, now]
        ) { $0.text(0) }
    }

    public func reviewNoted(of row: ItemRow) throws -> Date? {
        try sql.first("SELECT review_noted FROM items WHERE seq = ?", [.integer(row.seq)]) { $0.date(0) } ?? nil
    }

    public func noteReviewDue(_ row: ItemRow, reviewBy: Date) throws {
        try sql.run("UPDATE items SET review_noted = ? WHERE seq = ?", [.date(reviewBy), .integer(row.seq)])
    }
}
