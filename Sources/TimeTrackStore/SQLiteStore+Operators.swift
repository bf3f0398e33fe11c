import Foundation
import TimeTrackCore

extension SQLiteStore {
    public func operatorNamed(_ name: String) throws -> Operator? {
        try db.row("SELECT name, role, created_at FROM operators WHERE name = ?", [.text(name)], makeOperator)
    }

    public func operators() throws -> [Operator] {
        try db.rows("SELECT name, role, created_at FROM operators ORDER BY name", [], makeOperator)
    }

    private func makeOperator(_ s: Statement) -> Operator {
        Operator(name: s.text(0), role: Operator.Role(rawValue: s.text(1)) ?? .staff, createdAt: s.date(2) ?? Date(timeIntervalSince1970: 0))
    }

    public func addOperator(_ name: String, role: Operator.Role, by operatorName: String) throws -> Operator {
        guard Operator.isValidName(name) else {
            throw TimeTrackError(.usage, "'\(name)' is not a valid operator name", fix: "use 1-64 letters, digits, '.', '_', '-' or '@'")
        }
        return try db.transaction {
            let count = try db.row("SELECT count(*) FROM operators") { $0.int(0) } ?? 0
            let effective: Operator.Role = count == 0 ? .admin : role
            let existing = try operatorNamed(name)
            if existing?.role == .admin && effective != .admin {
                let admins = try db.row("SELECT count(*) FROM operators WHERE role = 'admin'") { $0.int(0) } ?? 0
                if admins <= 1 {
                    throw TimeTrackError(
                        .permission, "\(name) is the store's last admin and cannot become \(effective.rawValue)",
                        fix: "add another admin first (`operator add NAME --role admin`), then change this one")
                }
            }
            try db.run(
                "INSERT INTO operators (name, role, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET role = excluded.role",
                [.text(name), .text(effective.rawValue), .date(existing?.createdAt ?? now())])
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: existing == nil ? "operator-add" : "operator-role", itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name) as \(effective.rawValue)"))
            return Operator(name: name, role: effective, createdAt: existing?.createdAt ?? now())
        }
    }

    public func claimFirstAdmin(_ name: String) throws -> Operator? {
        guard Operator.isValidName(name) else {
            throw TimeTrackError(.usage, "'\(name)' is not a valid operator name", fix: "use 1-64 letters, digits, '.', '_', '-' or '@'")
        }
        // BEGIN IMMEDIATE holds the write lock from the count to the insert: of two processes
        // starting on a new store at once, exactly one finds it empty.
        return try db.transaction {
            let count = try db.row("SELECT count(*) FROM operators") { $0.int(0) } ?? 0
            guard count == 0 else { return nil }
            let at = now()
            try db.run("INSERT INTO operators (name, role, created_at) VALUES (?, 'admin', ?)", [.text(name), .date(at)])
            try appendAudit(
                NewAuditEntry(at: at, operatorName: name, action: "operator-add", itemSeq: nil, itemID: nil, reason: nil, detail: "\(name) as admin (first operator)"))
            return Operator(name: name, role: .admin, createdAt: at)
        }
    }

    public func beginRun(sourceID: String, by operatorName: String) throws -> ImportRun {
        let at = now()
        return try db.transaction {
            try db.run(
                "INSERT INTO import_runs (source_id, started_at, status, operator) VALUES (?, ?, 'running', ?)",
                [.text(sourceID), .date(at), .text(operatorName)])
            return ImportRun(id: db.lastInsertRowID, sourceID: sourceID, startedAt: at, finishedAt: nil, status: .running, operatorName: operatorName)
        }
    }

    public func finishRun(_ run: ImportRun) throws {
        try db.transaction {
            try db.run(
                """
                UPDATE import_runs SET finished_at = ?, status = ?, found = ?, new = ?, changed = ?, unchanged = ?, missing = ?,
                    problems = ?, message = ? WHERE id = ?
                """,
                [
                    .date(run.finishedAt ?? now()), .text(run.status.rawValue), .integer(run.found), .integer(run.new), .integer(run.changed),
                    .integer(run.unchanged), .integer(run.missing), .integer(run.problems), .text(run.message), .integer(run.id),
                ])
            try db.run("INSERT INTO source_state (source_id, last_run_at) VALUES (?, ?) ON CONFLICT (source_id) DO UPDATE SET last_run_at = excluded.last_run_at", [.text(run.sourceID), .date(run.finishedAt ?? now())])
        }
    }

    public func runs(sourceID: String?, limit: Int) throws -> [ImportRun] {
        let map: (Statement) -> ImportRun = { s in
            ImportRun(
                id: s.int64(0), sourceID: s.text(1), startedAt: s.date(2) ?? Date(timeIntervalSince1970: 0), finishedAt: s.date(3),
                status: ImportRun.Status(rawValue: s.text(4)) ?? .failed, operatorName: s.text(5), found: s.int(6), new: s.int(7),
                changed: s.int(8), unchanged: s.int(9), missing: s.int(10), problems: s.int(11), message: s.optionalText(12))
        }
        let columns = "id, source_id, started_at, finished_at, status, operator, found, new, changed, unchanged, missing, problems, message"
        if let sourceID {
            return try db.rows("SELECT \(columns) FROM import_runs WHERE source_id = ? ORDER BY id DESC LIMIT ?", [.text(sourceID), .integer(Int64(limit))], map)
        }
        return try db.rows("SELECT \(columns) FROM import_runs ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))], map)
    }
}
