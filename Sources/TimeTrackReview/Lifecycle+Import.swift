import Foundation
import TimeTrackCore

extension Lifecycle {
    /// Writes a new pending item with revision 1 and the audit entry `decision` makes of its
    /// row (in one write where the store can); returns its row.
    func insert(
        _ content: ItemContent, school: String?, key: String?, provenance: Provenance?, by who: String, runID: Int64?, note: String?,
        canonical: (json: String, hash: String), decision: (ItemRow) -> NewAuditEntry
    ) throws -> ItemRow {
        let at = now
        var draft = ItemRow(
            seq: 0, id: "", kind: content.kind, status: .pending, school: school, sourceID: nil, sourceKey: key, sourceURL: nil, fetchedAt: nil,
            pageHash: nil, importer: nil, importerVersion: nil, liveRevision: nil, pendingRevision: 1, baseHash: canonical.hash, approvedBy: nil,
            approvedAt: nil, rejectReason: nil, archivedFrom: nil, missingRuns: 0, createdAt: at, updatedAt: at)
        if let provenance { draft.take(provenance) }
        return try repository.insertItem(
            draft, content: content,
            revision: NewRevision(number: 1, state: .pending, json: canonical.json, hash: canonical.hash, at: at, by: who, runID: runID, note: note),
            decision: decision)
    }

    /// Runs several imported records in one transaction: each record is still its own decision
    /// (revision and audit entry; a record refused by validation writes nothing), and the batch
    /// commits all or nothing, so a killed run leaves whole batches.
    ///
    /// An error other than validation from a record is the store failing: let it end the batch
    /// (rolled back whole).
    public func batch<T>(_ body: () throws -> T) throws -> T {
        try repository.transaction(body)
    }

    /// Reconciles one imported record: new (pending), changed (a pending revision beside the
    /// published one), unchanged, or skipped (rejected or archived items stay so).
    ///
    /// Locked fields keep the operator's value. When the source says something else, its value
    /// is recorded on the lock once (shown by `show` and `review`, taken back by `unlock`); it
    /// makes no revision by itself, so a lock settles instead of churning.
    ///
    /// `new`: the caller read the source's keys (`sourceKeys`) in this import, and this key was
    /// not among them nor imported since: inside a batch the item is written without being
    /// looked up (were it there after all, the store's unique key refuses it and ends the batch).
    public func recordImported(_ record: ImportedRecord, runID: Int64?, by who: String, new knownNew: Bool = false) throws -> ImportOutcome {
        let prepared = try sourceOwned(
            record.prepared ?? PreparedContent(record.content, context: ["source": record.provenance.sourceID]), source: record.provenance.sourceID)
        let upstream = prepared.content
        let canonical = (json: prepared.json, hash: prepared.hash)
        let sourceID = record.provenance.sourceID
        // Fast path, outside any write lock: the same content as last time writes nothing.
        let found = knownNew && repository.inTransaction ? nil : try repository.row(sourceID: sourceID, key: record.key)
        if let row = found, row.missingRuns == 0, row.baseHash == canonical.hash, try repository.locks(of: row).isEmpty {
            return row.status == .rejected || row.status == .archived ? .skipped(id: row.id, reason: "it is \(row.status.rawValue)") : .unchanged(id: row.id)
        }
        // Read inside a batch's transaction, the row is held already; otherwise read it again
        // under the write lock (another process may have changed it since).
        let held = repository.inTransaction
        func recordNew() throws -> ImportOutcome {
            let row = try insert(
                upstream, school: record.school, key: record.key, provenance: record.provenance, by: "import:\(sourceID)", runID: runID, note: nil,
                canonical: canonical, decision: { auditEntry(who, .importNew, $0, detail: "source \(sourceID)") })
            return .new(id: row.id)
        }
        // A new item in a batch needs no savepoint of its own: everything that can refuse it
        // (validation) was checked above, and its writes fail only as the store fails, which
        // ends the whole batch (`batch`).
        if held && found == nil { return try recordNew() }
        return try repository.transaction { () throws -> ImportOutcome in
            guard var row = held ? found : try repository.row(sourceID: sourceID, key: record.key) else { return try recordNew() }
            if row.missingRuns > 0 {
                row.missingRuns = 0
                try repository.updateRow(row)
            }
            if row.status == .rejected || row.status == .archived {
                return .skipped(id: row.id, reason: "it is \(row.status.rawValue)")
            }
            if row.status == .withdrawn { return try reposted(&row, upstream: upstream, canonical: canonical, record: record, runID: runID, by: who) }
            guard let baseNumber = row.baseRevision else { return .unchanged(id: row.id) }
            // Fields people own (replies, outcomes, moderation notes) are never the source's:
            // they are neither compared nor taken, whatever upstream says.
            let locks = try repository.locks(of: row).filter { ItemContent.owner(of: $0.field, kind: row.kind) == .source }
            let ownsFields = !ItemContent.operatorOwnedFields(of: row.kind).isEmpty
            var merged = upstream
            var conflicts: [String] = []
            let base: ItemContent? = locks.isEmpty && !ownsFields ? nil : try repository.content(of: row, revision: baseNumber)
            if !locks.isEmpty, let kept = base {
                (merged, conflicts) = try keepingLocked(upstream, kept: kept, locks: locks, of: row, by: who)
            }
            if ownsFields, let kept = base { merged = merged.keepingOperatorFields(of: kept) }
            let mergedForm = base == nil ? canonical : merged.canonicalForm
            if mergedForm.hash == row.baseHash {
                return .unchanged(id: row.id)
            }
            let changes = ItemContent.changedFields(from: try base ?? repository.content(of: row, revision: baseNumber), to: merged)
            let note = conflicts.isEmpty ? nil : "upstream changed locked field(s): " + conflicts.joined(separator: ", ") + " (kept the edited value)"
            if let pending = row.pendingRevision { try repository.setRevisionState(.superseded, number: pending, of: row, at: now) }
            let number = try newRevision(row, .pending, merged, by: "import:\(sourceID)", runID: runID, note: note, canonical: mergedForm)
            if row.liveRevision == nil { try repository.project(merged, of: row) }
            row.pendingRevision = number
            row.baseHash = mergedForm.hash
            row.take(record.provenance)
            row.updatedAt = now
            try repository.updateRow(row)
            try audit(who, .importChange, row, reason: note, detail: changes.map(\.field).joined(separator: ","))
            return .changed(id: row.id, changes: changes, conflicts: conflicts)
        }
    }

