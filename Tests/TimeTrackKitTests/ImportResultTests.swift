import Foundation
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: what a run's result says about itself: items found (stored or settled), pages
/// unread (so nothing is counted missing), fields no item had, and problems as printed.
@Suite struct ImportResultTests {
    static let at = Date(timeIntervalSince1970: 1_790_000_000)

    static func item(_ key: String) -> ExtractedItem {
        ExtractedItem(
            key: key, content: .announcement(Announcement(title: "T \(key)", publishedAt: at)), pageURL: "https://d.example/", pageHash: "h", fetchedAt: at,
            location: "page 1")
    }

    @Test func foundCountsStoredAndSettledItems() {
        var result = ImportResult()
        #expect(result.found == 0 && result.readEveryPage)
        result.items = [Self.item("a"), Self.item("b")]
        result.settled = [SettledItem(key: "c", dated: true, location: "page 2")]
        #expect(result.found == 3)
    }

    @Test func aPageUnreadCountsNothingMissingAndKeepsItsStatus() {
        var result = ImportResult()
        let url = URL(string: "https://d.example/news?page=2") ?? URL(fileURLWithPath: "/")
        result.pageUnread(url, TimeTrackError(.fetch, "HTTP 503", context: ["url": url.absoluteString]).with(.httpStatus(503)))
        #expect(!result.readEveryPage && result.unreadPages == ["https://d.example/news?page=2"])
        #expect(result.problems.first?.httpStatus == 503 && result.problems.first?.severity == .error)
        #expect(result.problems.first?.location == "https://d.example/news?page=2")
        result.pageUnread(url, TimeTrackError(.fetch, "timed out"), severity: .warning, message: "page 2 could not be read", location: "page 2")
        #expect(result.problems.last == ImportProblem(.warning, "page 2 could not be read", location: "page 2"))
        #expect(result.problems.last?.httpStatus == nil)
    }

    @Test func fieldsNoItemHadAreNamedWithTheirPath() {
        var result = ImportResult()
        let values: [[String: String]] = [["title": "A", "date": "", "image": "x.jpg"], ["title": "B"]]
        result.noteFieldsNeverRead(["title", "date", "image", "summary"], path: "options.fields", values: values)
        #expect(result.fieldsNeverRead == ["options.fields.date", "options.fields.summary"])
        // One item read is too few to say a field is never there.
        var one = ImportResult()
        one.noteFieldsNeverRead(["date"], path: "options.fields", values: [["title": "A"]])
        #expect(one.fieldsNeverRead.isEmpty)
    }

    @Test func aProblemPrintsItsSeverityWhereAndWhat() {
        #expect(ImportProblem(.warning, "0 items", location: "news.html").description == "warning: news.html: 0 items")
        #expect(ImportProblem(.error, "skipped", location: "page 1 item 3").description == "error: page 1 item 3: skipped")
    }

    @Test func anItemPreparedOnceKeepsItsContent() {
        var item = Self.item("a")
        #expect(item.prepared == nil)
        item.prepare()
        #expect(item.prepared?.content == item.content)
        let hash = item.prepared?.hash
        item.prepare()
        #expect(item.prepared?.hash == hash)
        // New content drops the preparation made for the old.
        item.content = .announcement(Announcement(title: "Changed", publishedAt: Self.at))
        #expect(item.prepared == nil)
        // Content that does not validate stays unprepared: the store names its problem.
        item.content = .announcement(Announcement(title: "  ", publishedAt: Self.at))
        item.prepare()
        #expect(item.prepared == nil)
    }

    @Test func aPageKnowsItsHashAndWhetherItWasRead() {
        let url = URL(string: "https://d.example/a") ?? URL(fileURLWithPath: "/")
        let page = FetchedPage(
            url: url, location: "https://d.example/a", data: Data("<p>x</p>".utf8), contentType: "text/html; charset=utf-8", fetchedAt: Self.at)
        #expect(page.hash == SHA256.hex(Data("<p>x</p>".utf8)) && !page.unread && !page.notModified)
        let unread = FetchedPage(unreadAt: url, location: "/imports/a.html", hash: page.hash, stamp: "1:2:3:4:5", fetchedAt: Self.at)
        #expect(unread.unread && unread.data.isEmpty && unread.hash == page.hash && unread.stamp == "1:2:3:4:5")
    }
}
