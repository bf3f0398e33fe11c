import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

@testable import TimeTrackImport
@testable import TimeTrackStore

/// An import reads the source's keys once and writes a key it has not seen as new without
/// looking it up: a key listed twice on a page, and keys of rejected items, must still be
/// reconciled, never inserted twice (the store's unique key would end the batch).
@Suite struct SourceKeysTests {
    @Test func aKeySeenTwiceOrRejectedIsNeverInsertedAgain() throws {
        let dir = try TemporaryDirectory("source-keys")
        defer { dir.remove() }
        func page(_ titles: [(String, String)]) -> String {
            "<html><body><ul class='news'>" + titles.map { "<li><a href='/news/\($0.0)'>\($0.1)</a><time>2026-10-01</time></li>" }.joined()
                + "</ul></body></html>"
        }
        try dir.write("imports/news.html", page([("1", "Picture day"), ("2", "Fall concert"), ("1", "Picture day")]))
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://school.example/", "timeZone": "America/Denver",
              "options": { "item": "ul.news li", "fields": { "title": "a", "link": "a@href", "date": "time" } } }
            """)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        let source = try SourceDefinition.load(file: dir.path("imports/news.json"))
        var pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        pipeline.now = { ISO8601DateFormatter().date(from: "2026-10-10T12:00:00Z") ?? Date() }
        let first = try pipeline.importSource(source, into: store, by: "test")
        // The page lists one article twice: one item.
        #expect(first.result.items.map(\.key) == ["https://school.example/news/1", "https://school.example/news/2"])
        #expect(first.run?.new == 2 && first.failures.isEmpty, "\(String(describing: first.run)) \(first.failures)")
        #expect(try store.sourceKeys(sourceID: "news") == ["https://school.example/news/1", "https://school.example/news/2"])

        // A rejected item's key is still the source's: a new article beside it is added, the
        // rejected one is left alone, nothing is inserted twice.
        let rejected = try #require(try store.row(sourceID: "news", key: "https://school.example/news/2"))
        _ = try Lifecycle(store).reject(rejected.id, reason: "duplicate", by: "ana")
        try dir.write("imports/news.html", page([("1", "Picture day"), ("2", "Fall concert (updated)"), ("3", "Bus route 4")]))
        let second = try pipeline.importSource(source, into: store, by: "test")
        #expect(second.run?.new == 1 && second.failures.isEmpty, "\(String(describing: second.run)) \(second.failures)")
        #expect(try store.counts()[.announcement]?.values.reduce(0, +) == 3)
    }
}
