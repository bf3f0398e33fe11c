import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

/// The review walk on a terminal: each item shown (new, changed with its diff, missing) with
/// what the privacy and accessibility checks found, then a key: decide, skip, fix (describe a
/// picture, a searchable copy of a scan, name vague links), or approve the rest of one kind.
final class ReviewWalk {
    let ids: [String]
    let store: any ItemStore
    let session: Session
    var out: Output { session.output }
    let students: [String]
    let allowed: PrivacyAllowList
    /// `A`: the rest of one kind of imported content, after a yes; never posts, absence reports
    /// or tickets (each of those is a person's submission, decided one by one).
    var approveRestKind: ItemKind?
    var bulkBatch: String?
    var decided = 0, skipped = 0
    var flaggedInBulk: [String] = []

    /// The keys offered for one item, beside the decisions.
    struct Keys {
        var prompt: String
        var describable: AltText.Picture?
        var scanned = false
        var vagueLinks = false
    }

    /// What to do after a key.
    enum Next { case nextItem, stop, askAgain }

    init(_ ids: [String], store: any ItemStore, session: Session) throws {
        self.ids = ids
        self.store = store
        self.session = session
        students = try store.absenceStudents()
        allowed = session.privacyAllowList()
    }

    /// In a pipe: the queue as a table (or JSON), never a question.
    static func list(_ ids: [String], store: any ItemStore, session: Session) throws -> Int32 {
        let out = session.output
        let items = try ids.map { try store.item($0) }
        if out.json {
            out.printJSON(
                JSONValue.array(
                    items.map { item in
                        var object = ItemRendering.itemJSON(item).objectValue ?? [:]
                        object["review"] = .string(String(describing: Console.reviewState(item)).uppercased())
                        return .object(object)
                    }))
            return 0
        }
        if items.isEmpty {
            out.line("nothing to review")
            return 0
        }
        var table = Table(headers: ["id", "kind", "state", "source", "title"])
        let students = try store.absenceStudents()
        let allowed = session.privacyAllowList()
        for item in items {
            let missing = Console.reviewState(item) == .missing
            let flags = missing ? [] : PrivacyLint.findings(item.pendingContent ?? item.content, students: students, allowed: allowed)
            let a11y = missing ? [] : AccessibilityCheck.findings(item.pendingContent ?? item.content)
            let state =
                Console.reviewLabel(item, Console.reviewState(item))
                + (flags.isEmpty ? "" : " ⚠ " + Set(flags.map(\.kind.rawValue)).sorted().joined(separator: ", "))
                + (a11y.isEmpty ? "" : " ♿ " + Set(a11y.map(\.criterion)).sorted().joined(separator: ", "))
            table.rows.append([
                item.id, item.kind.rawValue, state, item.provenance?.sourceID ?? "-", SafeText.visible((item.pendingContent ?? item.content).title),
            ])
        }
        out.printTable(table, width: Console.terminalWidth())
        out.line("\(items.count) item(s) wait; decide with approve ID..., reject ID... --reason R, archive ID..., keep ID...")
        return 0
    }

    /// Walks the items; Ctrl-C, Ctrl-D or `q` stops with every decision made kept.
    func run(_ reader: any LineReader) throws -> Int32 {
        if ids.isEmpty {
            out.line("nothing to review")
            return 0
        }
        itemLoop: for (index, id) in ids.enumerated() {
            if Interrupt.requested { break }
            let item = try store.item(id)
            let state = Console.reviewState(item)
            // Skip what the operator may not decide (staff on imported content).
            do { try session.requireDecision(on: item.kind, school: item.school, action: "review", in: store) } catch {
                skipped += 1
                continue
            }
            if let kind = approveRestKind, item.kind == kind, state != .missing {
                approveNamed(item, state)
                continue
            }
            let keys = show(item, state, index: index)
            while true {
                switch try ask(item, state, keys: keys, index: index, reader: reader) {
                case .nextItem: continue itemLoop
                case .stop: break itemLoop
                case .askAgain: continue
                }
            }
        }
        return finish()
    }

