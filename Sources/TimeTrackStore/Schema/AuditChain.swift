import Foundation
import TimeTrackCore

/// The audit log as a hash chain: each entry holds the hash of the one before it (`prev_hash`)
/// and its own (`hash`: SHA-256 of the previous hash and the entry's canonical JSON, its id
/// included).
///
/// Editing an entry breaks its own hash; deleting or reordering entries breaks the
/// next entry's link. Triggers refuse UPDATE and DELETE on audit rows, so only someone who
/// drops them can tamper, and `audit verify` then names the first entry that does not hold.
enum AuditChain {
    /// The columns hashed, as stored.
    struct Fields {
        var id: Int64
        var at: String
        var operatorName: String
        var action: String
        var itemSeq: Int64?
        var itemID: String?
        var reason: String?
        var detail: String?
        var batch: String?
    }

    /// SHA-256 (hex) of the entry's canonical JSON with `previous` as `prev`: keys sorted, no
    /// spaces, nulls kept, integers as digits, strings with `"`, `\` and control characters
    /// escaped (`\"`, `\\`, `\u00XX`) and nothing else.
    ///
    /// Written out by hand: every import appends an entry per item, and this is on that path.
    static func hash(_ fields: Fields, previous: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256 + (fields.detail?.utf8.count ?? 0) + (fields.reason?.utf8.count ?? 0))
        var first = true
        func key(_ name: StaticString) {
            out.append(contentsOf: first ? [UInt8(ascii: "{"), UInt8(ascii: "\"")] : [UInt8(ascii: ","), UInt8(ascii: "\"")])
            first = false
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func string(_ value: String?) {
            guard let value else {
                out.append(contentsOf: "null".utf8)
                return
            }
            JSONStringBytes.append(value, to: &out, shortEscapes: false)
        }
        func number(_ value: Int64?) { out.append(contentsOf: (value.map(String.init) ?? "null").utf8) }
        key("action"); string(fields.action)
        key("at"); string(fields.at)
        key("batch"); string(fields.batch)
        key("detail"); string(fields.detail)
        key("id"); number(fields.id)
        key("item_id"); string(fields.itemID)
        key("item_seq"); number(fields.itemSeq)
        key("operator"); string(fields.operatorName)
        key("prev"); string(previous)
        key("reason"); string(fields.reason)
        out.append(UInt8(ascii: "}"))
        return SHA256.hex(out)
    }

    /// SQL that makes the log append-only.
    static var triggers: String { triggerStatements.map { $0 + ";" }.joined(separator: "\n") }

    /// The triggers, one statement each.
    static let triggerStatements = [
        """
        CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never changed'); END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries are never deleted'); END
        """,
    ]

    /// The SQLite triggers `triggers` makes.
    static let sqliteGuards = ["audit_no_delete", "audit_no_update"]

    /// The batch prefix of an operator change: the operators table's digest after it follows.
    static let operatorsBatch = "operators:"

    /// Why the log does not hold what `anchor` saw, or nil: fewer entries (truncated or
    /// emptied), the anchored entry gone or changed (rewritten and chained again), or entries
    /// before it deleted or added.
    static func problem(_ rows: [(Fields, prev: String?, hash: String?)], against anchor: AuditAnchor) -> String? {
        let when = ISO8601DateFormatter().string(from: anchor.at)
        if rows.count < anchor.entries {
            return rows.isEmpty
                ? "the log is empty, but \(anchor.entries) entries were anchored at \(when): it was emptied"
                : "the log has \(rows.count) entries, fewer than the \(anchor.entries) anchored at \(when): entries were deleted (the log was cut short)"
        }
        guard anchor.entries > 0 else { return nil }
        guard let anchored = rows.first(where: { $0.0.id == anchor.lastID }) else {
            return "entry \(anchor.lastID), the last one anchored at \(when), is gone: entries were deleted and the log renumbered"
        }
        guard anchored.hash == anchor.head else {
            return "entry \(anchor.lastID) is not the one anchored at \(when): the log was rewritten and chained again"
        }
        let upTo = rows.prefix { $0.0.id <= anchor.lastID }.count
        guard upTo == anchor.entries else {
            return "the log holds \(upTo) entries up to entry \(anchor.lastID), the anchor of \(when) says \(anchor.entries)"
        }
        return nil
    }

    static let selectAll = "SELECT id, at, operator, action, item_seq, item_id, reason, detail, batch, prev_hash, hash FROM audit ORDER BY id"

    static func fields(_ s: any SQLRow) -> (Fields, prev: String?, hash: String?) {
        (
            Fields(
                id: s.int64(0), at: s.text(1), operatorName: s.text(2), action: s.text(3), itemSeq: s.isNull(4) ? nil : s.int64(4), itemID: s.optionalText(5),
                reason: s.optionalText(6), detail: s.optionalText(7), batch: s.optionalText(8)),
            s.optionalText(9), s.optionalText(10)
        )
    }

    /// Walks a chain's entries in id order: the first entry that does not hold, and why (either
    /// engine's rows).
    static func verify(_ rows: [(Fields, prev: String?, hash: String?)]) -> AuditVerification {
        var previous = "", previousID: Int64?
        var broken: (Int64, String)?
        for (entry, prev, hash) in rows {
            guard broken == nil else { break }
            let label = "entry \(entry.id) (\(entry.action)\(entry.itemID.map { " " + $0 } ?? "") by \(entry.operatorName) at \(entry.at))"
            if prev != previous {
                broken = (
                    entry.id,
                    "\(label) does not follow " + (previousID.map { "entry \($0)" } ?? "the start of the log") + ": entries before it were deleted or reordered"
                )
            } else if hash != AuditChain.hash(entry, previous: previous) {
                broken = (entry.id, "\(label) was changed after it was written")
            }
            previous = hash ?? ""
            previousID = entry.id
        }
        var result = AuditVerification(entries: rows.count, brokenEntry: broken?.0, problem: broken?.1)
        result.lastID = rows.last?.0.id
        result.lastHash = rows.last?.hash
        return result
    }

    /// Chains the entries written before the chain existed (migration 7), then adds the triggers.
    static func backfill(_ db: Database) throws {
        let rows = try db.rows(selectAll, [], fields)
        var previous = ""
        for (entry, _, _) in rows {
            let hash = hash(entry, previous: previous)
            try db.run("UPDATE audit SET prev_hash = ?, hash = ? WHERE id = ?", [.text(previous), .text(hash), .integer(entry.id)])
            previous = hash
        }
        try db.execute(triggers)
    }
}
