import Foundation
import TimeTrackCore

extension Console {
    static var agendaCommand: CommandSpec { AgendaCommand.spec }

    struct AgendaCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "agenda", summary: "what goes live, expires and is due for review next, each in its item's zone", pages: true)
        @Option("days", value: "N", in: 1...3_660, help: "how far ahead (default 7)") var days = 7

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let days = days
            let now = Date()
            let access = try session.access(in: store)
            let entries = try store.agenda(from: now, to: now.addingTimeInterval(Double(days) * 86_400), limit: 1_000).filter {
                access.mayRead($0.kind, status: $0.status, school: $0.school)
            }
            if session.output.json {
                let iso = ISO8601DateFormatter()
                session.output.printJSON(
                    JSONValue.array(
                        entries.map { entry in
                            .object([
                                "at": .string(iso.string(from: entry.at)), "what": .string(entry.what.happening), "id": .string(entry.id),
                                "kind": .string(entry.kind.rawValue), "status": .string(entry.status.rawValue), "title": .string(entry.title),
                                "school": entry.school.map { .string($0) } ?? .null,
                            ])
                        }))
                return 0
            }
            if entries.isEmpty {
                session.output.line("nothing goes live, expires or is due for review in the next \(days) day\(days == 1 ? "" : "s")")
                return 0
            }
            var table = Table(headers: ["when", "what", "id", "title"])
            for entry in entries {
                let zone = (try? store.item(entry.id)).map(session.zone(of:)) ?? session.zone(ofSource: entry.sourceID)
                table.rows.append([Display.date(entry.at, zone: zone), entry.what.happening, entry.id, SafeText.visible(entry.title)])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

}
