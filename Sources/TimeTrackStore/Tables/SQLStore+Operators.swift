import Foundation
import TimeTrackCore

extension SQLStore {
    /// The shared tables' connection.
    var sql: any SQLSession { engine.session }

    static var operatorColumns: String { "name, role, created_at, login, schools, active, alerts" }

    public func operatorNamed(_ name: String) throws -> Operator? {
        try sql.first("SELECT \(Self.operatorColumns) FROM operators WHERE name = ?", [.text(name)], Self.makeOperator)
    }

    public func operatorWithLogin(_ account: String) throws -> Operator? {
        try sql.first("SELECT \(Self.operatorColumns) FROM operators WHERE login = ? AND active = 1", [.text(account)], Self.makeOperator)
    }

    public func operators() throws -> [Operator] {
        try sql.select("SELECT \(Self.operatorColumns) FROM operators ORDER BY name", [], Self.makeOperator)
    }

    private static func makeOperator(_ s: any SQLRow) -> Operator {
        let schools = s.optionalText(4).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        // An unknown role (a newer build's) gets the least rights.
        var op = Operator(
            name: s.text(0), role: Operator.Role(rawValue: s.text(1)) ?? .viewer, createdAt: s.date(2) ?? Date(timeIntervalSince1970: 0),
            login: s.optionalText(3), schools: schools, active: s.int(5) != 0)
        op.alerts = s.int(6) != 0
        return op
    }

