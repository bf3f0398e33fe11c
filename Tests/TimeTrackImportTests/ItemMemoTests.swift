import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackImport
@testable import TimeTrackKit
@testable import TimeTrackStore

/// The item memo: a re-import counts an item unchanged without normalizing it again only when
/// reconciling it would write nothing, and reads it afresh whenever anything could differ.
@Suite struct ItemMemoTests {
    /// A news listing of four articles, one with a date that gives no year.
    static func page(_ titles: [String]) -> String {
        var html = "<html><body><ul class='news'>"
        for (index, title) in titles.enumerated() {
            let date = index == 3 ? "October 5" : "2026-10-0\(index + 1)"
            html += "<li><a href='/news/\(index + 1)'>\(title)</a><time>\(date)</time><p>Summary \(index + 1)</p></li>"
        }
        return html + "</ul></body></html>"
    }

    @Test func onlyWhatWouldWriteNothingIsSettled() throws {
        let dir = try TemporaryDirectory("item-memo")
        defer { dir.remove() }
        let titles = ["Board meeting moved", "Picture day", "Bus route 4 changes", "Fall concert"]
        try dir.write("imports/news.html", Self.page(titles))
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://school.example/", "timeZone": "America/Denver",
              "options": { "item": "ul.news li", "fields": { "title": "a", "link": "a@href", "date": "time", "summary": "p" } } }
            """)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        let source = try SourceDefinition.load(file: dir.path("imports/news.json"))
        var pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        pipeline.now = { ISO8601DateFormatter().date(from: "2026-10-10T12:00:00Z") ?? Date() }
        func run() throws -> SourceRunSummary { try pipeline.importSource(source, into: store, by: "test") }

        let first = try run()
        #expect(first.run?.new == 4 && first.result.settled.isEmpty)
        // The listing page's memo keeps the covered items by the digest of their values; the
        // yearless one (read with a guess) keeps its values.
        let listing = try #require(try store.db.row("SELECT payload FROM page_memo WHERE url <> 'source:'") { $0.data(0) })
        #expect(listing.range(of: Data("Summary 1".utf8)) == nil && listing.range(of: Data("Board meeting moved".utf8)) == nil)
        #expect(listing.range(of: Data("Summary 4".utf8)) != nil && listing.range(of: Data("Fall concert".utf8)) != nil)
        // Nothing changed: the three dated items are settled; the yearless one is read again
        // (its year depends on the run's date) and is unchanged.
        let second = try run()
        #expect(
            Set(second.result.settled.map(\.key)) == ["https://school.example/news/1", "https://school.example/news/2", "https://school.example/news/3"],
            "\(second.result.settled)")
        #expect(second.result.items.map(\.key) == ["https://school.example/news/4"])
        #expect(second.run?.unchanged == 4 && second.run?.found == 4 && second.run?.missing == 0)

        // An edited (locked) item is reconciled in full: the memo does not settle it.
        let edited = try #require(try store.row(sourceID: "news", key: "https://school.example/news/2"))
        _ = try Lifecycle(store).edit(edited.id, changes: ["title": .string("Picture day (retakes Nov 3)")], by: "ana", reason: nil)
        let third = try run()
        #expect(!third.result.settled.contains { $0.key == "https://school.example/news/2" })
        #expect(third.run?.unchanged == 4 && third.run?.changed == 0)

        // A title changed upstream: that item is read, and changes; the others stay settled.
        try dir.write("imports/news.html", Self.page(["Board meeting moved to Thursday", "Picture day", "Bus route 4 changes", "Fall concert"]))
        let fourth = try run()
        #expect(fourth.run?.changed == 1 && fourth.run?.unchanged == 3, "\(String(describing: fourth.run))")
        #expect(fourth.result.settled.map(\.key) == ["https://school.example/news/3"])
        // Gone from the page: a settled item's absence still counts it missing.
        try dir.write("imports/news.html", Self.page(["Board meeting moved to Thursday", "Picture day", "Bus route 4 changes"]))
        let fifth = try run()
        #expect(fifth.run?.missing == 1 && fifth.result.found == 3)
        // What a run stores is the same with the memo as without: the item hashes agree.
        let fresh = try SQLiteStore(path: dir.path("fresh.sqlite"))
        defer { fresh.close() }
        _ = try pipeline.importSource(source, into: fresh, by: "test")
        for key in (1...3).map({ "https://school.example/news/\($0)" }) where key != "https://school.example/news/2" {
            #expect(try store.row(sourceID: "news", key: key)?.baseHash == fresh.row(sourceID: "news", key: key)?.baseHash)
        }
    }

    /// Articles read from their own pages: a settled article's page is not parsed again and the
    /// memo keeps no copy of its body; an edited one's page is read again; a changed page changes it.
    @Test func detailPagesOfSettledItemsAreNeitherParsedNorCopied() throws {
        let dir = try TemporaryDirectory("item-memo-detail")
        defer { dir.remove() }
        func article(_ n: Int, _ body: String) -> String {
            "<html><body><nav>\((1...40).map { "<a href='/m\($0)'>Menu \($0)</a>" }.joined())</nav><article><h1>Article"
                + " \(n)</h1><time>2026-10-0\(n)</time><div class='body'><p>\(body)</p></div></article></body></html>"
        }
        try dir.write("imports/news.html", "<ul>" + (1...3).map { "<li><a href='news/\($0).html'>Article \($0)</a></li>" }.joined() + "</ul>")
        for n in 1...3 {
            try dir.write("imports/news/\(n).html", article(n, String(repeating: "The long body of article \(n), with <b>bold</b> words. ", count: 40)))
        }
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://school.example/", "timeZone": "America/Denver",
              "options": { "item": "li", "fields": { "title": "a", "link": "a@href" },
                           "detail": { "link": "link", "fields": { "date": "time", "body": "div.body@html" } } } }
            """)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        let source = try SourceDefinition.load(file: dir.path("imports/news.json"))
        var pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        pipeline.now = { ISO8601DateFormatter().date(from: "2026-10-10T12:00:00Z") ?? Date() }
        func run() throws -> SourceRunSummary { try pipeline.importSource(source, into: store, by: "test") }
        func memoBytes() throws -> Int {
            try store.db.row("SELECT coalesce(sum(length(payload)), 0) FROM page_memo WHERE url LIKE '%/news/%'") { $0.int(0) } ?? -1
        }

        let first = try run()
        #expect(first.run?.new == 3)
        // The memos (of the detail pages, of the items) hold digests, not the 2 KB bodies: those
        // are in the revisions only.
        let bytes = try memoBytes()
        #expect(bytes > 0 && bytes < 6 * 100, "\(bytes) bytes")
        let second = try run()
        #expect(second.result.settled.count == 3 && second.run?.unchanged == 3 && second.result.items.isEmpty)
        #expect(second.run?.missing == 0)

        // Edited: its page is read again (the memo has no values for it), and the lock holds.
        let row = try #require(try store.row(sourceID: "news", key: second.result.settled[0].key))
        _ = try Lifecycle(store).edit(row.id, changes: ["title": .string("Article 1 (edited)")], by: "ana", reason: nil)
        let third = try run()
        #expect(third.result.items.map(\.key) == [row.sourceKey ?? ""] && third.result.settled.count == 2)
        #expect(third.result.items.first?.content.fields()["body"]?.stringValue?.contains("long body of article 1") == true)
        #expect(third.run?.unchanged == 3 && third.run?.changed == 0)

        // A changed article page: read, and changed; the others stay settled.
        try dir.write("imports/news/3.html", article(3, "A corrected body."))
        let fourth = try run()
        #expect(fourth.run?.changed == 1, "\(String(describing: fourth.run))")
        #expect(fourth.result.settled.count == 1)
    }

    /// School Info documents: an unchanged document is settled; a renamed one is read and changes.
    @Test func unchangedDocumentsAreSettled() throws {
        let dir = try TemporaryDirectory("item-memo-documents")
        defer { dir.remove() }
        func page(_ labels: [String]) -> String {
            "<html><body><main><h2>Forms</h2>" + labels.enumerated().map { "<a href='/doc\($0).pdf'>\($1) (PDF)</a>" }.joined() + "</main></body></html>"
        }
        try dir.write("imports/info.html", page(["Bell Schedule", "Lunch Menu", "Supply List"]))
        try dir.write(
            "imports/info.json",
            """
            { "id": "info", "importer": "documents", "kind": "school-info", "url": "info.html", "baseURL": "https://school.example/info.html",\
             "timeZone": "America/Denver" }
            """)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        let source = try SourceDefinition.load(file: dir.path("imports/info.json"))
        let pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        func run() throws -> SourceRunSummary { try pipeline.importSource(source, into: store, by: "test") }

        let first = try run()
        #expect(first.run?.new == 3 && first.result.settled.isEmpty)
        let second = try run()
        #expect(second.result.settled.count == 3 && second.result.items.isEmpty && second.run?.unchanged == 3)
        try dir.write("imports/info.html", page(["Bell Schedule", "Lunch Menu (updated)", "Supply List"]))
        let third = try run()
        #expect(third.result.items.map(\.key) == ["https://school.example/doc1.pdf"] && third.result.settled.count == 2)
        #expect(third.run?.changed == 1 && third.run?.unchanged == 2, "\(String(describing: third.run))")
        // What is stored is what a store without a memo gets.
        let fresh = try SQLiteStore(path: dir.path("fresh.sqlite"))
        defer { fresh.close() }
        _ = try pipeline.importSource(source, into: fresh, by: "test")
        for index in 0..<3 {
            let key = "https://school.example/doc\(index).pdf"
            #expect(try store.row(sourceID: "info", key: key)?.baseHash == fresh.row(sourceID: "info", key: key)?.baseHash)
        }
    }

    /// An item remembered by its digest on an unchanged page that now also appears on a changed
    /// page: its values are read again from both, merged as a fresh import merges them.
    @Test func anItemRememberedByDigestAndSeenTwiceIsReadAgain() throws {
        let dir = try TemporaryDirectory("item-memo-merged")
        defer { dir.remove() }
        func page(_ items: [(String, String)], next: String?) -> String {
            var html = "<html><body><ul class='news'>"
            // An item without a summary on the first page takes the second page's (merged).
            for (slug, title) in items {
                html +=
                    "<li><a href='/news/\(slug)'>\(title)</a><time>2026-10-01</time>" + (slug == "a" && next != nil ? "" : "<p>About \(title)</p>") + "</li>"
            }
            if let next { html += "</ul><a class='next' href='\(next)'>next</a>" } else { html += "</ul>" }
            return html + "</body></html>"
        }
        try dir.write("imports/news.html", page([("a", "Board meeting"), ("b", "Picture day")], next: "/news2.html"))
        try dir.write("imports/news2.html", page([("c", "Bus routes")], next: nil))
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://school.example/news.html",\
             "timeZone": "America/Denver",
              "options": { "item": "ul.news li", "fields": { "title": "a", "link": "a@href", "date": "time", "summary": "p" }, "next": "a.next@href" } }
            """)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        let source = try SourceDefinition.load(file: dir.path("imports/news.json"))
        let pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        #expect(try pipeline.importSource(source, into: store, by: "test").run?.new == 3)
        // The second page now lists "a" too, with a summary of its own.
        try dir.write("imports/news2.html", page([("c", "Bus routes"), ("a", "Board meeting (moved)")], next: nil))
        let second = try pipeline.importSource(source, into: store, by: "test")
        #expect(second.result.duplicatesMerged == 1 && second.result.found == 3)
        #expect(second.run?.changed == 1, "the second page's summary is merged into a: \(String(describing: second.run))")
        let fresh = try SQLiteStore(path: dir.path("fresh.sqlite"))
        defer { fresh.close() }
        _ = try pipeline.importSource(source, into: fresh, by: "test")
        for slug in ["a", "b", "c"] {
            let key = "https://school.example/news/\(slug)"
            let remembered = try #require(try store.row(sourceID: "news", key: key))
            #expect(remembered.baseHash == (try fresh.row(sourceID: "news", key: key))?.baseHash, "\(key) differs from a fresh import")
        }
    }

    /// A memo payload is the content hash, then ` dated` for a dated item.
    @Test func aPayloadSaysItsHashAndWhetherItIsDated() {
        let hash = String(repeating: "ab", count: 32)
        #expect(ItemMemo.dated(Data(hash.utf8), saying: hash) == false)
        #expect(ItemMemo.dated(Data((hash + " dated").utf8), saying: hash) == true)
        #expect(ItemMemo.dated(Data((hash + " datedx").utf8), saying: hash) == nil)
        #expect(ItemMemo.dated(Data((hash + " dated").utf8), saying: String(repeating: "ab", count: 31) + "ac") == nil)
        #expect(ItemMemo.dated(Data(hash.prefix(63).utf8), saying: hash) == nil)
        #expect(ItemMemo.dated(Data(), saying: "") == nil)
    }
}
