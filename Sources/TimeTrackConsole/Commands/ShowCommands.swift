import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var showCommand: CommandSpec { ShowCommand.spec }

    struct ShowCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("show", summary: "show an item: its fields, status, provenance and any pending change", pages: true)
        @Positional("ID", count: 1...1, completes: [.ids]) var words: [String]
        @Flag("full", help: "long text whole, as written (bodies, descriptions), instead of its first 200 characters") var full: Bool

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            var item = try store.item(words[0])
            try session.requireRead(item, in: store)
            // A change waiting for review is shown only to those who may read pending items
            // (staff read what their schools publish, not what waits).
            if !(try session.access(in: store).mayRead(item.kind, status: .pending, school: item.school)) { item.pendingContent = nil }
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(item))
                return 0
            }
            let out = session.output
            // Every date in the item's own zone, its fields' and its decisions' alike.
            let zone = session.zone(of: item)
            if out.csv {
                // A row a field: the item's status and school first, then its fields by name.
                var table = Table(headers: ["field", "value"])
                table.rows = [["id", item.id], ["kind", item.kind.rawValue], ["status", ItemRendering.statusWord(item)], ["school", item.school ?? ""]]
                for (name, value) in item.content.fields().sorted(by: { $0.key < $1.key }) {
                    table.rows.append([name, ItemRendering.value(value, zone: zone, limit: full ? Int.max : 200)])
                }
                out.printTable(table, width: terminalWidth())
                return 0
            }
            out.line(out.paint("\(item.id)  \(item.kind.rawValue)  \(ItemRendering.statusWord(item))", .bold) + (item.school.map { "  school: \($0)" } ?? ""))
            for line in ItemRendering.fieldLines(item.content, zone: zone, full: full) { out.line(line) }
            for line in ItemRendering.replyLines(item.content, zone: zone) { out.line(line) }
            for line in ItemRendering.photoLines(item.content) { out.line(out.paint(line, .yellow)) }
            if case .event(let event) = item.content { out.line(ItemRendering.pinLine(event, school: item.school, places: try store.places())) }
            for line in ItemRendering.privacyLines(
                PrivacyLint.findings(item.pendingContent ?? item.content, students: try store.absenceStudents(), allowed: session.privacyAllowList()),
                output: out)
            { out.line(line) }
            for line in ItemRendering.accessibilityLines(AccessibilityCheck.findings(item.pendingContent ?? item.content), output: out) { out.line(line) }
            if let pending = item.pendingContent {
                out.line(out.paint("pending change:", .yellow))
                for line in ItemRendering.diffLines(ItemContent.changedFields(from: item.content, to: pending), zone: zone, output: out) { out.line(line) }
            }
            if let p = item.provenance {
                out.line("source:   \(p.sourceID)  \(SafeText.visible(p.sourceURL))")
                out.line("fetched:  \(Display.date(p.fetchedAt, zone: zone)) by \(p.importer) \(p.importerVersion), page sha256 \(p.pageHash.prefix(12))…")
                for note in p.guessed { out.line(out.paint("note:     \(SafeText.visible(note))", .yellow)) }
            }
            if let by = item.approvedBy { out.line("approved: \(by), \(Display.date(item.approvedAt, zone: zone))") }
            if let reason = item.rejectReason { out.line("rejected: \(SafeText.visible(reason))") }
            let locks = try store.fieldLocks(item.id)
            if !locks.isEmpty {
                let fields = (item.pendingContent ?? item.content).fields()
                for lock in locks {
                    var line = "locked:   \(lock.field) = \(ItemRendering.value(fields[lock.field] ?? .null, zone: zone, limit: 80))"
                    if let upstream = lock.upstream {
                        line += out.paint(
                            "  (upstream now: \(ItemRendering.value(upstream, zone: zone, limit: 80)); `unlock \(item.id) \(lock.field)` takes it)", .yellow)
                    }
                    out.line(line)
                }
            }
            if item.missingRuns > 0 { out.line("missing:  from its source for \(item.missingRuns) run(s)") }
            return 0
        }
    }

    static var historyCommand: CommandSpec { HistoryCommand.spec }

    struct HistoryCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("history", summary: "every revision of an item and the decisions on it", pages: true)
        @Positional("ID", count: 1...1, completes: [.ids]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let item = try store.item(words[0])
            try session.requireRead(item, in: store)
            let zone = session.zone(of: item)
            var revisions = try store.revisions(of: words[0])
            // Versions that never went live are for those who may read pending items.
            if !(try session.access(in: store).mayRead(item.kind, status: .pending, school: item.school)) {
                revisions = revisions.filter { $0.wentLiveAt != nil }
            }
            let audit = try store.audit(itemID: words[0], limit: 1000)
            if session.output.json {
                session.output.printJSON(
                    JSONValue.object([
                        "revisions": .array(
                            revisions.map { r in
                                .object([
                                    "number": .number(Double(r.number)), "state": .string(r.state.rawValue), "createdBy": .string(r.createdBy),
                                    "createdAt": .string(ISO8601DateFormatter().string(from: r.createdAt)), "note": r.note.map { .string($0) } ?? .null,
                                    "fields": .object(r.content.fields()), "hash": .string(r.contentHash),
                                ])
                            }),
                        "audit": .array(audit.map { (try? JSONCoding.value($0)) ?? .null }),
                    ]))
                return 0
            }
            if session.output.csv {
                // A row a revision, then a row a decision, in time order.
                var table = Table(headers: ["when", "what", "number", "state", "by", "note"])
                for r in revisions {
                    table.rows.append([Display.date(r.createdAt, zone: zone), "revision", String(r.number), r.state.rawValue, r.createdBy, r.note ?? ""])
                }
                for e in audit.reversed() {
                    table.rows.append([
                        Display.date(e.at, zone: zone), e.action, "", "", e.operatorName, [e.reason, e.detail].compactMap { $0 }.joined(separator: " · "),
                    ])
                }
                session.output.printTable(table, width: terminalWidth())
                return 0
            }
            var previous: ItemContent?
            for r in revisions {
                session.output.line(
                    session.output.paint("revision \(r.number)  \(r.state.rawValue)  \(Display.date(r.createdAt, zone: zone))  by \(r.createdBy)", .bold)
                        + (r.note.map { "  (\(SafeText.visible($0)))" } ?? ""))
                if let previous {
                    let changes = ItemContent.changedFields(from: previous, to: r.content)
                    for line in ItemRendering.diffLines(changes, zone: zone, output: session.output) { session.output.line(line) }
                    if changes.isEmpty { session.output.line("  (no field changes)") }
                } else {
                    for line in ItemRendering.fieldLines(r.content, zone: zone) { session.output.line(line) }
                }
                previous = r.content
            }
            session.output.line()
            session.output.line("decisions:")
            for entry in audit.reversed() {
                session.output.line(
                    "  \(Display.date(entry.at, zone: zone))  \(entry.operatorName)  \(entry.action)"
                        + (entry.reason.map { "  \"\(SafeText.visible($0))\"" } ?? "") + (entry.detail.map { "  (\(SafeText.visible($0)))" } ?? ""))
            }
            return 0
        }
    }

}
