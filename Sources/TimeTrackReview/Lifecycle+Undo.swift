import Foundation
import TimeTrackCore

extension Lifecycle {
    /// What `undo` did to one item.
    public struct Undone: Sendable, Equatable {
        public var itemID: String
        /// The decision taken back (`approve`, `edit`, `close`…).
        public var action: String
        /// What happened: the item as it is now, or why it was left alone.
        public var outcome: Outcome

        public enum Outcome: Sendable, Equatable {
            case undone(ItemStatus)
            /// Decided or changed again since (by anyone, or by an import): left alone;
            /// `revert ID --to N` is the way.
            case decidedSince(String)
        }
    }

    /// A decision `undo` can take back: one entry, or a batch (a bulk approval, a close that
    /// published) taken back whole.
    public struct UndoCandidate: Sendable, Equatable {
        /// The batch's name, or `#ID` of the one entry.
        public var key: String
        /// The decision (the first of the batch).
        public var action: String
        public var itemIDs: [String]
        public var at: Date
        /// The audit's detail of the decision (the fields an edit changed…).
        public var detail: String?
    }

    /// The item as it was before a decision: rows, revisions' states and locks, kept with the
    /// decision's audit entry (`NewAuditEntry.undo`).
    struct UndoState: Codable {
        struct RevisionState: Codable {
            var number: Int
            var state: Revision.State
        }

        var status: ItemStatus
        var live: Int?
        var pending: Int?
        var archivedFrom: ItemStatus?
        var rejectReason: String?
        var approvedBy: String?
        var approvedAt: Date?
        var baseHash: String
        var missingRuns: Int
        var revisions: [RevisionState]
        var locks: [FieldLock]
    }

    /// The JSON of `row`'s state now, for the audit entry of the decision about to change it.
    func undoState(_ row: ItemRow) throws -> String? {
        let state = UndoState(
            status: row.status, live: row.liveRevision, pending: row.pendingRevision, archivedFrom: row.archivedFrom, rejectReason: row.rejectReason,
            approvedBy: row.approvedBy, approvedAt: row.approvedAt, baseHash: row.baseHash, missingRuns: row.missingRuns,
            revisions: try repository.revisionStates(of: row).map { UndoState.RevisionState(number: $0.number, state: $0.state) },
            locks: try repository.locks(of: row))
        return try? JSONCoding.compactString(state)
    }

    /// Decisions written before their state was kept, and how they are taken back.
    static let undoableWithoutState: Set<AuditAction> = [.approve, .reject, .archive]

    /// A new batch name: decisions taken together share it.
    public static func newBatch() -> String {
        "b" + String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36) + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// `who`'s decisions `undo` can still take back, newest first (at most `limit`).
    public func undoStack(by who: String, limit: Int = 20) throws -> [UndoCandidate] {
        let entries = try repository.audit(operatorName: who, limit: 5000)
        let undone = Self.undoneKeys(entries)
        var seen = Set<String>(), stack: [UndoCandidate] = []
        for entry in entries where Self.undoable(entry) && !undone.contains(Self.batchKey(entry)) && seen.insert(Self.batchKey(entry)).inserted {
            let group = Self.group(of: entry, in: entries)
            stack.append(
                UndoCandidate(
                    key: Self.batchKey(entry), action: group.last?.action ?? entry.action, itemIDs: Self.ids(group), at: entry.at, detail: group.last?.detail))
            if stack.count >= limit { break }
        }
        return stack
    }

