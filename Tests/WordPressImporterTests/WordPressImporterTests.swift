import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct WordPressImporterTests {
    @Test func wordpress() throws {
        let result = try ImporterFixtures.extract("wp")
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
            _ = try ImporterFixtures.extract("not-wp")
            Issue.record("accepted")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("not a WordPress posts list"))
        }
    }

}
