import Foundation
import TimeTrackCore
import TimeTrackReview

extension Console {
    static var undoCommand: CommandSpec { UndoCommand.spec }

    struct UndoCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "undo",
            summary: "take back your last action of any kind (approve, reject, edit, unlock, revert, reply, close, reopen, archive, restore, keep; a bulk"
                + " approval whole), named before it is done")
        @Flag("list", help: "show what undo would take back, newest first, and do nothing") var list: Bool

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let life = Lifecycle(store)
            let out = session.output
            let stack = try life.undoStack(by: session.operatorName, limit: list ? 20 : 1)
            if list {
                printUndoStack(stack, session: session)
                return 0
            }
            guard let next = stack.first else {
                if !out.json {
                    out.line(
                        "nothing to undo: \(session.operatorName) has no decision left to take back (`audit --operator \(session.operatorName)` shows them all)"
                    )
                } else {
                    out.printJSON(JSONValue.array([]))
                }
                return 0
            }
            if !out.json { out.line("taking back " + describe(next, zone: session.districtZone)) }
            let undone = try life.undo(by: session.operatorName)
            if out.json {
                out.printJSON(JSONValue.array(undone.map(undoneJSON)))
                return 0
            }
            for entry in undone {
                switch entry.outcome {
                case .undone:
                    let word = (try? store.item(entry.itemID)).map(ItemRendering.statusWord) ?? "?"
                    out.line("\(entry.itemID): \(entry.action) taken back; now \(word)")
                case .decidedSince(let what):
                    out.line(
                        "\(entry.itemID): left alone: changed since (\(SafeText.visible(what))); `history \(entry.itemID)` shows it, `revert"
                            + " \(entry.itemID) --to N` puts a revision back"
                    )
                }
            }
            let count = undone.filter { if case .undone = $0.outcome { return true } else { return false } }.count
            out.line("took back \(count) of \(undone.count) item(s); the audit log keeps the decision and its undo")
            return count == undone.count ? 0 : 3
        }
    }

    /// `your edit of e8 (title) at 9:14 AM`.
    static func describe(_ candidate: Lifecycle.UndoCandidate, zone: TimeZone) -> String {
        let items =
            candidate.itemIDs.count <= 4
            ? candidate.itemIDs.joined(separator: ", ") : candidate.itemIDs.prefix(3).joined(separator: ", ") + " and \(candidate.itemIDs.count - 3) more"
        let detail = candidate.detail.map { " (\(SafeText.visible(String($0.prefix(60)))))" } ?? ""
        return "your \(candidate.action) of \(items)\(detail), \(Display.date(candidate.at, zone: zone))"
    }

    static func printUndoStack(_ stack: [Lifecycle.UndoCandidate], session: Session) {
        let out = session.output
        if out.json {
            out.printJSON(
                JSONValue.array(
                    stack.map {
                        .object([
                            "action": .string($0.action), "items": .array($0.itemIDs.map(JSONValue.string)), "at": .string(StoreDate.format($0.at)),
                            "detail": $0.detail.map(JSONValue.string) ?? .null,
                        ])
                    }))
            return
        }
        guard !stack.isEmpty else {
            out.line("nothing to undo")
            return
        }
        var table = Table(headers: ["", "decision", "items", "when", "detail"])
        for (index, candidate) in stack.enumerated() {
            table.rows.append([
                index == 0 ? "next" : String(index + 1), candidate.action,
                candidate.itemIDs.prefix(6).joined(separator: " ") + (candidate.itemIDs.count > 6 ? " …" : ""),
                Display.date(candidate.at, zone: session.districtZone), SafeText.visible(String((candidate.detail ?? "").prefix(40))),
            ])
        }
        out.printTable(table, width: terminalWidth())
        out.line("`undo` takes back the first line; each undo goes one further down")
    }

    static func undoneJSON(_ entry: Lifecycle.Undone) -> JSONValue {
        var object: [String: JSONValue] = ["id": .string(entry.itemID), "undid": .string(entry.action)]
        switch entry.outcome {
        case .undone(let status): object["status"] = .string(status.rawValue)
        case .decidedSince(let what): object["skipped"] = .string("changed since: " + what)
        }
        return .object(object)
    }
}
