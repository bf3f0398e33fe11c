import Foundation
import Testing

@testable import TimeTrackCore

/// Issue 36: `edit ID FIELD=VALUE` read on its own: the field table agrees with the models it
/// edits, every type's forms and refusals, what an empty value does, and what a new start or
/// due time implies.
@Suite struct EditParsingTests {
    static let at = Date(timeIntervalSince1970: 1_790_000_000)
    static let denver = TimeZone(identifier: "America/Denver") ?? .current

    /// An item of each kind with every optional field given, so its JSON names every field.
    static func full(_ kind: ItemKind) -> ItemContent {
        untimed(kind).withTimes(ItemTimes(publishAt: at, expiresAt: at.addingTimeInterval(60), reviewBy: at))
    }

    static func untimed(_ kind: ItemKind) -> ItemContent {
        switch kind {
        case .announcement:
            return .announcement(
                Announcement(
                    title: "t", summary: "s", body: "b", imageURL: "https://d.example/a.jpg", imageAlt: "a", link: "https://d.example/", publishedAt: at,
                    priority: .urgent, expiresAt: at))
        case .event:
            return .event(
                Event(
                    title: "t", category: .arts, start: at, end: at, allDay: false, timeZone: "America/Denver", locationName: "l", address: "a", latitude: 1,
                    longitude: 2, description: "d", link: "https://d.example/", state: .scheduled))
        case .schoolInfo:
            return .schoolInfo(
                SchoolInfoItem(
                    section: .schedules, title: "t", url: "https://d.example/a.pdf", documentType: .pdf, fingerprint: "f", group: "g",
                    documentProblems: [.noText],
                    accessibleCopy: "c"))
        case .post:
            var post = Post(authorName: "a", authorRole: .teacher, text: "t", imageURLs: ["https://d.example/p.jpg"], createdAt: at, moderationNote: "m")
            post.imageAlts = ["x"]
            return .post(post)
        case .absence:
            return .absence(AbsenceReport(student: "s", reportedBy: "r", dates: ["2026-09-14"], periods: ["1"], reason: .illness, note: "n", outcome: .excused))
        case .ticket:
            return .ticket(Ticket(from: "f", kind: .question, subject: "s", message: "m", replies: [Ticket.Reply(by: "b", at: at, text: "r")], closed: true))
        case .deadline:
            var deadline = Deadline(
                title: "t", course: "C", courseName: "n", teacher: "t", due: at, timeZone: "America/Denver", category: .quiz, weight: 1, points: 2,
                reminders: [60], link: "https://d.example/", description: "d", sourceLine: "l")
            deadline.score = 1
            return .deadline(deadline)
        case .alert:
            return .alert(Alert(title: "t", message: "m", severity: .emergency, link: "https://d.example/", publishedAt: at, expiresAt: at))
        }
    }

    /// Fields a person does not edit with `edit` (a ticket's replies are written by `reply`).
    static let notEdited: [ItemKind: Set<String>] = [.ticket: ["replies"]]

