import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

@testable import TimeTrackImport
@testable import TimeTrackStore

/// A source whose every page is unchanged (by its file's stamp) and every item settled is known
/// unchanged from one memo row, without its pages' memos; anything else reads it as usual.
@Suite struct SourceMemoTests {
    @Test func encodedAndDecodedWithSharedPrefixes() throws {
        let memo = SourceMemo(
            firstURL: "file:///imports/news.html",
            stamped: [
                ("file:///imports/news.html", "1:2:3:4:5"), ("https://school.example/news/caf\u{E9}.html", "1:3:3:4:5"),
                ("https://school.example/news/cafe\u{301}.html", "1:4:3:4:5"), ("https://school.example/news/🎒-day.html", "1:5:3:4:5"),
            ],
            items: [
                SourceMemo.Item(key: "https://school.example/news/caf\u{E9}.html", digest: String(repeating: "a", count: 64), location: "page 1 item 1"),
                SourceMemo.Item(key: "https://school.example/news/cafe\u{301}.html", digest: String(repeating: "b", count: 64), location: "page 1 item 2"),
                SourceMemo.Item(key: "", digest: "c", location: "page 2 item 1"),
            ], duplicatesMerged: 2)
        let data = memo.encoded
        #expect(SourceMemo(data) == memo)
        // A news source: shared prefixes are not repeated, lengths take a byte.
        let urls = (1...100).map { "https://school.example/news/2026/article-\($0).html" }
        let news = SourceMemo(
            firstURL: urls[0], stamped: urls.map { ($0, "2049:\($0.utf8.count):11000:1790000000000000000:1790000000000000000") },
            items: urls.map { SourceMemo.Item(key: $0, digest: SHA256.hex($0), location: "page 1 item 1") }, duplicatesMerged: 0)
        let bytes = news.encoded
        #expect(SourceMemo(bytes) == news)
        #expect(bytes.count < 100 * (64 + 13 + 2 * 12 + 5), "\(bytes.count) bytes")
        #expect(news.pages.map(\.check) == urls.map { SourceMemo.check("2049:\($0.utf8.count):11000:1790000000000000000:1790000000000000000") })
        // An empty entry (the last reading was not clean), a cut one, another version: nothing.
        #expect(SourceMemo(Data()) == nil)
        #expect(SourceMemo(data.prefix(data.count - 3)) == nil)
        var other = data
        other[other.startIndex] = 2
        #expect(SourceMemo(other) == nil)
    }

    @Test func anUnchangedSourceIsKnownFromOneRowAndAnythingElseIsRead() throws {
        let dir = try TemporaryDirectory("source-memo")
        defer { dir.remove() }
        let (source, pipeline) = try FileStampTests.newsSite(in: dir)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        func run() throws -> SourceRunSummary { try pipeline.importSource(source, into: store, by: "test") }
        func sourceRow() throws -> Data? { try store.db.row("SELECT payload FROM page_memo WHERE url = 'source:'") { $0.data(0) } }
        func pageRows() throws -> Int { try store.db.row("SELECT count(*) FROM page_memo WHERE url <> 'source:'") { $0.int(0) } ?? -1 }

        // Files written a moment ago may still be changing: no stamps, so no source memo.
        let first = try run()
        #expect(first.run?.new == 3)
        #expect(try sourceRow() == Data())
        // Settled files, read again and found the same: the whole reading is remembered.
        Thread.sleep(forTimeInterval: FileStamp.settle + 0.2)
        let second = try run()
        #expect(second.run?.unchanged == 3 && second.result.settled.count == 3)
        let saved = try #require(try sourceRow().flatMap(SourceMemo.init))
        #expect(saved.pages.count == 4 && saved.items.map(\.key) == (1...3).map { "https://school.example/news/\($0).html" })

        // Nothing changed: known from that row alone. With the pages' memos gone, a reading of
        // the pages would write them again; this one reads and writes nothing.
        try store.db.execute("DELETE FROM page_memo WHERE url <> 'source:'")
        let third = try run()
        #expect(third.run?.unchanged == 3 && third.run?.missing == 0 && third.result.found == 3 && third.result.pagesFetched == 4)
        #expect(third.result.settled.map(\.key) == saved.items.map(\.key) && third.result.items.isEmpty && third.result.problems.isEmpty)
        #expect(try pageRows() == 0)

        // An edited (locked) item is not settled: the source is read, and the lock holds.
        let row = try #require(try store.row(sourceID: "news", key: "https://school.example/news/2.html"))
        _ = try Lifecycle(store).edit(row.id, changes: ["title": .string("Picture day (retakes)")], by: "ana", reason: nil)
        let fourth = try run()
        #expect(fourth.run?.unchanged == 3 && fourth.run?.changed == 0)
        #expect(try pageRows() == 4)
        // The reading was clean, and is remembered, but cannot serve while the item is locked.
        try store.db.execute("DELETE FROM page_memo WHERE url <> 'source:'")
        let locked = try run()
        #expect(locked.run?.unchanged == 3 && locked.result.items.map(\.key) == [row.sourceKey ?? ""])
        #expect(try pageRows() == 4)
        // Unlocked: settled again, and known from the one row.
        _ = try Lifecycle(store).unlock(row.id, fields: ["title"], by: "ana")
        _ = try run()
        try store.db.execute("DELETE FROM page_memo WHERE url <> 'source:'")
        let fifth = try run()
        #expect(fifth.run?.unchanged == 3 && fifth.result.settled.count == 3)
        #expect(try pageRows() == 0)

        // A page changed: read, and changed.
        try dir.write("imports/news/3.html", FileStampTests.article("Article 3, corrected"))
        let sixth = try run()
        #expect(sixth.run?.changed == 1 && sixth.run?.unchanged == 2, "\(String(describing: sixth.run))")

        // A page gone: read (and said), nothing counted missing.
        Thread.sleep(forTimeInterval: FileStamp.settle + 0.2)
        _ = try run()
        #expect(try sourceRow().flatMap(SourceMemo.init) != nil)
        try FileManager.default.removeItem(atPath: dir.path("imports/news/1.html"))
        let seventh = try run()
        #expect(!seventh.result.problems.isEmpty && seventh.run?.missing == 0)
        #expect(try sourceRow() == Data())
    }
}
