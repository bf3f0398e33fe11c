import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import ICalImporter

@Suite struct ICalImporterTests {
    @Test(arguments: ["district", "district-lf"])
    func everyFeatureOfTheDistrictCalendar(_ id: String) throws {
        let result = try ImporterFixtures.extract(id)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let events = result.events
        func event(_ title: String) -> Event? { events.first { $0.title == title } }

        // TZID defined only by a VTIMEZONE block; escaped commas; folded line; HTML description.
        let board = try #require(event("Board of Education Meeting, Regular Session"))
        #expect(isoString(board.start, "America/Denver") == "2026-09-15T18:00:00-06:00")
        #expect(isoString(board.end, "America/Denver") == "2026-09-15T20:00:00-06:00")
        #expect(board.locationName == "District Office, 100 Lake Rd, Lakeside, CO 80000")
        #expect(board.category == .board)
        #expect(board.link == "https://lakeside.example/apps/events/1/")
        #expect(board.description == "Agenda posted Friday.\nRead more")

        // All-day with DURATION and with DTEND (exclusive).
        let labor = try #require(event("No School - Labor Day"))
        #expect(labor.allDay)
        #expect(labor.category == .noSchool)
        #expect(isoString(labor.start, "America/Denver") == "2026-09-07T00:00:00-06:00")
        #expect(isoString(labor.end, "America/Denver") == "2026-09-08T00:00:00-06:00")
        let thanksgiving = try #require(event("Thanksgiving Break"))
        #expect(isoString(thanksgiving.end, "America/Denver") == "2026-11-28T00:00:00-07:00")

        // Cancelled by title and by STATUS.
        #expect(event("CANCELED - Finance Committee")?.state == .cancelled)
        #expect(event("Choir Concert")?.state == .cancelled)
        // UTC and floating times.
        #expect(isoString(event("CANCELED - Finance Committee")?.start, "UTC") == "2026-09-22T01:00:00Z")
        #expect(isoString(event("Counseling Open House")?.start, "America/Denver") == "2026-09-30T15:30:00-06:00")

        // Weekly RRULE with COUNT, an EXDATE and a moved occurrence (RECURRENCE-ID).
        let club = events.filter { $0.title.hasPrefix("Robotics Club") }.sorted { $0.start < $1.start }
        #expect(club.count == 9)  // 10 by COUNT, minus the EXDATE
        #expect(!club.contains { isoString($0.start, "America/Denver") == "2026-09-15T15:30:00-06:00" })
        let moved = try #require(club.first { $0.title == "Robotics Club (moved to Wednesday)" })
        #expect(isoString(moved.start, "America/Denver") == "2026-09-23T15:30:00-06:00")
        // Wall-clock time kept across the DST change on November 1.
        #expect(isoString(club.last?.start, "America/Denver") == "2026-11-03T15:30:00-07:00")

        // Monthly BYDAY=1WE until the end of the year.
        let pto = events.filter { $0.title == "PTO Meeting" }.map { isoString($0.start, "America/Denver") ?? "" }
        #expect(pto == ["2026-09-02T18:00:00-06:00", "2026-10-07T18:00:00-06:00", "2026-11-04T18:00:00-07:00", "2026-12-02T18:00:00-07:00"])

        // Stable keys: UID, plus the occurrence for recurring events.
        let keys = result.items.map(\.key)
        #expect(keys.contains("board-1@lakeside"))
        #expect(keys.contains("club@lakeside@2026-09-22T21:30:00Z"))
        #expect(Set(keys).count == keys.count)
    }

    @Test func brokenCalendarsReportAndKeepWhatIsGood() throws {
        let result = try ImporterFixtures.extract("broken")
        let events = result.events
        #expect(events.map(\.title) == ["Good event in an unknown zone"])
        // The unknown TZID falls back to the source's zone, with a warning.
        #expect(isoString(events.first?.start, "America/Chicago") == "2026-09-15T18:00:00-05:00")
        let messages = result.problems.map(\.description).joined(separator: "\n")
        #expect(messages.contains("unknown TZID 'Atlantis/Underwater'"))
        #expect(messages.contains("VEVENT that starts here is not terminated"))
    }

    @Test func anHTMLPageIsNotACalendar() throws {
        do {
            _ = try ImporterFixtures.extract("html-as-ics")
            Issue.record("an HTML page was read as a calendar")
        } catch let error as TimeTrackError {
            #expect(error.message == "this is an HTML page, not an iCalendar feed")
        }
    }

    @Test func vtimezoneRulesGiveTheRealOffsets() throws {
        let text = try String(contentsOf: ImporterFixtures.fixtures.appendingPathComponent("district.ics"), encoding: .utf8)
        let calendar = try #require(ICSParser.parse(text).root.first)
        let zone = try #require(calendar.children.first { $0.name == "VTIMEZONE" }.flatMap(VTimeZone.init))
        #expect(zone.offset(at: DateComponents(year: 2026, month: 7, day: 1, hour: 12)) == -6 * 3600)
        #expect(zone.offset(at: DateComponents(year: 2026, month: 12, day: 1, hour: 12)) == -7 * 3600)
        #expect(zone.offset(at: DateComponents(year: 2027, month: 3, day: 14, hour: 3)) == -6 * 3600)
        #expect(zone.offset(at: DateComponents(year: 2027, month: 3, day: 14, hour: 1)) == -7 * 3600)
    }
}