    @Test(arguments: ItemKind.allCases)
    func theFieldTableNamesEveryFieldOfTheModel(_ kind: ItemKind) {
        let modelFields = Set(Self.full(kind).fields().keys)
        let table = Set(ItemContent.fieldTypes(of: kind).keys)
        #expect(
            table == modelFields.subtracting(Self.notEdited[kind] ?? []),
            "\(kind): only in the table \(table.subtracting(modelFields)), only in the model \(modelFields.subtracting(table))")
        #expect(ItemContent.fieldNames(of: kind) == table.sorted())
    }

    static func edits(_ pairs: [(String, String)], _ kind: ItemKind = .event, current: ItemContent? = nil, keepDuration: Bool = false) throws -> [String:
        JSONValue]
    {
        try ItemContent.parseEdits(pairs, kind: kind, current: current, zone: denver, keepDuration: keepDuration)
    }

    @Test func eachTypeReadsItsForms() throws {
        let event = try Self.edits([("title", "Fall Concert, 7 PM"), ("latitude", "40.0150"), ("allDay", "No"), ("state", "cancelled")])
        #expect(event["title"] == .string("Fall Concert, 7 PM") && event["latitude"] == .number(40.015))
        #expect(event["allDay"] == .bool(false) && event["state"] == .string("cancelled"))
        let post = try Self.edits([("imageURLs", "https://d.example/a.jpg, https://d.example/b.jpg"), ("imageAlts", "Kids, smiling | ")], .post)
        #expect(post["imageURLs"] == .array([.string("https://d.example/a.jpg"), .string("https://d.example/b.jpg")]))
        #expect(post["imageAlts"] == .array([.string("Kids, smiling"), .string("")]))
        let deadline = try Self.edits([("reminders", "1d, 2h,30m")], .deadline)
        #expect(deadline["reminders"] == .array([.number(1_440), .number(120), .number(30)]))
    }

    @Test(arguments: [("true", true), ("YES", true), ("1", true), ("on", true), ("false", false), ("No", false), ("0", false), ("off", false)])
    func truthValues(_ text: String, _ expected: Bool) throws {
        #expect(try Self.edits([("allDay", text)])["allDay"] == .bool(expected))
    }

    @Test func anEmptyValueClearsTheField() throws {
        let cleared = try Self.edits([("end", ""), ("locationName", "")])
        #expect(cleared["end"] == .null && cleared["locationName"] == .null)
    }

    static let refusals: [(ItemKind, String, String, String)] = [
        (.event, "colour", "red", "has no field 'colour'"), (.event, "latitude", "north", "is not a number"), (.event, "latitude", "nan", "is not a number"),
        (.event, "longitude", "inf", "is not a number"), (.event, "latitude", "1e999", "is not a number"), (.event, "allDay", "maybe", "not true or false"),
        (.event, "state", "Cancelled", "is not one of"), (.event, "category", "sports", "is not one of"), (.event, "start", "tomorrow", "is not a date"),
        (.event, "start", "2026-02-30 10:00", "is not a date"), (.event, "start", "2026-09-15T25:00", "is not a date"),
        (.event, "start", "2026-09-15T10:00+99:99", "is not a date"), (.deadline, "reminders", "1d, soon", "'soon' is not a reminder offset"),
        (.deadline, "weight", "forty", "is not a number"), (.ticket, "replies", "x", "has no field 'replies'"),
    ]

    @Test(arguments: refusals)
    func refusalsNameTheField(_ kind: ItemKind, _ field: String, _ value: String, _ message: String) {
        let error = #expect(throws: TimeTrackError.self) { try Self.edits([(field, value)], kind) }
        #expect(error?.message.contains(message) == true, "\(field)=\(value): \(error?.message ?? "")")
        #expect(error?.context["field"] == field)
        #expect(error?.code == .usage)
    }

    @Test func anUnknownFieldListsTheKindsFields() {
        let error = #expect(throws: TimeTrackError.self) { try Self.edits([("colour", "red")], .ticket) }
        #expect(error?.fix == "fields: closed, from, kind, message, subject")
    }

    // MARK: What follows from the fields typed

    @Test func aDayAloneMakesAnAllDayEventEndingTheNextDay() throws {
        let result = try Self.edits([("start", "2026-09-15")])
        #expect(result["allDay"] == .bool(true))
        #expect(result["start"] == .string("2026-09-15T06:00:00Z") && result["end"] == .string("2026-09-16T06:00:00Z"))
        // Said otherwise, it is left as said.
        let timed = try Self.edits([("start", "2026-09-15"), ("allDay", "false")])
        #expect(timed["allDay"] == .bool(false) && timed["end"] == nil)
        let ended = try Self.edits([("start", "2026-09-15"), ("end", "2026-09-17")])
        #expect(ended["allDay"] == nil && ended["end"] == .string("2026-09-17T06:00:00Z"))
    }

    @Test func aNewStartMovesTheEndOnlyWhenAsked() throws {
        let start = Date(timeIntervalSince1970: 1_789_500_000)
        let current = ItemContent.event(Event(title: "Game", start: start, end: start.addingTimeInterval(7_200), timeZone: "America/Denver"))
        let moved = try Self.edits([("start", "2026-09-20 18:00")], current: current, keepDuration: true)
        #expect(moved["start"] == .string("2026-09-21T00:00:00Z") && moved["end"] == .string("2026-09-21T02:00:00Z"))
        let kept = try Self.edits([("start", "2026-09-20 18:00")], current: current)
        #expect(kept["end"] == nil)
        let bothGiven = try Self.edits([("start", "2026-09-20 18:00"), ("end", "2026-09-20 19:00")], current: current, keepDuration: true)
        #expect(bothGiven["end"] == .string("2026-09-21T01:00:00Z"))
    }

    @Test func aTimeAloneIsOnTheFieldsCurrentDay() throws {
        let current = ItemContent.event(Event(title: "Game", start: Self.at, timeZone: "America/Denver"))
        // 1_790_000_000 is 2026-09-21 08:13 in Denver.
        #expect(try Self.edits([("start", "18:30")], current: current)["start"] == .string("2026-09-22T00:30:00Z"))
        #expect(throws: TimeTrackError.self) { try Self.edits([("start", "18:30")]) }
    }

    @Test func aTypedDueTimeIsNoLongerAGuess() throws {
        #expect(try Self.edits([("due", "2026-10-09 08:00")], .deadline)["dueTimeGuessed"] == .bool(false))
        #expect(try Self.edits([("due", "2026-10-09 08:00"), ("dueTimeGuessed", "true")], .deadline)["dueTimeGuessed"] == .bool(true))
        #expect(try Self.edits([("title", "Lab")], .deadline)["dueTimeGuessed"] == nil)
    }

    @Test(arguments: [
        ("2026-09-14", true), (" 2026-09-14 ", true), ("2026-09-14 18:00", false), ("2026-09-14T18:00", false), ("18:00", false), ("2026-9-14", false),
    ])
    func daysAlone(_ text: String, _ expected: Bool) {
        #expect(EditDate.isDayAlone(text) == expected, "\(text)")
    }
}
