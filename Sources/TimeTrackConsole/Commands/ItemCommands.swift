import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static func kindOption(_ word: String?) throws -> ItemKind? {
        guard let word else { return nil }
        guard let kind = ItemKind(word: word) else { throw notAKind(word) }
        return kind
    }

    /// "'widgets' is not a kind", with the nearest kind when it is close.
    static func notAKind(_ word: String, command: String? = nil) -> TimeTrackError {
        TimeTrackError(
            .usage, (command.map { "\($0): " } ?? "") + "'\(word)' is not a kind",
            fix: didYouMean(word, among: ItemKind.plurals) + "kinds: " + ItemKind.plurals.joined(separator: ", "))
    }

    /// "did you mean `x`? " when a candidate is within two edits of `word` (or one a prefix of it); else "".
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = candidates.min(by: { editDistance($0, word) < editDistance($1, word) }),
            editDistance(best, word) <= 2 || (word.count >= 3 && best.hasPrefix(word))
        else { return "" }
        return "did you mean `\(best)`? "
    }

    static var listCommand: CommandSpec { ListCommand.spec }

    struct ListCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "list", summary: "list items, newest first (kinds: " + ItemKind.plurals.joined(separator: ", ") + ")", pages: true)
        @Positional("[KIND]", count: 0...1, completes: [.words(ItemKind.plurals)]) var words: [String]
        @Option("status", value: "S", completes: .words(ItemStatus.allCases.map(\.rawValue)), help: "pending, published, rejected or archived") var status:
            String?
        @Option(
            "due-within", value: "DURATION", completes: .words(["1d", "2d", "7d", "14d"]),
            help: "deadlines due from now to this far ahead (7d, 48h, 2w), soonest first") var dueWithin: String?
        @Option("source", value: "S", completes: .sources, help: "only items from this source id") var source: String?
        @Option("limit", value: "N", in: 1...100_000, help: "at most N rows (default 50)") var limit = 50
        @Option("offset", value: "N", in: 0...Int(Int32.max), help: "skip the first N rows") var offset = 0
        @Option(
            "flag", value: "F", completes: .words(["a11y", "privacy"]),
            help: "a11y: only items the accessibility check flags; privacy: only those the privacy check flags") var flag: String?

        func run(_ session: Session) throws -> Int32 {
            let (kind, status, dated) = try listFilters(self)
            let query = ItemQuery(
                kind: kind, status: status, sourceID: source,
                limit: limit,
                offset: offset, dated: dated)
            // One row more than asked says whether there are more.
            var probe = query
            probe.limit += 1
            var rows: [ItemSummary]
            if let flag = flag {
                // Flagged items among up to 10,000: each one's content is checked.
                rows = try flaggedRows(flag, query: query, session: session)
            } else {
                rows = try session.listVisible(probe, in: session.store())
            }
            let more = rows.count > query.limit
            if more { rows.removeLast() }
            if session.output.json {
                session.output.printJSON(JSONValue.array(rows.map(ItemRendering.summaryJSON)))
                return 0
            }
            if rows.isEmpty {
                session.output.line(dated == nil ? "no items" : "nothing due within \(dueWithin ?? "")")
                return 0
            }
            if kind == .deadline {
                try printDeadlines(rows, session: session)
            } else {
                printItems(rows, session: session)
            }
            try listFooter(rows, query: query, more: more, session: session)
            return 0
        }
    }

    /// `list`'s kind, status and due window, from its words.
    static func listFilters(_ command: ListCommand) throws -> (ItemKind?, ItemStatus?, ClosedRange<Date>?) {
        var kind: ItemKind?
        if let word = command.words.first, word != "all" {
            guard let k = ItemKind(word: word) else { throw notAKind(word, command: "list") }
            kind = k
        }
        var status: ItemStatus?
        if let word = command.status {
            guard let s = ItemStatus(rawValue: word.lowercased()) else {
                throw TimeTrackError(.usage, "list: '\(word)' is not a status", fix: "statuses: pending, published, rejected, archived")
            }
            status = s
        }
        guard let within = command.dueWithin else { return (kind, status, nil) }
        guard kind == nil || kind == .deadline else {
            throw TimeTrackError(.usage, "list: --due-within lists deadlines, not \(kind?.plural ?? "")", fix: "list deadlines --due-within 7d")
        }
        guard let minutes = ReminderOffset.minutes(within), minutes > 0, minutes <= 366 * 1440 else {
            throw TimeTrackError(.usage, "list: --due-within '\(within)' is not a length of time up to a year", fix: "e.g. --due-within 7d, 48h or 2w")
        }
        let now = Date()
        return (.deadline, status, now...now.addingTimeInterval(Double(minutes) * 60))
    }

    /// What follows `list`'s table: a change waiting, and where the next page starts.
    ///
    /// The date column is the local day in each item's own zone: an event's, else its source's.
    static func listFooter(_ rows: [ItemSummary], query: ItemQuery, more: Bool, session: Session) throws {
        // CSV is the table alone; what follows it goes to stderr.
        let after: (String) -> Void = session.output.csv ? session.output.note : { session.output.line($0) }
        if rows.contains(where: { $0.hasPendingRevision && $0.status == .published }) { after("* a change waits for review") }
        guard more else { return }
        // The total for an admin (others see only what their role shows), counted up to
        // 10,000: past that, "more than".
        var shown = "the first \(rows.count) from row \(query.offset + 1)"
        if try session.access(in: session.store()).op.role == .admin {
            let cap = 10_000
            let total = try session.store().count(query, cap: cap + 1)
            shown = "\(query.offset + 1)–\(query.offset + rows.count) of " + (total > cap ? "more than \(cap)" : "\(total)")
        }
        after("\(shown) shown; more: `--offset \(query.offset + rows.count)` (or --limit N)")
    }

    /// The rows of `query` (its page, and one more) whose items the named check flags.
    static func flaggedRows(_ flag: String, query: ItemQuery, session: Session) throws -> [ItemSummary] {
        guard ["a11y", "privacy"].contains(flag) else {
            throw TimeTrackError(.usage, "list: --flag takes a11y or privacy", fix: "list announcements --flag a11y")
        }
        let store = try session.store()
        var all = query
        (all.limit, all.offset) = (10_000, 0)
        let students = flag == "privacy" ? try store.absenceStudents() : []
        let allowed = session.privacyAllowList()
        let flagged = try session.listVisible(all, in: store).filter { row in
            guard let item = try? store.item(row.id) else { return false }
            let content = item.pendingContent ?? item.content
            return flag == "a11y" ? !AccessibilityCheck.findings(content).isEmpty : !PrivacyLint.findings(content, students: students, allowed: allowed).isEmpty
        }
        return Array(flagged.dropFirst(query.offset).prefix(query.limit + 1))
    }

    /// The status column: the status as people read it (`excused`, `closed`), `published*` when
    /// a change waits, `(missing N)` when the source lost it.
    ///
    /// `closed` tells whether a ticket is.
    static func statusText(_ row: ItemSummary, closed: Bool = false) -> String {
        var status = ItemRendering.statusWord(kind: row.kind, status: row.status, closed: closed)
        if row.hasPendingRevision && row.status == .published { status += "*" }
        // Past its expiry, out of the app already; `import --due` makes it expired.
        if row.status == .published, let expiry = row.expiresAt, expiry <= Date() { status += " (expired)" }
        if row.missingRuns > 0 {
            // An upcoming event gone from its source may have been called off: said so, never dropped.
            let upcoming = row.kind == .event && row.status == .published && (row.sortDate.map { $0 > Date() } ?? false)
            status += upcoming ? " (possibly cancelled)" : " (missing \(row.missingRuns))"
        }
        return status
    }

    static func printItems(_ rows: [ItemSummary], session: Session) {
        var table = Table(headers: ["id", "status", "date", "source", "title"])
        // The date column is the local day in each item's own zone: an event's, else its
        // source's (the machine's for items with neither): an event at 18:00 in Denver is
        // listed on its own day.
        for row in rows {
            let zone = row.timeZone.flatMap(TimeZone.init(identifier:)) ?? session.zone(ofSource: row.sourceID)
            // Whether a ticket is closed is in its content: read for tickets only.
            var closed = false
            if row.kind == .ticket, case .ticket(let ticket)? = try? session.store().item(row.id).content { closed = ticket.closed }
            table.rows.append([
                row.id, statusText(row, closed: closed), row.sortDate.map { Display.date($0, zone: zone, allDay: true) } ?? "",
                SafeText.visible(row.sourceID ?? "-"), SafeText.visible(row.title),
            ])
        }
        session.output.printTable(table, width: terminalWidth())
    }

    /// Deadlines with their due time in the school's zone (`?` when the time was guessed),
    /// course and category.
    static func printDeadlines(_ rows: [ItemSummary], session: Session) throws {
        let store = try session.store()
        var table = Table(headers: ["id", "status", "due", "course", "category", "title"])
        var guessed = false
        for row in rows {
            let zone = row.timeZone.flatMap(TimeZone.init(identifier:)) ?? session.zone(ofSource: row.sourceID)
            guard case .deadline(let d) = try store.item(row.id).content else { continue }
            var due = Display.date(d.due, zone: zone)
            if d.dueTimeGuessed {
                due += " ?"
                guessed = true
            }
            table.rows.append([row.id, statusText(row), due, SafeText.visible(d.courseName ?? d.course), d.category.rawValue, SafeText.visible(d.title)])
        }
        session.output.printTable(table, width: terminalWidth())
        if guessed { (session.output.csv ? session.output.note : { session.output.line($0) })("? no time was given: due at the end of the school day") }
    }
}
