import Foundation
import TimeTrackCore

extension Console {
    static var statusCommand: CommandSpec {
        CommandSpec("status", summary: "show the store's path, schema version and item counts per kind and status") { _, session in
            let store = try session.store(create: false)
            let counts = try store.counts()
            let audit = try store.verifyAudit()
            if session.output.json {
                var byKind: [String: JSONValue] = [:]
                for kind in ItemKind.allCases {
                    var byStatus: [String: JSONValue] = [:]
                    for status in ItemStatus.allCases { byStatus[status.rawValue] = .number(Double(counts[kind]?[status] ?? 0)) }
                    byKind[kind.rawValue] = .object(byStatus)
                }
                session.output.printJSON(
                    JSONValue.object([
                        "store": .string(store.location), "schemaVersion": .number(Double(store.schemaVersion)), "counts": .object(byKind),
                        "audit": .object([
                            "entries": .number(Double(audit.entries)), "verifies": .bool(audit.holds),
                            "problem": audit.problem.map { .string($0) } ?? .null,
                        ]),
                    ]))
                return 0
            }
            // CSV is the counts table alone; the rest goes to stderr.
            let say: (String) -> Void = session.output.csv ? session.output.note : { session.output.line($0) }
            say("store:          \(store.location)")
            say("schema version: \(store.schemaVersion)")
            if audit.holds {
                say("audit log:      \(audit.entries) entries, the chain verifies")
            } else {
                say("audit log:      " + session.output.paint("BROKEN: \(audit.problem ?? "")", .red) + " (`audit verify`)")
            }
            var table = Table(headers: ["kind"] + ItemStatus.allCases.map(\.rawValue) + ["total"])
            for kind in ItemKind.allCases {
                let row = ItemStatus.allCases.map { counts[kind]?[$0] ?? 0 }
                table.rows.append([kind.plural] + row.map(String.init) + [String(row.reduce(0, +))])
            }
            if !session.output.csv { session.output.line() }
            session.output.printTable(table, width: 100)
            return 0
        }
    }
}
