import Foundation
import TimeTrackCore

/// What happens at an item's times, and when the district takes an alert down (docs/alerts.md).
///
/// Each transition is one transaction with one audit entry, made once: the status it leaves
/// (`scheduled`, `published`) or the `review_noted` mark it writes is what keeps a second run
/// from making it again.
extension Lifecycle {
    /// One transition `applyDue` made.
    public struct DueTransition: Sendable, Equatable {
        public var itemID: String
        /// Which time came: `publishAt` (published), `expiresAt` (expired, out of the app),
        /// `reviewBy` (in review, still shown).
        public var kind: ItemTimes.Moment
        /// The time that was due.
        public var at: Date
    }

    /// Applies every transition due at the repository's clock: go-live, expiry, review due.
    ///
    /// Audited as `import:clock` unless `who` says otherwise (cron's `import --due` passes its
    /// operator). Returns what it did, in item order.
    public func applyDue(by who: String) throws -> [DueTransition] {
        var done: [DueTransition] = []
        for candidate in try repository.dueRows(at: now) {
            if let transition = try applyDue(candidate, by: who) { done.append(transition) }
        }
        return done
    }

    /// The transition due for one item, made in its own transaction (the row read again under
    /// the write lock), or nil when nothing is due any more.
    func applyDue(_ id: String, by who: String) throws -> DueTransition? {
        try repository.transaction { () throws -> DueTransition? in
            guard var row = try repository.row(id: id), let live = row.liveRevision else { return nil }
            let times = try repository.content(of: row, revision: live).times
            let before = try undoState(row)
            if row.status == .published || row.status == .scheduled, let expiry = times.expiresAt, expiry <= now {
                row.status = .expired
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .expire, row, detail: "its expiresAt came", undo: before)
                return DueTransition(itemID: row.id, kind: .expiresAt, at: expiry)
            }
            if row.status == .scheduled, let start = times.publishAt, start <= now {
                row.status = .published
                row.updatedAt = now
                try repository.updateRow(row)
                try audit(who, .goLive, row, detail: "its publishAt came", undo: before)
                return DueTransition(itemID: row.id, kind: .publishAt, at: start)
            }
            if row.status == .published, let review = times.reviewBy, review <= now, try repository.reviewNoted(of: row) != review {
                try repository.noteReviewDue(row, reviewBy: review)
                try audit(who, .reviewDue, row, detail: "its reviewBy came")
                return DueTransition(itemID: row.id, kind: .reviewBy, at: review)
            }
            return nil
        }
    }

    /// Takes an item out of the app because its source no longer has it: an alert the district
    /// took down.
    ///
    /// Pending alerts go too (nobody should approve what the district withdrew).
    /// Audited as the import; `restore` puts it back.
    func withdraw(_ row: ItemRow, by who: String, runID: Int64?) throws -> Bool {
        var row = row
        guard row.status == .pending || row.status == .published || row.status == .scheduled else { return false }
        let before = try undoState(row)
        let was = row.status
        row.archivedFrom = was
        row.status = .withdrawn
        row.updatedAt = now
        try repository.updateRow(row)
        try audit(who, .withdraw, row, reason: "taken down by the district", detail: "was \(was.rawValue)" + (runID.map { "; run \($0)" } ?? ""), undo: before)
        return true
    }

    /// Puts an expired or withdrawn item back where it was: live (or scheduled) when it has a
    /// live version whose expiry has not passed, else back in review.
    func restoreLive(_ row: inout ItemRow, by who: String, batch: String?, undo: String?) throws {
        let was = row.status
        if let live = row.liveRevision {
            let content = try repository.content(of: row, revision: live)
            if content.hasExpired(at: now) {
                // No date here: the console shows the item's expiry in its own zone (`show`).
                throw illegal(row, "restore", "its expiresAt has passed", fix: "give it a later expiry first: `edit \(row.id) expiresAt=…`")
            }
            row.status = content.isBeforePublishing(at: now) ? .scheduled : .published
        } else {
            row.status = .pending
        }
        // A withdrawn alert a person puts back keeps its missing count: the next run, which
        // still does not find it, does not take the person's decision back (an alert is
        // withdrawn only at the run its source first lacks it).
        if was == .expired { row.missingRuns = 0 }
        row.archivedFrom = nil
        row.updatedAt = now
        try repository.updateRow(row)
        try audit(who, .restore, row, detail: "to \(row.status.rawValue)", batch: batch, undo: undo)
    }
}

extension Lifecycle {
    /// `keep` of an item whose review date came: it stays as it is, its `reviewBy` cleared (and
    /// locked, so the source's old date does not bring it back), in one decision.
    func keepReviewed(_ row: ItemRow, live: Int, by who: String, undo: String?) throws -> ItemRow {
        let content = try repository.content(of: row, revision: live)
        var times = content.times
        times.reviewBy = nil
        let written = try writeOperatorRevision(of: row, content.withTimes(times), by: who, note: "reviewed: kept as it is")
        try repository.putLock(FieldLock(field: "reviewBy", lockedBy: who, lockedAt: now, upstream: nil), upstreamAt: nil, on: written)
        try audit(who, .keep, written, detail: "reviewed", undo: undo)
        return written
    }
}
