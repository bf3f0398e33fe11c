import Foundation
import TimeTrackCore

/// The rules of an item's life, written once over any store: every decision (submit, approve,
/// reject, edit, amend, reply, close, keep, unlock, archive, restore, revert, undo) and the
/// reconciliation of imported records, each one transaction with its audit entry.
///
/// Per-kind rules live here too: approving an absence report excuses it and rejecting one
/// leaves it unexcused (in the same transaction as the decision); tickets are answered and
/// closed, never approved.
///
/// A repository (`SQLiteStore`, `InMemoryRepository`) only reads and writes rows; it never
/// decides. Illegal transitions throw `.illegalTransition`; unknown ids `.notFound`.
public struct Lifecycle {
    public let repository: any ItemRepository

    public init(_ repository: any ItemRepository) {
        self.repository = repository
    }

    var now: Date { repository.now() }

    // MARK: Building blocks (inside a transaction)

    func illegal(_ row: ItemRow, _ action: String, _ why: String, fix: String? = nil) -> TimeTrackError {
        TimeTrackError(.illegalTransition, "cannot \(action) \(row.id): \(why)", fix: fix, context: ["item": row.id])
    }

    /// Appends the audit entry of a decision on `row`; `undo`: the item's state before it
    /// (`undoState`), which `undo` puts back.
    func audit(_ who: String, _ action: AuditAction, _ row: ItemRow, reason: String? = nil, detail: String? = nil, batch: String? = nil, undo: String? = nil)
        throws
    {
        var entry = auditEntry(who, action, row, reason: reason, detail: detail, batch: batch)
        entry.undo = undo
        try repository.appendAudit(entry)
    }

    /// The audit entry of a decision on `row`.
    func auditEntry(_ who: String, _ action: AuditAction, _ row: ItemRow, reason: String? = nil, detail: String? = nil, batch: String? = nil) -> NewAuditEntry {
        NewAuditEntry(at: now, operatorName: who, action: action, itemSeq: row.seq, itemID: row.id, reason: reason, detail: detail, batch: batch)
    }

    func newRevision(
        _ row: ItemRow, _ state: Revision.State, _ content: ItemContent, by who: String, runID: Int64? = nil, note: String? = nil,
        canonical known: (json: String, hash: String)? = nil
    ) throws -> Int {
        let number = try repository.lastRevisionNumber(of: row) + 1
        let canonical = known ?? content.canonicalForm
        try repository.addRevision(
            NewRevision(number: number, state: state, json: canonical.json, hash: canonical.hash, at: now, by: who, runID: runID, note: note), to: row)
        return number
    }

    /// An operator's change of content as one revision: in review it replaces the pending
    /// revision; on a published item it is itself the decision and goes live (`edit`, `amend`,
    /// `unlock`).
    ///
    /// Returns the row as written.
    ///
    /// Fields people own (a reply, a moderation note) go live at once on a published item that
    /// has a change waiting, as well as into the waiting change: rejecting the change cannot
    /// take the decision back.
    @discardableResult
    func writeOperatorRevision(of row: ItemRow, _ content: ItemContent, by who: String, note: String?) throws -> ItemRow {
        var row = row
        if let live = row.liveRevision, row.pendingRevision != nil, !ItemContent.operatorOwnedFields(of: row.kind).isEmpty {
            let shown = try repository.content(of: row, revision: live)
            let carried = shown.keepingOperatorFields(of: content)
            if carried != shown {
                try repository.setRevisionState(.superseded, number: live, of: row, at: now)
                row.liveRevision = try newRevision(row, .live, carried, by: who, note: note)
                try repository.project(carried, of: row)
            }
        }
        if let pending = row.pendingRevision {
            try repository.setRevisionState(.superseded, number: pending, of: row, at: now)
            let number = try newRevision(row, .pending, content, by: who, note: note)
            if row.liveRevision == nil { try repository.project(content, of: row) }
            row.pendingRevision = number
        } else {
            if let live = row.liveRevision { try repository.setRevisionState(.superseded, number: live, of: row, at: now) }
            let number = try newRevision(row, .live, content, by: who, note: note)
            try repository.project(content, of: row)
            row.liveRevision = number
        }
        row.baseHash = content.contentHash
        row.updatedAt = now
        try repository.updateRow(row)
        return row
    }

