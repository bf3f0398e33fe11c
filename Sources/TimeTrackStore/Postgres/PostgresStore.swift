import Foundation
import TimeTrackCore

/// The app's store in a PostgreSQL database: the same tables, columns and values as
/// `SQLiteStore`'s, so `TimeTrackReview.Lifecycle` decides on either engine with no rule written
/// twice, and the shared tables (operators, runs, places, courses, memos, the HTTP cache) and
/// listing queries are `SQLStore`'s, written once for both.
///
/// What PostgreSQL adds: item numbers from the `items` identity (writers on several machines
/// never collide); a decision reads its row `FOR UPDATE` (two desks deciding one item take
/// turns); audit entries chained under a transaction-scoped advisory lock (the chain never
/// forks); the operator is the database role (`session_user`), so the server's authentication is
/// the tool's; new pending items announced with `NOTIFY` on `timetrack_pending`.
public final class PostgresStore: ItemStore, SQLStore, PageMemo, FetchCache, PendingAnnouncements {
    let db: PostgresConnection
    public let location: String
    public var now: () -> Date = { Date() }
    public private(set) var schemaVersion = 0
    public let engine: SQLEngine
    /// The database role this connection logged in as (`session_user`): the operator's login.
    public let account: String?

    /// The advisory lock that orders audit appends (any constant of the application's own).
    static let auditLock = "5454413101"
    /// The advisory lock under which read-then-write changes of the shared tables run.
    static let writeLock = "5454413102"
    /// The advisory lock one import holds for its whole run (session-scoped).
    static let importLock = "5454413103"
    /// The channel new pending items are announced on.
    public static let pendingChannel = "timetrack_pending"

