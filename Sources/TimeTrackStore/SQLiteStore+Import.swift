import Foundation
import TimeTrackCore

extension SQLiteStore {
    public func batch<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(body)
    }

    public func recordImported(_ record: ImportedRecord, runID: Int64?, by operatorName: String) throws -> ImportOutcome {
        let prepared = try record.prepared ?? PreparedContent(record.content, context: ["source": record.provenance.sourceID])
        let upstream = prepared.content
        let canonical = (json: prepared.json, hash: prepared.hash)
        let sourceID = record.provenance.sourceID
        let lookup = "SELECT \(SQLiteStore.itemColumns) FROM items WHERE source_id = ? AND source_key = ?"
        // Fast path, outside any write lock: the same content as last time writes nothing.
        if let row = try db.row(lookup, [.text(sourceID), .text(record.key)], itemRow), row.missingRuns == 0 {
            let locked = try locks(of: row.seq)
            if locked.isEmpty && row.baseHash == canonical.hash {
                return row.status == .rejected || row.status == .archived ? .skipped(id: row.id, reason: "it is \(row.status.rawValue)") : .unchanged(id: row.id)
            }
        }
        return try db.transaction { () throws -> ImportOutcome in
            guard let row = try db.row(lookup, [.text(sourceID), .text(record.key)], itemRow) else {
                let (seq, id) = try insertItem(
                    upstream, school: record.school, sourceKey: record.key, provenance: record.provenance, by: "import:\(sourceID)", runID: runID, note: nil,
                    canonical: canonical)
                try writeAudit(operatorName, "import-new", seq: seq, id: id, detail: "source \(sourceID)")
                return .new(id: id)
            }
            if row.missingRuns > 0 {
                try db.run("UPDATE items SET missing_runs = 0 WHERE seq = ?", [.integer(row.seq)])
            }
            if row.status == .rejected || row.status == .archived {
                return .skipped(id: row.id, reason: "it is \(row.status.rawValue)")
            }
            guard let baseNumber = row.baseRevision else { return .unchanged(id: row.id) }
            let base = try content(of: row, revision: baseNumber)
            // Locked fields keep the operator's value. When the source says something else, its
            // value is recorded on the lock once (shown by `show` and `review`, taken back by
            // `unlock`); it makes no revision by itself, so a lock settles instead of churning.
            let locked = try lockStates(of: row.seq)
            var merged = upstream
            var conflicts: [String] = []
            if !locked.isEmpty {
                var fields = upstream.fields()
                let baseFields = base.fields()
                for lock in locked {
                    let upstreamValue = fields[lock.field] ?? .null
                    let keptValue = baseFields[lock.field] ?? .null
                    let differs = upstreamValue != keptValue
                    if differs && lock.upstream != upstreamValue {
                        conflicts.append(lock.field)
                        let json = (try? JSONCoding.compactString(upstreamValue)) ?? "null"
                        try db.run("UPDATE field_locks SET upstream = ?, upstream_at = ? WHERE item_seq = ? AND field = ?",
                                   [.text(json), .date(now()), .integer(row.seq), .text(lock.field)])
                        try writeAudit(operatorName, "import-locked", seq: row.seq, id: row.id, reason: "the source changed a locked field; the edited value stays",
                                       detail: lock.field)
                    } else if !differs && lock.upstream != nil {
                        try db.run("UPDATE field_locks SET upstream = NULL, upstream_at = NULL WHERE item_seq = ? AND field = ?", [.integer(row.seq), .text(lock.field)])
                    }
                    fields[lock.field] = keptValue
                }
                merged = try ItemContent.decode(kind: row.kind, fields: fields)
            }
            if merged.contentHash == row.baseHash {
                return .unchanged(id: row.id)
            }
            let changes = ItemContent.changedFields(from: base, to: merged)
            let number = try nextRevisionNumber(seq: row.seq)
            let note = conflicts.isEmpty ? nil : "upstream changed locked field(s): " + conflicts.joined(separator: ", ") + " (kept the edited value)"
            try setRevisionState(seq: row.seq, number: row.pendingRevision, .superseded)
            try addRevision(seq: row.seq, number: number, state: .pending, content: merged, by: "import:\(sourceID)", runID: runID, note: note)
            if row.liveRevision == nil { try project(seq: row.seq, merged) }
            let p = record.provenance
            try db.run(
                """
                UPDATE items SET pending_revision = ?, base_hash = ?, source_url = ?, fetched_at = ?, page_hash = ?, importer = ?,
                    importer_version = ?, updated_at = ? WHERE seq = ?
                """,
                [.integer(number), .text(merged.contentHash), .text(p.sourceURL), .date(p.fetchedAt), .text(p.pageHash), .text(p.importer),
                 .text(p.importerVersion), .date(now()), .integer(row.seq)])
            try writeAudit(operatorName, "import-change", seq: row.seq, id: row.id, reason: note, detail: changes.map(\.field).joined(separator: ","))
            return .changed(id: row.id, changes: changes, conflicts: conflicts)
        }
    }

    public func recordMissing(sourceID: String, seenKeys: Set<String>, runID: Int64?) throws -> [String] {
        try db.transaction {
            let rows = try db.rows(
                "SELECT seq, id, source_key, missing_runs FROM items WHERE source_id = ? AND status IN ('pending', 'published')",
                [.text(sourceID)]) { ($0.int64(0), $0.text(1), $0.text(2), $0.int(3)) }
            var missing: [String] = []
            for (seq, id, key, runs) in rows {
                if seenKeys.contains(key) {
                    if runs > 0 { try db.run("UPDATE items SET missing_runs = 0 WHERE seq = ?", [.integer(seq)]) }
                } else {
                    try db.run("UPDATE items SET missing_runs = missing_runs + 1 WHERE seq = ?", [.integer(seq)])
                    missing.append(id)
                }
            }
            return missing
        }
    }
}
