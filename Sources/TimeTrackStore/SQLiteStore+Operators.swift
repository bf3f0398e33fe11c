import Foundation
import TimeTrackCore

extension SQLiteStore {
    static let operatorColumns = "name, role, created_at, login, schools, active"

    public func operatorNamed(_ name: String) throws -> Operator? {
        try db.row("SELECT \(SQLiteStore.operatorColumns) FROM operators WHERE name = ?", [.text(name)], makeOperator)
    }

    public func operatorWithLogin(_ account: String) throws -> Operator? {
        try db.row("SELECT \(SQLiteStore.operatorColumns) FROM operators WHERE login = ? AND active = 1", [.text(account)], makeOperator)
    }

    public func operators() throws -> [Operator] {
        try db.rows("SELECT \(SQLiteStore.operatorColumns) FROM operators ORDER BY name", [], makeOperator)
    }

    private func makeOperator(_ s: Statement) -> Operator {
        let schools = s.optionalText(4).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        // An unknown role (a newer build's) gets the least rights.
        return Operator(
            name: s.text(0), role: Operator.Role(rawValue: s.text(1)) ?? .viewer, createdAt: s.date(2) ?? Date(timeIntervalSince1970: 0),
            login: s.optionalText(3), schools: schools, active: s.int(5) != 0)
    }

    private static func requireValidName(_ name: String) throws {
        guard Operator.isValidName(name) else {
            throw TimeTrackError(.usage, "'\(name)' is not a valid operator name", fix: "use 1-64 letters, digits, '.', '_', '-' or '@'")
        }
    }

    /// Refuses to leave the store without an active admin.
    private func requireAnotherAdmin(besides name: String, change: String) throws {
        let others = try db.row("SELECT count(*) FROM operators WHERE role = 'admin' AND active = 1 AND name != ?", [.text(name)]) { $0.int(0) } ?? 0
        if others == 0 {
            throw TimeTrackError(
                .permission, "\(name) is the store's last admin and cannot \(change)",
                fix: "add another admin first (`operator add NAME --role admin --login ACCOUNT`), then change this one")
        }
    }