/// Calendars whose events the expansion used to drop or misplace: changed occurrences without
/// their series (Google Calendar), RDATE, BYSETPOS, BYWEEKNO and BYYEARDAY.
@Suite struct CompleteCalendarTests {
    @Test func overridesWithoutTheirSeriesAreEvents() throws {
        let result = try ImporterFixtures.extract("overrides-only")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let zone = "America/Los_Angeles"
        let rows = result.events.map {
            [
                $0.title, isoString($0.start, zone) ?? "-", isoString($0.end, zone) ?? "-", $0.allDay ? "all day" : "timed", $0.state.rawValue,
                $0.locationName ?? "-",
            ]
        }
        #expect(
            rows == [
                [
                    "PTA General Meeting (moved to 7 pm)", "2026-09-15T19:00:00-07:00", "2026-09-15T20:30:00-07:00", "timed", "scheduled",
                    "Lincoln Elementary Library, 400 Oak St",
                ],
                ["PTA General Meeting", "2026-10-20T18:00:00-07:00", "2026-10-20T19:30:00-07:00", "timed", "cancelled", "-"],
                [
                    "PTA General Meeting", "2026-11-17T18:00:00-08:00", "2026-11-17T19:30:00-08:00", "timed", "scheduled",
                    "Lincoln Elementary Library, 400 Oak St",
                ],
                ["Thanksgiving Break - No School", "2026-11-25T00:00:00-08:00", "2026-11-28T00:00:00-08:00", "all day", "scheduled", "-"],
            ])
        #expect(result.events[2].description == "Guest speaker: district nurse.\nChildcare in Room 4.")
        // Keyed by the occurrence each stands for: the same on every run, distinct from each other.
        #expect(
            result.items.map(\.key) == [
                "5q1h0o2mbq8pta@google.com@2026-09-16T01:00:00Z", "5q1h0o2mbq8pta@google.com@2026-10-21T01:00:00Z",
                "5q1h0o2mbq8pta@google.com@2026-11-18T02:00:00Z",
                "7hq2d9holidays@google.com@2026-11-25T08:00:00Z",
            ])
    }

    @Test func rdateBysetposByweeknoAndByyeardayExpand() throws {
        let result = try ImporterFixtures.extract("rdate-setpos")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let zone = "America/Chicago"
        let rows = result.events.map { [$0.title, isoString($0.start, zone) ?? "-", isoString($0.end, zone) ?? "-", $0.locationName ?? "-"] }
        #expect(
            rows == [
                // The last weekday of each month, four times.
                ["Early Release Day", "2026-09-30T13:00:00-05:00", "2026-09-30T13:15:00-05:00", "-"],
                ["Early Release Day", "2026-10-30T13:00:00-05:00", "2026-10-30T13:15:00-05:00", "-"],
                ["Early Release Day", "2026-11-30T13:00:00-06:00", "2026-11-30T13:15:00-06:00", "-"],
                ["Early Release Day", "2026-12-31T13:00:00-06:00", "2026-12-31T13:15:00-06:00", "-"],
                // DTSTART, two RDATEs (the first of them moved by its override) and a PERIOD.
                ["Picture Retake Day", "2026-10-06T08:00:00-05:00", "2026-10-06T11:00:00-05:00", "Gym"],
                ["Picture Retake Day", "2026-11-03T09:00:00-06:00", "2026-11-03T12:00:00-06:00", "Library"],
                ["Picture Retake Day", "2026-12-01T08:00:00-06:00", "2026-12-01T11:00:00-06:00", "Gym"],
                ["Picture Retake Day", "2027-01-12T08:00:00-06:00", "2027-01-12T11:00:00-06:00", "Gym"],
                // Thursdays of ISO weeks 38 and 50 (2027's are past the year ahead).
                ["Board Work Session", "2026-09-17T17:00:00-05:00", "2026-09-17T18:30:00-05:00", "-"],
                ["Board Work Session", "2026-12-10T17:00:00-06:00", "2026-12-10T18:30:00-06:00", "-"],
                // Day 300 of 2026.
                ["Staff Development Day - No School for Students", "2026-10-27T00:00:00-05:00", "2026-10-28T00:00:00-05:00", "-"],
            ])
        #expect(result.events.last?.allDay == true)
    }

    @Test func anOverrideOfAnOccurrenceTheSeriesLacksIsKeptAndSaid() throws {
        let folder = try TemporaryDirectory("ics-orphan")
        defer { folder.remove() }
        let ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:club@x", "DTSTART:20260907T230000Z", "DTEND:20260908T000000Z", "RRULE:FREQ=WEEKLY;COUNT=3",
            "SUMMARY:Chess Club",
            "END:VEVENT", "BEGIN:VEVENT", "UID:club@x", "RECURRENCE-ID:20260910T230000Z", "DTSTART:20260910T230000Z", "DTEND:20260911T000000Z",
            "SUMMARY:Chess Club Tournament", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n")
        try folder.write("c.ics", ics)
        try folder.write(
            "c.json",
            #"{ "id": "c", "importer": "ical", "kind": "event", "url": "c.ics", "baseURL": "https://x.example/c.ics", "timeZone": "America/New_York" }"#)
        let result = try ImporterFixtures.extract("c", folder: folder.url)
        #expect(result.events.map(\.title) == ["Chess Club", "Chess Club", "Chess Club", "Chess Club Tournament"])
        #expect(
            result.problems.map(\.message) == [
                "'Chess Club Tournament': changes an occurrence its series does not have (RECURRENCE-ID 20260910T230000Z); imported as an event of its own"
            ])
    }
}
