import Foundation
import TestSupport
import Testing

/// Issue 47: an article's body read with no selector, through the real binary: `"body":
/// "auto"` on an html source's detail pages, and `body auto` in the selector shell.
@Suite struct ArticleBodyAutoTests {
    static let story = "Classes begin on Wednesday, August 19, and the last day for students is Friday, May 28, with winter break in December."

    static func site(_ dir: TemporaryDirectory) throws {
        try dir.write(
            "imports/news.html",
            """
            <html><body><nav class="menu"><a href="/">Home</a></nav><article class="news"><h2><a href="story1.html">Board approves the calendar</a></h2>
            <time datetime="2026-09-14">September 14</time></article></body></html>
            """)
        try dir.write(
            "imports/story1.html",
            """
            <html><body><header><nav class="main-navigation"><a href="/">Home</a> <a href="/schools">Schools</a></nav></header>
            <main id="main" class="site-main"><article class="post type-post hentry"><h1 class="entry-title">Board approves the calendar</h1>
            <div class="entry-content"><p>The Board of Education approved the 2026-27 school calendar at Monday's meeting, after two months of comments.</p>
            <p>\(Self.story)</p><div class="sharedaddy sd-sharing-enabled"><h3 class="sd-title">Share this:</h3><a href="#">Share on Facebook</a></div>
            </div></article></main><footer id="colophon"><a href="/privacy">Privacy Policy</a></footer></body></html>
            """)
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://district.example/news/",
              "timeZone": "America/Chicago",
              "options": { "item": "article.news", "fields": { "title": "h2 a", "link": "h2 a@href", "date": "time@datetime" },
                           "detail": { "link": "link", "fields": { "body": "auto" } } } }
            """)
    }

    @Test func detailPagesTakeTheBodyFoundWithNoSelector() throws {
        let dir = try TemporaryDirectory("body-auto")
        defer { dir.remove() }
        try Self.site(dir)
        let result = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--json", "extract", "news"])
        #expect(result.status == 0, "\(result.stderr)")
        let items = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        let body = try #require(((items.first?["fields"] as? [String: Any])?["body"] ?? items.first?["body"]) as? String, "\(result.stdout)")
        #expect(body.contains(Self.story) && body.contains("<p>"), "\(body)")
        #expect(!body.contains("Share on Facebook") && !body.contains("Privacy Policy") && !body.contains("Schools"), "\(body)")
    }

    @Test func theSelectorShellShowsWhatItFinds() throws {
        let dir = try TemporaryDirectory("body-auto-try")
        defer { dir.remove() }
        try Self.site(dir)
        let result = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "try", dir.path("imports/story1.html")],
            stdin: "body auto\ndone\n")
        #expect(result.stdout.contains("body found with no selector"), "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Classes begin on Wednesday"), "\(result.stdout)")
        #expect(!result.stdout.contains("Share on Facebook"), "\(result.stdout)")
    }
}
