import Foundation
import TimeTrackCore

/// `store copy`: a whole store from its SQLite file into an empty PostgreSQL database, or back
/// into a new SQLite file, row for row (the two schemas have the same tables and columns), in
/// one transaction on the target; then the target is checked against the source: items per kind
/// and status, revisions, audit entries, and the audit chain verified on the target.
public enum StoreCopy {
    /// What a copy moved and found.
    public struct Report: Sendable {
        /// Rows copied per table, in copy order.
        public var tables: [(name: String, rows: Int)] = []
        /// Items per "kind/status", the same on both sides.
        public var items: [String: Int] = [:]
        public var revisions = 0
        /// The audit chain, walked on the target.
        public var audit = AuditVerification(entries: 0)
    }

    /// Tables in an order that satisfies the foreign keys.
    static let tables =
        ["operators", "import_runs", "items", "revisions", "field_locks", "audit"] + Projection.kindTables
        + ["source_state", "fetch_cache", "page_memo", "item_memo", "places", "place_names", "courses"]
    /// Binary columns (`BLOB` in SQLite, `bytea` in PostgreSQL).
    static let binary: [String: Set<String>] = ["fetch_cache": ["body"], "page_memo": ["payload"]]
    /// Identity columns whose sequences follow the copied ids.
    static let identities = [("items", "seq"), ("import_runs", "id"), ("places", "id")]
    static let rowsPerInsert = 200

    /// Copies the SQLite store at `path` into the empty PostgreSQL database at `address`.
    public static func toPostgres(from path: String, to address: String, progress: ((String, Int) -> Void)? = nil) throws -> Report {
        let source = try SQLiteStore(path: path, create: false, readOnly: true)
        defer { source.close() }
        guard source.schemaVersion == PostgresSchema.currentVersion else {
            throw TimeTrackError(
                .configuration, "the store is at schema \(source.schemaVersion); copying needs \(PostgresSchema.currentVersion)",
                fix: "open it once with this timetrack-admin (`status`) to migrate it")
        }
        let target = try PostgresConnection(address)
        defer { target.close() }
        try PostgresSchema.migrate(target)
        guard try target.scalar("SELECT count(*) FROM items") == "0", try target.scalar("SELECT count(*) FROM audit") == "0" else {
            throw TimeTrackError(.configuration, "the PostgreSQL store already holds items", fix: "copy into an empty database (createdb district2)")
        }
        var report = Report()
        try target.execute("BEGIN")
        do {
            try source.db.snapshot {
                for table in tables {
                    let columns = try source.db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { $0.text(0) }
                    var batch: [[String?]] = []
                    var copied = 0
                    func flush() throws {
                        guard !batch.isEmpty else { return }
                        try insert(batch, into: table, columns: columns, target: target)
                        copied += batch.count
                        batch.removeAll(keepingCapacity: true)
                        progress?(table, copied)
                    }
                    let blobs = binary[table] ?? []
                    try source.db.each("SELECT * FROM \(table)", []) { s in
                        batch.append(
                            (0..<s.columnCount).map { column in
                                switch s.value(column) {
                                case .null: return nil
                                case .integer(let v): return String(v)
                                case .real(let v): return "\(v)"
                                case .text(let v): return blobs.contains(columns[Int(column)]) ? hex(Data(v.utf8)) : v
                                case .blob(let v): return hex(v)
                                }
                            })
                        if batch.count == rowsPerInsert { try flush() }
                    }
                    try flush()
                    report.tables.append((table, copied))
                }
            }
            for (table, column) in identities {
                try target.query("SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false) FROM \(table)")
            }
            try target.execute("COMMIT")
            // Fresh statistics for the planner: a bulk load leaves none until autovacuum comes by.
            // Our tables only: a bare ANALYZE also visits the catalogs and warns once for each
            // one a non-superuser may not analyze (48 warnings).
            try? target.execute("ANALYZE " + report.tables.map(\.0).joined(separator: ", "))
        } catch {
            try? target.execute("ROLLBACK")
            throw error
        }
        try check(&report, source: summary(of: source), target: summary(of: target))
        return report
    }