    /// Publishes the pending revision of a row.
    func publish(_ row: ItemRow, by who: String, batch: String?, reason: String? = nil, undo: String? = nil) throws {
        var row = row
        guard let pending = row.pendingRevision else { throw illegal(row, "approve", "it is already published and has no pending change") }
        let content = try repository.content(of: row, revision: pending)
        if let live = row.liveRevision { try repository.setRevisionState(.superseded, number: live, of: row, at: now) }
        try repository.setRevisionState(.live, number: pending, of: row, at: now)
        try repository.project(content, of: row)
        // Approved now, live at its publishAt: `import --due` makes it published then.
        let waits = content.isBeforePublishing(at: now)
        row.status = waits ? .scheduled : .published
        row.liveRevision = pending
        row.pendingRevision = nil
        row.baseHash = content.contentHash
        row.approvedBy = who
        row.approvedAt = now
        row.rejectReason = nil
        row.updatedAt = now
        try repository.updateRow(row)
        let live = waits ? "; scheduled: live at its publishAt" : ""
        try audit(who, .approve, row, reason: reason, detail: "revision \(pending)" + live, batch: batch, undo: undo)
    }

    func requireReviewable(_ row: ItemRow, _ action: String) throws {
        switch row.status {
        case .archived: throw illegal(row, action, "it is archived (read-only)", fix: "`restore \(row.id)` first")
        case .rejected: throw illegal(row, action, "it was rejected", fix: "`restore \(row.id)` puts it back in review")
        case .withdrawn: throw illegal(row, action, "the district took it down", fix: "`restore \(row.id)` puts it back in the app")
        case .pending, .published, .scheduled, .expired: break
        }
    }

    /// `content` as it may be published: an absence report that goes live is excused.
    static func published(_ content: ItemContent) -> ItemContent {
        guard case .absence(var report) = content, report.outcome != .excused else { return content }
        report.outcome = .excused
        return .absence(report)
    }

    // MARK: Decisions

    /// Stores a new pending item submitted by a person or an app user.
    public func submit(_ submitted: ItemContent, school: String?, by who: String, note: String?) throws -> Item {
        let content = try submitted.validated()
        let row = try repository.transaction { () throws -> ItemRow in
            let row = try insert(
                content, school: school, key: nil, provenance: nil, by: who, runID: nil, note: note, canonical: content.canonicalForm,
                decision: { auditEntry(who, .submit, $0, reason: note) })
            return row
        }
        return try repository.item(of: row)
    }

    /// The one rule of an absence's outcome: it follows the decision.
    ///
    /// Approved (published) is excused, rejected is not excused, in review (pending) is undecided.
    /// Writes the pending
    /// content with `outcome` when it says otherwise, audited as `excuse` / `unexcuse` /
    /// `undecide` in the decision's batch; returns the row as written.
    func settleOutcome(_ row: ItemRow, _ outcome: AbsenceReport.Outcome?, by who: String, note: String?, batch: String?) throws -> ItemRow {
        guard let pending = row.pendingRevision, case .absence(var report) = try repository.content(of: row, revision: pending), report.outcome != outcome
        else {
            return row
        }
        report.outcome = outcome
        let written = try writeOperatorRevision(of: row, .absence(report), by: who, note: note)
        try audit(who, outcome.map { $0 == .excused ? AuditAction.excuse : .unexcuse } ?? .undecide, written, reason: note, batch: batch)
        return written
    }