    public func addOperator(_ name: String, role: Operator.Role, login: String?, schools: [String], by operatorName: String) throws -> Operator {
        try SQLiteStore.requireValidName(name)
        if let login { try SQLiteStore.requireValidName(login) }
        return try db.transaction {
            let count = try db.row("SELECT count(*) FROM operators") { $0.int(0) } ?? 0
            let effective: Operator.Role = count == 0 ? .admin : role
            let existing = try operatorNamed(name)
            if existing?.role == .admin && existing?.active == true && effective != .admin {
                try requireAnotherAdmin(besides: name, change: "become \(effective.rawValue)")
            }
            if let login, let holder = try operatorWithLogin(login), holder.name != name {
                throw TimeTrackError(
                    .usage, "the account \(login) is already the operator \(holder.name)",
                    fix: "one account is one operator: `operator remove \(holder.name)` first, or give another --login")
            }
            let schoolsJSON = schools.isEmpty ? nil : String(decoding: (try? JSONEncoder().encode(schools)) ?? Data(), as: UTF8.self)
            try db.run(
                """
                INSERT INTO operators (name, role, created_at, login, schools, active) VALUES (?, ?, ?, ?, ?, 1)
                ON CONFLICT (name) DO UPDATE SET role = excluded.role, login = coalesce(excluded.login, login), schools = excluded.schools, active = 1
                """,
                [.text(name), .text(effective.rawValue), .date(existing?.createdAt ?? now()), .text(login), .text(schoolsJSON)])
            let detail = "\(name) as \(effective.rawValue)" + (login.map { ", login \($0)" } ?? "") + (schools.isEmpty ? "" : ", schools " + schools.joined(separator: ","))
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: existing == nil ? "operator-add" : "operator-change", itemSeq: nil, itemID: nil, reason: nil,
                    detail: detail))
            return try operatorNamed(name) ?? Operator(name: name, role: effective)
        }
    }

    public func setRole(_ name: String, _ role: Operator.Role, by operatorName: String) throws -> Operator {
        try db.transaction {
            guard let existing = try operatorNamed(name) else {
                throw TimeTrackError(.notFound, "no operator \(name)", fix: "`operator list` shows them")
            }
            if existing.role == .admin && existing.active && role != .admin { try requireAnotherAdmin(besides: name, change: "become \(role.rawValue)") }
            try db.run("UPDATE operators SET role = ? WHERE name = ?", [.text(role.rawValue), .text(name)])
            try appendAudit(
                NewAuditEntry(at: now(), operatorName: operatorName, action: "operator-role", itemSeq: nil, itemID: nil, reason: nil, detail: "\(name): \(existing.role.rawValue) → \(role.rawValue)"))
            return try operatorNamed(name) ?? existing
        }
    }

    public func removeOperator(_ name: String, by operatorName: String) throws -> Operator {
        try db.transaction {
            guard let existing = try operatorNamed(name), existing.active else {
                throw TimeTrackError(.notFound, "no active operator \(name)", fix: "`operator list` shows them")
            }
            if existing.role == .admin { try requireAnotherAdmin(besides: name, change: "be removed") }
            try db.run("UPDATE operators SET active = 0 WHERE name = ?", [.text(name)])
            try appendAudit(
                NewAuditEntry(at: now(), operatorName: operatorName, action: "operator-remove", itemSeq: nil, itemID: nil, reason: nil, detail: "\(name) (\(existing.role.rawValue)) removed"))
            return try operatorNamed(name) ?? existing
        }
    }

    public func claimFirstAdmin(_ name: String, login: String?) throws -> Operator? {
        try SQLiteStore.requireValidName(name)
        // BEGIN IMMEDIATE holds the write lock from the count to the insert: of two processes
        // starting on a new store at once, exactly one finds it empty.
        return try db.transaction {
            let count = try db.row("SELECT count(*) FROM operators") { $0.int(0) } ?? 0
            guard count == 0 else { return nil }
            let at = now()
            try db.run("INSERT INTO operators (name, role, created_at, login, active) VALUES (?, 'admin', ?, ?, 1)", [.text(name), .date(at), .text(login)])
            try appendAudit(
                NewAuditEntry(
                    at: at, operatorName: name, action: "operator-add", itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name) as admin (first operator" + (login.map { ", login \($0)" } ?? "") + ")"))
            return try operatorNamed(name)
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

extension SQLiteStore {
    /// Migration 8: operators made before logins existed get the login of the Unix account with
    /// their name, when there is one. If no active admin then has a login, the oldest admin is
    /// bound to the account that owns the store file, so the store's owner is never locked out.
    static func backfillLogins(_ db: Database) throws {
        let names = try db.rows("SELECT name, role FROM operators ORDER BY created_at, name") { ($0.text(0), $0.text(1)) }
        for (name, _) in names where getpwnam(name) != nil {
            try db.run("UPDATE operators SET login = ? WHERE name = ?", [.text(name), .text(name)])
        }
        let boundAdmins = try db.row("SELECT count(*) FROM operators WHERE role = 'admin' AND login IS NOT NULL") { $0.int(0) } ?? 0
        guard boundAdmins == 0, let admin = names.first(where: { $0.1 == "admin" })?.0 else { return }
        let file = try db.row("PRAGMA database_list") { $0.text(2) } ?? ""
        var info = stat()
        guard !file.isEmpty, stat(file, &info) == 0, let owner = getpwuid(info.st_uid)?.pointee.pw_name else { return }
        let account = String(cString: owner)
        try db.run("UPDATE operators SET login = NULL WHERE login = ?", [.text(account)])
        try db.run("UPDATE operators SET login = ? WHERE name = ?", [.text(account), .text(admin)])
    }
}
