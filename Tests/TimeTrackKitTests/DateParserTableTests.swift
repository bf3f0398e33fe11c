import Foundation
import TestSupport
import Testing

@testable import TimeTrackKit

/// Issue 36: the date parser's parts on tables of the forms school pages write, one part at a
/// time (the year a heading gives, times, tokens, month names, letters typed for digits), and
/// the hand-written ISO scanner against the pattern it stands in for on generated texts.
@Suite struct DateParserTableTests {
    static let eastern = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600) ?? .current
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }

    static func written(_ date: Date?, _ zone: TimeZone = eastern) -> String? {
        guard let date else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        return formatter.string(from: date)
    }

    static let parser = DateParser(timeZone: eastern, reference: instant("2026-09-01T12:00:00Z"))

    // MARK: The year a heading gives

    @Test(arguments: [
        ("2022", 2022, 1, 2022, 12),
        ("Events in 2026", 2026, 1, 2026, 12),
        ("October 2022 – January 2023", 2022, 10, 2023, 1),
        ("2025-2026 School Calendar", 2025, 7, 2026, 6),
        ("2025–26 School Year", 2025, 7, 2026, 6),
        ("Calendar 2025-26", 2025, 7, 2026, 6),
        ("2099–00 Calendar", 2099, 7, 2100, 6),
        ("2025–27 plan", 2025, 1, 2025, 12),
        ("August 2024 through June 2025", 2024, 8, 2025, 6),
        ("Archive 2019 to 2024", 2019, 1, 2024, 12),
    ])
    func aHeadingsYears(_ text: String, _ startYear: Int, _ startMonth: Int, _ endYear: Int, _ endMonth: Int) {
        let hint = YearHint.read(text)
        #expect(hint == YearHint(startYear: startYear, startMonth: startMonth, endYear: endYear, endMonth: endMonth), "\(text)")
    }

    @Test(arguments: ["", "Board of Education", "Room 1850", "Call 555-1234", "Grades 9–12", "Year 2300"])
    func aHeadingWithoutAYear(_ text: String) {
        #expect(YearHint.read(text) == nil, "\(text)")
    }

    @Test func onlyTheHeadingsStartIsRead() {
        let long = String(repeating: "word ", count: 70) + "2026"
        #expect(YearHint.read(long) == nil)
        #expect(YearHint.read("2026 " + long) == YearHint(year: 2026))
    }

    @Test(arguments: [
        // A school year: July to June.
        (2025, 7, 2026, 6, 9, 2025), (2025, 7, 2026, 6, 12, 2025), (2025, 7, 2026, 6, 1, 2026),
        (2025, 7, 2026, 6, 6, 2026), (2025, 7, 2026, 6, 7, 2025),
        // A season across a new year: October to January.
        (2022, 10, 2023, 1, 11, 2022), (2022, 10, 2023, 1, 1, 2023), (2022, 10, 2023, 1, 5, 2022),
        // One year: every month in it.
        (2026, 1, 2026, 12, 1, 2026), (2026, 1, 2026, 12, 12, 2026),
    ])
    func theYearOfAMonth(_ startYear: Int, _ startMonth: Int, _ endYear: Int, _ endMonth: Int, _ month: Int, _ expected: Int) {
        let hint = YearHint(startYear: startYear, startMonth: startMonth, endYear: endYear, endMonth: endMonth)
        #expect(hint.year(forMonth: month) == expected)
    }

    @Test func aHintSaysItsYearsAsPeopleWriteThem() {
        #expect(YearHint(year: 2026).description == "2026")
        #expect(YearHint(startYear: 2025, startMonth: 7, endYear: 2026, endMonth: 6).description == "2025–2026")
    }

    @Test(arguments: [
        ("Sept. 14", "2025-09-14T00:00:00-04:00"),
        ("March 3", "2026-03-03T00:00:00-05:00"),
        ("June 30 at 7 PM", "2026-06-30T19:00:00-04:00"),
        ("July 1", "2025-07-01T00:00:00-04:00"),
    ])
    func aHintedYearIsTakenNotGuessed(_ text: String, _ expected: String) {
        let hint = YearHint(startYear: 2025, startMonth: 7, endYear: 2026, endMonth: 6)
        let parsed = Self.parser.parse(text, hint: hint)
        #expect(Self.written(parsed?.date) == expected, "\(text)")
        #expect(parsed?.hadYear == false)
        #expect(parsed?.yearGuessed == false)
    }

    @Test func aWrittenYearWinsOverTheHint() {
        let parsed = Self.parser.parse("September 14, 2030", hint: YearHint(year: 2026))
        #expect(Self.written(parsed?.date) == "2030-09-14T00:00:00-04:00")
        #expect(parsed?.hadYear == true)
    }

    @Test func withoutAHintTheYearIsGuessedAndSaysSo() {
        let parsed = Self.parser.parse("Nov. 3")
        #expect(Self.written(parsed?.date) == "2026-11-03T00:00:00-05:00")
        #expect(parsed?.yearGuessed == true)
        #expect(Self.parser.parse("November 3, 2026")?.yearGuessed == false)
        #expect(Self.parser.parse("2026-11-03")?.yearGuessed == false)
    }

    @Test func aDayThatIsNotInTheHintedYearIsNoDate() {
        #expect(Self.parser.parse("February 29", hint: YearHint(year: 2026)) == nil)
        #expect(Self.written(Self.parser.parse("February 29", hint: YearHint(year: 2028))?.date) == "2028-02-29T00:00:00-05:00")
    }

    // MARK: Times

    @Test(arguments: [
        ("5:30 PM", 17, 30, 0), ("5:30pm", 17, 30, 0), ("5 p.m.", 17, 0, 0), ("7 P.M.", 19, 0, 0),
        ("17:00", 17, 0, 0), ("10:30:45", 10, 30, 45), ("12:15 a.m.", 0, 15, 0), ("12 pm", 12, 0, 0),
        ("12:00 AM", 0, 0, 0), ("noon", 12, 0, 0), ("Midnight", 0, 0, 0), ("Doors open 6:45 PM - 9 PM", 18, 45, 0),
        ("9/14 10am", 10, 0, 0), ("at 8 am", 8, 0, 0), ("from 3:05 to 4", 3, 5, 0),
    ])
    func aTimeOfDay(_ text: String, _ hour: Int, _ minute: Int, _ second: Int) {
        let time = DateParser.findTime(text)
        #expect(time?.hour == hour && time?.minute == minute && time?.second == second, "\(text): \(String(describing: time))")
    }

    @Test(arguments: ["All day", "Room 5", "13 pm", "25:00", "10:75", "Grades 9-12", "2026", "0 am", "TBA"])
    func notATime(_ text: String) {
        #expect(DateParser.findTime(text) == nil, "\(text)")
    }

    @Test func aTimeIsPutOnTheDayInTheParsersZone() {
        let day = Self.instant("2026-03-08T05:00:00Z")  // midnight in New York on the day clocks change
        #expect(Self.written(Self.parser.time("9:00 AM", on: day)) == "2026-03-08T09:00:00-04:00")
        #expect(Self.written(Self.parser.time("1:30 AM", on: day)) == "2026-03-08T01:30:00-05:00")
        #expect(Self.parser.time("All day", on: day) == nil)
    }

    @Test func aFullDateGivenAsTheTimeIsTakenWhole() {
        let day = Self.instant("2026-09-15T04:00:00Z")
        #expect(Self.written(Self.parser.time("September 16, 2026 7 PM", on: day)) == "2026-09-16T19:00:00-04:00")
    }

    // MARK: Zones written in the text

    @Test(arguments: [
        ("September 14, 2026 6:00 PM CST", "2026-09-15T00:00:00Z"),
        ("September 14, 2026 6:00 PM PDT", "2026-09-15T01:00:00Z"),
        ("Mon Sep 14 2026 10:00:00 GMT+0200", "2026-09-14T08:00:00Z"),
        ("Sep 14 2026 10:00 UTC", "2026-09-14T10:00:00Z"),
        ("2026-09-14T10:00:00.250Z", "2026-09-14T10:00:00Z"),
        ("2026-09-14 10:00 +05:30", "2026-09-14T04:30:00Z"),
        ("2026-09-14T10:00-0700", "2026-09-14T17:00:00Z"),
    ])
    func aZoneInTheTextWinsOverTheSources(_ text: String, _ expected: String) {
        #expect(Self.written(Self.parser.parse(text)?.date, Self.utc) == expected, "\(text)")
    }

    // MARK: Numbers

    @Test(arguments: [
        ("2026/09/14", "2026-09-14T00:00:00-04:00"),
        ("2026.09.14", "2026-09-14T00:00:00-04:00"),
        ("9/14", "2026-09-14T00:00:00-04:00"),
        ("09/14/26", "2026-09-14T00:00:00-04:00"),
        ("9-14-2026 7:15 pm", "2026-09-14T19:15:00-04:00"),
    ])
    func numericDates(_ text: String, _ expected: String) {
        #expect(Self.written(Self.parser.parse(text)?.date) == expected, "\(text)")
    }

    @Test(arguments: ["10.30", "5-6", "14.09.2026", "13/01/2026", "2026-02-30", "2026-09-11T24:00", "2026-00-10"])
    func numbersThatAreNotDates(_ text: String) {
        #expect(Self.parser.parse(text) == nil, "\(text)")
    }

    // MARK: Letters typed for digits

    @Test func lettersTypedForDigitsAreReadAndNamed() {
        #expect(DateParser.digitsForLetters("Sept l4, 2026")?.1 == "'l4' as 14")
        #expect(DateParser.digitsForLetters("October 2O, 2O26")?.1 == "'2O' as 20, '2O26' as 2026")
        #expect(DateParser.digitsForLetters("March I2")?.0 == "March 12")
        #expect(Self.parser.parse("Sept l4, 2026")?.misread == "'l4' as 14")
        #expect(Self.parser.parse("September 14, 2026")?.misread == nil)
    }

    @Test(arguments: ["September 14, 2026", "Hello world 2026", "Room l", "Oct 2, 2026", "lol 12345 OO"])
    func noLetterStandsForADigit(_ text: String) {
        #expect(DateParser.digitsForLetters(text) == nil, "\(text)")
    }

    // MARK: Words

    @Test(arguments: [
        ("sep", 9), ("sept", 9), ("september", 9), ("mar", 3), ("may", 5), ("jun", 6), ("june", 6), ("decem", 12), ("jan", 1),
    ])
    func monthNames(_ word: String, _ month: Int) {
        #expect(DateParser.month(word) == month, "\(word)")
    }

    @Test(arguments: ["ma", "ju", "octopus", "mayor", "sun", "", "junes"])
    func notMonthNames(_ word: String) {
        #expect(DateParser.month(word) == nil, "\(word)")
    }

    @Test(arguments: [
        ("sept14", ["sept", "14"]), ("14th", ["14th"]), ("1sept", ["1", "sept"]), ("3dec 2026", ["3", "dec", "2026"]),
        ("mon., sep. 14", ["mon", "sep", "14"]), ("2nd-3rd", ["2nd", "3rd"]), ("", []),
    ])
    func tokens(_ text: String, _ expected: [String]) {
        #expect(DateParser.tokens(text).map(\.text) == expected, "\(text)")
    }

    @Test func theDayIsTakenOutBeforeTheTimeIsSought() {
        // "14" must not be read as two in the afternoon; the colon-joined 14 is the minute.
        #expect(DateParser.standalone(Array("14".utf8), in: Array("9:14 14".utf8)) == 5)
        #expect(DateParser.standalone(Array("14".utf8), in: Array("2014".utf8)) == nil)
        let left = DateParser.removeDay("sep 14 9:14", month: "sep", day: 14)
        #expect(!left.contains(" 14 "))
        #expect(left.contains("9:14"))
        #expect(DateParser.replacingAll(Array("ab".utf8), in: Array("xabyab".utf8)) == Array("x y ".utf8))
    }

    @Test func onlyTheStartOfALongValueIsRead() {
        let late = String(repeating: "x", count: 600) + " September 14, 2026"
        #expect(Self.parser.parse(late) == nil)
        let early = "September 14, 2026 " + String(repeating: "x", count: 600)
        #expect(Self.written(Self.parser.parse(early)?.date) == "2026-09-14T00:00:00-04:00")
    }

    // MARK: The ISO scanner against its pattern

    /// The hand scanner stands in for `isoPattern` on ASCII texts: wherever it answers, it must
    /// answer what the pattern does.
    @Test func theISOScannerAgreesWithThePattern() {
        var random = SplitMix64(state: 36)
        let pieces = ["2026", "-", "09", "-", "14", "T", " ", "10", ":", "30", ":", "05", ".", "250", "Z", "+", "05", "-0700", "+05:30", "  ", "x", "1", "é"]
        var answered = 0
        for _ in 0..<4000 {
            var text = random.chance(60) ? "2026-09-14" : ""
            for _ in 0..<random.int(0...8) { text += pieces[random.int(0...(pieces.count - 1))] }
            guard let scanned = DateParser.isoFields(text) else { continue }
            answered += 1
            #expect(scanned == DateParser.isoFieldsByPattern(text), "\(text)")
        }
        #expect(answered > 1000)
    }

    @Test func theBasicFormIsNotAnyEightDigitNumber() {
        #expect(DateParser.isoBasicFields("12345678") == nil)
        #expect(DateParser.isoBasicFields("202604171") == nil)
        #expect(DateParser.isoBasicFields("20260417")?.month == "04")
        #expect(DateParser.isoBasicFields("20260417T1830Z")?.offset == "Z")
        #expect(DateParser.isoBasicFields(" 20260417T183005+0100")?.second == "05")
    }

    // MARK: The parts a date is taken from

    @Test(arguments: [
        ("sep 14 2026 6:00 pm cst", -21_600, "sep 14 2026 6:00 pm  "),
        ("wed nov 05 2025 13:18:53 gmt-0500 (eastern standard time)", -18_000, "wed nov 05 2025 13:18:53  "),
        ("mon 10:00 +0530", 19_800, "mon 10:00  "), ("9 am edt", -14_400, "9 am  "), ("noon utc", 0, "noon  "),
    ])
    func zonesAreTakenOutOfTheText(_ text: String, _ seconds: Int, _ left: String) {
        var working = text
        #expect(DateParser.takeZone(from: &working)?.secondsFromGMT() == seconds, "\(text)")
        #expect(working.trimmingCharacters(in: .whitespaces) == left.trimmingCharacters(in: .whitespaces), "\(text) left \(working.debugDescription)")
    }

    @Test(arguments: ["september 14", "room 5-b", "grades 9-12 at 7 pm", "best of 3"])
    func textWithoutAZoneIsLeftAlone(_ text: String) {
        var working = text
        #expect(DateParser.takeZone(from: &working) == nil)
        #expect(working == text)
    }

    @Test(arguments: [
        ("due 2026/09/14 at 5", 2026, 9, 14, "due   at 5"), ("9/14/26 7pm", 2026, 9, 14, "  7pm"), ("on 9/14", nil, 9, 14, "on  "),
        ("14.09.2026", 2026, 14, 9, " "),
    ])
    func numericDatesAreTakenOutOfTheText(_ text: String, _ year: Int?, _ month: Int, _ day: Int, _ left: String) {
        var working = text
        let found = DateParser.takeNumericDate(from: &working)
        #expect(found.year == year && found.month == month && found.day == day, "\(text)")
        #expect(working == left, "\(text) left \(working.debugDescription)")
    }

    @Test(arguments: ["10.30", "5-6 pm", "page 3", "2026"])
    func numbersThatAreNoDateStay(_ text: String) {
        var working = text
        #expect(DateParser.takeNumericDate(from: &working).month == nil)
        #expect(working == text)
    }

    @Test(arguments: [
        ("monday, september 14, 2026 at 6:00 pm", 2026, 9, 14), ("14 sep 2026", 2026, 9, 14), ("sept. 14", nil, 9, 14), ("sat 21st nov 2026", 2026, 11, 21),
        ("march madness: march 3rd", nil, 3, 3), ("2026 calendar: may 5", 2026, 5, 5),
    ])
    func wordDates(_ text: String, _ year: Int?, _ month: Int, _ day: Int) {
        var working = text
        let found = DateParser.takeWordDate(from: &working)
        #expect(found.year == year && found.month == month && found.day == day, "\(text)")
        #expect(!working.contains(String(day)) || working.contains(":"), "\(text): the day is left in \(working.debugDescription)")
    }

    @Test func theDayIsNotLeftToBeReadAsAnHour() {
        var working = "september 14, 2026 7 pm"
        _ = DateParser.takeWordDate(from: &working)
        #expect(DateParser.findTime(working)?.hour == 19)
        var bare = "sept. 14"
        _ = DateParser.takeWordDate(from: &bare)
        #expect(DateParser.findTime(bare) == nil)
    }
}