    /// Copies the PostgreSQL store at `address` into a new SQLite file at `path`.
    public static func toSQLite(from address: String, to path: String, progress: ((String, Int) -> Void)? = nil) throws -> Report {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw TimeTrackError(.configuration, "\(path) exists; a copy makes a new store file", fix: "give a new file name, or move the old file away first")
        }
        let source = try PostgresConnection(address)
        defer { source.close() }
        guard let text = try? source.query("SELECT version FROM timetrack_schema").first?.first ?? nil, Int(text) == Schema.currentVersion else {
            throw TimeTrackError(
                .configuration, "the PostgreSQL database is not a Time Track store at schema \(Schema.currentVersion)", fix: "check the address")
        }
        let target = try SQLiteStore(path: path, create: true)
        defer { target.close() }
        var report = Report()
        try source.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? source.execute("ROLLBACK") }
        try target.db.transaction {
            // A new store has its first operator (this account) and audit entry: the copy replaces them.
            try target.db.execute("DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete; DELETE FROM audit; DELETE FROM operators")
            for table in tables {
                let columns = try target.db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { $0.text(0) }
                let blobs = binary[table] ?? []
                let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(placeholders)"
                var copied = 0
                try source.execute("DECLARE copy_rows NO SCROLL CURSOR FOR SELECT \(columns.joined(separator: ", ")) FROM \(table)")
                while true {
                    let rows = try source.query("FETCH 5000 FROM copy_rows")
                    for row in rows {
                        try target.db.run(
                            sql,
                            zip(columns, row).map { column, value in
                                guard let value else { return .null }
                                return blobs.contains(column) ? .blob(unhex(value) ?? Data()) : .text(value)
                            })
                    }
                    copied += rows.count
                    progress?(table, copied)
                    if rows.count < 5000 { break }
                }
                try source.execute("CLOSE copy_rows")
                report.tables.append((table, copied))
            }
            try target.db.execute(AuditChain.triggers)
        }
        try check(&report, source: summary(of: source), target: summary(of: target))
        return report
    }

    /// What the two sides must agree on.
    struct Summary: Equatable {
        var items: [String: Int]
        var revisions: Int
        var audit: AuditVerification
    }

    static func summary(of store: SQLiteStore) throws -> Summary {
        let items = try store.db.rows("SELECT kind || '/' || status, count(*) FROM items GROUP BY 1", []) { ($0.text(0), $0.int(1)) }
        let revisions = try store.db.optionalInt("SELECT count(*) FROM revisions") ?? 0
        return Summary(items: Dictionary(items, uniquingKeysWith: +), revisions: revisions, audit: try store.verifyAudit())
    }

    static func summary(of db: PostgresConnection) throws -> Summary {
        let items = try db.query("SELECT kind || '/' || status, count(*) FROM items GROUP BY 1").map { row in
            (row.first.flatMap { $0 } ?? "", Int(row.dropFirst().first.flatMap { $0 } ?? "") ?? 0)
        }
        let revisions = Int(try db.scalar("SELECT count(*) FROM revisions") ?? "") ?? 0
        return Summary(items: Dictionary(items, uniquingKeysWith: +), revisions: revisions, audit: try verifyAudit(db))
    }

    /// Walks the audit chain stored on a PostgreSQL server.
    static func verifyAudit(_ db: PostgresConnection) throws -> AuditVerification {
        AuditChain.verify(try db.select(AuditChain.selectAll, [], AuditChain.fields))
    }

    /// The target must hold what the source holds, and its audit chain must verify.
    static func check(_ report: inout Report, source: Summary, target: Summary) throws {
        (report.items, report.revisions, report.audit) = (target.items, target.revisions, target.audit)
        guard source.items == target.items, source.revisions == target.revisions, source.audit.entries == target.audit.entries else {
            throw TimeTrackError(
                .database,
                "the copy does not match its source: items \(target.items) against \(source.items), revisions \(target.revisions) against"
                    + " \(source.revisions), audit entries \(target.audit.entries) against \(source.audit.entries)",
                fix: "nothing was changed in the source; look at the target's log before trying again")
        }
        if let problem = target.audit.problem { throw TimeTrackError(.database, "the copied audit log does not verify: \(problem)") }
    }

    static func insert(_ rows: [[String?]], into table: String, columns: [String], target: PostgresConnection) throws {
        var values: [String?] = []
        var tuples: [String] = []
        let blobs = binary[table] ?? []
        for row in rows {
            tuples.append(
                "("
                    + row.indices.map { index in
                        values.append(row[index])
                        return "$\(values.count)" + (blobs.contains(columns[index]) ? "::bytea" : "")
                    }.joined(separator: ", ") + ")")
        }
        try target.query("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", "), values)
    }

    /// PostgreSQL's hex form of bytes: `\x48656c6c6f`.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + data.count * 2)
        for byte in data {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from PostgreSQL's hex form; nil when it is not that form.
    static func unhex(_ text: String) -> Data? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var data = Data(capacity: (bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }
}
