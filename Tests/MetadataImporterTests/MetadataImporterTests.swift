import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct MetadataImporterTests {
    @Test func metadataFromJSONLDOpenGraphAndTitle() throws {
        let article = try ImporterFixtures.extract("article-jsonld")
        let a = try #require(article.announcements.first)
        #expect(a.title == "Lakeside Wins State Robotics Title")
        #expect(isoString(a.publishedAt, "America/Denver") == "2026-05-02T09:30:00-06:00")
        #expect(a.imageURL == "https://lakeside.example/img/robotics.jpg")
        #expect(a.link == "https://lakeside.example/news/robotics-title/")
        #expect(a.body?.contains("track()") == false)
        #expect(article.problems.contains { $0.message.contains("the page links a feed: https://lakeside.example/news/feed/") })

        let event = try #require((try ImporterFixtures.extract("event-jsonld")).events.first)
        #expect(event.title == "Fall Band Concert")
        #expect(isoString(event.start, "America/Denver") == "2026-10-15T19:00:00-06:00")
        #expect(isoString(event.end, "America/Denver") == "2026-10-15T20:30:00-06:00")
        #expect(event.locationName == "Lakeside High Auditorium")
        #expect(event.address == "1 Lake Rd, Lakeside, CO, 80000")
        #expect(event.latitude == 39.7)
        #expect(event.category == .arts)

        let og = try #require((try ImporterFixtures.extract("og-only")).announcements.first)
        #expect(og.title == "Lunch Menu Changes")
        #expect(og.summary == "New options start Monday.")
        #expect(og.imageURL == "https://lakeside.example/img/lunch.jpg")
        #expect(isoString(og.publishedAt, "America/Denver") == "2026-09-01T07:00:00-06:00")

        let plain = try #require((try ImporterFixtures.extract("plain-page")).announcements.first)
        #expect(plain.title == "Bus Routes for 2026-27")
        #expect(plain.link == "https://lakeside.example/transportation/")
    }

}

/// A news page as a CMS writes it (issue 34): the header's logo in the first `<article>`, the
/// story in a later one; JSON-LD with only a modification date beside the page's
/// `article:published_time`.
@Suite struct MetadataBodyAndDateTests {
    @Test func theStoryIsTheBodyAndThePublishedTimeWins() throws {
        let folder = try TemporaryDirectory("metadata-body")
        defer { folder.remove() }
        try folder.write(
            "story.html",
            """
            <html><head><title>Bus routes change | Lakeside</title>
            <meta property="article:published_time" content="2026-09-14T08:00:00-06:00">
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Bus routes change",\
             "dateModified": "2026-09-20T10:00:00-06:00"}</script>
            </head><body>
            <header><article class="brand"><a href="/"><img src="/logo.png" alt="Lakeside School District"></a></article></header>
            <main><article class="story"><h1>Bus routes change</h1><p>Routes 4 and 7 start ten minutes earlier from Monday.</p></article></main>
            </body></html>
            """)
        try folder.write(
            "story-def.json",
            #"{ "id": "story-def", "importer": "metadata", "kind": "announcement", "url": "story.html", "baseURL":"#
                + #" "https://lakeside.example/news/bus-routes/", "timeZone": "America/Denver" }"#
        )
        let result = try ImporterFixtures.extract("story-def", folder: folder.url)
        let story = try #require(result.announcements.first, "\(result.problems)")
        #expect(story.body?.contains("Routes 4 and 7") == true && story.body?.contains("logo.png") == false, "\(story.body ?? "")")
        #expect(isoString(story.publishedAt, "America/Denver") == "2026-09-14T08:00:00-06:00")
    }
}
