import Foundation
import TimeTrackCore

extension SQLiteStore {
    // MARK: Building blocks (call inside a transaction)

    func writeAudit(_ operatorName: String, _ action: String, seq: Int64?, id: String?, reason: String? = nil, detail: String? = nil) throws {
        try db.run(
            "INSERT INTO audit (at, operator, action, item_seq, item_id, reason, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.date(now()), .text(operatorName), .text(action), seq.map { .integer($0) } ?? .null, .text(id), .text(reason), .text(detail)])
    }

    func addRevision(seq: Int64, number: Int, state: Revision.State, content: ItemContent, by operatorName: String, runID: Int64? = nil, note: String? = nil, canonical known: (json: String, hash: String)? = nil) throws {
        let canonical = known ?? content.canonicalForm
        try db.run(
            "INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by, run_id, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [.integer(seq), .integer(number), .text(state.rawValue), .text(canonical.json), .text(canonical.hash),
             .date(now()), .text(operatorName), runID.map { .integer($0) } ?? .null, .text(note)])
    }

    func setRevisionState(seq: Int64, number: Int?, _ state: Revision.State) throws {
        guard let number else { return }
        try db.run("UPDATE revisions SET state = ? WHERE item_seq = ? AND number = ?", [.text(state.rawValue), .integer(seq), .integer(number)])
    }

    func nextRevisionNumber(seq: Int64) throws -> Int {
        (try db.optionalInt("SELECT max(number) FROM revisions WHERE item_seq = ?", [.integer(seq)]) ?? 0) + 1
    }

    /// Rewrites the item's typed row, title and sort date from the content the app (or review) sees.
    func project(seq: Int64, _ content: ItemContent) throws {
        try Projection(content).write(itemSeq: seq, in: db)
        try db.run("UPDATE items SET title = ?, sort_at = ? WHERE seq = ?", [.text(String(content.title.prefix(300))), .date(content.sortDate), .integer(seq)])
    }

    /// Inserts a new pending item with revision 1; returns its sequence number and id.
    func insertItem(_ content: ItemContent, school: String?, sourceKey: String?, provenance: Provenance?, by operatorName: String, runID: Int64?, note: String?, canonical known: (json: String, hash: String)? = nil) throws -> (Int64, String) {
        let at = now()
        let canonical = known ?? content.canonicalForm
        // One write of the items row: the next sequence number is read inside this write
        // transaction (no other writer can take it), so the id, title and sort date go in at once.
        let seq = Int64(try db.optionalInt("SELECT max(seq) FROM items") ?? 0) + 1
        let id = content.kind.idPrefix + String(seq)
        try db.run(
            """
            INSERT INTO items (seq, id, kind, status, school, title, sort_at, source_id, source_key, source_url, fetched_at, page_hash, importer,
                               importer_version, pending_revision, base_hash, created_at, updated_at)
            VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
            """,
            [.integer(seq), .text(id), .text(content.kind.rawValue), .text(school), .text(String(content.title.prefix(300))), .date(content.sortDate),
             .text(provenance?.sourceID), .text(sourceKey), .text(provenance?.sourceURL),
             .date(provenance?.fetchedAt), .text(provenance?.pageHash), .text(provenance?.importer), .text(provenance?.importerVersion),
             .text(canonical.hash), .date(at), .date(at)])
        try addRevision(seq: seq, number: 1, state: .pending, content: content, by: operatorName, runID: runID, note: note, canonical: canonical)
        try Projection(content).write(itemSeq: seq, in: db)
        return (seq, id)
    }

    func illegal(_ row: ItemRow, _ action: String, _ why: String, fix: String? = nil) -> TimeTrackError {
        TimeTrackError(.illegalTransition, "cannot \(action) \(row.id): \(why)", fix: fix, context: ["item": row.id])
    }

    // MARK: Decisions

    public func submit(_ submitted: ItemContent, school: String?, by operatorName: String, note: String?) throws -> Item {
        let content = try submitted.validated()
        let id = try db.transaction { () throws -> String in
            let (seq, id) = try insertItem(content, school: school, sourceKey: nil, provenance: nil, by: operatorName, runID: nil, note: note)
            try writeAudit(operatorName, "submit", seq: seq, id: id, reason: note)
            return id
        }
        return try item(id)
    }

    public func approve(_ id: String, by operatorName: String) throws -> Item {
        try db.transaction {
            let row = try requireRow(id)
            switch row.status {
            case .archived: throw illegal(row, "approve", "it is archived", fix: "`restore \(row.id)` first")
            case .rejected: throw illegal(row, "approve", "it was rejected", fix: "`restore \(row.id)` puts it back in review")
            case .pending, .published: break
            }
            guard let pending = row.pendingRevision else {
                throw illegal(row, "approve", "it is already published and has no pending change")
            }
            let content = try content(of: row, revision: pending)
            try setRevisionState(seq: row.seq, number: row.liveRevision, .superseded)
            try setRevisionState(seq: row.seq, number: pending, .live)
            try project(seq: row.seq, content)
            let at = now()
            try db.run(
                "UPDATE items SET status = 'published', live_revision = ?, pending_revision = NULL, base_hash = ?, approved_by = ?, approved_at = ?, reject_reason = NULL, updated_at = ? WHERE seq = ?",
                [.integer(pending), .text(content.contentHash), .text(operatorName), .date(at), .date(at), .integer(row.seq)])
            try writeAudit(operatorName, "approve", seq: row.seq, id: row.id, detail: "revision \(pending)")
        }
        return try item(id)
    }

