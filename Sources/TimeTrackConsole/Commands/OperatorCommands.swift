import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var runsCommand: CommandSpec {
        CommandSpec(
            "runs", usage: "[--source S] [--limit N]", summary: "import runs, newest first, with what each found and did",
            options: [
                OptionSpec("source", value: "S", completes: .sources, help: "only this source"),
                OptionSpec("limit", value: "N", help: "at most N (default 20)"),
            ], pages: true
        ) { args, session in
            let store = try session.store()
            try session.requireImport(in: store)
            let runs = try store.runs(sourceID: args.option("source"), limit: try intOption(args, "limit", default: 20, range: 1...100_000))
            if session.output.json {
                session.output.printJSON(runs)
                return 0
            }
            if runs.isEmpty { session.output.line("no runs yet"); return 0 }
            var table = Table(headers: ["run", "source", "started", "status", "found", "new", "changed", "same", "missing", "problems", "message"])
            for r in runs {
                table.rows.append([
                    String(r.id), r.sourceID, Display.date(r.startedAt, zone: session.runZone(ofSource: r.sourceID)), r.status.rawValue, String(r.found),
                    String(r.new), String(r.changed), String(r.unchanged), String(r.missing), String(r.problems),
                    r.message ?? "",
                ])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

    static var operatorCommand: CommandSpec {
        let roles = Operator.Role.allCases.map(\.rawValue).joined(separator: "|")
        let usage = "list | add NAME --role ROLE [--login ACCOUNT] [--school S,...] [--alerts] | role NAME ROLE | remove NAME"
        return CommandSpec(
            "operator", usage: usage, summary: "manage who may work in the console, bound to Unix accounts (admins only)",
            options: [
                OptionSpec(
                    "role", value: "ROLE", completes: .words(Operator.Role.allCases.map(\.rawValue)),
                    help: "admin (everything), importer (imports only: cron), staff (posts, absences, tickets), viewer (published items)"),
                OptionSpec("login", value: "ACCOUNT", help: "the Unix account that is this operator (default: the account of the same name, if there is one)"),
                OptionSpec("school", value: "S,...", help: "staff: only these schools' items (default: every school)"),
                OptionSpec("alerts", help: "staff: may approve alerts (of their schools); admins always may"),
            ],
            positional: 1...3, arguments: [.words(["list", "add", "role", "remove"]), .none, .words(Operator.Role.allCases.map(\.rawValue))], pages: true
        ) { args, session in
            func role(_ text: String?) throws -> Operator.Role {
                guard let text, let role = Operator.Role(rawValue: text) else {
                    throw TimeTrackError(.usage, "operator: the role must be one of \(roles)", fix: "usage: operator \(usage)")
                }
                return role
            }
            func name() throws -> String {
                guard args.positional.count >= 2 else {
                    throw TimeTrackError(.usage, "operator \(args.positional[0]): name the operator", fix: "usage: operator \(usage)")
                }
                return args.positional[1]
            }
            func show(_ op: Operator, _ verb: String) {
                if session.output.json { session.output.printJSON(op); return }
                session.output.line(
                    "\(op.name): \(verb) \(op.role.rawValue)" + (op.login.map { ", login \($0)" } ?? ", no login (only through --as)")
                        + (op.schools.isEmpty ? "" : ", schools " + op.schools.joined(separator: ", "))
                        + (op.alerts && op.role == .staff ? ", may approve alerts" : ""))
            }
            // Usage first: a mistyped command opens (or creates) no store.
            let action = args.positional[0]
            guard ["list", "add", "role", "remove"].contains(action) else {
                throw TimeTrackError(.usage, "operator: unknown action '\(action)'", fix: "usage: operator \(usage)")
            }
            if action == "add" { _ = try role(args.option("role")) }
            if action == "role" { _ = try role(args.positional.count == 3 ? args.positional[2] : nil) }
            if action != "list" { _ = try name() }
            let store = try session.store(create: true)
            try session.requireAdmin(in: store, for: "manage operators")
            switch action {
            case "list":
                return try listOperators(store: store, session: session)
            case "add":
                let name = try name()
                let login = args.option("login") ?? (getpwnam(name) != nil ? name : nil)
                let schools = (args.option("school") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                try checkSchools(schools, store: store, session: session)
                var op = try store.addOperator(name, role: try role(args.option("role")), login: login, schools: schools, by: session.operatorName)
                if args.flag("alerts") {
                    try store.setAlertsRight(op.name, true, by: session.operatorName)
                    op.alerts = true
                }
                if let given = args.option("login"), Session.serverAddress(session.storePath) == nil, getpwnam(given) == nil {
                    session.output.note(
                        "note: there is no account '\(SafeText.visible(given))' on this machine yet; \(op.name) can use the store once it exists"
                            + " (useradd), or give --login an existing account")
                }
                show(op, "is")
                if op.role != .admin, let warning = sharedTrust(store, session) { session.output.note("note: " + warning) }
                return 0
            case "role":
                guard args.positional.count == 3 else {
                    throw TimeTrackError(.usage, "operator role: name the operator and the role", fix: "usage: operator role NAME \(roles)")
                }
                show(try store.setRole(try name(), try role(args.positional[2]), by: session.operatorName), "is now")
                return 0
            case "remove":
                show(try store.removeOperator(try name(), by: session.operatorName), "removed (the audit keeps the name); was")
                return 0
            default:
                throw TimeTrackError(.usage, "operator: unknown action '\(args.positional[0])'", fix: "usage: operator \(usage)")
            }
        }
    }

    /// `operator list`: who may work in the console, with their role, login, schools and the
    /// alerts right.
    static func listOperators(store: any ItemStore, session: Session) throws -> Int32 {
        let ops = try store.operators()
        if session.output.json {
            session.output.printJSON(ops)
            return 0
        }
        var table = Table(headers: ["name", "role", "login", "schools", "alerts", "active"])
        for op in ops {
            table.rows.append([
                op.name, op.role.rawValue, op.login ?? "", op.schools.joined(separator: ","), op.role == .admin || op.alerts ? "yes" : "",
                op.active ? "yes" : "removed",
            ])
        }
        session.output.printTable(table, width: terminalWidth())
        return 0
    }

    /// Refuses a school no source definition and no place names (a typo would give staff a
    /// school with no items, silently); any school goes while nothing names one yet.
    static func checkSchools(_ schools: [String], store: any ItemStore, session: Session) throws {
        guard !schools.isEmpty else { return }
        let known = Set(session.sources().sources.compactMap(\.school) + ((try? store.places()) ?? []).compactMap(\.school))
        let unknown = schools.filter { !known.contains($0) }
        guard !unknown.isEmpty, !known.isEmpty else { return }
        throw TimeTrackError(
            .usage, "operator add: no source or place names the school \(unknown.map { "'\(SafeText.visible($0))'" }.joined(separator: ", "))",
            fix: "the schools the sources name: \(known.sorted().joined(separator: ", ")); check the spelling (a new school: add its source first)")
    }
}
