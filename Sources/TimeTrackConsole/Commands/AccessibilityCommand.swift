import Foundation
import TimeTrackCore
import TimeTrackKit

extension Console {
    static var a11yCommand: CommandSpec { A11yCommand.spec }

    struct A11yCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "a11y",
            summary: "accessibility: `report` lists every published item with open findings (WCAG 2.1 AA) for the district's compliance officer (--format"
                + " csv|json); `links ID` names links that say nothing (\"click here\") from where they go")
        @Positional("report | links ID", count: 1...2, completes: [.words(["report", "links"]), .ids]) var words: [String]
        @Option("school", value: "S", help: "report: only this school's items") var school: String?
        @Flag("yes", help: "links: apply the names without asking") var yes: Bool

        func run(_ session: Session) throws -> Int32 {
            if words[0] == "links" {
                guard words.count == 2 else { throw TimeTrackError(.usage, "a11y links: which item?", fix: "a11y links ID [--yes]") }
                let store = try session.store()
                let item = try store.item(words[1])
                try session.requireDecision(on: item.kind, school: item.school, action: "edit", in: store)
                _ = try LinkNaming.run(item, store: store, session: session, confirmed: yes)
                return 0
            }
            guard words == ["report"] else {
                throw TimeTrackError(.usage, "a11y: 'report' or 'links ID'", fix: "a11y report [--school S] [--format csv], or a11y links ID")
            }
            let store = try session.store()
            var table = Table(headers: ["id", "kind", "school", "criterion", "field", "problem", "fix"])
            var rows: [JSONValue] = []
            for kind in ItemKind.allCases where kind.traits.exported {
                for row in try session.listVisible(ItemQuery(kind: kind, status: .published, limit: 100_000), in: store) {
                    if let school = school, row.school != school { continue }
                    let item = try store.item(row.id)
                    for finding in AccessibilityCheck.findings(item.content) {
                        let criterion = finding.criterion == "advisory" ? "advisory" : "WCAG \(finding.criterion) \(finding.name)"
                        table.rows.append([item.id, kind.rawValue, item.school ?? "", criterion, finding.field, SafeText.visible(finding.problem), finding.fix])
                        rows.append(
                            .object([
                                "id": .string(item.id), "kind": .string(kind.rawValue), "school": item.school.map(JSONValue.string) ?? .null,
                                "criterion": .string(finding.criterion),
                                "name": .string(finding.name), "field": .string(finding.field), "problem": .string(finding.problem),
                                "fix": .string(finding.fix),
                            ]))
                    }
                }
            }
            if session.output.json {
                session.output.printJSON(JSONValue.array(rows))
            } else if table.rows.isEmpty {
                session.output.line("no open findings in what is published")
            } else if session.output.csv {
                session.output.printTable(table, width: terminalWidth())
            } else {
                printFindings(table.rows, output: session.output)
                let summary =
                    "\(Set(table.rows.map { $0[0] }).count) published item(s) with \(table.rows.count) finding(s); docs/accessibility.md says how"
                    + " to fix each"
                for line in wrapWords(summary, width: max(40, terminalWidth())) { session.output.line(line) }
            }
            return 0
        }
    }

    /// The report on a terminal: each item once, its findings under it, problem and fix wrapped
    /// between words to the terminal's width (a table of seven columns was unreadable at 80).
    static func printFindings(_ rows: [[String]], output: Output) {
        let width = max(40, terminalWidth())
        var last = ""
        for row in rows where row.count == 7 {
            if row[0] != last {
                if !last.isEmpty { output.line() }
                output.line("\(row[0])  \(row[1])" + (row[2].isEmpty ? "" : " · \(row[2])"))
                last = row[0]
            }
            for (index, line) in wrapWords("\(row[3]) (\(row[4])): \(row[5])", width: width - 4).enumerated() {
                output.line((index == 0 ? "  " : "    ") + line)
            }
            for (index, line) in wrapWords("fix: \(row[6])", width: width - 6).enumerated() { output.line((index == 0 ? "    " : "      ") + line) }
        }
        output.line()
    }
}