    public func setAlertsRight(_ name: String, _ on: Bool, by operatorName: String) throws {
        try sql.transaction {
            guard try operatorNamed(name) != nil else { throw TimeTrackError(.notFound, "no operator \(name)", fix: "`operator list` shows them") }
            if try serverGuardsOperators() {
                try sql.run("SELECT timetrack_operator_alerts(?, ?)", [.text(name), .integer(on ? 1 : 0)])
            } else {
                try sql.run("UPDATE operators SET alerts = ? WHERE lower(name) = lower(?)", [.integer(on ? 1 : 0), .text(name)])
            }
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: .operatorChange, itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name): alerts right \(on ? "given" : "taken away")", batch: try operatorsDigest()))
        }
    }

    private static func requireValidName(_ name: String) throws {
        guard Operator.isValidName(name) else {
            throw TimeTrackError(.usage, "'\(name)' is not a valid operator name", fix: "use 1-64 letters, digits, '.', '_', '-' or '@'")
        }
    }

    /// Refuses to leave the store without an active admin.
    private func requireAnotherAdmin(besides name: String, change: String) throws {
        let others = try sql.integer("SELECT count(*) FROM operators WHERE role = 'admin' AND active = 1 AND name != ?", [.text(name)]) ?? 0
        if others == 0 {
            throw TimeTrackError(
                .permission, "\(name) is the store's last admin and cannot \(change)",
                fix: "add another admin first (`operator add NAME --role admin --login ACCOUNT`), then change this one")
        }
    }

    public func addOperator(_ name: String, role: Operator.Role, login: String?, schools: [String], by operatorName: String) throws -> Operator {
        try Self.requireValidName(name)
        if let login { try Self.requireValidName(login) }
        return try sql.transaction {
            let count = try sql.integer("SELECT count(*) FROM operators") ?? 0
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
            try writeOperator(
                name, role: effective, login: login ?? existing?.login, schools: schoolsJSON, active: true, createdAt: existing?.createdAt ?? now())
            let detail =
                "\(name) as \(effective.rawValue)" + (login.map { ", login \($0)" } ?? "")
                + (schools.isEmpty ? "" : ", schools " + schools.joined(separator: ","))
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: existing == nil ? .operatorAdd : .operatorChange, itemSeq: nil, itemID: nil, reason: nil,
                    detail: detail, batch: try operatorsDigest()))
            return try operatorNamed(name) ?? Operator(name: name, role: effective)
        }
    }

    public func setRole(_ name: String, _ role: Operator.Role, by operatorName: String) throws -> Operator {
        try sql.transaction {
            guard let existing = try operatorNamed(name) else {
                throw TimeTrackError(.notFound, "no operator \(name)", fix: "`operator list` shows them")
            }
            if existing.role == .admin && existing.active && role != .admin { try requireAnotherAdmin(besides: name, change: "become \(role.rawValue)") }
            try writeOperator(
                existing.name, role: role, login: existing.login, schools: try operatorSchoolsText(existing.name), active: existing.active,
                createdAt: existing.createdAt)
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: .operatorRole, itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name): \(existing.role.rawValue) → \(role.rawValue)", batch: try operatorsDigest()))
            return try operatorNamed(name) ?? existing
        }
    }

    public func removeOperator(_ name: String, by operatorName: String) throws -> Operator {
        try sql.transaction {
            guard let existing = try operatorNamed(name), existing.active else {
                throw TimeTrackError(.notFound, "no active operator \(name)", fix: "`operator list` shows them")
            }
            if existing.role == .admin { try requireAnotherAdmin(besides: name, change: "be removed") }
            try writeOperator(
                existing.name, role: existing.role, login: existing.login, schools: try operatorSchoolsText(existing.name), active: false,
                createdAt: existing.createdAt)
            try appendAudit(
                NewAuditEntry(
                    at: now(), operatorName: operatorName, action: .operatorRemove, itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name) (\(existing.role.rawValue)) removed", batch: try operatorsDigest()))
            return try operatorNamed(name) ?? existing
        }
    }

    public func claimFirstAdmin(_ name: String, login: String?) throws -> Operator? {
        try Self.requireValidName(name)
        // The count and the insert under the store's write lock: of two processes starting on
        // a new store at once, exactly one finds it empty.
        return try sql.transaction {
            let count = try sql.integer("SELECT count(*) FROM operators") ?? 0
            guard count == 0 else { return nil }
            let at = now()
            try sql.run("INSERT INTO operators (name, role, created_at, login, active) VALUES (?, 'admin', ?, ?, 1)", [.text(name), .date(at), .text(login)])
            try appendAudit(
                NewAuditEntry(
                    at: at, operatorName: name, action: .operatorAdd, itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(name) as admin (first operator" + (login.map { ", login \($0)" } ?? "") + ")", batch: try operatorsDigest()))
            return try operatorNamed(name)
        }
    }

    // MARK: Operators on a server that guards them (`store grant`)

    /// Whether the server guards the operators table (`store grant` ran on this PostgreSQL
    /// database): changes then go through `timetrack_operator_set`, which checks the caller.
    func serverGuardsOperators() throws -> Bool {
        guard sql.dialect.guardsOperators else { return false }
        return try sql.first("SELECT to_regprocedure('timetrack_operator_set(text, text, text, text, integer, text)') IS NOT NULL") { $0.text(0) } == "t"
    }

    /// The operator's `schools` column as stored (JSON text).
    func operatorSchoolsText(_ name: String) throws -> String? {
        try sql.first("SELECT schools FROM operators WHERE name = ?", [.text(name)]) { $0.optionalText(0) } ?? nil
    }

    /// Writes one operator's whole row: through the server's checked function where the server
    /// guards the table (`store grant`), else directly.
    ///
    /// The one way every operator change goes.
    func writeOperator(_ name: String, role: Operator.Role, login: String?, schools: String?, active: Bool, createdAt: Date) throws {
        if try serverGuardsOperators() {
            return try setOperatorThroughServer(name, role: role, login: login, schools: schools, active: active, createdAt: createdAt)
        }
        try sql.run(
            """
            INSERT INTO operators (name, role, created_at, login, schools, active) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET role = excluded.role, login = excluded.login, schools = excluded.schools, active = excluded.active
            """,
            [.text(name), .text(role.rawValue), .date(createdAt), .text(login), .text(schools), .integer(active ? 1 : 0)])
    }

    /// Writes one operator through the server's checked function, then gives its login role the
    /// role's group (and takes the others) when the login is a database role.
    func setOperatorThroughServer(_ name: String, role: Operator.Role, login: String?, schools: String?, active: Bool, createdAt: Date) throws {
        try sql.run(
            "SELECT timetrack_operator_set(?, ?, ?, ?, ?, ?)",
            [.text(name), .text(role.rawValue), .text(login), .text(schools), .integer(active ? 1 : 0), .date(createdAt)])
        guard let login, try sql.first("SELECT 1 FROM pg_roles WHERE rolname = ?", [.text(login)], { $0.int(0) }) != nil else { return }
        let quoted = "\"" + login.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let target = PostgresGrants.group(role)
        let groups = Set(Operator.Role.allCases.map(PostgresGrants.group))
        let memberOf = try sql.select(
            "SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member WHERE u.rolname = ?",
            [.text(login)]
        ) { $0.text(0) }.filter(groups.contains)
        do {
            for group in memberOf where group != target || !active { try sql.run("REVOKE \(group) FROM \(quoted)", []) }
            if active && !memberOf.contains(target) { try sql.run("GRANT \(target) TO \(quoted)", []) }
        } catch let error as TimeTrackError {
            throw TimeTrackError(
                .permission, "the database role \(login) could not be given the group \(target): \(error.message)",
                fix: "the store's owner gives it: GRANT \(target) TO \(quoted) (only the owner grants timetrack_admin)", context: error.context)
        }
    }

    // MARK: Runs and source state

    public func beginRun(sourceID: String, by operatorName: String) throws -> ImportRun {
        let at = now()
        return try sql.transaction {
            let id = try sql.first(
                "INSERT INTO import_runs (source_id, started_at, status, operator) VALUES (?, ?, 'running', ?) RETURNING id",
                [.text(sourceID), .date(at), .text(operatorName)]
            ) { $0.int64(0) }
            return ImportRun(id: id ?? 0, sourceID: sourceID, startedAt: at, finishedAt: nil, status: .running, operatorName: operatorName)
        }
    }

    public func finishRun(_ run: ImportRun) throws {
        try sql.transaction {
            try sql.run(
                """
                UPDATE import_runs SET started_at = ?, finished_at = ?, status = ?, found = ?, new = ?, changed = ?, unchanged = ?, missing = ?,
                    problems = ?, message = ? WHERE id = ?
                """,
                [
                    .date(run.startedAt), .date(run.finishedAt ?? now()), .text(run.status.rawValue), .integer(run.found), .integer(run.new),
                    .integer(run.changed),
                    .integer(run.unchanged), .integer(run.missing), .integer(run.problems), .text(run.message), .integer(run.id),
                ])
            try sql.run(
                "INSERT INTO source_state (source_id, last_run_at) VALUES (?, ?) ON CONFLICT (source_id) DO UPDATE SET last_run_at = excluded.last_run_at",
                [.text(run.sourceID), .date(run.finishedAt ?? now())])
        }
    }

    public func runs(sourceID: String?, limit: Int) throws -> [ImportRun] {
        let map: (any SQLRow) -> ImportRun = { s in
            ImportRun(
                id: s.int64(0), sourceID: s.text(1), startedAt: s.date(2) ?? Date(timeIntervalSince1970: 0), finishedAt: s.date(3),
                status: ImportRun.Status(rawValue: s.text(4)) ?? .failed, operatorName: s.text(5), found: s.int(6), new: s.int(7),
                changed: s.int(8), unchanged: s.int(9), missing: s.int(10), problems: s.int(11), message: s.optionalText(12))
        }
        let columns = "id, source_id, started_at, finished_at, status, operator, found, new, changed, unchanged, missing, problems, message"
        if let sourceID {
            return try sql.select(
                "SELECT \(columns) FROM import_runs WHERE source_id = ? ORDER BY id DESC LIMIT ?", [.text(sourceID), .integer(Int64(limit))], map)
        }
        return try sql.select("SELECT \(columns) FROM import_runs ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))], map)
    }

    public func markInterruptedRuns() throws -> Int {
        try sql.transaction {
            try sql.run(
                "UPDATE import_runs SET status = 'interrupted', finished_at = ?, message = 'the process stopped before the run finished; the next run"
                    + " carries on' WHERE status = 'running'",
                [.date(now())])
        }
    }

    public func sourceState(_ sourceID: String) throws -> SourceState? {
        try sql.first(
            "SELECT source_id, last_run_at, last_good_run, last_good_count, last_good_dated, held_reason, held_run FROM source_state WHERE source_id = ?",
            [.text(sourceID)]
        ) { s in
            SourceState(
                sourceID: s.text(0), lastRunAt: s.date(1), lastGoodRun: s.isNull(2) ? nil : s.int64(2), lastGoodCount: s.optionalInt(3),
                lastGoodDated: s.optionalInt(4), heldReason: s.optionalText(5), heldRun: s.isNull(6) ? nil : s.int64(6))
        }
    }

    public func recordGoodRun(sourceID: String, runID: Int64, count: Int, dated: Int) throws {
        try sql.transaction {
            try sql.run(
                """
                INSERT INTO source_state (source_id, last_good_run, last_good_count, last_good_dated) VALUES (?, ?, ?, ?)
                ON CONFLICT (source_id) DO UPDATE SET last_good_run = excluded.last_good_run, last_good_count = excluded.last_good_count,
                    last_good_dated = excluded.last_good_dated, held_reason = NULL, held_run = NULL
                """,
                [.text(sourceID), .integer(runID), .integer(count), .integer(dated)])
        }
    }

    public func holdSource(sourceID: String, runID: Int64, reason: String) throws {
        try sql.transaction {
            try sql.run(
                """
                INSERT INTO source_state (source_id, held_reason, held_run) VALUES (?, ?, ?)
                ON CONFLICT (source_id) DO UPDATE SET held_reason = excluded.held_reason, held_run = excluded.held_run
                """,
                [.text(sourceID), .text(reason), .integer(runID)])
        }
    }
}
