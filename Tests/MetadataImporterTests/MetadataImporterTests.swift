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
