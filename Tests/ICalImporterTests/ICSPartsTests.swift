import Foundation
import TestSupport
import Testing
import TimeTrackKit

@testable import ICalImporter

/// Issue 36: the calendar importer's parts on their own (content lines, values, durations,
/// zones, rule parts, civil-day arithmetic), on tables of what real feeds write and on
/// generated days checked against Foundation's calendar.
@Suite struct ICSPartsTests {
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current
    static let denver = TimeZone(identifier: "America/Denver") ?? .current

    static func written(_ date: Date?, _ zone: TimeZone = utc) -> String? {
        guard let date else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        return formatter.string(from: date)
    }

    // MARK: Content lines

    @Test func foldedLinesAreJoinedWhateverTheLineEnds() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Back to School\r\n  Night\r\nDESCRIPTION:a\n\tb\nEND:VEVENT\nEND:VCALENDAR\n"
        let result = ICSParser.parse(text)
        #expect(result.problems.isEmpty)
        let event = result.root.first?.children.first
        #expect(event?.name == "VEVENT")
        #expect(event?.first("SUMMARY")?.value == "Back to School Night")
        #expect(event?.first("DESCRIPTION")?.value == "ab")
        #expect(event?.first("SUMMARY")?.line == 3)
        #expect(event?.terminated == true)
    }

    @Test(arguments: [
        ("SUMMARY:Board meeting", "SUMMARY", [String: String](), "Board meeting"),
        ("summary:lower case name", "SUMMARY", [:], "lower case name"),
        ("DTSTART;TZID=America/Denver:20260915T180000", "DTSTART", ["TZID": "America/Denver"], "20260915T180000"),
        ("DTSTART;VALUE=DATE:20260907", "DTSTART", ["VALUE": "DATE"], "20260907"),
        ("ATTENDEE;CN=\"Smith; Jo: Principal\";ROLE=CHAIR:mailto:jo@d.us", "ATTENDEE", ["CN": "Smith; Jo: Principal", "ROLE": "CHAIR"], "mailto:jo@d.us"),
        ("X-ALT-DESC;FMTTYPE=text/html:<p>a:b</p>", "X-ALT-DESC", ["FMTTYPE": "text/html"], "<p>a:b</p>"),
        ("URL:https://d.us/e?a=1;b=2", "URL", [:], "https://d.us/e?a=1;b=2"),
        ("X-FLAG;BARE:value", "X-FLAG", ["BARE": ""], "value"),
        ("EMPTY:", "EMPTY", [:], ""),
    ])
    func contentLines(_ line: String, _ name: String, _ parameters: [String: String], _ value: String) {
        let property = ICSParser.parseLine(line, number: 7)
        #expect(property?.name == name, "\(line)")
        #expect(property?.parameters == parameters, "\(line)")
        #expect(property?.value == value, "\(line)")
        #expect(property?.line == 7)
    }

    @Test(arguments: ["no colon here", ":value without name", "DTSTART;TZID=\"unterminated:20260101", "NAME;PARAM=x"])
    func notContentLines(_ line: String) {
        #expect(ICSParser.parseLine(line, number: 1) == nil, "\(line)")
    }

    @Test func anUnterminatedEventIsAnErrorOnTheLineItStarts() {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Lost\nBEGIN:VEVENT\nSUMMARY:Kept\nEND:VEVENT\nEND:VCALENDAR\n"
        let result = ICSParser.parse(text)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.line == 2)
        #expect(result.problems.first?.severity == .error)
        #expect(result.problems.first?.imported.location == "line 2")
        #expect(result.root.first?.terminated == true)
    }

    @Test func aCalendarCutOffMidwayNamesEveryOpenComponent() {
        let result = ICSParser.parse("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Cut")
        #expect(result.problems.map(\.line) == [1, 2])
        #expect(result.problems.allSatisfy { $0.severity == .error })
        #expect(result.problems.first?.message.contains("END:VCALENDAR") == true)
    }

    @Test func strayLinesAndStrayEndsAreWarningsAndSkipped() {
        let result = ICSParser.parse("BEGIN:VCALENDAR\nthis is not a line\nEND:VEVENT\nX-WR-CALNAME:Lakeside\nEND:VCALENDAR")
        #expect(result.problems.map(\.severity) == [.warning, .warning])
        #expect(result.problems.map(\.line) == [2, 3])
        #expect(result.root.first?.first("X-WR-CALNAME")?.value == "Lakeside")
    }

    @Test func hostileNestingIsSkippedWhole() {
        let depth = 5_000
        let text = String(repeating: "BEGIN:X\n", count: depth) + "SUMMARY:deep\n" + String(repeating: "END:X\n", count: depth)
        let result = ICSParser.parse(text)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message.contains("nested more than 8") == true)
        var deepest = result.root.first
        var levels = 0
        while let next = deepest?.children.first {
            deepest = next
            levels += 1
        }
        #expect(levels == ICSParser.maxDepth - 1)
        #expect(deepest?.properties.isEmpty == true)
    }

    @Test(arguments: [
        ("Gym\\, Room 2", "Gym, Room 2"), ("a\\;b", "a;b"), ("line\\nnext", "line\nnext"), ("LINE\\NNEXT", "LINE\nNEXT"),
        ("back\\\\slash", "back\\slash"), ("plain", "plain"), ("ends\\", "ends"),
    ])
    func textValues(_ value: String, _ expected: String) {
        #expect(ICSParser.unescape(value) == expected)
    }

    @Test(arguments: [
        ("Sports,Board", ["Sports", "Board"]), ("Sports\\,Outdoor,Board", ["Sports,Outdoor", "Board"]), (" a , ,b ", ["a", "b"]),
        ("", []), ("one", ["one"]),
    ])
    func lists(_ value: String, _ expected: [String]) {
        #expect(ICSParser.splitList(value) == expected)
    }

    // MARK: Values

    @Test func datesAndDateTimes() throws {
        let day = try #require(ICSDateTime("20260907", tzid: nil, valueType: nil))
        #expect(day.isDate && day.year == 2026 && day.month == 9 && day.day == 7)
        let dated = try #require(ICSDateTime("20260907T000000", tzid: nil, valueType: "date"))
        #expect(dated.isDate)
        let utc = try #require(ICSDateTime("20260915T220000Z", tzid: "America/Denver", valueType: nil))
        guard case .utc = utc.zone else { throw Failure("a Z time is UTC whatever its TZID") }
        let named = try #require(ICSDateTime(" 20260915T180000 ", tzid: "America/Denver", valueType: nil))
        guard case .named("America/Denver") = named.zone else { throw Failure("TZID names the zone") }
        let floating = try #require(ICSDateTime("20260915T180000", tzid: "", valueType: nil))
        guard case .floating = floating.zone else { throw Failure("no TZID is floating") }
        #expect(ICSDateTime("20261231T235960Z", tzid: nil, valueType: nil)?.second == 59)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test(arguments: ["", "2026", "20261307", "20260900", "20260907T", "20260907T2400", "20260907T240000", "20260907T126000", "2026O907", "２０２６0907"])
    func notDateTimes(_ value: String) {
        #expect(ICSDateTime(value, tzid: nil, valueType: nil) == nil, "\(value)")
    }

    @Test(arguments: [
        ("P1D", 1, 0), ("PT1H30M", 0, 5_400), ("-PT15M", 0, -900), ("P2W", 14, 0), ("P1DT2H", 1, 7_200), ("+PT45S", 0, 45),
        ("pt10m", 0, 600), ("P0D", 0, 0), ("P100000D", 100_000, 0),
    ])
    func durations(_ text: String, _ days: Int, _ seconds: Int) {
        let duration = ICSDuration(text)
        #expect(duration?.days == days && duration?.seconds == seconds, "\(text)")
    }

    @Test(arguments: ["", "P", "PT", "P1H", "PT1D", "P1Y", "P1M", "1D", "P100001D", "PT99999999999999999999S", "P1D2", "P-1D", "P١D"])
    func notDurations(_ text: String) {
        #expect(ICSDuration(text) == nil, "\(text)")
    }

    // MARK: Zones

    @Test(arguments: [("-0500", -18_000), ("+0530", 19_800), ("+0000", 0), (" -0700 ", -25_200), ("-05", nil), ("0500", nil), ("+AB00", nil)])
    func offsets(_ text: String, _ seconds: Int?) {
        #expect(VTimeZone.offset(text) == seconds, "\(text)")
    }

    @Test(arguments: [
        ("America/New_York", "America/New_York"), ("/mozilla.org/20070129_1/America/New_York", "America/New_York"),
        ("Eastern Standard Time", "America/New_York"), ("US Mountain Standard Time", "America/Phoenix"),
        ("/citadel.org/20190914_1/America/Chicago", "America/Chicago"), (" America/Denver ", "America/Denver"),
    ])
    func zoneNames(_ tzid: String, _ expected: String) {
        #expect(ZoneResolver.ianaZone(tzid)?.identifier == expected, "\(tzid)")
    }

    @Test(arguments: ["Lakeside Local Time", "Nowhere/Zone", ""])
    func unknownZoneNames(_ tzid: String) {
        #expect(ZoneResolver.ianaZone(tzid) == nil, "\(tzid)")
    }

    /// A VTIMEZONE like Outlook writes for a name no zone database knows.
    static let customZone = """
        BEGIN:VCALENDAR
        X-WR-TIMEZONE:America/Denver
        BEGIN:VTIMEZONE
        TZID:Lakeside Time
        BEGIN:STANDARD
        DTSTART:16011104T020000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010311T020000
        RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        END:VTIMEZONE
        END:VCALENDAR
        """

    @Test(arguments: [
        ("20260115T090000", "2026-01-15T14:00:00Z"), ("20260715T090000", "2026-07-15T13:00:00Z"),
        ("20260308T013000", "2026-03-08T06:30:00Z"), ("20260308T030000", "2026-03-08T07:00:00Z"),
        ("20261101T000000", "2026-11-01T04:00:00Z"), ("20261102T000000", "2026-11-02T05:00:00Z"),
    ])
    func aCustomZoneFollowsItsObservances(_ local: String, _ expected: String) throws {
        let calendars = ICSParser.parse(Self.customZone).root
        var resolver = ZoneResolver(fallback: Self.utc, calendars: calendars)
        let value = try #require(ICSDateTime(local, tzid: "Lakeside Time", valueType: nil))
        #expect(Self.written(resolver.instant(value, allDayZone: Self.utc)) == expected, "\(local)")
        #expect(resolver.unknownTZIDs.isEmpty)
    }

    @Test func floatingTimesTakeTheCalendarsZoneAndUnknownNamesAreRemembered() throws {
        var resolver = ZoneResolver(fallback: Self.utc, calendars: ICSParser.parse(Self.customZone).root)
        let floating = try #require(ICSDateTime("20260915T180000", tzid: nil, valueType: nil))
        #expect(Self.written(resolver.instant(floating, allDayZone: Self.utc)) == "2026-09-16T00:00:00Z")
        #expect(resolver.displayZone(floating).identifier == "America/Denver")
        let unknown = try #require(ICSDateTime("20260915T180000", tzid: "Moon Base", valueType: nil))
        #expect(Self.written(resolver.instant(unknown, allDayZone: Self.utc)) == "2026-09-15T18:00:00Z")
        #expect(resolver.unknownTZIDs == ["Moon Base"])
        let day = try #require(ICSDateTime("20260907", tzid: nil, valueType: nil))
        #expect(Self.written(resolver.instant(day, allDayZone: Self.denver)) == "2026-09-07T06:00:00Z")
    }

    // MARK: Rule parts

    @Test(arguments: [
        ("FREQ=HOURLY", "FREQ=HOURLY"), ("INTERVAL=2", "FREQ=?"), ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0"),
        ("FREQ=DAILY;INTERVAL=1001", "INTERVAL=1001"), ("FREQ=DAILY;COUNT=-1", "COUNT=-1"), ("FREQ=DAILY;COUNT=x", "COUNT=X"),
        ("FREQ=DAILY;UNTIL=soon", "UNTIL=SOON"), ("FREQ=WEEKLY;BYDAY=XX", "BYDAY=XX"), ("FREQ=WEEKLY;BYDAY=0MO", "BYDAY=0MO"),
        ("FREQ=WEEKLY;WKST=ZZ", "WKST=ZZ"), ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0"), ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13"), ("FREQ=DAILY;BYHOUR=9,15", "BYHOUR"), ("FREQ=MONTHLY;BYWEEKNO=20", "BYWEEKNO"),
        ("FREQ=YEARLY;BYSETPOS=400", "BYSETPOS=400"),
    ])
    func rulesRefusedWithTheirReason(_ text: String, _ named: String) {
        guard case .failure(let error) = RecurrenceRule.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(error.reason.contains(named), "\(text): \(error.reason)")
    }

    @Test func aRefusedRuleQuotesAtMostAShortPieceOfIt() {
        let long = String(repeating: "X", count: 5_000)
        for part in ["UNTIL", "BYDAY", "INTERVAL", "COUNT", "WKST", "BYMONTH"] {
            guard case .failure(let error) = RecurrenceRule.parse("FREQ=WEEKLY;\(part)=\(long)") else {
                Issue.record("\(part) accepted")
                continue
            }
            #expect(error.reason.count < 200, "\(part): \(error.reason.count) characters")
        }
    }

    @Test func aRuleWithEveryPart() throws {
        let rule = try RecurrenceRule.parse("freq=monthly;interval=2;count=10;byday=2TU,-1FR;bymonth=9,10;bysetpos=1;wkst=su").get()
        #expect(rule.frequency == .monthly && rule.interval == 2 && rule.count == 10)
        #expect(rule.byDay.map(\.ordinal) == [2, -1])
        #expect(rule.byDay.map(\.weekday) == [3, 6])
        #expect(rule.byMonth == [9, 10] && rule.bySetPos == [1] && rule.weekStart == 1)
    }

    @Test(arguments: [
        ("MO", nil, 2), ("2TU", 2, 3), ("-1SU", -1, 1), ("+3WE", 3, 4), ("53SA", 53, 7), (" fr ", nil, 6),
    ])
    func weekdays(_ text: String, _ ordinal: Int?, _ weekday: Int) {
        let parsed = RecurrenceRule.weekday(text)
        #expect(parsed?.ordinal == ordinal && parsed?.weekday == weekday, "\(text)")
    }

    @Test(arguments: ["", "M", "XX", "54MO", "-54MO", "0MO", "1.5MO"])
    func notWeekdays(_ text: String) {
        #expect(RecurrenceRule.weekday(text) == nil, "\(text)")
    }

    @Test(arguments: [
        (2, 1, 2026, 3, 8), (1, 1, 2026, 11, 1), (-1, 1, 2026, 10, 25), (4, 5, 2026, 11, 26), (5, 2, 2026, 2, nil), (-5, 3, 2026, 3, 3),
        (1, 2, 2026, 13, nil),
    ])
    func nthWeekdays(_ ordinal: Int, _ weekday: Int, _ year: Int, _ month: Int, _ expected: Int?) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        #expect(RecurrenceRule.nthWeekday(ordinal: ordinal, weekday: weekday, year: year, month: month, calendar: calendar) == expected)
    }

    @Test func productsThatWouldOverflowAreRefused() {
        #expect(RecurrenceRule.product(366, 53, 7) == 135_786)
        #expect(RecurrenceRule.product(10_000, 10_000) == nil)
        #expect(RecurrenceRule.product(Int.max, 2) == nil)
        #expect(RecurrenceRule.product() == 1)
    }

    // MARK: Civil days

    @Test func civilDaysAgreeWithFoundationOnGeneratedDays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        var random = SplitMix64(state: 5_545)
        for _ in 0..<3_000 {
            // From 1600 on: before October 1582 Foundation's Gregorian calendar is the Julian one, and
            // RFC 5545 counts in the proleptic Gregorian calendar.
            let days = random.int(-135_000...200_000)
            let date = Date(timeIntervalSince1970: TimeInterval(days) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let civil = CivilDay.civil(days)
            #expect(civil.year == parts.year && civil.month == parts.month && civil.day == parts.day, "\(days)")
            #expect(CivilDay.days(civil.year, civil.month, civil.day) == days)
            #expect(CivilDay.weekday(days) == parts.weekday, "\(days)")
        }
    }

    @Test func monthLengthsAndLeapYears() {
        #expect(CivilDay.isLeap(2024) && CivilDay.isLeap(2000) && !CivilDay.isLeap(1900) && !CivilDay.isLeap(2026))
        #expect((1...12).map { CivilDay.monthLength(2026, $0) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilDay.monthLength(2028, 2) == 29)
    }

    @Test(arguments: [
        // ISO weeks (Monday first): week 1 of 2026 starts on 29 December 2025; 2026 has 53 weeks.
        (2026, 2, "2025-12-29"), (2027, 2, "2027-01-04"), (2021, 2, "2021-01-04"), (2020, 2, "2019-12-30"),
        // Weeks from Sunday: 28 December 2025 to 3 January 2026 holds only three days of January.
        (2026, 1, "2026-01-04"), (2027, 1, "2027-01-03"),
    ])
    func firstWeeks(_ year: Int, _ weekStart: Int, _ expected: String) {
        let civil = CivilDay.civil(CivilDay.firstWeek(year, weekStart: weekStart))
        #expect(String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day) == expected)
    }

    @Test func weekNumbersAgreeWithFoundationsISOWeeks() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = Self.utc
        var random = SplitMix64(state: 8_601)
        for _ in 0..<1_000 {
            let days = random.int(0...30_000)
            let date = Date(timeIntervalSince1970: TimeInterval(days) * 86_400)
            let week = calendar.component(.weekOfYear, from: date)
            #expect(CivilDay.inWeek(week, day: days, weekStart: 2), "day \(days) in ISO week \(week)")
            #expect(!CivilDay.inWeek(week == 1 ? 2 : 1, day: days, weekStart: 2), "day \(days)")
            let weeks = calendar.range(of: .weekOfYear, in: .yearForWeekOfYear, for: date)?.count ?? 52
            #expect(CivilDay.inWeek(week - weeks - 1, day: days, weekStart: 2), "day \(days): week \(week) of \(weeks) from the end")
        }
    }

    // MARK: A rule's periods and the days it keeps

    static func day(_ text: String) -> Int {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return CivilDay.days(parts[0], parts[1], parts[2])
    }

    static func written(_ days: ClosedRange<Int>?) -> String? {
        guard let days else { return nil }
        func text(_ day: Int) -> String {
            let c = CivilDay.civil(day)
            return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
        }
        return text(days.lowerBound) + "…" + text(days.upperBound)
    }

    @Test(arguments: [
        ("FREQ=YEARLY", 0, "2026-09-14", "2026-01-01…2026-12-31"), ("FREQ=YEARLY;INTERVAL=2", 1, "2026-09-14", "2028-01-01…2028-12-31"),
        ("FREQ=MONTHLY", 4, "2026-09-14", "2027-01-01…2027-01-31"), ("FREQ=MONTHLY", 5, "2026-09-14", "2027-02-01…2027-02-28"),
        // The first week starts at DTSTART (a Monday-first week from Wednesday the 16th).
        ("FREQ=WEEKLY", 0, "2026-09-16", "2026-09-16…2026-09-20"), ("FREQ=WEEKLY", 1, "2026-09-16", "2026-09-21…2026-09-27"),
        ("FREQ=WEEKLY;WKST=SU", 1, "2026-09-16", "2026-09-20…2026-09-26"), ("FREQ=DAILY;INTERVAL=3", 2, "2026-09-14", "2026-09-20…2026-09-20"),
        ("FREQ=YEARLY", 8_000, "2026-09-14", nil),
    ])
    func periods(_ text: String, _ period: Int, _ start: String, _ expected: String?) throws {
        let rule = try RecurrenceRule.parse(text).get()
        let step = try #require(RecurrenceRule.product(period, rule.interval))
        #expect(Self.written(rule.days(ofPeriod: period, step: step, startDay: Self.day(start))) == expected, "\(text) period \(period)")
    }

    static func kept(_ text: String, start: String, in range: ClosedRange<Int>) throws -> [String] {
        let rule = try RecurrenceRule.parse(text).get()
        let choice = RecurrenceRule.DayChoice(rule: rule, startDay: Self.day(start))
        return range.filter(choice.keeps).map { day in
            let c = CivilDay.civil(day)
            return String(format: "%02d-%02d", c.month, c.day)
        }
    }

    @Test func withoutADayPartTheStartsDayRepeats() throws {
        let september = Self.day("2026-09-01")...Self.day("2026-09-30")
        #expect(try Self.kept("FREQ=MONTHLY", start: "2026-09-14", in: september) == ["09-14"])
        #expect(try Self.kept("FREQ=WEEKLY", start: "2026-09-14", in: september) == ["09-07", "09-14", "09-21", "09-28"])
        #expect(try Self.kept("FREQ=YEARLY", start: "2026-09-14", in: Self.day("2026-01-01")...Self.day("2026-12-31")) == ["09-14"])
        #expect(try Self.kept("FREQ=DAILY", start: "2026-09-14", in: september).count == 30)
    }

    @Test func ordinalsCountInTheMonthOrTheYear() throws {
        let year = Self.day("2026-01-01")...Self.day("2026-12-31")
        // Thanksgiving: the fourth Thursday of November.
        #expect(try Self.kept("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", start: "2026-11-26", in: year) == ["11-26"])
        // The last Friday of each month, counted in the month.
        #expect(try Self.kept("FREQ=MONTHLY;BYDAY=-1FR", start: "2026-01-30", in: year).count == 12)
        // The 20th Monday of the year, counted in the year.
        #expect(try Self.kept("FREQ=YEARLY;BYDAY=20MO", start: "2026-01-05", in: year) == ["05-18"])
        // On a weekly rule an ordinal is a plain weekday.
        #expect(try Self.kept("FREQ=WEEKLY;BYDAY=1TU", start: "2026-09-01", in: Self.day("2026-09-01")...Self.day("2026-09-30")).count == 5)
    }

    @Test func dayParts() throws {
        let year = Self.day("2026-01-01")...Self.day("2026-12-31")
        #expect(try Self.kept("FREQ=MONTHLY;BYMONTHDAY=-1", start: "2026-01-31", in: year).prefix(3) == ["01-31", "02-28", "03-31"])
        #expect(try Self.kept("FREQ=YEARLY;BYYEARDAY=1,-1", start: "2026-01-01", in: year) == ["01-01", "12-31"])
        #expect(try Self.kept("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", start: "2026-01-01", in: Self.day("2025-12-20")...Self.day("2026-01-20")) == ["12-29"])
        #expect(try Self.kept("FREQ=MONTHLY;BYMONTH=2,3;BYMONTHDAY=15", start: "2026-01-15", in: year) == ["02-15", "03-15"])
    }

    @Test func aRepeatedUIDKeepsEachEventDistinctly() {
        var keys = DistinctKeys()
        #expect(["a", "b", "a", "a", "b", "a#2"].map { keys.key(for: $0) } == ["a", "b", "a#2", "a#3", "b#2", "a#2#2"])
    }
}
