import Foundation
import TimeTrackCore
import TimeTrackStore

extension Console {
    /// `store copy --from A --to B`: a store between its SQLite file and a PostgreSQL database.
    static var storeCommand: CommandSpec { StoreCommand.spec }

    struct StoreCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "store",
            summary: "copy the whole store from its SQLite file into an empty PostgreSQL database, or back into a new file; `store repair` restores the"
                + " audit log's guards; `store grant` makes PostgreSQL enforce the roles (admins only)")
        @Positional("copy | repair | grant", count: 1...1, completes: [.words(["copy", "repair", "grant"]), .none]) var words: [String]
        @Option("from", value: "PATH|URI", completes: .path, help: "the store to copy: a SQLite file, or postgresql://user@host/db") var from: String?
        @Option("to", value: "URI|PATH", completes: .path, help: "where: an empty PostgreSQL database, or a new SQLite file") var to: String?

        func run(_ session: Session) throws -> Int32 {
            if words[0] == "repair" { return try repairStore(session) }
            if words[0] == "grant" { return try grantStore(session) }
            guard words[0] == "copy" else {
                throw TimeTrackError(.usage, "store: unknown action '\(words[0])'", fix: "usage: \(Self.usageLine)")
            }
            guard let from = from, let to = to else {
                throw TimeTrackError(.usage, "store copy: give --from and --to", fix: "usage: \(Self.usageLine)")
            }
            let fromServer = Session.serverAddress(from), toServer = Session.serverAddress(to)
            guard (fromServer == nil) != (toServer == nil) else {
                throw TimeTrackError(
                    .usage, "store copy: one side is a SQLite file and the other a PostgreSQL address",
                    fix: "e.g. store copy --from district.sqlite --to postgresql://timetrack@db/district")
            }
            let progress = Progress(label: "copy", enabled: session.interactive && isatty(2) == 1 && !session.output.json)
            defer { progress.finish() }
            let report: StoreCopy.Report
            if fromServer == nil {
                // Reading the whole store is an admin's to do.
                let source = try SQLiteStore(path: from, create: false, readOnly: true)
                defer { source.close() }
                if try source.operators().isEmpty {
                    // A store no console has opened yet has no admin: its file's owner is the one
                    // who would become it (the read-only connection cannot record that).
                    var info = stat()
                    guard stat(from, &info) == 0, info.st_uid == geteuid() else {
                        throw TimeTrackError(
                            .permission, "this store has no operators yet, and only its file's owner may copy it",
                            fix: "run `timetrack-admin --store \(from) status` as the owner first")
                    }
                } else {
                    try session.requireAdmin(in: source, for: "copy the store")
                }
                report = try StoreCopy.toPostgres(from: from, to: to) { _, rows in progress.update(pages: 0, items: rows) }
            } else {
                // On PostgreSQL the server decides who may read every table.
                report = try StoreCopy.toSQLite(from: from, to: to) { _, rows in progress.update(pages: 0, items: rows) }
            }
            progress.finish()
            if session.output.json {
                session.output.printJSON(
                    JSONValue.object([
                        "tables": .object(Dictionary(uniqueKeysWithValues: report.tables.map { ($0.name, JSONValue.number(Double($0.rows))) })),
                        "items": .object(report.items.mapValues { .number(Double($0)) }), "revisions": .number(Double(report.revisions)),
                        "auditEntries": .number(Double(report.audit.entries)), "auditVerifies": .bool(report.audit.brokenEntry == nil),
                    ]))
                return 0
            }
            let total = report.items.values.reduce(0, +)
            session.output.line(
                "copied \(total) items, \(report.revisions) revisions and \(report.audit.entries) audit entries to \(toServer ?? to); the counts"
                    + " match the source and the audit chain verifies there"
            )
            return 0
        }
    }

    /// `store grant`: the roles enforced by the PostgreSQL server (group roles, grants, row-level
    /// security, the checked operator function), for the store's owner to run once (and again
    /// after an upgrade); then gives each operator's login role its group.
    static func grantStore(_ session: Session) throws -> Int32 {
        guard let address = Session.serverAddress(session.storePath) else {
            throw TimeTrackError(
                .usage, "store grant is for PostgreSQL stores: a SQLite file cannot enforce roles against whoever can write it",
                fix: "see `status` (shared-trust) and docs/postgresql.md to move the store to PostgreSQL (`store copy`)")
        }
        let store = try session.store(create: false)
        try session.requireAdmin(in: store, for: "grant the store's roles")
        try PostgresGrants.apply(address: address)
        var given: [String] = []
        for op in try store.operators() where op.active && op.login != nil {
            // Written again through the guarded path: the login role gets its group.
            _ = try store.addOperator(op.name, role: op.role, login: op.login, schools: op.schools, by: session.operatorName)
            given.append("\(op.login ?? op.name) → \(PostgresGrants.group(op.role))")
        }
        if session.output.json {
            session.output.printJSON(JSONValue.object(["groups": .array(given.map { .string($0) })]))
        } else {
            session.output.line(
                "the server now enforces the roles: groups timetrack_admin, _importer, _staff, _viewer and _app, row-level security on items and"
                    + " their content, operators written only through a checked function"
            )
            for line in given { session.output.line("  " + line) }
            session.output.line("the app's backend: GRANT \(PostgresGrants.app) TO its role (it reads the published_* views only)")
        }
        return 0
    }

    /// `store repair`: puts back the audit log's append-only guards someone dropped or replaced.
    static func repairStore(_ session: Session) throws -> Int32 {
        let store = try session.store(create: false)
        try session.requireAdmin(in: store, for: "repair the store")
        let restored = try store.repairAuditGuards()
        if session.output.json {
            session.output.printJSON(JSONValue.object(["restored": .array(restored.map { .string($0) })]))
        } else if restored.isEmpty {
            session.output.line("nothing to repair: the audit log's guards are in place")
        } else {
            session.output.line(
                "restored the audit log's guards: \(restored.joined(separator: ", ")); `audit verify` now checks the entries (someone could write the"
                    + " store: find out who)"
            )
        }
        return 0
    }
}
