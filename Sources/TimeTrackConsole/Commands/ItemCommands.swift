import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static func kindOption(_ args: Arguments, _ name: String = "kind") throws -> ItemKind? {
        guard let word = args.option(name) else { return nil }
        guard let kind = ItemKind(word: word) else { throw notAKind(word) }
        return kind
    }

    /// "'widgets' is not a kind", with the nearest kind when it is close.
    static func notAKind(_ word: String, command: String? = nil) -> TimeTrackError {
        TimeTrackError(.usage, (command.map { "\($0): " } ?? "") + "'\(word)' is not a kind", fix: didYouMean(word, among: ItemKind.plurals) + "kinds: " + ItemKind.plurals.joined(separator: ", "))
    }

    /// "did you mean `x`? " when a candidate is within two edits of `word` (or one a prefix of it); else "".
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = candidates.min(by: { editDistance($0, word) < editDistance($1, word) }),
            editDistance(best, word) <= 2 || (word.count >= 3 && best.hasPrefix(word))
        else { return "" }
        return "did you mean `\(best)`? "
    }

    static func intOption(_ args: Arguments, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = args.option(name) else { return value }
        guard let n = Int(text), range.contains(n) else {
            throw TimeTrackError(.usage, "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    static var listCommand: CommandSpec {
        CommandSpec(
            "list", usage: "[KIND] [--status S] [--source S] [--due-within 7d] [--limit N]",
            summary: "list items, newest first (kinds: " + ItemKind.plurals.joined(separator: ", ") + ")",
            options: [
                OptionSpec("status", value: "S", help: "pending, published, rejected or archived"),
                OptionSpec("due-within", value: "DURATION", help: "deadlines due from now to this far ahead (7d, 48h, 2w), soonest first"),
                OptionSpec("source", value: "S", help: "only items from this source id"),
                OptionSpec("limit", value: "N", help: "at most N rows (default 50)"),
                OptionSpec("offset", value: "N", help: "skip the first N rows"),
            ],
            positional: 0...1
        ) { args, session in
            var kind: ItemKind?
            if let word = args.positional.first, word != "all" {
                guard let k = ItemKind(word: word) else { throw notAKind(word, command: "list") }
                kind = k
            }
            var status: ItemStatus?
            if let word = args.option("status") {
                guard let s = ItemStatus(rawValue: word.lowercased()) else {
                    throw TimeTrackError(.usage, "list: '\(word)' is not a status", fix: "statuses: pending, published, rejected, archived")
                }
                status = s
            }
            var dated: ClosedRange<Date>?
            if let within = args.option("due-within") {
                guard kind == nil || kind == .deadline else {
                    throw TimeTrackError(.usage, "list: --due-within lists deadlines, not \(kind?.plural ?? "")", fix: "list deadlines --due-within 7d")
                }
                guard let minutes = ReminderOffset.minutes(within), minutes > 0, minutes <= 366 * 1440 else {
                    throw TimeTrackError(.usage, "list: --due-within '\(within)' is not a length of time up to a year", fix: "e.g. --due-within 7d, 48h or 2w")
                }
                kind = .deadline
                let now = Date()
                dated = now...now.addingTimeInterval(Double(minutes) * 60)
            }
            let query = ItemQuery(
                kind: kind, status: status, sourceID: args.option("source"),
                limit: try intOption(args, "limit", default: 50, range: 1...100_000), offset: try intOption(args, "offset", default: 0, range: 0...Int(Int32.max)), dated: dated)
            // One row more than asked says whether there are more.
            var probe = query
            probe.limit += 1
            var rows = try session.listVisible(probe, in: session.store())
            let more = rows.count > query.limit
            if more { rows.removeLast() }
            if session.output.json {
                session.output.printJSON(JSONValue.array(rows.map(ItemRendering.summaryJSON)))
                return 0
            }
            if rows.isEmpty {
                session.output.line(dated == nil ? "no items" : "nothing due within \(args.option("due-within") ?? "")")
                return 0
            }
            if kind == .deadline {
                try printDeadlines(rows, session: session)
            } else {
                printItems(rows, session: session)
            }
            // CSV is the table alone; what follows it goes to stderr.
            let after: (String) -> Void = session.output.csv ? session.output.note : { session.output.line($0) }
            if rows.contains(where: { $0.hasPendingRevision && $0.status == .published }) { after("* a change waits for review") }
            // The date column is the local day in each item's own zone: an event's, else its
            // source's (the machine's for items with neither): an event at 18:00 in Denver is
            // listed on its own day.
            if more {
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
            return 0
        }
    }

    /// The status column: the status as people read it (`excused`, `closed`), `published*` when
    /// a change waits, `(missing N)` when the source lost it. `closed` tells whether a ticket is.
    static func statusText(_ row: ItemSummary, closed: Bool = false) -> String {
        var status = ItemRendering.statusWord(kind: row.kind, status: row.status, closed: closed)
        if row.hasPendingRevision && row.status == .published { status += "*" }
        if row.missingRuns > 0 { status += " (missing \(row.missingRuns))" }
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
            table.rows.append([row.id, statusText(row, closed: closed), row.sortDate.map { Display.date($0, zone: zone, allDay: true) } ?? "", SafeText.visible(row.sourceID ?? "-"), SafeText.visible(row.title)])
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

    static var showCommand: CommandSpec {
        CommandSpec(
            "show", usage: "ID [--full]", summary: "show an item: its fields, status, provenance and any pending change",
            options: [OptionSpec("full", help: "long text whole, as written (bodies, descriptions), instead of its first 200 characters")], positional: 1...1
        ) { args, session in
            let store = try session.store()
            var item = try store.item(args.positional[0])
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
            out.line(out.paint("\(item.id)  \(item.kind.rawValue)  \(ItemRendering.statusWord(item))", .bold) + (item.school.map { "  school: \($0)" } ?? ""))
            for line in ItemRendering.fieldLines(item.content, zone: zone, full: args.flag("full")) { out.line(line) }
            for line in ItemRendering.replyLines(item.content, zone: zone) { out.line(line) }
            for line in ItemRendering.photoLines(item.content) { out.line(out.paint(line, .yellow)) }
            if case .event(let event) = item.content { out.line(ItemRendering.pinLine(event, school: item.school, places: try store.places())) }
            for line in ItemRendering.privacyLines(PrivacyLint.findings(item.pendingContent ?? item.content, students: try store.absenceStudents()), output: out) { out.line(line) }
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
                    if let upstream = lock.upstream { line += out.paint("  (upstream now: \(ItemRendering.value(upstream, zone: zone, limit: 80)); `unlock \(item.id) \(lock.field)` takes it)", .yellow) }
                    out.line(line)
                }
            }
            if item.missingRuns > 0 { out.line("missing:  from its source for \(item.missingRuns) run(s)") }
            return 0
        }
    }

    static var historyCommand: CommandSpec {
        CommandSpec("history", usage: "ID", summary: "every revision of an item and the decisions on it", positional: 1...1) { args, session in
            let store = try session.store()
            let item = try store.item(args.positional[0])
            try session.requireRead(item, in: store)
            let zone = session.zone(of: item)
            var revisions = try store.revisions(of: args.positional[0])
            // Versions that never went live are for those who may read pending items.
            if !(try session.access(in: store).mayRead(item.kind, status: .pending, school: item.school)) { revisions = revisions.filter { $0.wentLiveAt != nil } }
            let audit = try store.audit(itemID: args.positional[0], limit: 1000)
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
            var previous: ItemContent?
            for r in revisions {
                session.output.line(session.output.paint("revision \(r.number)  \(r.state.rawValue)  \(Display.date(r.createdAt, zone: zone))  by \(r.createdBy)", .bold) + (r.note.map { "  (\(SafeText.visible($0)))" } ?? ""))
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
                session.output.line("  \(Display.date(entry.at, zone: zone))  \(entry.operatorName)  \(entry.action)" + (entry.reason.map { "  \"\(SafeText.visible($0))\"" } ?? "") + (entry.detail.map { "  (\(SafeText.visible($0)))" } ?? ""))
            }
            return 0
        }
    }

    /// Runs `decide` for each id (one transaction each); prints a line per id; 3 when some failed.
    static func decideEach(_ ids: [String], action: String, session: Session, _ decide: (any ItemStore, String) throws -> Item) throws -> Int32 {
        let store = try session.store()
        var failed = 0
        var done: [JSONValue] = []
        for id in ids {
            if Interrupt.requested {
                session.output.note("interrupted: \(done.count) done, \(ids.count - done.count - failed) not attempted")
                break
            }
            do {
                let target = try store.item(id)
                try session.requireDecision(on: target.kind, school: target.school, action: action, in: store)
                let item = try decide(store, id)
                done.append(.object(["id": .string(item.id), "status": .string(item.status.rawValue)]))
                if !session.output.json { session.output.line("\(item.id): \(ItemRendering.statusWord(item))" + (item.pendingContent != nil ? " (a change still waits)" : "")) }
            } catch let error as TimeTrackError {
                failed += 1
                session.output.error(error)
                if error.code == .permission && ids.count > 1 { break }
            }
        }
        if session.output.json { session.output.printJSON(JSONValue.array(done)) }
        if failed == 0 { return 0 }
        return done.isEmpty ? 1 : 3
    }

    static var approveCommand: CommandSpec {
        CommandSpec(
            "approve", usage: "ID... [--anyway]", summary: "publish the pending content of items (an absence report: excuse it)",
            options: [OptionSpec("anyway", help: "publish even what the privacy check flags (a phone number, an e-mail, an address, a student's name); recorded")],
            positional: 1...10_000
        ) { args, session in
            try decideEach(args.positional, action: "approve", session: session) { store, id in
                try Lifecycle(store).approve(id, by: session.operatorName, anyway: args.flag("anyway"))
            }
        }
    }

    static var rejectCommand: CommandSpec {
        CommandSpec(
            "reject", usage: "ID... --reason R", summary: "refuse the pending content of items, with a reason (an absence report: unexcused)",
            options: [OptionSpec("reason", value: "R", help: "why (required)")], positional: 1...10_000
        ) { args, session in
            guard let reason = args.option("reason"), !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw TimeTrackError(.usage, "reject: a reason is required", fix: "usage: reject ID... --reason \"why\"")
            }
            return try decideEach(args.positional, action: "reject", session: session) { store, id in
                try Lifecycle(store).reject(id, reason: reason, by: session.operatorName)
            }
        }
    }

    static var editCommand: CommandSpec {
        CommandSpec(
            "edit", usage: "ID FIELD=VALUE... [--reason R] [--keep-duration]",
            summary: "change fields of an item and lock them against re-imports (empty VALUE clears a field)",
            options: [
                OptionSpec("reason", value: "R", help: "why, for the audit log"),
                OptionSpec("keep-duration", help: "an event's new start moves its end too, keeping its length (and locks end)"),
            ], positional: 2...100
        ) { args, session in
            let store = try session.store()
            let id = args.positional[0]
            let item = try store.item(id)
            try session.requireDecision(on: item.kind, school: item.school, action: "edit", in: store)
            var assignments: [(String, String)] = []
            for word in args.positional.dropFirst() {
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw TimeTrackError(.usage, "edit: '\(word)' is not FIELD=VALUE", fix: "fields of \(item.kind.rawValue): " + ItemContent.fieldNames(of: item.kind).joined(separator: ", "))
                }
                assignments.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            }
            let keepDuration = args.flag("keep-duration")
            let changes = try ItemContent.parseEdits(
                assignments, kind: item.kind, current: item.pendingContent ?? item.content, zone: session.zone(of: item), keepDuration: keepDuration)
            var typed = Set(assignments.map(\.0))
            if keepDuration { typed.insert("end") }
            let edited: Item
            do {
                edited = try Lifecycle(store).edit(id, changes: changes, by: session.operatorName, reason: args.option("reason"), locking: typed)
            } catch let error as TimeTrackError where error.code == .validation && item.kind == .event && typed.contains("start") && !typed.contains("end") {
                // A new start after the old end: the end stays where it was unless asked.
                throw TimeTrackError(
                    error.code, error.message, fix: "move the end too: `edit \(id) start=… end=…`, or `edit \(id) start=… --keep-duration` to keep its length",
                    context: error.context)
            }
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(edited))
            } else {
                let implied = changes.keys.filter { !typed.contains($0) }.sorted()
                if implied.contains("allDay") { session.output.line("\(edited.id): start is a day alone, so the event is all day (allDay=true, ending the next day)") }
                session.output.line(
                    "\(edited.id): edited \(changes.keys.sorted().joined(separator: ", ")); locked against re-imports: \(edited.lockedFields.joined(separator: ", ")) (`unlock \(edited.id) FIELD` to follow the source again)"
                        + (implied.isEmpty ? "" : "; not locked: \(implied.joined(separator: ", ")), which followed from what you typed"))
            }
            return 0
        }
    }

    static var archiveCommand: CommandSpec {
        CommandSpec(
            "archive", usage: "ID... [--reason R]", summary: "move items to the archive (read-only history, restorable)",
            options: [OptionSpec("reason", value: "R", help: "why, for the audit log")], positional: 1...10_000
        ) { args, session in
            try decideEach(args.positional, action: "archive", session: session) { store, id in try Lifecycle(store).archive(id, by: session.operatorName, reason: args.option("reason")) }
        }
    }

    static var restoreCommand: CommandSpec {
        CommandSpec("restore", usage: "ID...", summary: "bring archived items back, or rejected items back into review", positional: 1...10_000) { args, session in
            try decideEach(args.positional, action: "restore", session: session) { store, id in try Lifecycle(store).restore(id, by: session.operatorName) }
        }
    }

    static var unlockCommand: CommandSpec {
        CommandSpec("unlock", usage: "ID FIELD...", summary: "let edited fields follow their source again (its latest value comes back)", positional: 2...100) { args, session in
            let store = try session.store()
            let id = args.positional[0]
            let item = try store.item(id)
            try session.requireDecision(on: item.kind, school: item.school, action: "unlock", in: store)
            let unlocked = try Lifecycle(store).unlock(id, fields: Array(args.positional.dropFirst()), by: session.operatorName)
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(unlocked))
            } else {
                session.output.line("\(unlocked.id): unlocked \(args.positional.dropFirst().joined(separator: ", "))" + (unlocked.lockedFields.isEmpty ? "" : "; still locked: " + unlocked.lockedFields.joined(separator: ", ")))
            }
            return 0
        }
    }

    static var revertCommand: CommandSpec {
        CommandSpec(
            "revert", usage: "ID [--to REVISION]",
            summary: "put the previously published version back live (never published before: back to review); `history ID` lists revisions",
            options: [OptionSpec("to", value: "REVISION", help: "the revision number to put back live (see `history ID`)")], positional: 1...1
        ) { args, session in
            let target = try args.option("to").map { _ in try intOption(args, "to", default: 1, range: 1...Int(Int32.max)) }
            return try decideEach(args.positional, action: "revert", session: session) { store, id in
                let item = try Lifecycle(store).revert(id, to: target, by: session.operatorName)
                // Which revision went back live (or that it left the app), as the audit log says.
                if !session.output.json, let said = try store.audit(itemID: item.id, limit: 1).first?.detail { session.output.line("\(item.id): " + SafeText.visible(said)) }
                return item
            }
        }
    }

    static var undoCommand: CommandSpec {
        CommandSpec(
            "undo", usage: "",
            summary: "take back your last decision, or your last bulk approval whole (approvals reverted, rejections and archivings restored)"
        ) { _, session in
            let store = try session.store()
            let undone = try Lifecycle(store).undo(by: session.operatorName)
            let out = session.output
            if out.json {
                out.printJSON(
                    JSONValue.array(
                        undone.map { entry in
                            var object: [String: JSONValue] = ["id": .string(entry.itemID), "undid": .string(entry.action)]
                            switch entry.outcome {
                            case .undone(let status): object["status"] = .string(status.rawValue)
                            case .decidedSince(let what): object["skipped"] = .string("decided again since: " + what)
                            }
                            return .object(object)
                        }))
                return 0
            }
            guard !undone.isEmpty else {
                out.line("nothing to undo: \(session.operatorName) has no approval, rejection or archiving left to take back")
                return 0
            }
            for entry in undone {
                switch entry.outcome {
                case .undone(let status): out.line("\(entry.itemID): \(entry.action) undone; now \(status.rawValue)")
                case .decidedSince(let what):
                    out.line("\(entry.itemID): left alone, decided again since (\(SafeText.visible(what))); `revert \(entry.itemID) --to N` if needed")
                }
            }
            let count = undone.filter { if case .undone = $0.outcome { return true } else { return false } }.count
            out.line("undid \(count) of \(undone.count) decision(s); the audit log keeps both")
            return count == undone.count ? 0 : 3
        }
    }

    static var keepCommand: CommandSpec {
        CommandSpec("keep", usage: "ID...", summary: "keep items that are missing from their source (resets the missing count)", positional: 1...10_000) { args, session in
            try decideEach(args.positional, action: "keep", session: session) { store, id in try Lifecycle(store).keep(id, by: session.operatorName) }
        }
    }

    static var replyCommand: CommandSpec {
        CommandSpec("reply", usage: "ID TEXT...", summary: "answer a help desk ticket", positional: 2...1000) { args, session in
            let text = args.positional.dropFirst().joined(separator: " ")
            return try decideEach([args.positional[0]], action: "reply to", session: session) { store, id in
                try Lifecycle(store).reply(id, text: text, by: session.operatorName)
            }
        }
    }

    static var closeCommand: CommandSpec {
        CommandSpec("close", usage: "ID...", summary: "close help desk tickets (they leave the queue)", positional: 1...10_000) { args, session in
            try decideEach(args.positional, action: "close", session: session) { store, id in
                try Lifecycle(store).close(id, by: session.operatorName)
            }
        }
    }

    static var reopenCommand: CommandSpec {
        CommandSpec(
            "reopen", usage: "ID... [--reason R]", summary: "open closed help desk tickets again (the app shows them open; they take replies)",
            options: [OptionSpec("reason", value: "R", help: "why, for the audit log")], positional: 1...10_000
        ) { args, session in
            try decideEach(args.positional, action: "reopen", session: session) { store, id in
                try Lifecycle(store).reopen(id, by: session.operatorName, reason: args.option("reason"))
            }
        }
    }

    static var runsCommand: CommandSpec {
        CommandSpec(
            "runs", usage: "[--source S] [--limit N]", summary: "import runs, newest first, with what each found and did",
            options: [OptionSpec("source", value: "S", help: "only this source"), OptionSpec("limit", value: "N", help: "at most N (default 20)")]
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
                    String(r.id), r.sourceID, Display.date(r.startedAt, zone: session.runZone(ofSource: r.sourceID)), r.status.rawValue, String(r.found), String(r.new), String(r.changed), String(r.unchanged), String(r.missing), String(r.problems),
                    r.message ?? "",
                ])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

    static var operatorCommand: CommandSpec {
        let roles = Operator.Role.allCases.map(\.rawValue).joined(separator: "|")
        let usage = "list | add NAME --role ROLE [--login ACCOUNT] [--school S,...] | role NAME ROLE | remove NAME"
        return CommandSpec(
            "operator", usage: usage, summary: "manage who may work in the console, bound to Unix accounts (admins only)",
            options: [
                OptionSpec("role", value: "ROLE", help: "admin (everything), importer (imports only: cron), staff (posts, absences, tickets), viewer (published items)"),
                OptionSpec("login", value: "ACCOUNT", help: "the Unix account that is this operator (default: the account of the same name, if there is one)"),
                OptionSpec("school", value: "S,...", help: "staff: only these schools' items (default: every school)"),
            ],
            positional: 1...3
        ) { args, session in
            func role(_ text: String?) throws -> Operator.Role {
                guard let text, let role = Operator.Role(rawValue: text) else {
                    throw TimeTrackError(.usage, "operator: the role must be one of \(roles)", fix: "usage: operator \(usage)")
                }
                return role
            }
            func name() throws -> String {
                guard args.positional.count >= 2 else { throw TimeTrackError(.usage, "operator \(args.positional[0]): name the operator", fix: "usage: operator \(usage)") }
                return args.positional[1]
            }
            func show(_ op: Operator, _ verb: String) {
                if session.output.json { session.output.printJSON(op); return }
                session.output.line("\(op.name): \(verb) \(op.role.rawValue)" + (op.login.map { ", login \($0)" } ?? ", no login (only through --as)") + (op.schools.isEmpty ? "" : ", schools " + op.schools.joined(separator: ", ")))
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
                let ops = try store.operators()
                if session.output.json { session.output.printJSON(ops); return 0 }
                var table = Table(headers: ["name", "role", "login", "schools", "active"])
                for op in ops { table.rows.append([op.name, op.role.rawValue, op.login ?? "", op.schools.joined(separator: ","), op.active ? "yes" : "removed"]) }
                session.output.printTable(table, width: terminalWidth())
                return 0
            case "add":
                let name = try name()
                let login = args.option("login") ?? (getpwnam(name) != nil ? name : nil)
                let schools = (args.option("school") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let op = try store.addOperator(name, role: try role(args.option("role")), login: login, schools: schools, by: session.operatorName)
                show(op, "is")
                if op.role != .admin, let warning = sharedTrust(store, session) { session.output.note("note: " + warning) }
                return 0
            case "role":
                guard args.positional.count == 3 else { throw TimeTrackError(.usage, "operator role: name the operator and the role", fix: "usage: operator role NAME \(roles)") }
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
}
