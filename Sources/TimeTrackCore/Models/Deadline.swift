import Foundation

/// A coursework deadline: what is due, in which course, when, and how much it counts.
///
/// The due instant is in the school's zone (`timeZone`). A deadline whose source gave a day
/// but no time ("due Friday") is due at the end of that school day and has `dueTimeGuessed`
/// set, so the app and the reviewer can tell.
public struct Deadline: Codable, Equatable, Sendable {
    /// What sort of work is due: the grade calculator's categories.
    public enum Category: String, Codable, CaseIterable, Sendable { case homework, quiz, test, project, reading, other }

    /// The minutes before the due instant at which the app reminds, when neither the deadline
    /// nor its course says otherwise: one day and two hours.
    public static let defaultReminders = [1440, 120]

    public var title: String
    /// The course's code (`course add`), e.g.
    ///
    /// `CHEM-AP`.
    public var course: String
    /// The course's name as people read it ("AP Chemistry").
    public var courseName: String?
    public var teacher: String?
    public var due: Date
    /// IANA zone of the school: the due instant is shown and typed in it.
    public var timeZone: String
    /// The source gave no time: `due` is the end of that school day.
    public var dueTimeGuessed: Bool
    public var category: Category
    /// The category's share of the course grade, in percent, when the source says it (else the
    /// course's weights say it).
    public var weight: Double?
    /// What the work is worth in points, when known.
    public var points: Double?
    /// Minutes before `due` to remind at; nil: the course's offsets (default 1 day and 2 hours).
    public var reminders: [Int]?
    public var link: String?
    /// Plain text: the assignment's description, or the text of the photo it was read from.
    public var description: String?
    /// The line of text the deadline was read from (photos of assignment sheets).
    public var sourceLine: String?
    /// The points earned, once graded (`score ID 18/20`): the student's own record, never
    /// taken from or compared with a source.
    public var score: Double?
    /// After this moment the app stops showing it.
    public var expiresAt: Date?

    /// When an approved item goes live (nil: at its approval); see docs/alerts.md.
    public var publishAt: Date?
    /// When a person should look at it again (it then waits in review, still shown).
    public var reviewBy: Date?

    public init(
        title: String, course: String, courseName: String? = nil, teacher: String? = nil, due: Date, timeZone: String, dueTimeGuessed: Bool = false,
        category: Category = .homework, weight: Double? = nil, points: Double? = nil, reminders: [Int]? = nil, link: String? = nil,
        description: String? = nil, sourceLine: String? = nil
    ) {
        self.title = title
        self.course = course
        self.courseName = courseName
        self.teacher = teacher
        self.due = due
        self.timeZone = timeZone
        self.dueTimeGuessed = dueTimeGuessed
        self.category = category
        self.weight = weight
        self.points = points
        self.reminders = reminders
        self.link = link
        self.description = description
        self.sourceLine = sourceLine
    }

    /// The problems that keep this deadline from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.text(course, "course", max: 64, into: &problems)
        Check.optionalText(courseName, "courseName", max: 200, into: &problems)
        Check.optionalText(teacher, "teacher", max: 200, into: &problems)
        Check.timeZone(timeZone, "timeZone", into: &problems)
        if let weight, !(weight.isFinite && (0...100).contains(weight)) {
            problems.append(.init(field: "weight", message: "\(weight) is not a percentage from 0 to 100"))
        }
        if let score, !(score.isFinite && score >= 0 && score <= 1_000_000) {
            problems.append(.init(field: "score", message: "\(score) is not a number of points from 0 to 1000000"))
        }
        if let points, !(points.isFinite && points >= 0 && points <= 1_000_000) {
            problems.append(.init(field: "points", message: "\(points) is not a number of points from 0 to 1000000"))
        }
        if let reminders { Check.reminders(reminders, "reminders", into: &problems) }
        Check.url(link, "link", into: &problems)
        Check.optionalText(description, "description", max: 100_000, into: &problems)
        Check.optionalText(sourceLine, "sourceLine", max: 1000, into: &problems)
        return problems
    }
}