    /// Publishes the pending content of an item.
    ///
    /// An absence report is excused by its approval (one decision, whatever an earlier decision
    /// said). Tickets are answered and closed, not approved.
    ///
    /// Public content that looks private (`PrivacyLint`: a phone number, an e-mail address, a
    /// street address, a student's name) is refused unless `anyway`; approved anyway, the audit
    /// entry says what was flagged.
    /// `allowed`: what the privacy check lets through (the district's own contacts).
    public func approve(_ id: String, by who: String, batch: String? = nil, anyway: Bool = false, allowed: PrivacyAllowList = PrivacyAllowList()) throws -> Item
    {
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            if row.kind != .ticket { try requireReviewable(row, "approve") }
            switch row.kind {
            case .ticket:
                throw TimeTrackError(
                    .usage, "tickets are answered, not approved", fix: "`reply \(row.id) TEXT`, then `close \(row.id)`", context: ["item": row.id])
            case .absence:
                row = try settleOutcome(row, .excused, by: who, note: nil, batch: batch)
            case .announcement, .event, .schoolInfo, .post, .deadline, .alert:
                break
            }
            var flagged: String?
            if PrivacyLint.applies(to: row.kind), let pending = row.pendingRevision {
                let findings = PrivacyLint.findings(
                    try repository.content(of: row, revision: pending), students: try repository.absenceStudents(), allowed: allowed)
                if !findings.isEmpty {
                    let list = findings.map(\.description).joined(separator: "; ")
                    guard anyway else {
                        throw TimeTrackError(
                            .validation, "\(row.id) may expose private information: \(list)",
                            fix: "edit it (`edit \(row.id) FIELD=...`), or approve it anyway (`approve \(row.id) --anyway`; the audit records it)",
                            context: ["item": row.id])
                    }
                    flagged = "approved despite privacy flags: " + list
                }
            }
            try publish(row, by: who, batch: batch, reason: flagged, undo: before)
            return row
        }
        return try repository.item(row.id)
    }

    /// Refuses the pending content of an item, with a reason.
    ///
    /// An absence report is left not excused by it (one decision, whatever an edit or an earlier
    /// decision said).
    public func reject(_ id: String, reason: String, by who: String) throws -> Item {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            guard !reason.isEmpty else {
                throw TimeTrackError(.usage, "a rejection needs a reason", fix: "reject \(row.id) --reason \"why\"", context: ["item": row.id])
            }
            switch row.status {
            case .archived: throw illegal(row, "reject", "it is archived")
            case .rejected: throw illegal(row, "reject", "it is already rejected")
            case .withdrawn: throw illegal(row, "reject", "the district took it down", fix: "`archive \(row.id)` files it")
            case .pending, .published, .scheduled, .expired: break
            }
            guard row.pendingRevision != nil else {
                throw illegal(row, "reject", "it has nothing pending; it is published", fix: "`archive \(row.id)` takes it out of the app")
            }
            if row.kind == .absence && row.liveRevision == nil {
                row = try settleOutcome(row, .unexcused, by: who, note: reason, batch: nil)
            }
            guard let pending = row.pendingRevision else { throw illegal(row, "reject", "it has nothing pending") }
            try repository.setRevisionState(.rejected, number: pending, of: row, at: now)
            if let live = row.liveRevision {
                // A refused change: the published version stays live.
                row.baseHash = try repository.content(of: row, revision: live).contentHash
                row.pendingRevision = nil
            } else {
                row.status = .rejected
                row.pendingRevision = nil
                row.rejectReason = reason
            }
            row.updatedAt = now
            try repository.updateRow(row)
            try audit(who, .reject, row, reason: reason, detail: "revision \(pending)", undo: before)
            return row
        }
        return try repository.item(row.id)
    }

    /// Changes fields and locks them against re-imports.
    ///
    /// A new lock remembers what the source said (the value the edit replaced), so the next import
    /// of the same upstream value is no
    /// news; a lock already there keeps the upstream value it recorded.
    public func edit(_ id: String, changes: [String: JSONValue], by who: String, reason: String?) throws -> Item {
        guard !changes.isEmpty else {
            throw TimeTrackError(.usage, "nothing to change", fix: "edit \(id) FIELD=VALUE...", context: ["item": id])
        }
        let row = try repository.transaction { () throws -> ItemRow in
            let row = try repository.requireRow(id)
            let before = try undoState(row)
            for field in changes.keys.sorted() { if let decided = Self.decidedBy(field, kind: row.kind, id: row.id) { throw decided } }
            try requireReviewable(row, "edit")
            guard let baseNumber = row.baseRevision else { throw illegal(row, "edit", "it has no content") }
            let base = try repository.content(of: row, revision: baseNumber)
            var fields = base.fields()
            let known = Set(fields.keys).union(ItemContent.fieldNames(of: row.kind))
            for (field, value) in changes {
                guard known.contains(field) else {
                    throw TimeTrackError(
                        .usage, "\(row.kind.rawValue) has no field '\(field)'",
                        fix: "fields: " + ItemContent.fieldNames(of: row.kind).sorted().joined(separator: ", "), context: ["item": row.id, "field": field])
                }
                fields[field] = value
            }
            let edited = try ItemContent.decode(kind: row.kind, fields: fields).validated(context: ["item": row.id])
            let changed = ItemContent.changedFields(from: base, to: edited)
            guard !changed.isEmpty else { throw TimeTrackError(.usage, "the new values equal the current ones; nothing changed", context: ["item": row.id]) }
            var written = try writeOperatorRevision(of: row, edited, by: who, note: reason)
            if written.pendingRevision == nil, written.status == .published || written.status == .scheduled {
                // A live item's publishAt edited: it waits for it (or no longer does).
                let settled: ItemStatus = edited.isBeforePublishing(at: now) ? .scheduled : .published
                if settled != written.status {
                    written.status = settled
                    try repository.updateRow(written)
                }
            }
            let existing = Dictionary(try repository.locks(of: row).map { ($0.field, $0) }, uniquingKeysWith: { first, _ in first })
            for change in changed where ItemContent.owner(of: change.field, kind: row.kind) == .source {
                let upstream = existing[change.field].map { $0.upstream } ?? (row.sourceID != nil ? change.old : nil)
                try repository.putLock(FieldLock(field: change.field, lockedBy: who, lockedAt: now, upstream: upstream), upstreamAt: nil, on: written)
            }
            try audit(who, .edit, written, reason: reason, detail: changed.map(\.field).joined(separator: ","), undo: before)
            return written
        }
        return try repository.item(row.id)
    }

    /// The refusal of an edit of a field only a decision sets (an absence's outcome, a ticket's
    /// closed state), naming the decision to make instead; nil for any other field.
    static func decidedBy(_ field: String, kind: ItemKind, id: String) -> TimeTrackError? {
        switch (kind, field) {
        case (.absence, "outcome"):
            return TimeTrackError(
                .usage, "an absence's outcome follows its decision; it is not edited",
                fix: "`approve \(id)` excuses it, `reject \(id) --reason R` leaves it not excused", context: ["item": id, "field": field])
        case (.ticket, "closed"):
            return TimeTrackError(
                .usage, "a ticket is closed and reopened by decision, not edited", fix: "`close \(id)` or `reopen \(id)`",
                context: ["item": id, "field": field])
        default:
            return nil
        }
    }

    /// Changes an item's content without locking fields (a ticket reply, a close):
    /// one decision, recorded as `action`.
    ///
    /// A pending item's pending content changes; a published item gets a new live revision.
    public func amend(_ id: String, action: AuditAction, by who: String, note: String?, _ change: (ItemContent) throws -> ItemContent) throws -> Item {
        let row = try repository.transaction { () throws -> ItemRow in
            let row = try amendRow(id, action: action, by: who, note: note, change)
            return row
        }
        return try repository.item(row.id)
    }

    func amendRow(_ id: String, action: AuditAction, by who: String, note: String?, batch: String? = nil, _ change: (ItemContent) throws -> ItemContent) throws
        -> ItemRow
    {
        let row = try repository.requireRow(id)
        let before = try undoState(row)
        guard row.status == .pending || row.status == .published else {
            throw illegal(row, action.rawValue, "it is \(row.status.rawValue)", fix: "`restore \(row.id)` first")
        }
        guard let baseNumber = row.baseRevision else { throw illegal(row, action.rawValue, "it has no content") }
        let base = try repository.content(of: row, revision: baseNumber)
        let changed = try change(base).validated(context: ["item": row.id])
        guard changed.kind == row.kind else { throw illegal(row, action.rawValue, "the change would turn it into another kind") }
        let written = try writeOperatorRevision(of: row, changed, by: who, note: note)
        try audit(who, action, written, reason: note, batch: batch, undo: before)
        return written
    }

    /// Adds a reply to a ticket (it stays open).
    public func reply(_ id: String, text: String, by who: String) throws -> Item {
        try amend(id, action: .reply, by: who, note: String(text.prefix(200))) { content in
            guard case .ticket(var ticket) = content else {
                throw TimeTrackError(.usage, "\(id) is not a ticket; only tickets take replies", context: ["item": id])
            }
            guard !ticket.closed else {
                throw TimeTrackError(.illegalTransition, "\(id) is closed", fix: "`reopen \(id) --reason R` first, then reply", context: ["item": id])
            }
            ticket.replies.append(Ticket.Reply(by: who, at: now, text: text))
            return .ticket(ticket)
        }
    }

    /// Closes a ticket: the closed ticket is what the app shows, in one decision.
    public func close(_ id: String, by who: String) throws -> Item {
        try setTicket(id, closed: true, by: who, note: nil)
    }

    /// Reopens a closed ticket: the open ticket is what the app shows again, in one decision.
    public func reopen(_ id: String, by who: String, reason: String?) throws -> Item {
        try setTicket(id, closed: false, by: who, note: reason)
    }

    /// Closes or reopens a ticket: the amended ticket is published in the same transaction.
    func setTicket(_ id: String, closed: Bool, by who: String, note: String?) throws -> Item {
        let action: AuditAction = closed ? .close : .reopen
        // The close and the publishing it brings are one decision for `undo`.
        let batch = Self.newBatch()
        let row = try repository.transaction { () throws -> ItemRow in
            let row = try amendRow(id, action: action, by: who, note: note, batch: batch) { content in
                guard case .ticket(var ticket) = content else {
                    throw TimeTrackError(
                        .usage, "\(id) is not a ticket; \(action) is for tickets",
                        fix: closed ? "`archive \(id)` takes other items out of the app" : "`restore \(id)` brings back other items", context: ["item": id])
                }
                guard ticket.closed != closed else {
                    throw TimeTrackError(
                        .illegalTransition, closed ? "\(id) is already closed" : "\(id) is open", fix: closed ? nil : "`reply \(id) TEXT` answers it",
                        context: ["item": id])
                }
                ticket.closed = closed
                return .ticket(ticket)
            }
            if row.pendingRevision != nil { try publish(row, by: who, batch: batch) }
            return row
        }
        return try repository.item(row.id)
    }

    /// Keeps an item that is missing from its source: its missing count starts again.
    public func keep(_ id: String, by who: String) throws -> Item {
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            if row.missingRuns == 0, row.status == .published, let live = row.liveRevision,
                let reviewBy = try repository.content(of: row, revision: live).times.reviewBy, reviewBy <= now
            {
                return try keepReviewed(row, live: live, by: who, undo: before)
            }
            guard row.missingRuns > 0 else { throw illegal(row, "keep", "it is not missing from its source, nor due for review") }
            let runs = row.missingRuns
            row.missingRuns = 0
            row.updatedAt = now
            try repository.updateRow(row)
            try audit(who, .keep, row, detail: "missing for \(runs) runs", undo: before)
            return row
        }
        return try repository.item(row.id)
    }

    /// Unlocks fields: each takes the source's recorded value back (a decision, audited); a
    /// field with none recorded simply follows the source again from the next import.
    public func unlock(_ id: String, fields: [String], by who: String) throws -> Item {
        guard !fields.isEmpty else { throw TimeTrackError(.usage, "name the fields to unlock", fix: "unlock \(id) FIELD...", context: ["item": id]) }
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            let locks = try repository.locks(of: row)
            var upstream: [String: JSONValue] = [:]
            for field in fields {
                guard let lock = locks.first(where: { $0.field == field }) else {
                    throw TimeTrackError(
                        .usage, "\(field) of \(row.id) is not locked",
                        fix: locks.isEmpty ? "\(row.id) has no locked fields" : "locked: " + locks.map(\.field).joined(separator: ", "),
                        context: ["item": row.id, "field": field])
                }
                if let value = lock.upstream { upstream[field] = value }
                try repository.removeLock(field, from: row)
            }
            if !upstream.isEmpty, let baseNumber = row.baseRevision, row.status == .pending || row.status == .published {
                // The source's value comes back as the operator's decision, in one revision.
                var values = try repository.content(of: row, revision: baseNumber).fields()
                for (field, value) in upstream { values[field] = value }
                let unlocked = try ItemContent.decode(kind: row.kind, fields: values).validated(context: ["item": row.id])
                row = try writeOperatorRevision(of: row, unlocked, by: who, note: "unlocked " + fields.joined(separator: ", ") + ": the source's value is back")
            }
            try audit(who, .unlock, row, detail: fields.joined(separator: ","), undo: before)
            return row
        }
        return try repository.item(row.id)
    }

    /// Moves an item to the archive (out of the app; restorable).
    public func archive(_ id: String, by who: String, reason: String?) throws -> Item {
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            guard row.status != .archived else { throw illegal(row, "archive", "it is already archived") }
            let was = row.status
            row.archivedFrom = was
            row.status = .archived
            row.updatedAt = now
            try repository.updateRow(row)
            try audit(who, .archive, row, reason: reason, detail: "was \(was.rawValue)", undo: before)
            return row
        }
        return try repository.item(row.id)
    }

    /// Brings an archived item back to its earlier status, or a rejected one back to pending.
    public func restore(_ id: String, by who: String, batch: String? = nil) throws -> Item {
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = try undoState(row)
            switch row.status {
            case .archived:
                let back = row.archivedFrom ?? (row.liveRevision != nil ? .published : .pending)
                row.status = back
                row.archivedFrom = nil
                row.missingRuns = 0
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .restore, row, detail: "to \(back.rawValue)", batch: batch, undo: batch == nil ? before : nil)
            case .rejected:
                // Back into review: the rejected revision becomes pending again.
                let number = try repository.revisions(of: row).filter { $0.state == .rejected }.map(\.number).max()
                if let number { try repository.setRevisionState(.pending, number: number, of: row, at: now) }
                row.status = .pending
                row.pendingRevision = number
                row.rejectReason = nil
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .restore, row, detail: "to pending", batch: batch, undo: batch == nil ? before : nil)
                if row.kind == .absence { row = try settleOutcome(row, nil, by: who, note: "back in review: not decided", batch: batch) }
            case .withdrawn, .expired:
                try restoreLive(&row, by: who, batch: batch, undo: batch == nil ? before : nil)
            case .pending, .published, .scheduled:
                throw illegal(row, "restore", "it is \(row.status.rawValue), not archived, rejected, expired or withdrawn")
            }
            return row
        }
        return try repository.item(row.id)
    }

    /// Puts an earlier revision back live, as a new revision (history only grows).
    ///
    /// With `to`, that revision's content goes live. Without, the version published before the
    /// live one comes back; when the item had never been published before, it leaves the app
    /// and goes back to review (its revision pending again). A pending change stays pending.
    public func revert(_ id: String, to target: Int? = nil, by who: String, batch: String? = nil) throws -> Item {
        let row = try repository.transaction { () throws -> ItemRow in
            var row = try repository.requireRow(id)
            let before = batch == nil ? try undoState(row) : nil
            guard row.status == .published, let live = row.liveRevision else {
                throw illegal(
                    row, "revert", "it is \(row.status.rawValue); only a published item has a version to go back from",
                    fix: row.status == .archived || row.status == .rejected ? "`restore \(row.id)`" : "`history \(row.id)` shows its revisions")
            }
            let revisions = try repository.revisions(of: row)
            let goal: Revision?
            if let target {
                guard let chosen = revisions.first(where: { $0.number == target }) else {
                    throw TimeTrackError(
                        .usage, "\(row.id) has no revision \(target)", fix: "revisions: " + revisions.map { String($0.number) }.joined(separator: ", "),
                        context: ["item": row.id])
                }
                guard target != live else { throw illegal(row, "revert", "revision \(target) is the live one") }
                goal = chosen
            } else {
                // The last version that was live before with other content than the live one: a
                // version published again after an undo is the same text, not one to go back to.
                let liveHash = revisions.first { $0.number == live }?.contentHash
                goal = revisions.last { $0.number < live && $0.wentLiveAt != nil && $0.contentHash != liveHash }
            }
            if let goal {
                let content = Self.published(goal.content)
                try repository.setRevisionState(.superseded, number: live, of: row, at: now)
                let number = try newRevision(row, .live, content, by: who, note: "reverted to revision \(goal.number)")
                try repository.project(content, of: row)
                row.liveRevision = number
                if row.pendingRevision == nil { row.baseHash = content.contentHash }
                row.approvedBy = who
                row.approvedAt = now
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .revert, row, detail: "revision \(goal.number) live again as revision \(number)", batch: batch, undo: before)
            } else {
                // Never published before: out of the app, back to review.
                if let pending = row.pendingRevision {
                    try repository.setRevisionState(.superseded, number: live, of: row, at: now)
                    try repository.project(try repository.content(of: row, revision: pending), of: row)
                } else {
                    try repository.setRevisionState(.pending, number: live, of: row, at: now)
                    row.pendingRevision = live
                }
                row.liveRevision = nil
                row.status = .pending
                row.approvedBy = nil
                row.approvedAt = nil
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .revert, row, detail: "unpublished revision \(live); back in review", batch: batch, undo: before)
                if row.kind == .absence { row = try settleOutcome(row, nil, by: who, note: "back in review: not decided", batch: batch) }
            }
            return row
        }
        return try repository.item(row.id)
    }
}