    public func reject(_ id: String, reason: String, by operatorName: String) throws -> Item {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        try db.transaction {
            let row = try requireRow(id)
            guard !reason.isEmpty else {
                throw TimeTrackError(.usage, "a rejection needs a reason", fix: "reject \(row.id) --reason \"why\"", context: ["item": row.id])
            }
            switch row.status {
            case .archived: throw illegal(row, "reject", "it is archived")
            case .rejected: throw illegal(row, "reject", "it is already rejected")
            case .pending, .published: break
            }
            guard let pending = row.pendingRevision else {
                throw illegal(row, "reject", "it has nothing pending; it is published", fix: "`archive \(row.id)` takes it out of the app")
            }
            try setRevisionState(seq: row.seq, number: pending, .rejected)
            if let live = row.liveRevision {
                // A refused change: the published version stays live.
                let content = try content(of: row, revision: live)
                try db.run(
                    "UPDATE items SET pending_revision = NULL, base_hash = ?, updated_at = ? WHERE seq = ?",
                    [.text(content.contentHash), .date(now()), .integer(row.seq)])
            } else {
                try db.run(
                    "UPDATE items SET status = 'rejected', pending_revision = NULL, reject_reason = ?, updated_at = ? WHERE seq = ?",
                    [.text(reason), .date(now()), .integer(row.seq)])
            }
            try writeAudit(operatorName, "reject", seq: row.seq, id: row.id, reason: reason, detail: "revision \(pending)")
        }
        return try item(id)
    }

    /// An operator's change of content as one revision: in review it replaces the pending
    /// revision; on a published item it is itself the decision and goes live (`edit`, `amend`,
    /// `unlock`).
    private func writeOperatorRevision(of row: ItemRow, _ content: ItemContent, by operatorName: String, note: String?, at: Date) throws {
        let number = try nextRevisionNumber(seq: row.seq)
        if let pending = row.pendingRevision {
            try setRevisionState(seq: row.seq, number: pending, .superseded)
            try addRevision(seq: row.seq, number: number, state: .pending, content: content, by: operatorName, note: note)
            if row.liveRevision == nil { try project(seq: row.seq, content) }
            try db.run("UPDATE items SET pending_revision = ?, base_hash = ?, updated_at = ? WHERE seq = ?", [.integer(number), .text(content.contentHash), .date(at), .integer(row.seq)])
        } else {
            try setRevisionState(seq: row.seq, number: row.liveRevision, .superseded)
            try addRevision(seq: row.seq, number: number, state: .live, content: content, by: operatorName, note: note)
            try project(seq: row.seq, content)
            try db.run("UPDATE items SET live_revision = ?, base_hash = ?, updated_at = ? WHERE seq = ?", [.integer(number), .text(content.contentHash), .date(at), .integer(row.seq)])
        }
    }

    public func unlock(_ id: String, fields: [String], by operatorName: String) throws -> Item {
        guard !fields.isEmpty else { throw TimeTrackError(.usage, "name the fields to unlock", fix: "unlock \(id) FIELD...", context: ["item": id]) }
        try db.transaction {
            let row = try requireRow(id)
            let locks = try lockStates(of: row.seq)
            var upstream: [String: JSONValue] = [:]
            for field in fields {
                guard let lock = locks.first(where: { $0.field == field }) else {
                    throw TimeTrackError(
                        .usage, "\(field) of \(row.id) is not locked",
                        fix: locks.isEmpty ? "\(row.id) has no locked fields" : "locked: " + locks.map(\.field).joined(separator: ", "), context: ["item": row.id, "field": field])
                }
                if let value = lock.upstream { upstream[field] = value }
                try db.run("DELETE FROM field_locks WHERE item_seq = ? AND field = ?", [.integer(row.seq), .text(field)])
            }
            if !upstream.isEmpty, let baseNumber = row.baseRevision, row.status == .pending || row.status == .published {
                // The source's value comes back as the operator's decision, in one revision.
                let base = try content(of: row, revision: baseNumber)
                var values = base.fields()
                for (field, value) in upstream { values[field] = value }
                let unlocked = try ItemContent.decode(kind: row.kind, fields: values).validated(context: ["item": row.id])
                let note = "unlocked " + fields.joined(separator: ", ") + ": the source's value is back"
                try writeOperatorRevision(of: row, unlocked, by: operatorName, note: note, at: now())
            }
            try writeAudit(operatorName, "unlock", seq: row.seq, id: row.id, detail: fields.joined(separator: ","))
        }
        return try item(id)
    }