/// A course deadlines belong to: who teaches it, at which school, when to remind and what each
/// category of work counts for.
///
/// `course add` keeps them; a deadline source's `courses` rules
/// add the ones it names.
public struct Course: Codable, Sendable, Equatable {
    /// A short code people type (`CHEM-AP`); unique, case-insensitive.
    public var code: String
    public var name: String
    public var teacher: String?
    public var school: String?
    /// Minutes before a deadline to remind at.
    public var reminders: [Int]
    /// Each category's share of the grade, in percent, by category name (`test: 40`).
    public var weights: [String: Double]

    public init(
        code: String, name: String, teacher: String? = nil, school: String? = nil, reminders: [Int] = Deadline.defaultReminders, weights: [String: Double] = [:]
    ) {
        self.code = code
        self.name = name
        self.teacher = teacher
        self.school = school
        self.reminders = reminders
        self.weights = weights
    }

    /// The problems that keep this course from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(code, "code", max: 64, into: &problems)
        if code.contains(where: { $0.isWhitespace || $0.isNewline }) {
            problems.append(.init(field: "code", message: "'\(code)' has spaces; use a short code like CHEM-AP"))
        }
        Check.text(name, "name", max: 200, into: &problems)
        Check.optionalText(teacher, "teacher", max: 200, into: &problems)
        Check.reminders(reminders, "reminders", into: &problems)
        for (category, weight) in weights.sorted(by: { $0.key < $1.key }) {
            if Deadline.Category(rawValue: category) == nil {
                problems.append(
                    .init(field: "weights", message: "'\(category)' is not a category (\(Deadline.Category.allCases.map(\.rawValue).joined(separator: ", ")))"))
            } else if !(weight.isFinite && (0...100).contains(weight)) {
                problems.append(.init(field: "weights", message: "\(category) \(weight) is not a percentage from 0 to 100"))
            }
        }
        return problems
    }
}

/// How people write reminder offsets: `1d`, `2h`, `30m`, `1d12h`, and lists of them.
public enum ReminderOffset {
    /// Minutes in `text` (`1d`, `2h`, `90m`, `1d12h`, `45` as minutes), or nil.
    public static func minutes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty, t.count <= 16 else { return nil }
        // At most seven digits a number: no product or sum can overflow (a year is 525,600 minutes).
        if let plain = Int(t) { return plain >= 0 && t.count <= 7 ? plain : nil }
        var total = 0, number = ""
        for c in t {
            if c.isASCII, c.isNumber {
                number.append(c)
                guard number.count <= 7 else { return nil }
            } else {
                guard let n = Int(number), let unit = ["w": 10080, "d": 1440, "h": 60, "m": 1][String(c)] else { return nil }
                total += n * unit
                number = ""
            }
        }
        return number.isEmpty ? total : nil
    }

    /// `1d`, `2h`, `1d 12h`, `30m`: minutes as people write them.
    public static func text(_ minutes: Int) -> String {
        if minutes == 0 { return "0m" }
        var parts: [String] = []
        var rest = minutes
        for (unit, size) in [("d", 1440), ("h", 60), ("m", 1)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.joined(separator: " ")
    }
}

extension Check {
    /// Reminder offsets: at most 10, each from 0 to 60 days before.
    public static func reminders(_ values: [Int], _ field: String, into problems: inout [ValidationProblem]) {
        if values.count > 10 { problems.append(.init(field: field, message: "has \(values.count) offsets; at most 10 are allowed")) }
        for value in values where !(0...(60 * 1440)).contains(value) {
            problems.append(.init(field: field, message: "\(value) minutes is not an offset from 0 to 60 days before"))
        }
    }
}

/// Percentages and points as people read them: `40%`, `12.5%`, `20`.
public enum NumberText {
    /// `40`, `12.5`: whole numbers without a decimal point.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
    }

    /// `40%`, `12.5%`.
    public static func percent(_ value: Double) -> String { plain(value) + "%" }
}
