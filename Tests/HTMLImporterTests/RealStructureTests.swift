import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

/// The project's own fixtures in the markup of real district CMSs: "this HTML must yield these items".
@Suite struct RealStructureTests {
    @Test func finalsitePostBoard() throws {
        let result = try Harness.extract("finalsite-board")
        let items = result.announcements
        #expect(
            items.map(\.title) == [
                "October 5, 2026 - Regular Board Meeting", "Canceled - September 29, 2026 - Special Board Meeting", "September 8, 2026 - Finance Committee",
            ])
        // href="#" popups: the link comes from data-slug, resolved against the canonical page URL.
        #expect(items.first?.link == "https://www.riverside.k12.example/board/meetings/post/october-5-2026-regular-meeting")
        #expect(result.items.map(\.key) == ["501", "498", "490"])
        #expect(result.problems.isEmpty)
    }

    @Test func finalsiteSinglePost() throws {
        let result = try Harness.extract("finalsite-post")
        let post = try #require(result.announcements.first)
        #expect(post.title == "Canceled - September 29, 2026 - Special Board Meeting")
        #expect(isoString(post.publishedAt, "America/New_York") == "2026-09-25T09:45:00-04:00")
        #expect(post.link == "https://www.riverside.k12.example/board/meetings#post-498")
        let body = try #require(post.body)
        #expect(body.contains("<strong> Canceled</strong>"))
        #expect(body.contains(#"href="https://www.riverside.k12.example/fs/resource-manager/view/1f2e""#))
        #expect(!body.contains("onclick"))
        #expect(post.summary?.hasPrefix("Special Board Meeting - Canceled") == true)
    }

    @Test func finalsiteCalendarGridDedupesAndKeepsAllDay() throws {
        let result = try Harness.extract("finalsite-calendar")
        let events = result.events
        #expect(events.count == 3)
        #expect(result.duplicatesMerged == 1)
        let fallBreak = try #require(events.first { $0.title == "Fall Break - No School" })
        #expect(fallBreak.allDay)
        #expect(isoString(fallBreak.start, "America/Chicago") == "2026-10-03T00:00:00-05:00")
        #expect(isoString(fallBreak.end, "America/Chicago") == "2026-10-04T00:00:00-05:00")
        #expect(fallBreak.category == .noSchool)
        #expect(fallBreak.description == "No school for students.\nOffices open.")
        let board = try #require(events.first { $0.title == "School Board Meeting" })
        #expect(!board.allDay)
        #expect(isoString(board.start, "America/Chicago") == "2026-10-08T18:30:00-05:00")
        #expect(isoString(board.end, "America/Chicago") == "2026-10-08T20:00:00-05:00")
        #expect(board.locationName == "District Office, 100 Main St, Riverside, NE 68000")
        #expect(board.category == .board)
        #expect(board.timeZone == "America/Chicago")
        let lateStart = try #require(events.first { $0.title == "Late Start" })
        // November 2 is after the DST change: local midnight is -06:00.
        #expect(isoString(lateStart.start, "America/Chicago") == "2026-11-02T00:00:00-06:00")
    }

    @Test func edlioEventListWithDayHeadings() throws {
        let result = try Harness.extract("edlio-events")
        let events = result.events
        #expect(events.count == 3)
        let meeting = try #require(events.first)
        #expect(meeting.title == "Regular School Committee Meeting-BMS Library")
        #expect(isoString(meeting.start, "America/New_York") == "2026-09-09T18:00:00-04:00")
        #expect(isoString(meeting.end, "America/New_York") == "2026-09-09T20:00:00-04:00")
        #expect(meeting.link == "https://www.northfield.example/apps/events/2026/9/9/8801/")
        #expect(meeting.locationName == "Northfield Middle School, 502 Oak St, Northfield, MA 01915")
        let canceled = events[1]
        #expect(canceled.state == .cancelled)
        #expect(canceled.title == "CANCELED - Finance & Facilities Meeting")
        #expect(isoString(canceled.start, "America/New_York") == "2026-09-09T19:00:00-04:00")
        let holiday = events[2]
        #expect(holiday.allDay)
        #expect(holiday.category == .noSchool)
        #expect(isoString(holiday.start, "America/New_York") == "2026-10-12T00:00:00-04:00")
    }

    @Test func wordpressListingAcrossPagesMergesTheRepeatedPost() throws {
        let result = try Harness.extract("wordpress-news")
        let items = result.announcements
        #expect(result.pagesFetched == 2)
        #expect(items.count == 3)
        #expect(result.duplicatesMerged == 1)
        #expect(
            items.map(\.title) == [
                "2026-27 Student Registration Now Open", "Superintendent Outlines First 100 Days & Leadership Changes",
                "Accepting Pre-Kindergarten Enrollment Requests",
            ])
        #expect(items[1].link == "https://newsroom.valley.example/superintendent-outlines-first-100-days/")
        #expect(items[1].summary == "The superintendent’s plan focuses on student achievement.")
        #expect(items[0].summary == "Families can now register students for the 2026-27 school year online…")
        #expect(items[0].imageURL == "https://newsroom.valley.example/wp-content/uploads/2026/04/Banner-22.png")
        #expect(isoString(items[2].publishedAt, "America/Los_Angeles") == "2026-02-18T14:18:53-08:00")
    }

    @Test func smoreNewsletterIsOneAnnouncementWithAJavaScriptDate() throws {
        let result = try Harness.extract("smore-newsletter")
        let item = try #require(result.announcements.first)
        #expect(result.items.count == 1)
        #expect(item.title == "Lakeview High School")
        #expect(isoString(item.publishedAt, "America/New_York") == "2025-11-05T13:18:53-05:00")
        #expect(item.imageURL == "https://cdn.smore.example/flyers/ab12c/screenshot-fb_wide.jpg")
        #expect(item.link == "https://app.smore.example/n/ab12c-lakeview-high-school")
        #expect(item.body?.contains("BRAVE DAY is FRIDAY, NOVEMBER 14TH.") == true)
        #expect(item.body?.contains("smoreTrack") == false)
    }

    @Test func infoPageSectionsFromHeadingsAndDuplicateLinksMerged() throws {
        let result = try Harness.extract("ccsd-resources")
        let items = result.infos
        #expect(items.map(\.title) == ["engage.district.example", "District Policy 1213", "Contact Us", "2026-27 Bell Schedule"])
        #expect(result.duplicatesMerged == 1)
        #expect(items[0].group == "Family Engagement")
        #expect(items[0].section == .resources)
        #expect(items[1].url == "https://www.district.example/district/policies-regulations/pdf/1213_P.pdf")
        #expect(items[1].documentType == .pdf)
        #expect(items[1].group == "Parent/Guardian Concerns")
        #expect(items[2].url == "https://www.district.example/contactus/")
        #expect(items[3].section == .schedules)
        #expect(items[3].documentType == .spreadsheet)
        #expect(!items.contains { $0.url.hasPrefix("mailto:") || $0.url.hasPrefix("tel:") })
    }
}
