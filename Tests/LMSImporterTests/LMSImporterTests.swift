import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

/// Course calendar feeds written in each LMS's published shape (Tests/Fixtures/Importers:
/// canvas-courses, schoology-courses, classroom-history, moodle-algebra): every deadline with
/// its course, category and instant in the school's zone.
@Suite struct LMSImporterTests {
    /// What one deadline must be: title, course code, category, due (local, in `zone`), guessed.
    struct Expected: CustomStringConvertible {
        var title: String, course: String, category: Deadline.Category, due: String, guessed: Bool
        var description: String { "\(title) [\(course)] \(category.rawValue) \(due)\(guessed ? "?" : "")" }
    }

    static func local(_ date: Date, _ zone: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: zone)
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }

    static func check(_ id: String, zone: String, _ expected: [Expected]) throws -> [Deadline] {
        let result = try ImporterFixtures.extract(id)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let deadlines = result.items.compactMap { item -> Deadline? in
            if case .deadline(let d) = item.content { return d } else { return nil }
        }
        let got = deadlines.map {
            Expected(title: $0.title, course: $0.course, category: $0.category, due: local($0.due, zone), guessed: $0.dueTimeGuessed).description
        }
        #expect(got == expected.map(\.description))
        #expect(deadlines.allSatisfy { $0.timeZone == zone })
        for (item, deadline) in zip(result.items, deadlines) where deadline.dueTimeGuessed {
            #expect(item.guesses.contains { $0.note.hasPrefix("due time guessed: the end of the school day") }, "\(item.guesses)")
        }
        return deadlines
    }

    @Test func canvasPutsTheCourseInBracketsAndTheKindInTheLink() throws {
        let found = try Self.check(
            "canvas-courses", zone: "America/Denver",
            [
                Expected(title: "Lab report 3", course: "CHEM-AP", category: .homework, due: "2026-09-11 23:59", guessed: false),
                Expected(title: "Stoichiometry check", course: "CHEM-AP", category: .quiz, due: "2026-09-15 08:30", guessed: false),
                Expected(title: "Unit 1 exam", course: "CHEM-AP", category: .test, due: "2026-09-18 15:30", guessed: true),
                Expected(title: "Discussion: chapter 2", course: "ENG-11", category: .homework, due: "2026-09-10 23:59", guessed: false),
                Expected(title: "Gatsby poster project", course: "ENG-11", category: .project, due: "2026-09-24 23:59", guessed: false),
                // "Summer reading log" was due in July: more than pastDays (30) before the run.
            ])
        #expect(found.first?.points == 20 && found.first?.teacher == "Ms. Patel" && found.first?.courseName == "AP Chemistry")
        #expect(found.first?.link == "https://canvas.example.edu/courses/1201/assignments/48211")
    }

    @Test func schoologyPutsTheCourseBeforeAColonAndTheTypeInTheDescription() throws {
        let found = try Self.check(
            "schoology-courses", zone: "America/Chicago",
            [
                Expected(title: "Cell membrane diagram", course: "BIO-1", category: .homework, due: "2026-09-14 08:00", guessed: false),
                Expected(title: "Cells and organelles", course: "BIO-1", category: .test, due: "2026-09-17 09:00", guessed: false),
                Expected(title: "Factoring check-in", course: "ALG-2", category: .quiz, due: "2026-09-22 08:00", guessed: false),
                // A day without a time: the school day's end this definition gives (3:05 PM).
                Expected(title: "Read section 3.2", course: "BIO-1", category: .reading, due: "2026-09-24 15:05", guessed: true),
            ])
        #expect(found[1].points == 50)
    }

    @Test func classroomNamesTheCourseByItsCalendarOrInParentheses() throws {
        _ = try Self.check(
            "classroom-history", zone: "America/New_York",
            [
                Expected(title: "Unit 1 primary source essay", course: "USH-2", category: .homework, due: "2026-09-15 15:30", guessed: true),
                Expected(title: "Colonies check", course: "USH-2", category: .quiz, due: "2026-09-17 23:30", guessed: false),
                Expected(title: "Chapter 3 reading", course: "USH-2", category: .reading, due: "2026-09-21 15:30", guessed: true),
            ])
    }

    @Test func moodleNamesTheCourseInCategories() throws {
        _ = try Self.check(
            "moodle-algebra", zone: "America/Denver",
            [
                Expected(title: "Problem set 4", course: "ALG-2", category: .homework, due: "2026-09-16 17:00", guessed: false),
                Expected(title: "Quiz 2", course: "ALG-2", category: .quiz, due: "2026-09-18 22:59", guessed: false),
            ])
    }

    @Test func badDefinitionsNameTheOptionAndWhatIsWrong() throws {
        let dir = try TemporaryDirectory("lms-bad")
        defer { dir.remove() }
        try dir.write("feed.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        let cases: [(String, String)] = [
            (#""lms": "blackboard""#, "options.lms"),
            (#""courses": [{"code": "X"}]"#, "needs a code and a name"),
            (#""courses": [{"code": "X", "name": "Y", "weights": {"homework": 140}}]"#, "not a percentage"),
            (#""courses": [{"code": "X", "name": "Y", "reminders": ["soon"]}]"#, "offsets"),
            (#""coursePattern": "no group""#, "needs a group"),
            (#""schoolDayEnds": "after school""#, "time of day"),
        ]
        for (option, message) in cases {
            try dir.write("bad.json", #"{"id": "bad", "importer": "lms", "kind": "deadline", "url": "feed.ics", "options": {"# + option + "}}")
            #expect(throws: TimeTrackError.self) { try ImporterFixtures.extract("bad", folder: dir.url) }
            do {
                _ = try ImporterFixtures.extract("bad", folder: dir.url)
            } catch let error as TimeTrackError {
                #expect("\(error.message) \(error.context)".contains(message), "\(option): \(error.message)")
            }
        }
        // An HTML page where the feed should be says so and how to find the feed.
        try dir.write("page.html", "<!doctype html><p>Calendar</p>")
        try dir.write("html.json", #"{"id": "html", "importer": "lms", "kind": "deadline", "url": "page.html"}"#)
        do {
            _ = try ImporterFixtures.extract("html", folder: dir.url)
            Issue.record("an HTML page was read as a feed")
        } catch let error as TimeTrackError {
            #expect(error.message.contains("HTML page") && (error.fix ?? "").contains("Canvas"), "\(error.message)")
        }
    }

    @Test func relativeDaysCountFromTheReference() throws {
        let zone = TimeZone(identifier: "America/Denver") ?? .current
        let wednesday = ISO8601DateFormatter().date(from: "2026-10-07T21:00:00Z") ?? Date()
        func day(_ text: String) -> String? {
            DeadlineReading.relativeDay(text, reference: wednesday, zone: zone).map { LMSImporterTests.local($0.day, "America/Denver") }
        }
        #expect(day("due tomorrow") == "2026-10-08 00:00")
        #expect(day("Friday") == "2026-10-09 00:00")
        #expect(day("next Monday") == "2026-10-12 00:00")
        #expect(day("next Friday") == "2026-10-16 00:00")  // Friday of the following week
        #expect(day("Wednesday") == "2026-10-14 00:00")  // a bare weekday is after today
        #expect(day("Thurs") == "2026-10-08 00:00")
        #expect(day("by the end of class") == nil)
        #expect(
            ReminderOffset.minutes("1d12h") == 2160 && ReminderOffset.minutes("2h") == 120 && ReminderOffset.minutes("2x") == nil
                && ReminderOffset.minutes("-5") == nil)
        #expect(ReminderOffset.text(2160) == "1d 12h")
        // Hostile lengths never overflow: refused, not trapped.
        for text in ["999999999999999w", "9999999999999999", "-1d", "1d-2h", "d", "2hh"] { #expect(ReminderOffset.minutes(text) == nil, "\(text)") }
        #expect((ReminderOffset.minutes("9999999d9999999d") ?? 0) > 60 * 1440)  // read, and refused by the range every caller checks
    }
}
