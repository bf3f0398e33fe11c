import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct FeedAndPageImporterTests {
    @Test func rss() throws {
        let result = try Harness.extract("news-rss")
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
        let result = try Harness.extract("news-atom")
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
            _ = try Harness.extract("html-as-feed")
            Issue.record("HTML read as a feed")
        } catch let error as TimeTrackError {
            #expect(error.message == "this is an HTML page, not an RSS or Atom feed")
            #expect(error.fix?.contains("https://lakeside.example/news/feed/") == true)
        }
    }

    @Test func wordpress() throws {
        let result = try Harness.extract("wp")
        let items = result.announcements
        #expect(items.count == 2)
        #expect(items[0].title == "2026-27 Registration Now Open")
        #expect(isoString(items[0].publishedAt, "America/Los_Angeles") == "2026-04-21T10:16:11-07:00")
        #expect(items[0].summary == "Online registration for Lakeside’s 2026-2027 school year is now open …")
        #expect(items[0].imageURL == "https://newsroom.lakeside.example/wp-content/uploads/2026/04/Banner.png")
        #expect(items[0].body == "<p>Register at <a href=\"https://newsroom.lakeside.example/register/\">the portal</a>.</p>")
        #expect(items[1].title == "Superintendent Outlines First 100 Days & Leadership Changes")
        #expect(items[1].imageURL == "https://newsroom.lakeside.example/wp-content/uploads/2026/07/IMG_1710.jpg")
        #expect(result.items.map(\.key) == ["9101", "9102"])
    }

    @Test func jsonThatIsNotWordPress() throws {
        do {
            _ = try Harness.extract("not-wp")
            Issue.record("accepted")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("not a WordPress posts list"))
        }
    }

    @Test func metadataFromJSONLDOpenGraphAndTitle() throws {
        let article = try Harness.extract("article-jsonld")
        let a = try #require(article.announcements.first)
        #expect(a.title == "Lakeside Wins State Robotics Title")
        #expect(isoString(a.publishedAt, "America/Denver") == "2026-05-02T09:30:00-06:00")
        #expect(a.imageURL == "https://lakeside.example/img/robotics.jpg")
        #expect(a.link == "https://lakeside.example/news/robotics-title/")
        #expect(a.body?.contains("track()") == false)
        #expect(article.problems.contains { $0.message.contains("the page links a feed: https://lakeside.example/news/feed/") })

        let event = try #require((try Harness.extract("event-jsonld")).events.first)
        #expect(event.title == "Fall Band Concert")
        #expect(isoString(event.start, "America/Denver") == "2026-10-15T19:00:00-06:00")
        #expect(isoString(event.end, "America/Denver") == "2026-10-15T20:30:00-06:00")
        #expect(event.locationName == "Lakeside High Auditorium")
        #expect(event.address == "1 Lake Rd, Lakeside, CO, 80000")
        #expect(event.latitude == 39.7)
        #expect(event.category == .arts)

        let og = try #require((try Harness.extract("og-only")).announcements.first)
        #expect(og.title == "Lunch Menu Changes")
        #expect(og.summary == "New options start Monday.")
        #expect(og.imageURL == "https://lakeside.example/img/lunch.jpg")
        #expect(isoString(og.publishedAt, "America/Denver") == "2026-09-01T07:00:00-06:00")

        let plain = try #require((try Harness.extract("plain-page")).announcements.first)
        #expect(plain.title == "Bus Routes for 2026-27")
        #expect(plain.link == "https://lakeside.example/transportation/")
    }

    @Test func documentsPageToSchoolInfo() throws {
        let result = try Harness.extract("info-docs")
        let items = result.infos
        #expect(items.map(\.title) == ["Regular Bell Schedule", "Friday Schedule", "Lunch Schedule", "Attendance Policy", "Handbook video", "Counseling Center"])
        #expect(result.duplicatesMerged == 1)
        #expect(items.map(\.documentType) == [.pdf, .pdf, .spreadsheet, .pdf, .video, .page])
        #expect(items.map(\.section) == [.schedules, .schedules, .schedules, .policies, .policies, .counseling])
        #expect(items[0].url == "https://lakeside.example/docs/Bell_Schedule.pdf")
        #expect(items[1].url == "https://lakeside.example/fs/resource-manager/view/3c9e")
        #expect(items[0].group == "Bell Schedules")
        #expect(!items.contains { $0.url.contains("privacy") || $0.url.hasPrefix("mailto") || $0.url.hasPrefix("tel") })
        #expect(items.allSatisfy { $0.fingerprint == nil })
    }

    @Test func documentFingerprintsChangeWhenTheFileChanges() throws {
        let result = try Harness.extract("info-docs-fp")
        let bell = try #require(result.infos.first { $0.title == "Regular Bell Schedule" })
        #expect(bell.fingerprint == TimeTrackCore.SHA256.hex(Array("%PDF-1.4 bell schedule v1\n".utf8)))
        // Links the mirror cannot serve are reported, not dropped.
        #expect(result.problems.contains { $0.message.contains("could not fetch the document") })
        #expect(result.infos.count == 6)
    }
}
