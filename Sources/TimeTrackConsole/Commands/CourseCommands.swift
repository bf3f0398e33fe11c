import Foundation
import TimeTrackCore

extension Console {
    /// `course add|remove`: the courses deadlines belong to, with reminder offsets and weights.
    static var courseCommand: CommandSpec { CourseCommand.spec }

    struct CourseCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "course", summary: "add, change or remove a course deadlines belong to: its reminders and category weights (admins only)")
        @Positional("add CODE | remove CODE", count: 1...2, completes: [.words(["add", "remove"]), .none]) var words: [String]
        @Option("name", value: "NAME", help: "the course's name (\"AP Chemistry\")") var name: String?
        @Option("teacher", value: "T", help: "who teaches it") var teacher: String?
        @Option("school", value: "S", help: "the school it is taught at") var school: String?
        @Option(
            "reminders", value: "OFFSETS", completes: .words(["1d,2h", "2d,1h", "3d,1d,1h"]),
            help: "when the app reminds before a deadline: 1d,2h (the default), 3d,1d,1h, 30m...") var reminders: String?
        @Option(
            "weight", value: "CATEGORY=PERCENT", repeating: true, completes: .words(Deadline.Category.allCases.map { $0.rawValue + "=" }),
            help: "a category's share of the grade (test=40); repeat for each") var weight: [String]

        func run(_ session: Session) throws -> Int32 {
            let action = words[0]
            guard ["add", "remove"].contains(action) else {
                throw TimeTrackError(.usage, "course: unknown action '\(action)'", fix: "usage: \(Self.usageLine)")
            }
            guard words.count == 2 else { throw TimeTrackError(.usage, "course \(action): give the course's code", fix: "usage: \(Self.usageLine)") }
            let code = words[1]
            if action == "remove" {
                let store = try session.store()
                try session.requireAdmin(in: store, for: "change courses")
                guard try store.removeCourse(code, by: session.operatorName) else {
                    throw TimeTrackError(.notFound, "no course \(code)", fix: "see the codes with `courses`")
                }
                session.output.line("course \(SafeText.visible(code)) removed (its deadlines keep their course's code and name)")
                return 0
            }
            let store = try session.store(create: true)
            try session.requireAdmin(in: store, for: "change courses")
            let existing = try store.courses().first { $0.code.caseInsensitiveCompare(code) == .orderedSame }
            guard let name = name ?? existing?.name else {
                throw TimeTrackError(.usage, "course add: --name is required for a new course", fix: "e.g. course add \(code) --name \"AP Chemistry\"")
            }
            var course = existing ?? Course(code: code, name: name)
            course.name = name
            if let teacher = teacher { course.teacher = teacher.isEmpty ? nil : teacher }
            if let school = school { course.school = school.isEmpty ? nil : school }
            if let text = reminders {
                var offsets: [Int] = []
                for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let minutes = ReminderOffset.minutes(String(piece)) else {
                        throw TimeTrackError(
                            .usage, "course: '\(piece)' is not a reminder offset", fix: "offsets before the due time, like --reminders 1d,2h or 3d,1h,30m")
                    }
                    offsets.append(minutes)
                }
                course.reminders = offsets
            }
            for assignment in weight {
                let parts = assignment.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let category = Deadline.Category(rawValue: parts[0].lowercased()),
                    let percent = Double(parts[1].hasSuffix("%") ? String(parts[1].dropLast()) : parts[1]), percent.isFinite, (0...100).contains(percent)
                else {
                    throw TimeTrackError(
                        .usage, "course: '\(assignment)' is not CATEGORY=PERCENT",
                        fix: "categories: \(Deadline.Category.allCases.map(\.rawValue).joined(separator: ", ")); e.g. --weight test=40 --weight homework=30")
                }
                course.weights[category.rawValue] = percent
            }
            let total = course.weights.values.reduce(0, +)
            let changed = try store.saveCourse(course, by: session.operatorName, onlyIfMissing: false)
            if session.output.json {
                session.output.printJSON(course)
                return 0
            }
            session.output.line((changed ? (existing == nil ? "course added: " : "course changed: ") : "course unchanged: ") + describe(course))
            if !course.weights.isEmpty && abs(total - 100) > 0.001 {
                session.output.note("note: the weights add up to \(NumberText.percent(total)), not 100%; a grade is weighed by them as given, in proportion")
            }
            return 0
        }
    }

    /// `courses`: the courses, their reminders and weights.
    static var coursesCommand: CommandSpec { CoursesCommand.spec }

    struct CoursesCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("courses", summary: "list the courses deadlines belong to, with reminders and category weights")

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let courses = try store.courses()
            if session.output.json {
                session.output.printJSON(courses)
                return 0
            }
            if courses.isEmpty {
                session.output.line("no courses yet: course add CODE --name NAME (a deadline source's courses rules add theirs on import)")
                return 0
            }
            var table = Table(headers: ["code", "name", "teacher", "school", "reminders", "weights"])
            for course in courses {
                table.rows.append([
                    SafeText.visible(course.code), SafeText.visible(course.name), SafeText.visible(course.teacher ?? ""), SafeText.visible(course.school ?? ""),
                    course.reminders.map(ReminderOffset.text).joined(separator: ", "),
                    course.weights.sorted { $0.key < $1.key }.map { "\($0.key) \(NumberText.percent($0.value))" }.joined(separator: ", "),
                ])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

    /// One line about a course.
    static func describe(_ course: Course) -> String {
        var text = "\(SafeText.visible(course.code)) \(SafeText.visible(course.name))"
        if let teacher = course.teacher { text += ", \(SafeText.visible(teacher))" }
        if let school = course.school { text += " (\(SafeText.visible(school)))" }
        text += "; reminders " + course.reminders.map(ReminderOffset.text).joined(separator: ", ")
        if !course.weights.isEmpty {
            text += "; weights " + course.weights.sorted { $0.key < $1.key }.map { "\($0.key) \(NumberText.percent($0.value))" }.joined(separator: ", ")
        }
        return text
    }
}
