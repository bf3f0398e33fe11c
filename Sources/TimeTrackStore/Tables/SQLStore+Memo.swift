import Foundation
import TimeTrackCore

/// The HTTP cache (validators and bodies) and the page memo, on either engine.
extension SQLStore {
    /// Memo rows written by one statement (6 values each, within SQLite's and PostgreSQL's limits).
    static var memoRowsPerStatement: Int { 100 }

    public func cachedResponse(for url: String) throws -> CachedResponse? {
        try sql.first("SELECT etag, last_modified, content_type, body FROM fetch_cache WHERE url = ? AND body IS NOT NULL", [.text(url)]) { s in
            CachedResponse(etag: s.optionalText(0), lastModified: s.optionalText(1), contentType: s.optionalText(2), body: s.data(3))
        }
    }

    public func saveResponse(_ response: CachedResponse, for url: String) throws {
        try sql.transaction {
            try sql.run(
                """
                INSERT INTO fetch_cache (url, etag, last_modified, body_hash, fetched_at, content_type, body) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified, body_hash = excluded.body_hash,
                    fetched_at = excluded.fetched_at, content_type = excluded.content_type, body = excluded.body
                """,
                [
                    .text(url), .text(response.etag), .text(response.lastModified), .text(SHA256.hex(response.body)), .date(now()), .text(response.contentType),
                    .blob(response.body),
                ])
        }
    }

    public func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data? {
        try? sql.first(
            "SELECT payload FROM page_memo WHERE source_id = ? AND url = ? AND page_hash = ? AND signature = ?",
            [.text(sourceID), .text(url), .text(pageHash), .text(signature)]
        ) { $0.data(0) }
    }

    public func rememberedPages(sourceID: String) -> [String: MemoRecord] {
        let rows =
            (try? sql.select("SELECT url, page_hash, signature, payload, stamp FROM page_memo WHERE source_id = ?", [.text(sourceID)]) { s in
                (s.text(0), MemoRecord(pageHash: s.text(1), signature: s.text(2), payload: s.data(3), stamp: s.optionalText(4)))
            }) ?? []
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func rememberedItems(sourceID: String, signature: String) -> [String: RememberedItem] {
        let rows =
            (try? sql.select(
                """
                SELECT i.source_key, m.digest, m.payload,
                    CASE WHEN i.missing_runs = 0 AND NOT EXISTS (SELECT 1 FROM field_locks l WHERE l.item_seq = i.seq) THEN i.base_hash END
                FROM items i JOIN item_memo m ON m.item_seq = i.seq
                WHERE i.source_id = ? AND i.source_key IS NOT NULL AND m.signature = ?
                """, [.text(sourceID), .text(signature)]
            ) { s in (s.text(0), RememberedItem(digest: s.text(1), payload: s.textBytes(2), storedHash: s.optionalText(3))) }) ?? []
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Pages go to `page_memo`; item entries (`item:` URLs) to `item_memo`, by the number of
    /// the item with that key (an entry for an item not in the store is dropped: it could never
    /// settle one).
    public func remember(sourceID: String, entries: [MemoEntry]) throws {
        guard !entries.isEmpty else { return }
        // Many rows a statement (a round trip each on a server); a URL remembered twice keeps its last.
        var latest: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { latest[entry.url] = index }
        let unique = entries.indices.filter { latest[entries[$0].url] == $0 }.map { entries[$0] }
        // As bytes: a key may start with a combining mark, which joins the prefix's last character.
        func isItem(_ entry: MemoEntry) -> Bool { entry.url.utf8.starts(with: ItemMemoKeys.prefix.utf8) }
        let items = unique.filter(isItem)
        let pages = unique.filter { !isItem($0) }
        try sql.transaction {
            for start in stride(from: 0, to: pages.count, by: Self.memoRowsPerStatement) {
                let chunk = pages[start..<min(start + Self.memoRowsPerStatement, pages.count)]
                try sql.run(
                    """
                    INSERT INTO page_memo (source_id, url, page_hash, signature, payload, stamp) VALUES\
                     \(Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))
                    ON CONFLICT (source_id, url) DO UPDATE SET page_hash = excluded.page_hash, signature = excluded.signature, payload = excluded.payload,
                        stamp = excluded.stamp
                    """,
                    chunk.flatMap { [.text(sourceID), .text($0.url), .text($0.pageHash), .text($0.signature), .blob($0.payload), .text($0.stamp)] })
            }
            for start in stride(from: 0, to: items.count, by: Self.memoRowsPerStatement) {
                let chunk = items[start..<min(start + Self.memoRowsPerStatement, items.count)]
                // VALUES columns are column1… on both engines; `WHERE true` keeps SQLite from
                // reading ON CONFLICT as the join's ON.
                try sql.run(
                    """
                    INSERT INTO item_memo (item_seq, signature, digest, payload)
                    SELECT i.seq, v.column2, v.column3, v.column4
                    FROM (VALUES \(Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))) AS v
                    JOIN items i ON i.source_id = ? AND i.source_key = v.column1
                    WHERE true
                    ON CONFLICT (item_seq) DO UPDATE SET signature = excluded.signature, digest = excluded.digest, payload = excluded.payload
                    """,
                    chunk.flatMap { entry -> [SQLValue] in
                        [
                            .text(String(decoding: entry.url.utf8.dropFirst(ItemMemoKeys.prefix.utf8.count), as: UTF8.self)), .text(entry.signature),
                            .text(entry.pageHash), .text(String(decoding: entry.payload, as: UTF8.self)),
                        ]
                    } + [.text(sourceID)])
            }
        }
    }
}
