import Foundation
import TimeTrackCore

extension Console {
    static var statusCommand: CommandSpec { StatusCommand.spec }

    struct StatusCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "status", summary: "show the store's path, schema version and item counts per kind and status", pages: true)

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store(create: false)
            let counts = try store.counts()
            let audit = try store.verifyAudit()
            // A viewer reads items of the exported kinds only: it is told nothing of the private
            // kinds (absence reports, tickets).
            let viewer = try session.access(in: store).op.role == .viewer
            let kinds = viewer ? ItemKind.allCases.filter(\.traits.exported) : ItemKind.allCases
            let statuses = ItemStatus.allCases
            if session.output.json {
                var byKind: [String: JSONValue] = [:]
                for kind in kinds {
                    var byStatus: [String: JSONValue] = [:]
                    for status in statuses { byStatus[status.rawValue] = .number(Double(counts[kind]?[status] ?? 0)) }
                    byKind[kind.rawValue] = .object(byStatus)
                }
                session.output.printJSON(
                    JSONValue.object([
                        "store": .string(store.location), "schemaVersion": .number(Double(store.schemaVersion)), "counts": .object(byKind),
                        "audit": .object([
                            "entries": .number(Double(audit.entries)), "verifies": .bool(audit.holds),
                            "problem": audit.problem.map { .string($0) } ?? .null,
                            "missingGuards": .array(audit.missingGuards.map { .string($0) }),
                        ]),
                        "sharedTrust": sharedTrust(store, session).map { .string($0) } ?? .null,
                    ]))
                return audit.holds ? 0 : 1
            }
            // CSV is the counts table alone; the rest goes to stderr.
            let say: (String) -> Void = session.output.csv ? session.output.note : { session.output.line($0) }
            say("store:          \(store.location)")
            say("schema version: \(store.schemaVersion)")
            if audit.holds {
                say("audit log:      \(audit.entries) entries, the chain verifies")
            } else if let problem = audit.problem {
                say("audit log:      " + session.output.paint("BROKEN: \(problem)", .red) + " (`audit verify`)")
            }
            if !audit.missingGuards.isEmpty {
                say(
                    "audit guards:   " + session.output.paint("MISSING: \(audit.missingGuards.joined(separator: ", "))", .red)
                        + " (`store repair` restores them)")
            }
            if let warning = sharedTrust(store, session) { say("access:         " + warning) }
            // At 80 columns: the statuses time and withdrawal give appear once an item has one.
            let shown = statuses.filter { status in
                session.output.csv || [.pending, .published, .rejected, .archived].contains(status) || kinds.contains { counts[$0]?[status] ?? 0 > 0 }
            }
            var table = Table(headers: ["kind"] + shown.map(\.rawValue) + ["total"])
            for kind in kinds {
                let row = shown.map { counts[kind]?[$0] ?? 0 }
                table.rows.append([kind.plural] + row.map(String.init) + [String(row.reduce(0, +))])
            }
            if !session.output.csv { session.output.line() }
            session.output.printTable(table, width: 100)
            return audit.holds ? 0 : 1
        }
    }

    /// On a SQLite store whose file or folder others may write: that anyone who can write it
    /// can change anything in it, roles included; nil otherwise (and on PostgreSQL, where the
    /// server enforces roles).
    static func sharedTrust(_ store: any ItemStore, _ session: Session) -> String? {
        guard Session.serverAddress(session.storePath) == nil else { return nil }
        let folder = (session.storePath as NSString).deletingLastPathComponent
        let writable = [session.storePath, folder.isEmpty ? "." : folder].filter { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & 0o022 != 0
        }
        guard !writable.isEmpty else { return nil }
        return "shared-trust store: \(writable.joined(separator: " and ")) can be written by other accounts than its owner, and anyone who can write "
            + "the file can change anything in it, roles and the audit log included (`audit verify` notices, it cannot prevent). "
            + "For roles that hold against them, use PostgreSQL (docs/postgresql.md)."
    }
}
