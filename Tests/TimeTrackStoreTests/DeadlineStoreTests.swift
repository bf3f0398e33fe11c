import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// Deadlines and courses in a real SQLite file and a PostgreSQL database: the typed row,
/// `published_deadlines` resolving weight and reminders from the course, and courses added only
/// where missing.
@Suite struct DeadlineStoreTests {
    @Test(arguments: Engine.allCases)
    func publishedDeadlinesResolveTheirCourse(_ engine: Engine) throws {
        try engine.withLocation { store, path in try publishedDeadlinesResolveTheirCourse(store, path) }
    }

    func publishedDeadlinesResolveTheirCourse(_ store: any ImportStore, _ path: String) throws {
        let chemistry = Course(
            code: "CHEM-AP", name: "AP Chemistry", teacher: "Ms. Patel", school: "hillcrest", reminders: [4320, 60], weights: ["test": 40, "quiz": 20])
        #expect(try store.saveCourse(chemistry, by: "ana", onlyIfMissing: false))
        // A source's rule never overwrites what a person set; saving the same again writes nothing.
        var other = chemistry
        other.reminders = [10]
        #expect(try store.saveCourse(other, by: "import", onlyIfMissing: true) == false)
        #expect(try store.saveCourse(chemistry, by: "ana", onlyIfMissing: false) == false)
        #expect(try store.courses() == [chemistry])
        #expect(throws: TimeTrackError.self) { try store.saveCourse(Course(code: "BAD CODE", name: "x"), by: "ana", onlyIfMissing: false) }
        #expect(throws: TimeTrackError.self) { try store.saveCourse(Course(code: "X", name: "x", weights: ["labs": 10]), by: "ana", onlyIfMissing: false) }

        let due = ISO8601DateFormatter().date(from: "2026-10-09T21:30:00Z") ?? Date()
        let quiz = Deadline(title: "Stoichiometry quiz", course: "chem-ap", courseName: "AP Chemistry", due: due, timeZone: "America/Denver", category: .quiz)
        let essay = Deadline(
            title: "Essay", course: "ENG-11", due: due, timeZone: "America/Denver", dueTimeGuessed: true, category: .homework, weight: 15, reminders: [30])
        let lifecycle = Lifecycle(store)
        for deadline in [quiz, essay] {
            let item = try lifecycle.submit(.deadline(deadline), school: "hillcrest", by: "ana", note: nil)
            #expect(item.id.hasPrefix("d"))
            _ = try lifecycle.approve(item.id, by: "ana")
        }
        let rows = try Binaries.sql(
            path,
            "SELECT title || '|' || course_name || '|' || coalesce(CAST(CAST(weight AS INTEGER) AS TEXT), '') || '|' || reminders || '|' || due_at ||"
                + " '|' || due_time_guessed || '|' || school FROM published_deadlines ORDER BY title"
        )
        #expect(rows.contains("Essay|ENG-11|15|[30]|2026-10-09T21:30:00Z|1|hillcrest"), "\(rows)")
        #expect(rows.contains("Stoichiometry quiz|AP Chemistry|20|[4320,60]|2026-10-09T21:30:00Z|0|hillcrest"), "\(rows)")
        // Removing the course: the deadline keeps its own name; the default reminders apply.
        #expect(try store.removeCourse("CHEM-AP", by: "ana"))
        #expect(try store.removeCourse("CHEM-AP", by: "ana") == false)
        let after = try Binaries.sql(
            path, "SELECT course_name || '|' || coalesce(CAST(weight AS TEXT), '') || '|' || reminders FROM published_deadlines WHERE title LIKE 'Stoich%'")
        #expect(after.trimmingCharacters(in: .whitespacesAndNewlines) == "AP Chemistry||[1440,120]", "\(after)")
        let actions = try Binaries.sql(path, "SELECT action FROM audit WHERE action LIKE 'course-%' ORDER BY id")
        #expect(actions.split(separator: "\n") == ["course-add", "course-remove"], "\(actions)")
        // Listing by due date, soonest first, within a range.
        let window = due.addingTimeInterval(-60)...due.addingTimeInterval(60)
        #expect(try store.list(ItemQuery(kind: .deadline, dated: window)).count == 2)
        #expect(try store.list(ItemQuery(kind: .deadline, dated: due.addingTimeInterval(60)...due.addingTimeInterval(120))).isEmpty)
    }

    /// Editing a deadline: the due time is typed in the school's zone and is then no guess;
    /// reminders are typed as offsets.
    @Test func editsReadTheSchoolsZoneAndOffsets() throws {
        let zone = TimeZone(identifier: "America/Denver") ?? .current
        let edits = try ItemContent.parseEdits([("due", "2026-10-09 08:15"), ("reminders", "2d, 90m")], kind: .deadline, zone: zone)
        #expect(edits["due"] == .string("2026-10-09T14:15:00Z"))
        #expect(edits["dueTimeGuessed"] == .bool(false))
        #expect(edits["reminders"] == .array([.number(2880), .number(90)]))
        #expect(throws: TimeTrackError.self) { try ItemContent.parseEdits([("reminders", "soon")], kind: .deadline, zone: zone) }
    }
}
