import Foundation
import Testing
import TimeTrackKit

@Suite struct DateParserTests {
    let denver = TimeZone(identifier: "America/Denver") ?? TimeZone(secondsFromGMT: -7 * 3600) ?? .current
    let eastern = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600) ?? .current

    func iso(_ date: Date?, _ zone: TimeZone) -> String? {
        guard let date else { return nil }
        let f = ISO8601DateFormatter()
        f.timeZone = zone
        return f.string(from: date)
    }

    func reference(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }

    @Test(arguments: [
        ("2026-09-11T17:11:00-04:00", "2026-09-11T17:11:00-04:00", true),
        ("2026-09-18T14:00-04:00", "2026-09-18T14:00:00-04:00", true),
        ("2026-09-10T22:00:00Z", "2026-09-10T18:00:00-04:00", true),
        ("2026-09-10", "2026-09-10T00:00:00-04:00", false),
        // A day or a year typed with l or O for a digit (issue 34), read and marked.
        ("Sept l4, 2026", "2026-09-14T00:00:00-04:00", false),
        ("October 2O, 2O26 6:00 PM", "2026-10-20T18:00:00-04:00", true),
        // ISO 8601 basic format (issue 34).
        ("20260417", "2026-04-17T00:00:00-04:00", false),
        ("20260417T183000", "2026-04-17T18:30:00-04:00", true),
        ("20260417T1830", "2026-04-17T18:30:00-04:00", true),
        ("20260417T223000Z", "2026-04-17T18:30:00-04:00", true),
        ("20260417T183000-0500", "2026-04-17T19:30:00-04:00", true),
        ("September 14, 2026", "2026-09-14T00:00:00-04:00", false),
        ("Monday, September 14, 2026 at 6:00 PM", "2026-09-14T18:00:00-04:00", true),
        ("14 Sep 2026", "2026-09-14T00:00:00-04:00", false),
        ("2/18/26 (Wed.)", "2026-02-18T00:00:00-05:00", false),
        ("02-10-22 - 5 p.m.", "2022-02-10T17:00:00-05:00", true),
        ("9/14/2026 10:30am", "2026-09-14T10:30:00-04:00", true),
        ("Wed Nov 05 2025 13:18:53 GMT-0500 (Eastern Standard Time)", "2025-11-05T13:18:53-05:00", true),
        ("Canceled - September 22, 2026 - Special Board of Education Meeting", "2026-09-22T00:00:00-04:00", false),
        ("Oct. 2nd, 2026 noon", "2026-10-02T12:00:00-04:00", true),
        ("Sept. 28, 2026, 7 PM EDT", "2026-09-28T19:00:00-04:00", true),
        // A day glued to the month name, whatever letter the month starts with.
        ("1Sept 2025", "2025-09-01T00:00:00-04:00", false),
        ("3Dec 2026", "2026-12-03T00:00:00-05:00", false),
        ("9Nov 2026 6:30 PM", "2026-11-09T18:30:00-05:00", true),
        ("19July 2025", "2025-07-19T00:00:00-04:00", false),
        ("Sat 21st Nov 2026", "2026-11-21T00:00:00-05:00", false),
    ])
    func formats(_ text: String, _ expected: String, _ hasTime: Bool) {
        let parser = DateParser(timeZone: eastern, reference: reference("2026-09-01T00:00:00Z"))
        let parsed = parser.parse(text)
        #expect(iso(parsed?.date, eastern) == expected, "\(text)")
        #expect(parsed?.hasTime == hasTime, "\(text)")
    }

    @Test func yearlessDatesResolveNearTheReference() {
        let december = DateParser(timeZone: denver, reference: reference("2026-12-20T12:00:00Z"))
        #expect(iso(december.parse("Jan. 5")?.date, denver) == "2027-01-05T00:00:00-07:00")
        #expect(iso(december.parse("Sept. 14")?.date, denver) == "2026-09-14T00:00:00-06:00")
        #expect(december.parse("Sept. 14")?.hadYear == false)
        let spring = DateParser(timeZone: denver, reference: reference("2027-03-01T12:00:00Z"))
        #expect(iso(spring.parse("December 18")?.date, denver) == "2026-12-18T00:00:00-07:00")
    }

    @Test(arguments: ["", "TBA", "Board of Education", "31/31/2026", "February 30, 2026", "2026-13-01", "25:00", "the 45th"])
    func notDates(_ text: String) {
        #expect(DateParser(timeZone: denver).parse(text) == nil, "\(text)")
    }

    @Test func timesApplyToADay() {
        let parser = DateParser(timeZone: denver, reference: reference("2026-09-01T00:00:00Z"))
        let day = parser.parse("September 15, 2026")!.date
        #expect(iso(parser.time("6:00 PM - 8:00 PM", on: day), denver) == "2026-09-15T18:00:00-06:00")
        #expect(iso(parser.time("7:30pm", on: day), denver) == "2026-09-15T19:30:00-06:00")
        #expect(parser.time("All Day", on: day) == nil)
    }
}

@Suite struct FeedDateTests {
    @Test(arguments: [
        ("Tue, 01 Sep 2026 10:00:00 GMT", "2026-09-01T10:00:00Z"),
        ("Tue, 01 Sep 2026 10:00:00 +0000", "2026-09-01T10:00:00Z"),
        ("Wed, 02 Sep 2026 08:30:00 -0600", "2026-09-02T14:30:00Z"),
        ("Thu, 03 Sep 2026 09:15 EDT", "2026-09-03T13:15:00Z"),
    ])
    func rfc822(_ text: String, _ expected: String) {
        let parser = DateParser(timeZone: TimeZone(identifier: "America/Denver")!)
        let f = ISO8601DateFormatter()
        #expect(parser.parse(text).map { f.string(from: $0.date) } == expected, "\(text)")
    }
}
