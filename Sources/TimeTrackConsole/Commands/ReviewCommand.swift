import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var reviewCommand: CommandSpec { ReviewCommand.spec }

    struct ReviewCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("review", summary: "walk the items waiting for a decision: new, changed (with a diff) and missing")
        @Option("kind", value: "K", completes: .words(ItemKind.plurals), help: "only this kind (" + ItemKind.plurals.joined(separator: ", ") + ")") var kind:
            String?
        @Option("source", value: "S", completes: .sources, help: "only items from this source id") var source: String?
        @Option("limit", value: "N", in: 1...100_000, help: "in a pipe: list at most N items (default 50)") var limit = 50
        @Option("offset", value: "N", in: 0...Int(Int32.max), help: "in a pipe: skip the first N items") var offset = 0

        func run(_ session: Session) throws -> Int32 {
            let limit = limit
            let offset = offset
            let requestedKind = try kindOption(kind)
            let store = try session.store()
            let access = try session.access(in: store)
            let op = access.op
            var kinds: [ItemKind?] = [requestedKind]
            // Only the kinds the operator decides (for staff: posts, absences, tickets).
            let decidable = ItemKind.allCases.filter { kind in access.mayDecide(kind, school: op.schools.first) }
            if decidable.isEmpty {
                throw TimeTrackError(
                    .permission, "\(op.name) is \(op.role.rawValue) and reviews nothing", fix: "admins and staff review; an admin can change your role")
            }
            // One kind after another, alerts first (a closure waits for no one), then in the
            // table's order: an admin meets district news, events and school info; staff, posts,
            // absence reports and tickets.
            if kinds == [nil] { kinds = decidable.filter { $0 == .alert } + decidable.filter { $0 != .alert } }
            if let kind = kinds.first ?? nil, !decidable.contains(kind) {
                throw TimeTrackError(
                    .permission, "\(Access.whoMay(decide: kind)) review \(kind.plural); \(op.name) is \(op.role.rawValue)",
                    fix: "`review` alone shows what you review")
            }
            let asking = session.reader != nil && session.interactive && !session.output.json
            var ids: [String] = []
            var total = 0
            for kind in kinds {
                // In a pipe, enough of each kind to fill the page after the offset across kinds.
                let query = ItemQuery(kind: kind, sourceID: source, needsReview: true, limit: asking ? 100_000 : offset + limit, offset: 0)
                ids += try session.listVisible(query, in: store, deciding: true).map(\.id)
                if !asking {
                    if op.role == .admin {
                        total += try store.reviewCount(kind: kind, sourceID: source, missingThreshold: ItemQuery().missingThreshold, cap: 10_000)
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

    /// Why an item waits in review.
    ///
    /// `missing` covers an alert the district took down
    /// (withdrawn) and an upcoming event gone from its source (possibly cancelled);
    /// `reviewDue`, a published item whose `reviewBy` came.
    enum ReviewState { case new, changed, missing, reviewDue }

    static func reviewState(_ item: Item) -> ReviewState {
        if item.status == .withdrawn || (item.pendingRevision == nil && item.missingRuns > 0) { return .missing }
        if item.status == .published && item.pendingRevision == nil { return .reviewDue }
        return item.status == .published ? .changed : .new
    }

    /// The label review shows for an item: NEW, CHANGED, MISSING, TAKEN DOWN (by the
    /// district), POSSIBLY CANCELLED (an upcoming event gone from its source), REVIEW DUE.
    static func reviewLabel(_ item: Item, _ state: ReviewState, at now: Date = Date()) -> String {
        switch state {
        case .new: return "NEW"
        case .changed: return "CHANGED"
        case .reviewDue: return "REVIEW DUE"
        case .missing:
            if item.status == .withdrawn { return "TAKEN DOWN by the district" }
            if case .event(let event) = item.content, event.start > now, item.status == .published { return "POSSIBLY CANCELLED" }
            return "MISSING"
        }
    }

    /// Shows each item and asks what to do; in a pipe, lists the queue instead (never asks).
    static func walkReview(_ ids: [String], store: any ItemStore, session: Session) throws -> Int32 {
        guard let reader = session.reader, session.interactive, !session.output.json else { return try ReviewWalk.list(ids, store: store, session: session) }
        return try ReviewWalk(ids, store: store, session: session).run(reader)
    }

    /// Whether the content is a School Info PDF found to be a scan, with no copy made yet.
    static func isScan(_ content: ItemContent) -> Bool {
        guard case .schoolInfo(let info) = content else { return false }
        return info.accessibleCopy == nil && (info.documentProblems ?? []).contains(.noText)
    }

    /// Carries out one review key.
    ///
    /// Returns true when the item was decided, false to ask again.
    static func decide(_ key: String, item: Item, state: ReviewState, store: any ItemStore, session: Session, quiet: Bool = false, batch: String? = nil) throws
        -> Bool
    {
        let out = session.output
        let who = session.operatorName
        func ask(_ prompt: String) -> String? {
            guard case .line(let text) = session.reader?.read(prompt: prompt, remember: false) else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        switch (key, state, item.kind.traits.review) {
        case ("a", .missing, _), ("a", .reviewDue, _):
            let why = item.status == .withdrawn ? "taken down by the district" : "missing from its source for \(item.missingRuns) runs"
            _ = try Lifecycle(store).archive(item.id, by: who, reason: state == .reviewDue ? "reviewed: no longer needed" : why)
            out.line("  archived")
        case ("k", .missing, _), ("k", .reviewDue, _):
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
            switch confirmExpired(item, quiet: quiet, session: session) {
            case nil: break
            case false?: return false
            case true?: anyway = true
            }
            if !quiet, !PrivacyLint.findings(item.pendingContent ?? item.content, students: try store.absenceStudents(), allowed: allowed).isEmpty {
                guard
                    case .line(let reply) = session.reader?.read(
                        prompt: "  it may expose private information (above); approve anyway? the audit records it [y/N] ", remember: false),
                    reply.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
                else {
                    out.line("  not approved: edit it (e), or skip (s)")
                    return false
                }
                anyway = true
            }
            let done = try Lifecycle(store).approve(item.id, by: who, batch: batch, anyway: anyway, allowed: allowed)
            // An absence is excused by its approval: said so, in the words `list absences` uses.
            let word = done.kind == .absence ? ItemRendering.statusWord(done) : "approved (\(done.status.rawValue))"
            if !quiet { out.line("  " + out.paint(word, .green)) }
            tellOnAlert(done, store: store, session: session)
        case ("r", _, _):
            guard let reason = ask("  reason: ") else {
                out.line("  a reason is required; not rejected")
                return false
            }
            let refused = try Lifecycle(store).reject(item.id, reason: reason, by: who)
            out.line("  " + out.paint(refused.kind == .absence ? ItemRendering.statusWord(refused) : "rejected", .red))
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
            let edited = try Lifecycle(store).edit(
                item.id,
                changes: try ItemContent.parseEdits(assignments, kind: item.kind, current: item.pendingContent ?? item.content, zone: session.zone(of: item)),
                by: who, reason: "edited in review")
            out.line("  edited and locked: " + edited.lockedFields.joined(separator: ", "))
            for line in ItemRendering.fieldLines(edited.pendingContent ?? edited.content, zone: session.zone(of: edited)) { out.line(line) }
            return false  // edited: now approve or reject it
        default:
            out.line("  ? for help")
            return false
        }
        return true
    }

    /// For content past its expiry: whether the person approves it anyway (asked), false when
    /// not (said); nil when it has not expired.
    static func confirmExpired(_ item: Item, quiet: Bool, session: Session) -> Bool? {
        let content = item.pendingContent ?? item.content
        guard content.hasExpired(at: Date()), let expiry = content.expiresAt else { return nil }
        let when = Display.date(expiry, zone: session.zone(of: item))
        guard !quiet,
            case .line(let reply) = session.reader?.read(
                prompt: "  it expired on \(when); approve anyway? [y/N] ", remember: false),
            reply.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
        else {
            session.output.line("  not approved: it expired on \(when) (edit expiresAt, or reject it)")
            return false
        }
        return true
    }
}
