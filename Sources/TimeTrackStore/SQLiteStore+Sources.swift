import Foundation
import TimeTrackCore

extension SQLiteStore: FetchCache {
    public func cachedResponse(for url: String) throws -> CachedResponse? {
        try db.row("SELECT etag, last_modified, content_type, body FROM fetch_cache WHERE url = ? AND body IS NOT NULL", [.text(url)]) { s in
            CachedResponse(etag: s.optionalText(0), lastModified: s.optionalText(1), contentType: s.optionalText(2), body: s.data(3))
        }
    }

    public func saveResponse(_ response: CachedResponse, for url: String) throws {
        try db.transaction {
            try db.run(
                """
                INSERT INTO fetch_cache (url, etag, last_modified, body_hash, fetched_at, content_type, body) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified, body_hash = excluded.body_hash,
                    fetched_at = excluded.fetched_at, content_type = excluded.content_type, body = excluded.body
                """,
                [.text(url), .text(response.etag), .text(response.lastModified), .text(SHA256.hex(response.body)), .date(now()), .text(response.contentType), .blob(response.body)])
        }
    }
}

extension SQLiteStore {
    public func markInterruptedRuns() throws -> Int {
        try db.transaction {
            try db.run(
                "UPDATE import_runs SET status = 'interrupted', finished_at = ?, message = 'the process stopped before the run finished; the next run carries on' WHERE status = 'running'",
                [.date(now())])
        }
    }

    public func sourceState(_ sourceID: String) throws -> SourceState? {
        try db.row(
            "SELECT source_id, last_run_at, last_good_run, last_good_count, last_good_dated, held_reason, held_run FROM source_state WHERE source_id = ?",
            [.text(sourceID)]
        ) { s in
            SourceState(
                sourceID: s.text(0), lastRunAt: s.date(1), lastGoodRun: s.isNull(2) ? nil : s.int64(2), lastGoodCount: s.optionalInt(3),
                lastGoodDated: s.optionalInt(4), heldReason: s.optionalText(5), heldRun: s.isNull(6) ? nil : s.int64(6))
        }
    }

    public func recordGoodRun(sourceID: String, runID: Int64, count: Int, dated: Int) throws {
        try db.transaction {
            try db.run(
                """
                INSERT INTO source_state (source_id, last_good_run, last_good_count, last_good_dated) VALUES (?, ?, ?, ?)
                ON CONFLICT (source_id) DO UPDATE SET last_good_run = excluded.last_good_run, last_good_count = excluded.last_good_count,
                    last_good_dated = excluded.last_good_dated, held_reason = NULL, held_run = NULL
                """,
                [.text(sourceID), .integer(runID), .integer(count), .integer(dated)])
        }
    }

    public func holdSource(sourceID: String, runID: Int64, reason: String) throws {
        try db.transaction {
            try db.run(
                """
                INSERT INTO source_state (source_id, held_reason, held_run) VALUES (?, ?, ?)
                ON CONFLICT (source_id) DO UPDATE SET held_reason = excluded.held_reason, held_run = excluded.held_run
                """,
                [.text(sourceID), .text(reason), .integer(runID)])
        }
    }
}

extension SQLiteStore: PageMemo {
    public func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data? {
        try? db.row(
            "SELECT payload FROM page_memo WHERE source_id = ? AND url = ? AND page_hash = ? AND signature = ?",
            [.text(sourceID), .text(url), .text(pageHash), .text(signature)]
        ) { $0.data(0) }
    }

    public func recallAll(sourceID: String, urlPrefix: String) -> [String: MemoRecord] {
        // The prefix as a range of the primary key (source_id, url): an index range scan.
        let rows =
            (try? db.rows(
                "SELECT url, page_hash, signature, payload FROM page_memo WHERE source_id = ? AND url >= ? AND url < ?",
                [.text(sourceID), .text(urlPrefix), .text(urlPrefix + "\u{10FFFF}")]
            ) { s in (s.text(0), MemoRecord(pageHash: s.text(1), signature: s.text(2), payload: s.data(3))) }) ?? []
        var records: [String: MemoRecord] = [:]
        records.reserveCapacity(rows.count)
        for (url, record) in rows where url.hasPrefix(urlPrefix) { records[String(url.dropFirst(urlPrefix.count))] = record }
        return records
    }

    public func settledHashes(sourceID: String) -> [String: String] {
        let rows =
            (try? db.rows(
                """
                SELECT source_key, base_hash FROM items i WHERE source_id = ? AND source_key IS NOT NULL AND missing_runs = 0
                  AND NOT EXISTS (SELECT 1 FROM field_locks l WHERE l.item_seq = i.seq)
                """, [.text(sourceID)]
            ) { s in (s.text(0), s.text(1)) }) ?? []
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func remember(sourceID: String, entries: [(url: String, pageHash: String, signature: String, payload: Data)]) throws {
        guard !entries.isEmpty else { return }
        try db.transaction {
            for entry in entries {
                try db.run(
                    "INSERT OR REPLACE INTO page_memo (source_id, url, page_hash, signature, payload) VALUES (?, ?, ?, ?, ?)",
                    [.text(sourceID), .text(entry.url), .text(entry.pageHash), .text(entry.signature), .blob(entry.payload)])
            }
        }
    }
}