    /// `upstream` with each locked field's kept value, and the locked fields the source changed.
    ///
    /// A locked field the source changed is recorded on its lock once (and audited); one the
    /// source agrees with again is settled. Nothing here makes a revision.
    func keepingLocked(_ upstream: ItemContent, kept: ItemContent, locks: [FieldLock], of row: ItemRow, by who: String) throws -> (ItemContent, [String]) {
        var fields = upstream.fields()
        let keptFields = kept.fields()
        var conflicts: [String] = []
        for lock in locks {
            let upstreamValue = fields[lock.field] ?? .null
            let keptValue = keptFields[lock.field] ?? .null
            let differs = upstreamValue != keptValue
            if differs && lock.upstream != upstreamValue {
                conflicts.append(lock.field)
                var recorded = lock
                recorded.upstream = upstreamValue
                try repository.putLock(recorded, upstreamAt: now, on: row)
                try audit(who, .importLocked, row, reason: "the source changed a locked field; the edited value stays", detail: lock.field)
            } else if !differs && lock.upstream != nil {
                var settled = lock
                settled.upstream = nil
                try repository.putLock(settled, upstreamAt: nil, on: row)
            }
            fields[lock.field] = keptValue
        }
        return (try ItemContent.decode(kind: row.kind, fields: fields), conflicts)
    }

    /// `prepared` without the fields people own: a source (a page, a feed, an app submission)
    /// never sets a reply, a closed state, an outcome or a moderation note.
    func sourceOwned(_ prepared: PreparedContent, source: String) throws -> PreparedContent {
        prepared.content.operatorFieldsSet.isEmpty ? prepared : try PreparedContent(prepared.content.sourceOwned, context: ["source": source])
    }

    /// Counts, for a source's items not seen in this run, one more missing run; resets the
    /// others.
    ///
    /// Returns the ids now missing. Nothing is deleted: review proposes archiving.
    public func recordMissing(sourceID: String, seenKeys: Set<String>, runID: Int64?) throws -> [String] {
        try recordPresence(sourceID: sourceID, seenKeys: seenKeys, runID: runID).missing
    }

