import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// Issue 36: the Core models' own rules, checked where they live rather than through the
/// console: who may read and decide what (every role, kind, status and school), reminder
/// offsets both ways, numbers as people read them, deadline and course checks, names, places
/// and how events are pinned to them.
@Suite struct CoreModelTests {
    // MARK: Who may do what

    static let lakeside = "lakeside-high"
    static let hillcrest = "hillcrest-elementary"

    static func access(_ role: Operator.Role, schools: [String] = []) -> Access {
        Access(Operator(name: "pat", role: role, schools: schools))
    }

    /// The rules as the product brief states them, written out separately from `Access`.
    static func expectedRead(_ role: Operator.Role, schools: [String], kind: ItemKind, status: ItemStatus, school: String?) -> Bool {
        let mine = schools.isEmpty || school.map(schools.contains) == true
        let privateKind = kind == .absence || kind == .ticket
        switch role {
        case .admin: return true
        case .importer: return false
        case .viewer: return !privateKind && status == .published
        case .staff:
            if kind == .post || privateKind { return mine }
            return status == .published && (school == nil || mine)
        }
    }

    static func expectedDecide(_ role: Operator.Role, schools: [String], kind: ItemKind, school: String?) -> Bool {
        let mine = schools.isEmpty || school.map(schools.contains) == true
        switch role {
        case .admin: return true
        case .importer, .viewer: return false
        case .staff: return (kind == .post || kind == .absence || kind == .ticket) && mine
        }
    }

