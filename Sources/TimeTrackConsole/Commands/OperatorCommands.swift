import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var runsCommand: CommandSpec { RunsCommand.spec }

    struct RunsCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("runs", summary: "import runs, newest first, with what each found and did", pages: true)
        @Option("source", value: "S", completes: .sources, help: "only this source") var source: String?
        @Option("limit", value: "N", in: 1...100_000, help: "at most N (default 20)") var limit = 20

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            try session.requireImport(in: store)
            let runs = try store.runs(sourceID: source, limit: limit)
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

    static var operatorCommand: CommandSpec { OperatorCommand.spec }

    struct OperatorCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "operator", summary: "manage who may work in the console, bound to Unix accounts (admins only)", pages: true)
        @Positional(
            "list | add NAME | role NAME ROLE | remove NAME", count: 1...3,
            completes: [.words(["list", "add", "role", "remove"]), .none, .words(Operator.Role.allCases.map(\.rawValue))]) var words: [String]
        @Option(
            "role", value: "ROLE", completes: .words(Operator.Role.allCases.map(\.rawValue)),
            help: "admin (everything), importer (imports only: cron), staff (posts, absences, tickets), viewer (published items)") var role: String?
        @Option("login", value: "ACCOUNT", help: "the Unix account that is this operator (default: the account of the same name, if there is one)") var login:
            String?
        @Option("school", value: "S,...", help: "staff: only these schools' items (default: every school)") var school: String?
        @Flag("alerts", help: "staff: may approve alerts (of their schools); admins always may") var alerts: Bool

        func run(_ session: Session) throws -> Int32 {
            func readRole(_ text: String?) throws -> Operator.Role {
                guard let text, let role = Operator.Role(rawValue: text) else {
                    throw TimeTrackError(
                        .usage, "operator: the role must be one of \(Operator.Role.allCases.map(\.rawValue).joined(separator: "|"))",
                        fix: "usage: \(Self.usageLine)")
                }
                return role
            }
            func name() throws -> String {
                guard words.count >= 2 else {
                    throw TimeTrackError(.usage, "operator \(words[0]): name the operator", fix: "usage: \(Self.usageLine)")
                }
                return words[1]
            }
            func show(_ op: Operator, _ verb: String) {
                if session.output.json { session.output.printJSON(op); return }
                session.output.line(
                    "\(op.name): \(verb) \(op.role.rawValue)" + (op.login.map { ", login \($0)" } ?? ", no login (only through --as)")
                        + (op.schools.isEmpty ? "" : ", schools " + op.schools.joined(separator: ", "))
                        + (op.alerts && op.role == .staff ? ", may approve alerts" : ""))
            }
            // Usage first: a mistyped command opens (or creates) no store.
            let action = words[0]
            guard ["list", "add", "role", "remove"].contains(action) else {
                throw TimeTrackError(.usage, "operator: unknown action '\(action)'", fix: "usage: \(Self.usageLine)")
            }
            if action == "add" { _ = try readRole(role) }
            if action == "role" { _ = try readRole(words.count == 3 ? words[2] : nil) }
            if action != "list" { _ = try name() }
            let store = try session.store(create: true)
            try session.requireAdmin(in: store, for: "manage operators")
            switch action {
            case "list":
                return try listOperators(store: store, session: session)
            case "add":
                let name = try name()
                let login = login ?? (getpwnam(name) != nil ? name : nil)
                let schools = (school ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                try checkSchools(schools, store: store, session: session)
                var op = try store.addOperator(name, role: try readRole(role), login: login, schools: schools, by: session.operatorName)
                if alerts {
                    try store.setAlertsRight(op.name, true, by: session.operatorName)
                    op.alerts = true
                }
                if let given = login, Session.serverAddress(session.storePath) == nil, getpwnam(given) == nil {
                    session.output.note(
                        "note: there is no account '\(SafeText.visible(given))' on this machine yet; \(op.name) can use the store once it exists"
                            + " (useradd), or give --login an existing account")
                }
                show(op, "is")
                if op.role != .admin, let warning = sharedTrust(store, session) { session.output.note("note: " + warning) }
                return 0
            case "role":
                guard words.count == 3 else {
                    throw TimeTrackError(
                        .usage, "operator role: name the operator and the role",
                        fix: "usage: operator role NAME " + Operator.Role.allCases.map(\.rawValue).joined(separator: "|"))
                }
                show(try store.setRole(try name(), try readRole(words[2]), by: session.operatorName), "is now")
                return 0
            case "remove":
                show(try store.removeOperator(try name(), by: session.operatorName), "removed (the audit keeps the name); was")
                return 0
            default:
                throw TimeTrackError(.usage, "operator: unknown action '\(words[0])'", fix: "usage: \(Self.usageLine)")
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