    /// Prints the item and what the checks found; returns the keys it offers.
    func show(_ item: Item, _ state: Console.ReviewState, index: Int) -> Keys {
        out.line()
        let word = Console.reviewLabel(item, state)
        let label: String
        switch state {
        case .new: label = out.paint(word, .green)
        case .changed, .reviewDue: label = out.paint(word, .yellow)
        case .missing: label = out.paint(word, .red)
        }
        out.line(out.paint("[\(index + 1)/\(ids.count)] \(item.id)", .bold) + "  \(item.kind.rawValue) · \(item.provenance?.sourceID ?? "app") · " + label)
        for guess in item.provenance?.guessed ?? [] { out.line(out.paint("  ⚠ \(SafeText.visible(guess)): check it", .yellow)) }
        let shown = item.pendingContent ?? item.content
        if state != .missing {
            for line in ItemRendering.privacyLines(PrivacyLint.findings(shown, students: students, allowed: allowed), output: out) { out.line(line) }
            for line in ItemRendering.accessibilityLines(AccessibilityCheck.findings(shown), output: out) { out.line(line) }
        }
        showContent(item, state)
        return keys(item, state)
    }

    /// The fields of a new item, the diff of a changed one, the missing count of a missing one.
    func showContent(_ item: Item, _ state: Console.ReviewState) {
        switch state {
        case .new:
            for line in ItemRendering.fieldLines(item.content, zone: session.zone(of: item)) { out.line(line) }
            for line in ItemRendering.photoLines(item.content) { out.line(out.paint(line, .yellow)) }
        case .changed:
            let pending = item.pendingContent ?? item.content
            out.line("  " + SafeText.visible(pending.title))
            for line in ItemRendering.diffLines(ItemContent.changedFields(from: item.content, to: pending), zone: session.zone(of: item), output: out) {
                out.line(line)
            }
            if let note = try? store.revisions(of: item.id).last?.note { out.line(out.paint("  note: \(SafeText.visible(note))", .yellow)) }
        case .missing where item.status == .withdrawn:
            out.line("  " + SafeText.visible(item.content.title))
            out.line("  the district took it down: it left the app (archive files it; `restore \(item.id)` puts it back)")
        case .missing:
            out.line("  " + SafeText.visible(item.content.title))
            out.line("  not found in its source for \(item.missingRuns) consecutive runs (nothing is deleted)")
        case .reviewDue:
            for line in ItemRendering.fieldLines(item.content, zone: session.zone(of: item)) { out.line(line) }
            out.line("  its review date came: keep it as it is (k), edit it (e), or archive it (a)")
        }
    }

    /// The keys for an item: its decisions, and the fixes its findings call for (shown only
    /// when there is something to fix), within 80 columns.
    func keys(_ item: Item, _ state: Console.ReviewState) -> Keys {
        let choices: String
        switch (state, item.kind.traits.review) {
        case (.missing, _) where item.status == .withdrawn: choices = "[a]rchive [s]kip [q]uit [?]"
        case (.missing, _): choices = "[a]rchive [k]eep [s]kip [q]uit [?]"
        case (.reviewDue, _): choices = "[k]eep [e]dit [a]rchive [s]kip [q]uit [?]"
        case (_, .helpDesk): choices = "[r]eply [c]lose [s]kip [q]uit [?]"
        case (_, .staffWork): choices = "[a]pprove [r]eject [e]dit [s]kip [q]uit [?]"
        case (_, .importedContent): choices = "[a]pprove [r]eject [e]dit [s]kip [A]ll \(item.kind.plural) [q]uit [?]"
        }
        let content = item.pendingContent ?? item.content
        var keys = Keys(prompt: choices)
        if state != .missing {
            keys.describable = AltText.firstToDescribe(content)
            keys.scanned = Console.isScan(content)
            keys.vagueLinks = item.provenance != nil && !LinkNames.vague(in: content).isEmpty
        }
        keys.prompt = choices.replacingOccurrences(
            of: " [q]uit", with: (keys.describable == nil ? "" : " [l]") + (keys.scanned ? " [o]" : "") + (keys.vagueLinks ? " [t]" : "") + " [q]uit")
        if keys.describable != nil { out.line(out.paint("  l: describe the picture (it has no text alternative)", .yellow)) }
        if keys.scanned { out.line(out.paint("  o: make a searchable copy of the scanned PDF (ocrmypdf)", .yellow)) }
        if keys.vagueLinks { out.line(out.paint("  t: name the links that say nothing from the pages they go to", .yellow)) }
        return keys
    }