    /// The same, and an alert missing from its source is withdrawn from the app at once (the
    /// district took it down): returns the ids now missing and, of them, the alerts withdrawn.
    public func recordPresence(sourceID: String, seenKeys: Set<String>, runID: Int64?, by who: String? = nil) throws -> (
        missing: [String], withdrawn: [String]
    ) {
        // Whole rows only for the items whose count changes (on an unchanged run, none, and no
        // item is even read).
        try repository.transaction {
            var missing: [String] = []
            var withdrawn: [String] = []
            for (id, key, missingRuns) in try repository.presenceToCount(sourceID: sourceID, seenKeys: seenKeys) {
                let seen = key.map(seenKeys.contains) ?? false
                guard !seen || missingRuns > 0, var row = try repository.row(id: id) else { continue }
                let firstMissed = !seen && row.missingRuns == 0
                row.missingRuns = seen ? 0 : row.missingRuns + 1
                try repository.updateRow(row)
                if !seen { missing.append(row.id) }
                // Withdrawn at the run its source first lacks it; one a person restored since
                // stays (it is withdrawn again only after the district posts it and takes it down).
                if firstMissed, row.kind == .alert, try withdraw(row, by: who ?? "import:\(sourceID)", runID: runID) { withdrawn.append(row.id) }
            }
            return (missing, withdrawn)
        }
    }

    /// An alert the district took down and has put up again: back in review, as it reads now.
    func reposted(
        _ row: inout ItemRow, upstream: ItemContent, canonical: (json: String, hash: String), record: ImportedRecord, runID: Int64?, by who: String
    ) throws -> ImportOutcome {
        let sourceID = record.provenance.sourceID
        if let pending = row.pendingRevision { try repository.setRevisionState(.superseded, number: pending, of: row, at: now) }
        let number = try newRevision(row, .pending, upstream, by: "import:\(sourceID)", runID: runID, note: "back at its source", canonical: canonical)
        if row.liveRevision == nil { try repository.project(upstream, of: row) }
        row.status = .pending
        row.archivedFrom = nil
        row.pendingRevision = number
        row.baseHash = canonical.hash
        row.take(record.provenance)
        row.updatedAt = now
        try repository.updateRow(row)
        try audit(who, .importChange, row, reason: "back at its source after the district took it down", detail: "status")
        return .changed(id: row.id, changes: [FieldChange(field: "status", old: .string("withdrawn"), new: .string("pending"))], conflicts: [])
    }
}

/// What importing a reading would do, computed without writing (`import --dry-run`).
public struct ImportPlan: Codable, Sendable, Equatable {
    /// Keys (and titles) of items the store does not have yet.
    public var new: [PlannedItem] = []
    /// Items whose source content differs from what the store last took from it.
    public var changed: [PlannedItem] = []
    public var unchanged = 0
    /// Items rejected or archived, which an import leaves alone.
    public var skipped: [PlannedItem] = []
    /// Items the source no longer lists (only when every page was read).
    public var missing: [PlannedItem] = []

    public struct PlannedItem: Codable, Sendable, Equatable {
        /// The store's id, when the item is in it.
        public var id: String?
        public var key: String
        public var title: String

        public init(id: String?, key: String, title: String) {
            self.id = id
            self.key = key
            self.title = title
        }
    }

    public init() {}
}

extension Lifecycle {
    /// What recording these items of a source would do, read-only: each item's key and its
    /// validated content.
    ///
    /// Fields people own are compared as an import compares them (not at all).
    public func plan(sourceID: String, items: [(key: String, content: PreparedContent)], readEveryPage: Bool) throws -> ImportPlan {
        var plan = ImportPlan()
        var seen: Set<String> = []
        for item in items {
            seen.insert(item.key)
            let upstream = try sourceOwned(item.content, source: sourceID)
            let title = upstream.content.title
            guard let row = try repository.row(sourceID: sourceID, key: item.key) else {
                plan.new.append(.init(id: nil, key: item.key, title: title))
                continue
            }
            let planned = ImportPlan.PlannedItem(id: row.id, key: item.key, title: title)
            var hash = upstream.hash
            if hash != row.baseHash, !ItemContent.operatorOwnedFields(of: row.kind).isEmpty, let number = row.baseRevision {
                hash = upstream.content.keepingOperatorFields(of: try repository.content(of: row, revision: number)).contentHash
            }
            if row.status == .rejected || row.status == .archived {
                plan.skipped.append(planned)
            } else if row.baseHash == hash && row.missingRuns == 0 {
                plan.unchanged += 1
            } else {
                plan.changed.append(planned)
            }
        }
        if readEveryPage {
            for row in try repository.activeRows(sourceID: sourceID) where !seen.contains(row.sourceKey ?? "") {
                let title = (row.liveRevision ?? row.pendingRevision).flatMap { try? repository.content(of: row, revision: $0).title } ?? ""
                plan.missing.append(.init(id: row.id, key: row.sourceKey ?? "", title: title))
            }
        }
        return plan
    }
}