    public func edit(_ id: String, changes: [String: JSONValue], by operatorName: String, reason: String?) throws -> Item {
        guard !changes.isEmpty else {
            throw TimeTrackError(.usage, "nothing to change", fix: "edit \(id) FIELD=VALUE...", context: ["item": id])
        }
        try db.transaction {
            let row = try requireRow(id)
            switch row.status {
            case .archived: throw illegal(row, "edit", "it is archived (read-only)", fix: "`restore \(row.id)` first")
            case .rejected: throw illegal(row, "edit", "it was rejected", fix: "`restore \(row.id)` first")
            case .pending, .published: break
            }
            guard let baseNumber = row.baseRevision else { throw illegal(row, "edit", "it has no content") }
            let base = try content(of: row, revision: baseNumber)
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
            let at = now()
            try writeOperatorRevision(of: row, edited, by: operatorName, note: reason, at: at)
            for change in changed {
                // A new lock remembers what the source said (the value the edit replaced), so the
                // next import of the same upstream value is no news; a lock already there keeps
                // the upstream value it recorded.
                let previous = row.sourceID != nil ? (try? JSONCoding.compactString(change.old)) : nil
                try db.run(
                    """
                    INSERT INTO field_locks (item_seq, field, locked_by, locked_at, upstream) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (item_seq, field) DO UPDATE SET locked_by = excluded.locked_by, locked_at = excluded.locked_at
                    """,
                    [.integer(row.seq), .text(change.field), .text(operatorName), .date(at), .text(previous)])
            }
            try writeAudit(operatorName, "edit", seq: row.seq, id: row.id, reason: reason, detail: changed.map(\.field).joined(separator: ","))
        }
        return try item(id)
    }

    public func amend(_ id: String, action: String, by operatorName: String, note: String?, _ change: (ItemContent) throws -> ItemContent) throws -> Item {
        try db.transaction {
            let row = try requireRow(id)
            guard row.status == .pending || row.status == .published else {
                throw illegal(row, action, "it is \(row.status.rawValue)", fix: "`restore \(row.id)` first")
            }
            guard let baseNumber = row.baseRevision else { throw illegal(row, action, "it has no content") }
            let base = try content(of: row, revision: baseNumber)
            let changed = try change(base).validated(context: ["item": row.id])
            guard changed.kind == row.kind else { throw illegal(row, action, "the change would turn it into another kind") }
            try writeOperatorRevision(of: row, changed, by: operatorName, note: note, at: now())
            try writeAudit(operatorName, action, seq: row.seq, id: row.id, reason: note)
        }
        return try item(id)
    }

    public func keep(_ id: String, by operatorName: String) throws -> Item {
        try db.transaction {
            let row = try requireRow(id)
            guard row.missingRuns > 0 else { throw illegal(row, "keep", "it is not missing from its source") }
            try db.run("UPDATE items SET missing_runs = 0, updated_at = ? WHERE seq = ?", [.date(now()), .integer(row.seq)])
            try writeAudit(operatorName, "keep", seq: row.seq, id: row.id, detail: "missing for \(row.missingRuns) runs")
        }
        return try item(id)
    }

    public func archive(_ id: String, by operatorName: String, reason: String?) throws -> Item {
        try db.transaction {
            let row = try requireRow(id)
            guard row.status != .archived else { throw illegal(row, "archive", "it is already archived") }
            try db.run(
                "UPDATE items SET status = 'archived', archived_from = ?, updated_at = ? WHERE seq = ?",
                [.text(row.status.rawValue), .date(now()), .integer(row.seq)])
            try writeAudit(operatorName, "archive", seq: row.seq, id: row.id, reason: reason, detail: "was \(row.status.rawValue)")
        }
        return try item(id)
    }

    public func restore(_ id: String, by operatorName: String) throws -> Item {
        try db.transaction {
            let row = try requireRow(id)
            switch row.status {
            case .archived:
                let back = row.archivedFrom ?? (row.liveRevision != nil ? .published : .pending)
                try db.run(
                    "UPDATE items SET status = ?, archived_from = NULL, missing_runs = 0, updated_at = ? WHERE seq = ?",
                    [.text(back.rawValue), .date(now()), .integer(row.seq)])
                try writeAudit(operatorName, "restore", seq: row.seq, id: row.id, detail: "to \(back.rawValue)")
            case .rejected:
                // Back into review: the rejected revision becomes pending again.
                let number = try db.optionalInt("SELECT max(number) FROM revisions WHERE item_seq = ? AND state = 'rejected'", [.integer(row.seq)])
                try setRevisionState(seq: row.seq, number: number, .pending)
                try db.run(
                    "UPDATE items SET status = 'pending', pending_revision = ?, reject_reason = NULL, updated_at = ? WHERE seq = ?",
                    [.integer(number), .date(now()), .integer(row.seq)])
                try writeAudit(operatorName, "restore", seq: row.seq, id: row.id, detail: "to pending")
            case .pending, .published:
                throw illegal(row, "restore", "it is \(row.status.rawValue), not archived or rejected")
            }
        }
        return try item(id)
    }
}