    /// Reads one key and carries it out.
    func ask(_ item: Item, _ state: Console.ReviewState, keys: Keys, index: Int, reader: any LineReader) throws -> Next {
        out.flush()
        let answer: String
        switch reader.read(prompt: keys.prompt + " ", remember: false) {
        case .end, .interrupted: return .stop
        case .line(let text): answer = text.trimmingCharacters(in: .whitespaces)
        }
        switch answer {
        case "q": return .stop
        case "s", "":
            skipped += 1
            return .nextItem
        case "?":
            help(item, state, keys)
            return .askAgain
        case "o" where keys.scanned:
            do {
                let (_, made) = try Console.ocr(item, language: "eng", store: store, session: session)
                out.line("  made a searchable copy (\(made.textLength) characters of text); the export serves it")
            } catch let error as TimeTrackError { out.error(error) }
            return .askAgain
        case "t" where keys.vagueLinks:
            do { _ = try LinkNaming.run(item, store: store, session: session, confirmed: false) } catch let error as TimeTrackError { out.error(error) }
            return .askAgain
        case "l" where keys.describable != nil:
            if let picture = keys.describable, try AltText.describe(picture, item: item, store: store, session: session) { return .nextItem }
            return .askAgain
        case "A" where state != .missing && item.kind.isImportedContent:
            return approveRest(item, state, index: index, reader: reader) ? .nextItem : .askAgain
        default:
            do {
                if try Console.decide(answer, item: item, state: state, store: store, session: session) {
                    decided += 1
                    return .nextItem
                }
            } catch let error as TimeTrackError {
                out.error(error)
            }
            return .askAgain
        }
    }

    func help(_ item: Item, _ state: Console.ReviewState, _ keys: Keys) {
        if state == .missing {
            out.line("  a: archive it (history, restorable)  k: keep it (reset the count)  s: decide later  q: stop reviewing")
        } else if item.kind == .ticket {
            out.line("  r: reply (you type the text)  c: close the ticket  s: decide later  q: stop reviewing")
        } else {
            out.line(
                "  a: publish  r: refuse (you give a reason)  e: change fields (FIELD=VALUE ...), locked against imports\n  s: decide later  "
                    + (item.kind.isImportedContent ? "A: approve this and the remaining \(item.kind.plural) (asks first)  " : "")
                    + (keys.describable != nil ? "l: describe the picture  " : "") + (keys.scanned ? "o: searchable copy of the scan  " : "")
                    + (keys.vagueLinks ? "t: name the vague links  " : "") + "q: stop reviewing")
        }
    }

    /// `A`: asks, then approves this item and, as the walk goes on, the rest of its kind.
    func approveRest(_ item: Item, _ state: Console.ReviewState, index: Int, reader: any LineReader) -> Bool {
        let rest = ids[(index + 1)...].compactMap { try? store.item($0) }.filter { $0.kind == item.kind && Console.reviewState($0) != .missing }
        let noun = rest.count == 1 ? item.kind.rawValue : item.kind.plural
        guard case .line(let reply) = reader.read(prompt: "  approve this and \(rest.count) more \(noun)? [y/N] ", remember: false),
            ["y", "yes"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased())
        else {
            out.line("  nothing approved")
            return false
        }
        approveRestKind = item.kind
        bulkBatch = Lifecycle.newBatch()
        approveNamed(item, state)
        return true
    }

    /// Approves one item of a bulk approval and names it; one the privacy check flags is left
    /// pending and listed at the end.
    func approveNamed(_ item: Item, _ state: Console.ReviewState) {
        do {
            if try Console.decide("a", item: item, state: state, store: store, session: session, quiet: true, batch: bulkBatch) {
                decided += 1
                out.line("  approved \(item.id)  \(SafeText.visible((item.pendingContent ?? item.content).title))")
            }
        } catch let error as TimeTrackError where error.code == .validation {
            flaggedInBulk.append(item.id)
            out.line("  left for you  \(item.id)  \(SafeText.visible((item.pendingContent ?? item.content).title)): " + SafeText.visible(error.message))
        } catch let error as TimeTrackError {
            out.error(error)
        } catch {
            out.error(TimeTrackError(.system, "\(error)", context: ["item": item.id]))
        }
    }

    /// The walk's summary.
    func finish() -> Int32 {
        Interrupt.clear()
        out.line()
        out.line("reviewed: \(decided) decided, \(skipped) skipped, \(ids.count - decided - skipped) left")
        if bulkBatch != nil { out.line("`undo` takes the bulk approval back whole") }
        if !flaggedInBulk.isEmpty {
            out.line(
                "left for you by the privacy check: \(flaggedInBulk.joined(separator: ", ")) (`show ID`; `privacy allow` lets the district's own"
                    + " contacts through)"
            )
        }
        return 0
    }
}