    @Test func everyRoleKindStatusAndSchoolFollowsTheBrief() {
        var checked = 0
        for role in Operator.Role.allCases {
            for schools in [[], [Self.lakeside], [Self.lakeside, Self.hillcrest]] {
                let access = Self.access(role, schools: schools)
                for kind in ItemKind.allCases {
                    for school in [nil, Self.lakeside, Self.hillcrest, "other-school"] {
                        for status in ItemStatus.allCases {
                            let expected = Self.expectedRead(role, schools: schools, kind: kind, status: status, school: school)
                            #expect(
                                access.mayRead(kind, status: status, school: school) == expected,
                                "\(role) \(schools) reading \(kind) \(status) of \(school ?? "the district")")
                            checked += 1
                        }
                        #expect(
                            access.mayDecide(kind, school: school) == Self.expectedDecide(role, schools: schools, kind: kind, school: school),
                            "\(role) \(schools) deciding \(kind) of \(school ?? "the district")")
                    }
                }
            }
        }
        #expect(checked == Operator.Role.allCases.count * 3 * ItemKind.allCases.count * 4 * ItemStatus.allCases.count)
    }

    @Test func importingExportingAndAdministering() {
        #expect(Operator.Role.allCases.filter { Self.access($0).mayImport } == [.admin, .importer])
        #expect(Operator.Role.allCases.filter { Self.access($0).mayExport } == [.admin, .staff, .viewer])
        #expect(Operator.Role.allCases.filter { Self.access($0).mayAdminister } == [.admin])
    }

    @Test func aRefusalSaysWhoMay() {
        #expect(Access.whoMay(decide: .announcement) == "admins")
        #expect(Access.whoMay(decide: .ticket).contains("staff of the item's school"))
        for kind in ItemKind.allCases where !kind.isImportedContent {
            #expect(Access.whoMay(decide: kind).contains("staff"))
        }
    }

    @Test(arguments: ["pat", "j.smith", "cron", "ms_lee-2", "pat@district", "Zoë", String(repeating: "a", count: 64)])
    func operatorNames(_ name: String) {
        #expect(Operator.isValidName(name), "\(name)")
    }

    @Test(arguments: ["", "two words", "semi;colon", "quote'", "new\nline", "tab\t", String(repeating: "a", count: 65), "\u{1B}[31m", "a/b"])
    func notOperatorNames(_ name: String) {
        #expect(!Operator.isValidName(name), "\(name.debugDescription)")
    }

    // MARK: Reminders and numbers

    @Test(arguments: [
        ("1d", 1_440), ("2h", 120), ("30m", 30), ("1d12h", 2_160), ("45", 45), (" 2H ", 120), ("1w", 10_080), ("0", 0), ("1h30m", 90), ("0m", 0),
    ])
    func reminderOffsets(_ text: String, _ minutes: Int) {
        #expect(ReminderOffset.minutes(text) == minutes, "\(text)")
    }

    @Test(arguments: ["", "soon", "1x", "d", "1d 2h", "-5", "12345678", "99999999m", "1.5h", "１d", String(repeating: "1d", count: 9), "h1"])
    func notReminderOffsets(_ text: String) {
        #expect(ReminderOffset.minutes(text) == nil, "\(text)")
    }

    @Test(arguments: [(0, "0m"), (30, "30m"), (120, "2h"), (1_440, "1d"), (2_160, "1d 12h"), (1_501, "1d 1h 1m"), (10_080, "7d")])
    func reminderTexts(_ minutes: Int, _ expected: String) {
        #expect(ReminderOffset.text(minutes) == expected)
    }

    @Test func everyOffsetReadsBackAsWritten() {
        var random = SplitMix64(state: 1_440)
        for _ in 0..<2_000 {
            let minutes = random.int(0...(60 * 1_440))
            let written = ReminderOffset.text(minutes).replacingOccurrences(of: " ", with: "")
            #expect(ReminderOffset.minutes(written) == minutes, "\(minutes) written \(written)")
        }
    }

    @Test(arguments: [(40.0, "40"), (12.5, "12.5"), (0, "0"), (-3, "-3"), (1e20, "1e+20"), (0.1, "0.1"), (100, "100")])
    func plainNumbers(_ value: Double, _ expected: String) {
        #expect(NumberText.plain(value) == expected)
    }

    @Test func percentages() {
        #expect(NumberText.percent(40) == "40%")
        #expect(NumberText.percent(12.5) == "12.5%")
    }

    // MARK: Deadlines and courses

    static let due = Date(timeIntervalSince1970: 1_790_000_000)

    static func deadline(_ change: (inout Deadline) -> Void = { _ in }) -> Deadline {
        var deadline = Deadline(title: "Lab report", course: "CHEM-AP", due: due, timeZone: "America/Denver", category: .homework)
        change(&deadline)
        return deadline
    }

    @Test func aPlainDeadlineHasNoProblems() {
        #expect(Self.deadline().validate().isEmpty)
        #expect(
            Self.deadline {
                $0.weight = 100; $0.points = 0; $0.score = 1_000_000; $0.reminders = [0, 86_400]
            }.validate().isEmpty)
    }

    @Test(arguments: [
        ("title", { @Sendable (d: inout Deadline) in d.title = "  " }),
        ("course", { @Sendable (d: inout Deadline) in d.course = String(repeating: "C", count: 65) }),
        ("timeZone", { @Sendable (d: inout Deadline) in d.timeZone = "Mars/Olympus" }),
        ("weight", { @Sendable (d: inout Deadline) in d.weight = 101 }),
        ("weight", { @Sendable (d: inout Deadline) in d.weight = .nan }),
        ("points", { @Sendable (d: inout Deadline) in d.points = -1 }),
        ("points", { @Sendable (d: inout Deadline) in d.points = .infinity }),
        ("score", { @Sendable (d: inout Deadline) in d.score = 1_000_001 }),
        ("reminders", { @Sendable (d: inout Deadline) in d.reminders = Array(repeating: 60, count: 11) }),
        ("reminders", { @Sendable (d: inout Deadline) in d.reminders = [60 * 1_440 + 1] }),
        ("link", { @Sendable (d: inout Deadline) in d.link = "javascript:alert(1)" }),
        ("link", { @Sendable (d: inout Deadline) in d.link = "/relative" }),
        ("courseName", { @Sendable (d: inout Deadline) in d.courseName = String(repeating: "n", count: 201) }),
        ("sourceLine", { @Sendable (d: inout Deadline) in d.sourceLine = String(repeating: "s", count: 1_001) }),
    ])
    func deadlineProblems(_ field: String, _ change: @Sendable (inout Deadline) -> Void) {
        let problems = Self.deadline(change).validate()
        #expect(problems.map(\.field) == [field], "\(problems)")
    }

    @Test func courseProblemsNameTheField() {
        #expect(Course(code: "CHEM-AP", name: "AP Chemistry", weights: ["test": 40, "homework": 60]).validate().isEmpty)
        #expect(Course(code: "CHEM AP", name: "AP Chemistry").validate().map(\.field) == ["code"])
        #expect(Course(code: "", name: "AP Chemistry").validate().map(\.field) == ["code"])
        #expect(Course(code: "C", name: "").validate().map(\.field) == ["name"])
        #expect(Course(code: "C", name: "N", reminders: [-1]).validate().map(\.field) == ["reminders"])
        let weights = Course(code: "C", name: "N", weights: ["chores": 10, "test": 140]).validate()
        #expect(weights.map(\.field) == ["weights", "weights"])
        #expect(weights.first?.message.contains("'chores' is not a category") == true)
        #expect(weights.last?.message.contains("test 140.0 is not a percentage") == true)
    }

    @Test func textChecksCountCharactersNotBytes() {
        var problems: [ValidationProblem] = []
        Check.text(String(repeating: "é", count: 500), "title", into: &problems)
        #expect(problems.isEmpty)
        Check.text(String(repeating: "é", count: 501), "title", into: &problems)
        #expect(problems.map(\.description) == ["title: is 501 characters long; at most 500 are allowed"])
        problems = []
        Check.optionalText(nil, "x", max: 1, into: &problems)
        Check.optionalText("👩‍👩‍👧‍👦", "x", max: 1, into: &problems)
        #expect(problems.isEmpty)
        Check.timeZone("America/Denver", "timeZone", into: &problems)
        Check.timeZone("Eastern", "timeZone", into: &problems)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("IANA") == true)
    }

    // MARK: Places

    @Test(arguments: [
        ("Room 100", "room 100"), ("Rm. 100", "room 100"), ("rm 100", "room 100"), ("RMS 1-2", "room 1 2"), ("The Gym", "gym"),
        ("  Lakeside   High School!! ", "lakeside high school"), ("Café Room", "café room"), ("the", nil), ("", nil), ("---", nil), (nil, nil),
        ("Theater", "theater"),
    ])
    func placeKeys(_ name: String?, _ expected: String?) {
        #expect(PlaceKey.make(name) == expected, "\(name ?? "nil")")
    }

    static let places = Gazetteer([
        Place(id: 1, school: lakeside, name: "Lakeside High School", address: "100 Lake Rd", latitude: 40.1, longitude: -105.1, isDefault: true),
        Place(id: 2, school: lakeside, name: "Main Gym", address: "100 Lake Rd", latitude: 40.11, longitude: -105.11, aliases: ["Gymnasium", "The Gym"]),
        Place(id: 3, school: nil, name: "Main Gym", address: "1 District Way", latitude: 40.2, longitude: -105.2),
        Place(id: 4, school: nil, name: "District Office", address: "1 District Way", latitude: 40.3, longitude: -105.3, aliases: ["DO"]),
        Place(id: 5, school: hillcrest, name: "Hillcrest Elementary", address: "5 Hill St", isDefault: true),
    ])

    @Test(arguments: [
        ("Main Gym", lakeside, Int64(2)), ("gymnasium", lakeside, 2), ("Main Gym", hillcrest, 3), ("Main Gym", nil, 3), ("the district office", hillcrest, 4),
        ("DO", lakeside, 4), (nil, lakeside, 1), (nil, hillcrest, 5), ("", lakeside, 1), ("Stadium", lakeside, nil), (nil, nil, nil),
        ("Gymnasium", hillcrest, nil),
    ])
    func pins(_ location: String?, _ school: String?, _ expected: Int64?) {
        #expect(Self.places.pin(location: location, school: school)?.id == expected, "\(location ?? "nil") at \(school ?? "district")")
    }

    @Test func pinningFillsOnlyWhatTheEventLacks() throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let bare = Event(title: "Game", start: start, timeZone: "America/Denver", locationName: "Main Gym")
        let pinned = Self.places.pinned(bare, school: Self.lakeside)
        #expect(pinned.place?.id == 2)
        #expect(pinned.event.address == "100 Lake Rd" && pinned.event.latitude == 40.11 && pinned.event.longitude == -105.11)
        let addressed = Event(title: "Game", start: start, timeZone: "America/Denver", locationName: "Main Gym", address: "Field 3, 100 Lake Rd")
        let kept = Self.places.pinned(addressed, school: Self.lakeside).event
        #expect(kept.address == "Field 3, 100 Lake Rd" && kept.latitude == 40.11)
        let complete = Event(
            title: "Game", start: start, timeZone: "America/Denver", locationName: "Main Gym", address: "Elsewhere", latitude: 1, longitude: 2)
        let untouched = Self.places.pinned(complete, school: Self.lakeside)
        #expect(untouched.place == nil && untouched.event == complete)
        let noCoordinates = Self.places.pinned(Event(title: "Fair", start: start, timeZone: "America/Denver"), school: Self.hillcrest)
        #expect(noCoordinates.place?.id == 5)
        #expect(noCoordinates.event.address == "5 Hill St" && noCoordinates.event.latitude == nil)
    }

    @Test func placesAnswerToEveryNameOnce() {
        let place = Place(school: nil, name: "Main Gym", address: nil, aliases: ["main gym", "The Main Gym", "Gymnasium", ""])
        #expect(place.keys == ["main gym", "main gym", "main gym", "gymnasium"])
        #expect(Gazetteer([place]).pin(location: "MAIN GYM", school: "x") == place)
    }
}