    /// Takes back `who`'s last decision, of any kind: the whole batch when it was part of one
    /// (a bulk approval), else the one decision.
    ///
    /// Each item goes back to the state kept with the decision (content, status, locks); history
    /// only grows (the revisions the decision wrote
    /// stay, superseded). An item decided or changed again since (by anyone, or by an import)
    /// is left alone and reported. The undo is audited, in one batch; returns nothing when `who`
    /// has nothing left to undo.
    public func undo(by who: String) throws -> [Undone] {
        let entries = try repository.audit(operatorName: who, limit: 5000)
        let undone = Self.undoneKeys(entries)
        guard let last = entries.first(where: { Self.undoable($0) && !undone.contains(Self.batchKey($0)) }) else { return [] }
        let key = Self.batchKey(last)
        let group = Self.group(of: last, in: entries)
        let batch = BatchName.undo(of: key).text
        var results: [Undone] = []
        try repository.transaction {
            // Each item's entries of the decision (newest first), grouped once.
            let byItem = Dictionary(grouping: group.filter { $0.itemID != nil }, by: { $0.itemID ?? "" })
            for id in Self.ids(group) {
                let own = byItem[id] ?? []
                guard let first = own.last else { continue }
                if let since = try changedSince(id, after: own, undone: undone) {
                    results.append(Undone(itemID: id, action: first.action, outcome: .decidedSince(since)))
                    continue
                }
                let item = try takeBack(first, id: id, by: who, batch: batch)
                results.append(Undone(itemID: id, action: first.action, outcome: .undone(item.status)))
            }
            // One entry for the undo itself: what it took back, even when every item was
            // decided again since (so the next `undo` goes further back).
            let taken = results.filter { if case .undone = $0.outcome { return true } else { return false } }.count
            try repository.appendAudit(
                NewAuditEntry(
                    at: now, operatorName: who, action: .undo, itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\((group.last ?? last).action) \(key): \(taken) of \(Self.ids(group).count) taken back", batch: batch))
        }
        return results
    }

    /// What was done to the item after `own` (its entries of the decision), by anyone, that the
    /// undo would overwrite: nil when nothing.
    ///
    /// Entries taken back already, and outcomes that follow a decision, do not count.
    func changedSince(_ id: String, after own: [AuditEntry], undone: Set<String>) throws -> String? {
        // An import that only noted the source's new value of a locked field changed nothing
        // the undo puts back (the newer note is kept on the lock).
        guard let newest = own.map(\.id).max() else { return nil }
        let history = try repository.audit(itemID: id, limit: 500)
        // Taken back already, by anyone: those decisions, and the undos that took them back.
        let cancelled = undone.union(Self.undoneKeys(history))
        let later = history.filter { entry in
            entry.id > newest && !(entry.kind?.isOutcome ?? false) && entry.kind != .importLocked && !cancelled.contains(Self.batchKey(entry))
                && !(entry.batch.map(BatchName.init)?.isUndo ?? false)
                && !own.contains { $0.batch != nil && $0.batch == entry.batch }
        }
        return later.last.map { "\($0.action) by \($0.operatorName)" }
    }

    /// Puts the item back as `entry` found it: from the state kept with it, or (for decisions
    /// written before states were kept) by the decision's opposite.
    func takeBack(_ entry: AuditEntry, id: String, by who: String, batch: String) throws -> Item {
        // A state that does not read (written by hand into the store, or too large to be ours)
        // is not used: the decision's opposite is.
        guard let text = entry.undo, text.utf8.count < 4_000_000, let state = try? JSONCoding.decoder().decode(UndoState.self, from: Data(text.utf8)) else {
            switch entry.kind {
            case .approve?: return try revert(id, by: who, batch: batch)
            default: return try restore(id, by: who, batch: batch)
            }
        }
        var row = try repository.requireRow(id)
        (row.status, row.archivedFrom, row.rejectReason) = (state.status, state.archivedFrom, state.rejectReason)
        (row.approvedBy, row.approvedAt, row.baseHash, row.updatedAt) = (state.approvedBy, state.approvedAt, state.baseHash, now)
        // Missing counts are imports' (not audited): only a `keep` is taken back in them.
        if entry.kind == .keep { row.missingRuns = state.missingRuns }
        try restoreRevisions(state, of: &row, by: who)
        try repository.updateRow(row)
        let locks = Dictionary(try repository.locks(of: row).map { ($0.field, $0) }, uniquingKeysWith: { first, _ in first })
        for field in locks.keys where !state.locks.contains(where: { $0.field == field }) { try repository.removeLock(field, from: row) }
        for var lock in state.locks {
            // The source's value an import noted since is the newer one.
            if let now = locks[lock.field] { lock.upstream = now.upstream }
            try repository.putLock(lock, upstreamAt: nil, on: row)
        }
        try audit(who, .undoItem, row, detail: "took back \(entry.action) #\(entry.id)", batch: batch)
        return try repository.item(of: row)
    }

    /// Puts the item's revisions back as `state` had them.
    ///
    /// History only grows and the newest revision is the one an item without a live or pending one
    /// shows, so what the item showed
    /// and what waited come back as new revisions (copies of the ones they were), and what the
    /// decision wrote stays, superseded. Revisions the decision did not touch are left as they are.
    func restoreRevisions(_ state: UndoState, of row: inout ItemRow, by who: String) throws {
        let revisions = try repository.revisionStates(of: row)
        let before: [Int: Revision.State] = Dictionary(state.revisions.map { ($0.number, $0.state) }, uniquingKeysWith: { first, _ in first })
        let untouched = revisions.count == before.count && revisions.allSatisfy { before[$0.number] == $0.state }
        guard !untouched else {
            (row.liveRevision, row.pendingRevision) = (state.live, state.pending)
            return
        }
        let shown = state.live ?? state.pending ?? state.revisions.map(\.number).max()
        let heads = Set([state.live, state.pending, shown].compactMap { $0 })
        for revision in revisions {
            let wanted = heads.contains(revision.number) ? .superseded : before[revision.number] ?? .superseded
            if wanted != revision.state { try repository.setRevisionState(wanted, number: revision.number, of: row, at: now) }
        }
        (row.liveRevision, row.pendingRevision) = (nil, nil)
        let note = "undo: as before the decision"
        if let live = state.live { row.liveRevision = try newRevision(row, .live, try repository.content(of: row, revision: live), by: who, note: note) }
        if let pending = state.pending {
            row.pendingRevision = try newRevision(row, .pending, try repository.content(of: row, revision: pending), by: who, note: note)
        }
        if state.live == nil, state.pending == nil, let shown {
            // Rejected, or archived from review: the revision it showed, in its state, newest again.
            _ = try newRevision(row, before[shown] ?? .superseded, try repository.content(of: row, revision: shown), by: who, note: note)
        }
        if let current = row.liveRevision ?? row.pendingRevision ?? (try? repository.lastRevisionNumber(of: row)) {
            try repository.project(try repository.content(of: row, revision: current), of: row)
        }
    }

    /// Whether `undo` can take an entry back: a decision on an item with its state kept, or
    /// one of the decisions taken back by their opposite.
    static func undoable(_ entry: AuditEntry) -> Bool {
        guard entry.itemID != nil, let kind = entry.kind, !kind.isOutcome, kind != .undoItem else { return false }
        return entry.undo != nil || undoableWithoutState.contains(kind)
    }

    /// The batches (and single entries) taken back already: an undo's batch is `undo:` + what it undid.
    static func undoneKeys(_ entries: [AuditEntry]) -> Set<String> {
        Set(
            entries.compactMap { entry -> String? in
                if case .undo(let key)? = entry.batch.map(BatchName.init) { return key }
                return nil
            })
    }

    /// The entries of the decision `entry` belongs to (its batch, or itself), newest first.
    static func group(of entry: AuditEntry, in entries: [AuditEntry]) -> [AuditEntry] {
        guard let batch = entry.batch else { return [entry] }
        return entries.filter { $0.batch == batch && undoable($0) }
    }

    /// The items of a group, in the order they were decided.
    static func ids(_ group: [AuditEntry]) -> [String] {
        var seen = Set<String>()
        return group.reversed().compactMap(\.itemID).filter { seen.insert($0).inserted }
    }

    static func batchKey(_ entry: AuditEntry) -> String { entry.batch ?? "#\(entry.id)" }
}

/// A batch name as the audit log keeps it.
///
/// A decision's own (`b…`, `#id`), or an undo's, which names the batch it took back
/// (`undo:KEY`). Parsed in one place: code decides by the case.
enum BatchName: Equatable {
    case decision(String)
    case undo(of: String)

    static let undoPrefix = "undo:"

    init(_ text: String) {
        self = text.hasPrefix(Self.undoPrefix) ? .undo(of: String(text.dropFirst(Self.undoPrefix.count))) : .decision(text)
    }

    /// As the audit log keeps it.
    var text: String {
        switch self {
        case .decision(let name): return name
        case .undo(let key): return Self.undoPrefix + key
        }
    }

    var isUndo: Bool {
        if case .undo = self { return true }
        return false
    }
}
