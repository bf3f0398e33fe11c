import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var reviewCommand: CommandSpec {
        CommandSpec(
            "review", usage: "[--kind K] [--source S]",
            summary: "walk the items waiting for a decision: new, changed (with a diff) and missing",
            options: [
                OptionSpec("kind", value: "K", help: "only this kind (" + ItemKind.plurals.joined(separator: ", ") + ")"),
                OptionSpec("source", value: "S", help: "only items from this source id"),
                OptionSpec("limit", value: "N", help: "in a pipe: list at most N items (default 50)"),
                OptionSpec("offset", value: "N", help: "in a pipe: skip the first N items"),
            ]
        ) { args, session in
            let limit = try intOption(args, "limit", default: 50, range: 1...100_000)
            let offset = try intOption(args, "offset", default: 0, range: 0...Int(Int32.max))
            let requestedKind = try kindOption(args)
            let store = try session.store()
            let access = try session.access(in: store)
            let op = access.op
            var kinds: [ItemKind?] = [requestedKind]
            // Only the kinds the operator decides (for staff: posts, absences, tickets).
            let decidable = ItemKind.allCases.filter { kind in access.mayDecide(kind, school: op.schools.first) }
            if decidable.isEmpty {
                throw TimeTrackError(.permission, "\(op.name) is \(op.role.rawValue) and reviews nothing", fix: "admins and staff review; an admin can change your role")
            }
            // One kind after another, in the table's order: an admin meets district news, events
            // and school info first; staff, posts, absence reports and tickets. Newest first within each.
            if kinds == [nil] { kinds = decidable }
            if let kind = kinds.first ?? nil, !decidable.contains(kind) {
                throw TimeTrackError(.permission, "\(Access.whoMay(decide: kind)) review \(kind.plural); \(op.name) is \(op.role.rawValue)", fix: "`review` alone shows what you review")
            }
            let asking = session.reader != nil && session.interactive && !session.output.json
            var ids: [String] = []
            var total = 0
            for kind in kinds {
                // In a pipe, enough of each kind to fill the page after the offset across kinds.
                let query = ItemQuery(kind: kind, sourceID: args.option("source"), needsReview: true, limit: asking ? 100_000 : offset + limit, offset: 0)
                ids += try session.listVisible(query, in: store, deciding: true).map(\.id)
                if !asking {
                    if op.role == .admin {
                        total += try store.reviewCount(kind: kind, sourceID: args.option("source"), missingThreshold: ItemQuery().missingThreshold, cap: 10_000)
                    } else {
                        var all = query
                        (all.limit, all.offset) = (10_000, 0)
                        total += try session.listVisible(all, in: store, deciding: true).count
                    }
                }
            }
            if !asking { ids = Array(ids.dropFirst(offset).prefix(limit)) }
            let code = try walkReview(ids, store: store, session: session)
            if !asking && !session.output.json && total > offset + ids.count {
                let more = total >= 10_000 ? "at least \(total - offset - ids.count)" : String(total - offset - ids.count)
                session.output.line("\(more) more wait: review --offset \(offset + ids.count) (or --limit N)")
            }
            return code
        }
    }

    enum ReviewState { case new, changed, missing }

    static func reviewState(_ item: Item) -> ReviewState {
        if item.pendingRevision == nil && item.missingRuns > 0 { return .missing }
        return item.status == .published ? .changed : .new
    }

    /// Shows each item and asks what to do; in a pipe, lists the queue instead (never asks).
    static func walkReview(_ ids: [String], store: any ItemStore, session: Session) throws -> Int32 {
        let out = session.output
        guard let reader = session.reader, session.interactive, !out.json else {
            let items = try ids.map { try store.item($0) }
            if out.json {
                out.printJSON(
                    JSONValue.array(
                        items.map { item in
                            var object = ItemRendering.itemJSON(item).objectValue ?? [:]
                            object["review"] = .string(String(describing: reviewState(item)).uppercased())
                            return .object(object)
                        }))
                return 0
            }
            if items.isEmpty { out.line("nothing to review"); return 0 }
            var table = Table(headers: ["id", "kind", "state", "source", "title"])
            let students = try store.absenceStudents()
            let allowed = session.privacyAllowList()
            for item in items {
                let flags = reviewState(item) == .missing ? [] : PrivacyLint.findings(item.pendingContent ?? item.content, students: students, allowed: allowed)
                let a11y = reviewState(item) == .missing ? [] : AccessibilityCheck.findings(item.pendingContent ?? item.content)
                let state =
                    String(describing: reviewState(item)).uppercased() + (flags.isEmpty ? "" : " ⚠ " + Set(flags.map(\.kind.rawValue)).sorted().joined(separator: ", "))
                    + (a11y.isEmpty ? "" : " ♿ " + Set(a11y.map(\.criterion)).sorted().joined(separator: ", "))
                table.rows.append([item.id, item.kind.rawValue, state, item.provenance?.sourceID ?? "-", SafeText.visible((item.pendingContent ?? item.content).title)])
            }
            out.printTable(table, width: terminalWidth())
            out.line("\(items.count) item(s) wait; decide with approve ID..., reject ID... --reason R, archive ID..., keep ID...")
            return 0
        }
        if ids.isEmpty { out.line("nothing to review"); return 0 }
        // `A`: the rest of one kind of imported content, after a yes; never posts, absence
        // reports or tickets (each of those is a person's submission, decided one by one).
        var approveRestKind: ItemKind?
        var bulkBatch: String?
        var decided = 0, skipped = 0
        var flaggedInBulk: [String] = []
        /// Approves one item of a bulk approval and names it.
        func approveNamed(_ item: Item, _ state: ReviewState) {
            do {
                if try decide("a", item: item, state: state, store: store, session: session, quiet: true, batch: bulkBatch) {
                    decided += 1
                    out.line("  approved \(item.id)  \(SafeText.visible((item.pendingContent ?? item.content).title))")
                }
            } catch let error as TimeTrackError where error.code == .validation {
                // Flagged by the privacy check: left pending, the rest goes on, listed at the end.
                flaggedInBulk.append(item.id)
                out.line("  left for you  \(item.id)  \(SafeText.visible((item.pendingContent ?? item.content).title)): " + SafeText.visible(error.message))
            } catch let error as TimeTrackError {
                out.error(error)
            } catch {
                out.error(TimeTrackError(.system, "\(error)", context: ["item": item.id]))
            }
        }
        let students = try store.absenceStudents()
        let allowed = session.privacyAllowList()
        itemLoop: for (index, id) in ids.enumerated() {
            if Interrupt.requested { break }
            let item = try store.item(id)
            let state = reviewState(item)
            // Skip what the operator may not decide (staff on imported content).
            do { try session.requireDecision(on: item.kind, school: item.school, action: "review", in: store) } catch { skipped += 1; continue }
            if let kind = approveRestKind, item.kind == kind, state != .missing {
                approveNamed(item, state)
                continue
            }
            out.line()
            let label: String
            switch state {
            case .new: label = out.paint("NEW", .green)
            case .changed: label = out.paint("CHANGED", .yellow)
            case .missing: label = out.paint("MISSING", .red)
            }
            out.line(out.paint("[\(index + 1)/\(ids.count)] \(item.id)", .bold) + "  \(item.kind.rawValue) · \(item.provenance?.sourceID ?? "app") · " + label)
            for guess in item.provenance?.guessed ?? [] { out.line(out.paint("  ⚠ \(SafeText.visible(guess)): check it", .yellow)) }
            if state != .missing {
                for line in ItemRendering.privacyLines(PrivacyLint.findings(item.pendingContent ?? item.content, students: students, allowed: allowed), output: out) { out.line(line) }
                for line in ItemRendering.accessibilityLines(AccessibilityCheck.findings(item.pendingContent ?? item.content), output: out) { out.line(line) }
            }
            switch state {
            case .new:
                for line in ItemRendering.fieldLines(item.content, zone: session.zone(of: item)) { out.line(line) }
                for line in ItemRendering.photoLines(item.content) { out.line(out.paint(line, .yellow)) }
            case .changed:
                let pending = item.pendingContent ?? item.content
                out.line("  " + SafeText.visible(pending.title))
                for line in ItemRendering.diffLines(ItemContent.changedFields(from: item.content, to: pending), zone: session.zone(of: item), output: out) { out.line(line) }
                if let note = try store.revisions(of: id).last?.note { out.line(out.paint("  note: \(SafeText.visible(note))", .yellow)) }
            case .missing:
                out.line("  " + SafeText.visible(item.content.title))
                out.line("  not found in its source for \(item.missingRuns) consecutive runs (nothing is deleted)")
            }
            let choices: String
            switch (state, item.kind.traits.review) {
            case (.missing, _): choices = "[a]rchive [k]eep [s]kip [q]uit [?]"
            case (_, .helpDesk): choices = "[r]eply [c]lose [s]kip [q]uit [?]"
            case (_, .staffWork): choices = "[a]pprove [r]eject [e]dit [s]kip [q]uit [?]"
            // Within 80 columns: `?` says what each key does.
            case (_, .importedContent): choices = "[a]pprove [r]eject [e]dit [s]kip [A]ll \(item.kind.plural) [q]uit [?]"
            }
            // A picture without a description: `l` writes one (shown only when there is one to write).
            let describable = state == .missing ? nil : AltText.firstToDescribe(item.pendingContent ?? item.content)
            // A scanned PDF: `o` makes its searchable copy.
            let scanned = state != .missing && Self.isScan(item.pendingContent ?? item.content)
            // Links that say nothing ("click here"): `t` names them from where they go.
            let vagueLinks = state != .missing && item.provenance != nil && !LinkNames.vague(in: item.pendingContent ?? item.content).isEmpty
            let prompt = choices.replacingOccurrences(
                of: " [q]uit", with: (describable == nil ? "" : " [l]") + (scanned ? " [o]" : "") + (vagueLinks ? " [t]" : "") + " [q]uit")
            if describable != nil { out.line(out.paint("  l: describe the picture (it has no text alternative)", .yellow)) }
            if scanned { out.line(out.paint("  o: make a searchable copy of the scanned PDF (ocrmypdf)", .yellow)) }
            if vagueLinks { out.line(out.paint("  t: name the links that say nothing from the pages they go to", .yellow)) }
            while true {
                out.flush()
                let answer: String
                switch reader.read(prompt: prompt + " ", remember: false) {
                case .end, .interrupted: break itemLoop
                case .line(let text): answer = text.trimmingCharacters(in: .whitespaces)
                }
                switch answer {
                case "q": break itemLoop
                case "s", "": skipped += 1; continue itemLoop
                case "?":
                    out.line(
                        state == .missing
                            ? "  a: archive it (history, restorable)  k: keep it (reset the count)  s: decide later  q: stop reviewing"
                            : item.kind == .ticket
                                ? "  r: reply (you type the text)  c: close the ticket  s: decide later  q: stop reviewing"
                                : "  a: publish  r: refuse (you give a reason)  e: change fields (FIELD=VALUE ...), locked against imports\n  s: decide later  "
                                    + (item.kind.isImportedContent ? "A: approve this and the remaining \(item.kind.plural) (asks first)  " : "")
                                    + (describable != nil ? "l: describe the picture  " : "") + (scanned ? "o: searchable copy of the scan  " : "")
                                    + (vagueLinks ? "t: name the vague links  " : "") + "q: stop reviewing")
                    continue
                case "o" where scanned:
                    do {
                        let (_, made) = try ocr(item, language: "eng", store: store, session: session)
                        out.line("  made a searchable copy (\(made.textLength) characters of text); the export serves it")
                    } catch let error as TimeTrackError {
                        out.error(error)
                    }
                    continue
                case "t" where vagueLinks:
                    do { _ = try LinkNaming.run(item, store: store, session: session, confirmed: false) } catch let error as TimeTrackError { out.error(error) }
                    continue
                case "l" where describable != nil:
                    if let picture = describable, try AltText.describe(picture, item: item, store: store, session: session) { continue itemLoop }
                    continue
                case "A" where state != .missing && item.kind.isImportedContent:
                    let rest = ids[(index + 1)...].compactMap { try? store.item($0) }.filter { $0.kind == item.kind && reviewState($0) != .missing }
                    let noun = rest.count == 1 ? item.kind.rawValue : item.kind.plural
                    guard case .line(let reply) = reader.read(prompt: "  approve this and \(rest.count) more \(noun)? [y/N] ", remember: false),
                        ["y", "yes"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased())
                    else {
                        out.line("  nothing approved")
                        continue
                    }
                    approveRestKind = item.kind
                    bulkBatch = Lifecycle.newBatch()
                    approveNamed(item, state)
                    continue itemLoop
                default:
                    do {
                        if try decide(answer, item: item, state: state, store: store, session: session) {
                            decided += 1
                            continue itemLoop
                        }
                    } catch let error as TimeTrackError {
                        out.error(error)
                    }
                }
            }
        }
        Interrupt.clear()
        out.line()
        out.line("reviewed: \(decided) decided, \(skipped) skipped, \(ids.count - decided - skipped) left")
        if bulkBatch != nil { out.line("`undo` takes the bulk approval back whole") }
        if !flaggedInBulk.isEmpty {
            out.line("left for you by the privacy check: \(flaggedInBulk.joined(separator: ", ")) (`show ID`; `privacy allow` lets the district's own contacts through)")
        }
        return 0
    }

    /// Whether the content is a School Info PDF found to be a scan, with no copy made yet.
    static func isScan(_ content: ItemContent) -> Bool {
        guard case .schoolInfo(let info) = content else { return false }
        return info.accessibleCopy == nil && (info.documentProblems ?? []).contains(.noText)
    }

    /// Carries out one review key. Returns true when the item was decided, false to ask again.
    static func decide(_ key: String, item: Item, state: ReviewState, store: any ItemStore, session: Session, quiet: Bool = false, batch: String? = nil) throws -> Bool {
        let out = session.output
        let who = session.operatorName
        func ask(_ prompt: String) -> String? {
            guard case .line(let text) = session.reader?.read(prompt: prompt, remember: false) else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        switch (key, state, item.kind.traits.review) {
        case ("a", .missing, _):
            _ = try Lifecycle(store).archive(item.id, by: who, reason: "missing from its source for \(item.missingRuns) runs")
            out.line("  archived")
        case ("k", .missing, _):
            _ = try Lifecycle(store).keep(item.id, by: who)
            out.line("  kept")
        case ("r", _, .helpDesk):
            guard let text = ask("  reply: ") else { return false }
            _ = try Lifecycle(store).reply(item.id, text: text, by: who)
            out.line("  replied")
            return false  // a reply does not close the ticket: ask again
        case ("c", _, .helpDesk):
            _ = try Lifecycle(store).close(item.id, by: who)
            out.line("  closed")
        case ("a", _, _):
            var anyway = false
            let allowed = session.privacyAllowList()
            if !quiet, !PrivacyLint.findings(item.pendingContent ?? item.content, students: try store.absenceStudents(), allowed: allowed).isEmpty {
                guard case .line(let reply) = session.reader?.read(prompt: "  it may expose private information (above); approve anyway? the audit records it [y/N] ", remember: false),
                    reply.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
                else {
                    out.line("  not approved: edit it (e), or skip (s)")
                    return false
                }
                anyway = true
            }
            let done = try Lifecycle(store).approve(item.id, by: who, batch: batch, anyway: anyway, allowed: allowed)
            if !quiet { out.line("  " + out.paint("approved", .green) + " (\(done.status.rawValue))") }
        case ("r", _, _):
            guard let reason = ask("  reason: ") else {
                out.line("  a reason is required; not rejected")
                return false
            }
            _ = try Lifecycle(store).reject(item.id, reason: reason, by: who)
            out.line("  " + out.paint("rejected", .red))
        case ("e", _, _):
            out.line("  fields: " + ItemContent.fieldNames(of: item.kind).joined(separator: ", "))
            guard let text = ask("  FIELD=VALUE ...: ") else { return false }
            var assignments: [(String, String)] = []
            for word in try Words.split(text) {
                guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                    throw TimeTrackError(.usage, "'\(word)' is not FIELD=VALUE")
                }
                assignments.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
            }
            let edited = try Lifecycle(store).edit(item.id, changes: try ItemContent.parseEdits(assignments, kind: item.kind, current: item.pendingContent ?? item.content, zone: session.zone(of: item)), by: who, reason: "edited in review")
            out.line("  edited and locked: " + edited.lockedFields.joined(separator: ", "))
            for line in ItemRendering.fieldLines(edited.pendingContent ?? edited.content, zone: session.zone(of: edited)) { out.line(line) }
            return false  // edited: now approve or reject it
        default:
            out.line("  ? for help")
            return false
        }
        return true
    }
}
