import Foundation
import TimeTrackCore

extension Lifecycle {
    /// What `undo` did to one item.
    public struct Undone: Sendable, Equatable {
        public var itemID: String
        /// The decision taken back (`approve`, `reject`, `archive`).
        public var action: String
        /// What happened: the item as it is now, or why it was left alone.
        public var outcome: Outcome

        public enum Outcome: Sendable, Equatable {
            case undone(ItemStatus)
            /// Decided again since (by anyone): left alone; `revert ID --to N` is the way.
            case decidedSince(String)
        }
    }

    /// Decisions `undo` can take back, and the one that does it.
    static let undoable: Set<String> = ["approve", "reject", "archive"]

    /// A new batch name: decisions taken together share it.
    public static func newBatch() -> String {
        "b" + String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36) + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Takes back `who`'s last decision: the whole batch when it was part of one (a bulk
    /// approval), else the one decision. An approval is reverted (the version published before
    /// comes back, or the item goes back to review), a rejection or an archiving is restored.
    /// Items decided again since are left alone and reported. Each undo is audited, all in one
    /// batch; returns nothing when `who` has nothing left to undo.
    public func undo(by who: String) throws -> [Undone] {
        let entries = try repository.audit(operatorName: who, limit: 5000)
        // Batches already taken back (an undo's batch is "undo:" + what it undid).
        let undone = Set(entries.compactMap { $0.batch }.filter { $0.hasPrefix("undo:") }.map { String($0.dropFirst(5)) })
        guard let last = entries.first(where: { Self.undoable.contains($0.action) && !undone.contains(Self.batchKey($0)) }) else { return [] }
        let key = Self.batchKey(last)
        let group = last.batch == nil ? [last] : entries.filter { $0.batch == last.batch && Self.undoable.contains($0.action) }
        let batch = "undo:" + key
        var results: [Undone] = []
        try repository.transaction {
            for entry in group.reversed() {
                guard let id = entry.itemID else { continue }
                // The decision must still be the item's latest one.
                let latest = try repository.audit(itemID: id, limit: 200).first { !$0.action.hasPrefix("import-") && !Self.outcomeActions.contains($0.action) }
                if let latest, latest.id != entry.id {
                    results.append(Undone(itemID: id, action: entry.action, outcome: .decidedSince("\(latest.action) by \(latest.operatorName)")))
                    continue
                }
                let item: Item
                switch entry.action {
                case "approve": item = try revert(id, by: who, batch: batch)
                default: item = try restore(id, by: who, batch: batch)
                }
                results.append(Undone(itemID: id, action: entry.action, outcome: .undone(item.status)))
            }
            // One entry for the undo itself: what it took back, even when every item was
            // decided again since (so the next `undo` goes further back).
            let taken = results.filter { if case .undone = $0.outcome { return true } else { return false } }.count
            try repository.appendAudit(
                NewAuditEntry(
                    at: now, operatorName: who, action: "undo", itemSeq: nil, itemID: nil, reason: nil,
                    detail: "\(last.action) \(key): \(taken) of \(group.count) taken back", batch: batch))
        }
        return results
    }

    static func batchKey(_ entry: AuditEntry) -> String { entry.batch ?? "#\(entry.id)" }
}
