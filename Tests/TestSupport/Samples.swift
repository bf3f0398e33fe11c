import Foundation
import TimeTrackCore

/// Ready-made valid models, one per kind.
public enum Samples {
    public static let day = Date(timeIntervalSince1970: 1_789_000_000)

    public static func announcement(_ title: String = "Back to school night") -> ItemContent {
        .announcement(Announcement(title: title, summary: "Meet the teachers.", link: "https://hillcrest.example.org/news/1", publishedAt: day))
    }

    public static func event(_ title: String = "Board meeting") -> ItemContent {
        .event(
            Event(
                title: title, category: .board, start: day, end: day.addingTimeInterval(3600), timeZone: "America/Denver", locationName: "Library",
                latitude: 40.61843887, longitude: -111.86856020))
    }

    public static func schoolInfo(_ title: String = "Weekday Schedule") -> ItemContent {
        .schoolInfo(SchoolInfoItem(section: .schedules, title: title, url: "https://hillcrest.example.org/School_Schedule.pdf", documentType: .pdf))
    }

    public static func post(_ text: String = "Go Huskies!") -> ItemContent {
        .post(Post(authorName: "Ana", authorRole: .student, text: text, imageURLs: ["https://img.example.org/1.jpg"], createdAt: day))
    }

    public static func absence() -> ItemContent {
        .absence(AbsenceReport(student: "Sam Lee", reportedBy: "Pat Lee", dates: ["2026-09-14"], periods: ["1", "2"], reason: .appointment))
    }

    public static func ticket() -> ItemContent {
        .ticket(
            Ticket(
                from: "pat@example.org", kind: .question, subject: "Lunch schedule", message: "When is B lunch?",
                replies: [.init(by: "staff", at: day, text: "11:45")]))
    }

    public static func deadline(_ title: String = "Lab report 3") -> ItemContent {
        .deadline(
            Deadline(
                title: title, course: "CHEM-AP", courseName: "AP Chemistry", teacher: "Ms. Patel", due: day, timeZone: "America/Denver", dueTimeGuessed: true,
                category: .homework,
                weight: 30, points: 20, reminders: [1440, 120], link: "https://canvas.example.edu/courses/1/assignments/2"))
    }

    /// One valid content of each kind.
    public static var allKinds: [ItemContent] { [announcement(), event(), schoolInfo(), post(), absence(), ticket(), deadline()] }

    /// Provenance for a test source.
    public static func provenance(_ source: String = "test-news") -> Provenance {
        Provenance(
            sourceID: source, sourceURL: "https://hillcrest.example.org/news", fetchedAt: day, pageHash: String(repeating: "a", count: 64), importer: "html",
            importerVersion: "1.0")
    }
}