    /// Connects to `address`, migrating the schema, and making it in an empty database when
    /// `create` (imports do; `status` does not, as for a SQLite file). `readOnly`: the connection
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
                fix: "run an import (`timetrack-admin import --all`) to make it here, or check the database's name in the address", context: ["store": location])
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

    /// This connection's server process (its own announcements are not news to it), once listening.
    private var listeningAs: Int32?

    public func newlyPending() -> [String] {
        guard let own = listeningAs else {
            try? db.execute("LISTEN \(Self.pendingChannel)")
            listeningAs = Int32(((try? db.scalar("SELECT pg_backend_pid()")) ?? nil).flatMap { Int32($0) } ?? 0)
            return []
        }
        return ((try? db.notifications()) ?? []).filter { $0.channel == Self.pendingChannel && $0.pid != own }.map(\.payload)
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T { try db.transaction(body) }

    /// The server answers and the schema is there (PostgreSQL keeps its own files consistent).
    public func requireHealthy() throws {
        guard try db.scalar("SELECT version FROM timetrack_schema").flatMap({ Int($0) }) == schemaVersion else {
            throw TimeTrackError(.storeUnusable, "the store's schema table is missing or changed", fix: "restore the database from a backup (pg_dump)", context: ["store": location])
        }
    }

    static let itemColumns = SQLiteStore.itemColumns

    func itemRows(_ sql: String, _ parameters: [String?]) throws -> [ItemRow] {
        try db.query(sql, parameters).map { r in
            guard r.count == 23, let kind = r[2].flatMap(ItemKind.init(rawValue:)), let status = r[3].flatMap(ItemStatus.init(rawValue:)) else {
                throw TimeTrackError(.database, "item \(r.count > 1 ? r[1] ?? "" : "") has an unknown kind or status", fix: "the store was changed by hand; check it with psql")
            }
            func date(_ i: Int) -> Date? { r[i].flatMap(StoreDate.parse) }
            func int(_ i: Int) -> Int? { r[i].flatMap { Int($0) } }
            var row = ItemRow(
                seq: Int64(r[0] ?? "") ?? 0, id: r[1] ?? "", kind: kind, status: status, school: r[4], sourceID: r[5], sourceKey: r[6], sourceURL: r[7],
                fetchedAt: date(8), pageHash: r[9], importer: r[10], importerVersion: r[11], liveRevision: int(12), pendingRevision: int(13), baseHash: r[14] ?? "",
                approvedBy: r[15], approvedAt: date(16), rejectReason: r[17], archivedFrom: r[18].flatMap(ItemStatus.init(rawValue:)), missingRuns: int(19) ?? 0,
                createdAt: date(20) ?? Date(timeIntervalSince1970: 0), updatedAt: date(21) ?? Date(timeIntervalSince1970: 0))
            if let guessed = r[22], !guessed.isEmpty { row.guessed = guessed.split(separator: "\n").map(String.init) }
            return row
        }
    }

    /// Inside a transaction a row is read `FOR UPDATE`: a decision holds its item until it
    /// commits, so two desks deciding the same item take turns and the second sees the first's
    /// outcome (on SQLite the write lock does the same).
    var lockClause: String { db.depth > 0 ? " FOR UPDATE" : "" }

    public func row(id: String) throws -> ItemRow? {
        guard let (kind, seq) = ItemKind.parseID(id) else { return nil }
        return try itemRows("SELECT \(Self.itemColumns) FROM items WHERE seq = $1 AND kind = $2" + lockClause, [String(seq), kind.rawValue]).first
    }

    public func row(sourceID: String, key: String) throws -> ItemRow? {
        try itemRows("SELECT \(Self.itemColumns) FROM items WHERE source_id = $1 AND source_key = $2" + lockClause, [sourceID, key]).first
    }

    public func activeRows(sourceID: String) throws -> [ItemRow] {
        try itemRows("SELECT \(Self.itemColumns) FROM items WHERE source_id = $1 AND status IN ('pending', 'published') ORDER BY seq", [sourceID])
    }

    public func content(of row: ItemRow, revision: Int) throws -> ItemContent {
        guard let json = try db.scalar("SELECT content FROM revisions WHERE item_seq = $1 AND number = $2", [String(row.seq), String(revision)]) else {
            throw TimeTrackError(.database, "revision \(revision) of \(row.id) is missing", fix: "the store was changed by hand; check it with psql", context: ["item": row.id])
        }
        return try ItemContent.decode(kind: row.kind, json: json)
    }

    public func revisions(of row: ItemRow) throws -> [Revision] {
        try db.query(
            "SELECT number, state, content, content_hash, created_at, created_by, note, went_live_at FROM revisions WHERE item_seq = $1 ORDER BY number", [String(row.seq)]
        ).map { r in
            Revision(
                itemID: row.id, number: Int(r[0] ?? "") ?? 0, state: r[1].flatMap(Revision.State.init(rawValue:)) ?? .superseded,
                content: try ItemContent.decode(kind: row.kind, json: r[2] ?? "{}"), contentHash: r[3] ?? "", createdAt: r[4].flatMap(StoreDate.parse) ?? row.createdAt,
                createdBy: r[5] ?? "", note: r[6], wentLiveAt: r[7].flatMap(StoreDate.parse))
        }
    }

    public func lastRevisionNumber(of row: ItemRow) throws -> Int {
        Int(try db.scalar("SELECT max(number) FROM revisions WHERE item_seq = $1", [String(row.seq)]) ?? "") ?? 0
    }

    public func locks(of row: ItemRow) throws -> [FieldLock] {
        try db.query("SELECT field, locked_by, locked_at, upstream FROM field_locks WHERE item_seq = $1 ORDER BY field", [String(row.seq)]).map { r in
            FieldLock(
                field: r[0] ?? "", lockedBy: r[1] ?? "", lockedAt: r[2].flatMap(StoreDate.parse) ?? Date(timeIntervalSince1970: 0),
                upstream: r[3].flatMap { try? JSONCoding.decoder().decode(JSONValue.self, from: Data($0.utf8)) })
        }
    }

    /// The columns every row write sets, from `source_id` to `missing_runs`, then `guessed`.
    static func rowValues(_ row: ItemRow) -> [String?] {
        [
            row.sourceID, row.sourceKey, row.sourceURL, row.fetchedAt.map(StoreDate.format), row.pageHash, row.importer, row.importerVersion, row.liveRevision.map(String.init),
            row.pendingRevision.map(String.init), row.baseHash, row.approvedBy, row.approvedAt.map(StoreDate.format), row.rejectReason, row.archivedFrom?.rawValue,
            String(row.missingRuns), row.guessed.isEmpty ? nil : row.guessed.joined(separator: "\n"),
        ]
    }

    public func insertRow(_ row: ItemRow, content: ItemContent) throws -> ItemRow {
        var row = row
        // The identity's next value: unique across every writer, whatever machine it runs on.
        row.seq = Int64(try db.scalar("SELECT nextval(pg_get_serial_sequence('items', 'seq'))") ?? "") ?? 0
        row.id = row.kind.idPrefix + String(row.seq)
        let values: [String?] = [String(row.seq), row.id, row.kind.rawValue, row.status.rawValue, row.school, String(content.title.prefix(300)), content.sortDate.map(StoreDate.format)]
        let all = values + Self.rowValues(row) + [StoreDate.format(row.createdAt), StoreDate.format(row.updatedAt)]
        try db.query(
            """
            INSERT INTO items (seq, id, kind, status, school, title, sort_at, source_id, source_key, source_url, fetched_at, page_hash, importer,
                               importer_version, live_revision, pending_revision, base_hash, approved_by, approved_at, reject_reason,
                               archived_from, missing_runs, guessed, created_at, updated_at)
            VALUES (\((1...all.count).map { "$\($0)" }.joined(separator: ", ")))
            """, all)
        try writeProjection(content, seq: row.seq)
        return row
    }

    public func updateRow(_ row: ItemRow) throws {
        try db.query(
            """
            UPDATE items SET source_id = $1, source_key = $2, source_url = $3, fetched_at = $4, page_hash = $5, importer = $6, importer_version = $7,
                live_revision = $8, pending_revision = $9, base_hash = $10, approved_by = $11, approved_at = $12, reject_reason = $13, archived_from = $14,
                missing_runs = $15, guessed = $16, status = $17, school = $18, updated_at = $19
            WHERE seq = $20
            """, Self.rowValues(row) + [row.status.rawValue, row.school, StoreDate.format(row.updatedAt), String(row.seq)])
    }

    /// The typed row (`Projection`), inserted or replaced.
    func writeProjection(_ content: ItemContent, seq: Int64) throws {
        let projection = Projection(content)
        let columns = ["item_seq"] + projection.columns
        let updates = projection.columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try db.query(
            "INSERT INTO \(projection.table) (\(columns.joined(separator: ", "))) VALUES (\((1...columns.count).map { "$\($0)" }.joined(separator: ", "))) ON CONFLICT (item_seq) DO UPDATE SET \(updates)",
            [String(seq)] + projection.values.map(PostgresConnection.parameter))
    }

    public func project(_ content: ItemContent, of row: ItemRow) throws {
        try writeProjection(content, seq: row.seq)
        try db.query("UPDATE items SET title = $1, sort_at = $2 WHERE seq = $3", [String(content.title.prefix(300)), content.sortDate.map(StoreDate.format), String(row.seq)])
    }

    public func addRevision(_ revision: NewRevision, to row: ItemRow) throws {
        // Consoles listening learn of it when (and only if) the decision commits.
        if revision.state == .pending { try db.query("SELECT pg_notify($1, $2)", [Self.pendingChannel, row.id]) }
        try db.query(
            "INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by, run_id, note, went_live_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [
                String(row.seq), String(revision.number), revision.state.rawValue, revision.json, revision.hash, StoreDate.format(revision.at), revision.by,
                revision.runID.map(String.init), revision.note, revision.state == .live ? StoreDate.format(revision.at) : nil,
            ])
    }

    public func setRevisionState(_ state: Revision.State, number: Int, of row: ItemRow, at: Date) throws {
        try db.query(
            "UPDATE revisions SET state = $1, went_live_at = CASE WHEN $2 AND went_live_at IS NULL THEN $3 ELSE went_live_at END WHERE item_seq = $4 AND number = $5",
            [state.rawValue, state == .live ? "true" : "false", StoreDate.format(at), String(row.seq), String(number)])
    }

    public func putLock(_ lock: FieldLock, upstreamAt: Date?, on row: ItemRow) throws {
        let upstream = lock.upstream.flatMap { try? JSONCoding.compactString($0) }
        try db.query(
            """
            INSERT INTO field_locks (item_seq, field, locked_by, locked_at, upstream, upstream_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (item_seq, field) DO UPDATE SET locked_by = excluded.locked_by, locked_at = excluded.locked_at,
                upstream = excluded.upstream,
                upstream_at = CASE WHEN excluded.upstream IS NOT DISTINCT FROM field_locks.upstream THEN coalesce(field_locks.upstream_at, excluded.upstream_at)
                                   ELSE excluded.upstream_at END
            """,
            [String(row.seq), lock.field, lock.lockedBy, StoreDate.format(lock.lockedAt), upstream, upstream == nil ? nil : upstreamAt.map(StoreDate.format)])
    }

    public func removeLock(_ field: String, from row: ItemRow) throws {
        try db.query("DELETE FROM field_locks WHERE item_seq = $1 AND field = $2", [String(row.seq), field])
    }

    public func appendAudit(_ entry: NewAuditEntry) throws {
        // One appender at a time, whatever machine: the lock is held to the end of the transaction.
        try db.query("SELECT pg_advisory_xact_lock(\(Self.auditLock))")
        let last = try db.query("SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1").first
        let lastID = last.flatMap { $0.first ?? nil }.flatMap { Int64($0) } ?? 0
        let previous = last.flatMap { $0.count > 1 ? $0[1] : nil } ?? ""
        let fields = AuditChain.Fields(
            id: lastID + 1, at: StoreDate.format(entry.at), operatorName: entry.operatorName, action: entry.action, itemSeq: entry.itemSeq, itemID: entry.itemID,
            reason: entry.reason, detail: entry.detail, batch: entry.batch)
        try db.query(
            "INSERT INTO audit (id, at, operator, action, item_seq, item_id, reason, detail, batch, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [
                String(fields.id), fields.at, entry.operatorName, entry.action, entry.itemSeq.map(String.init), entry.itemID, entry.reason, entry.detail, entry.batch, previous,
                AuditChain.hash(fields, previous: previous),
            ])
    }

    public func absenceStudents() throws -> [String] {
        try db.query(
            """
            SELECT DISTINCT r.content::jsonb ->> 'student' FROM revisions r JOIN items i ON i.seq = r.item_seq
            WHERE i.kind = 'absence' AND r.content::jsonb ->> 'student' IS NOT NULL
            """
        ).compactMap { $0.first ?? nil }
    }

    /// Walks the audit chain on the server.
    public func verifyAudit() throws -> AuditVerification { try StoreCopy.verifyAudit(db) }
}
