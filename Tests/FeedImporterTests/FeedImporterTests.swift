import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct FeedImporterTests {
    @Test func rss() throws {
        let result = try ImporterFixtures.extract("news-rss")
        let items = result.announcements
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(items.count == 2)
        let bond = try #require(items.first)
        #expect(bond.title == "Bond Election Results & Next Steps")
        #expect(bond.link == "https://lakeside.example/news/bond-results/")
        #expect(isoString(bond.publishedAt, "UTC") == "2026-11-04T15:30:00Z")
        #expect(bond.imageURL == "https://lakeside.example/media/bond.jpg")
        #expect(bond.summary == "Voters approved the bond. Details")
        #expect(bond.body?.contains("<script") == false)
        #expect(bond.body?.contains("onclick") == false)
        #expect(bond.body?.contains("<b>2027</b>") == true)
        #expect(result.items.first?.key == "lakeside-news-4412")
        let snow = items[1]
        #expect(snow.link == "https://lakeside.example/news/snow-days/")
        #expect(snow.imageURL == "https://lakeside.example/media/snow.png")
        #expect(isoString(snow.publishedAt, "UTC") == "2026-11-02T15:00:00Z")
    }

    @Test func atom() throws {
        let result = try ImporterFixtures.extract("news-atom")
        let items = result.announcements
        #expect(items.count == 2)
        #expect(items[0].title == "Welcome to the 2026–27 school year")
        #expect(items[0].link == "https://lakeside.example/blog/welcome")
        #expect(isoString(items[0].publishedAt, "America/Denver") == "2026-08-20T09:00:00-06:00")
        #expect(items[0].imageURL == "https://lakeside.example/img/welcome-thumb.jpg")
        #expect(items[0].body?.contains("<img src=\"https://lakeside.example/img/welcome.jpg\" alt=\"Students\">") == true)
        #expect(items[1].summary == "The board approved the calendar.")
        #expect(isoString(items[1].publishedAt, "UTC") == "2026-09-02T10:00:00Z")
        #expect(result.items.map(\.key) == ["tag:lakeside.example,2026:blog-17", "tag:lakeside.example,2026:blog-18"])
    }

    @Test func aFeedThatIsHTMLSaysWhereTheFeedIs() throws {
        do {
            _ = try ImporterFixtures.extract("html-as-feed")
            Issue.record("HTML read as a feed")
        } catch let error as TimeTrackError {
            #expect(error.message == "this is an HTML page, not an RSS or Atom feed")
            #expect(error.fix?.contains("https://lakeside.example/news/feed/") == true)
        }
    }

}

/// Issue 45, point 1: a feed that breaks is read as far as it goes, and says where it broke.
@Suite struct BrokenFeedTests {
    @Test func aBrokenFeedSaysTheLineWhereItBroke() throws {
        let folder = try TemporaryDirectory("broken-feed")
        defer { folder.remove() }
        let entries = (1...6).map { number in
            "<item><title>Story \(number)</title><link>https://lakeside.example/news/\(number)</link><guid>s\(number)</guid></item>"
        }
        var lines = [#"<?xml version="1.0" encoding="utf-8"?>"#, #"<rss version="2.0"><channel><title>News</title>"#] + entries + ["</channel></rss>"]
        lines[4] = lines[4].replacingOccurrences(of: "<item>", with: "<item <broken>")
        try folder.write("feed.xml", lines.joined(separator: "\n"))
        try folder.write(
            "news.json", #"{"id": "news", "importer": "feed", "kind": "announcement", "url": "feed.xml", "timeZone": "America/Denver"}"#)
        let result = try ImporterFixtures.extract("news", folder: folder.url)
        // libxml2's recovery reads on past the break where it can: the entries before it at least.
        let titles = result.items.map(\.content.title)
        #expect(titles.starts(with: ["Story 1", "Story 2"]) && titles.count < 6, "\(titles)")
        #expect(result.problems.contains { $0.severity == .warning && $0.message.contains("not well-formed at line 5") }, "\(result.problems)")
    }
}
