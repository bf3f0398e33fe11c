import Foundation
import TimeTrackCore

/// The `courses` rules of a deadline source: which course a feed's or a photo's text names.
///
/// ```json
/// "courses": [{"code": "CHEM-AP", "name": "AP Chemistry", "teacher": "Ms. Patel",
///              "match": ["AP Chem", "CHEM 201"], "reminders": ["1d", "2h"],
///              "weights": {"test": 40, "quiz": 20, "homework": 30, "project": 10}}],
/// "course": "CHEM-AP"
/// ```
/// A rule matches a text that contains its code, its name or one of its `match` words (case and
/// spacing do not count). `course` is the code of items whose text names none.
public struct CourseRules: Sendable {
    public struct Rule: Sendable {
        public var course: Course
        public var match: [String]
    }

    public var rules: [Rule]
    /// The course of items that name none.
    public var fallback: String?

    /// Reads `options.courses` and `options.course`, naming the option and what is wrong.
    public init(source: SourceDefinition) throws {
        rules = []
        if let list = source.options["courses"] {
            guard let array = list.arrayValue else {
                throw source.error("options.courses", "must be a list of courses ({\"code\": …, \"name\": …, \"match\": […]})")
            }
            for (index, entry) in array.enumerated() {
                let at = "options.courses[\(index)]"
                guard let object = entry.objectValue else { throw source.error(at, "must be an object with code and name") }
                for key in object.keys where !["code", "name", "teacher", "school", "match", "reminders", "weights"].contains(key) {
                    throw source.error("\(at).\(key)", "is not a field of a course rule", fix: "fields: code, name, teacher, school, match, reminders, weights")
                }
                guard let code = object["code"]?.stringValue, let name = object["name"]?.stringValue else {
                    throw source.error(at, "needs a code and a name", fix: "e.g. {\"code\": \"CHEM-AP\", \"name\": \"AP Chemistry\", \"match\": [\"AP Chem\"]}")
                }
                var match: [String] = []
                switch object["match"] {
                case nil: break
                case .string(let one)?: match = [one]
                case .array(let many)?:
                    match = try many.map { value in
                        guard let text = value.stringValue else { throw source.error("\(at).match", "must be a text or a list of texts") }
                        return text
                    }
                default: throw source.error("\(at).match", "must be a text or a list of texts")
                }
                var course = Course(code: code, name: name, teacher: object["teacher"]?.stringValue, school: object["school"]?.stringValue ?? source.school)
                if let reminders = object["reminders"] {
                    guard let texts = reminders.arrayValue?.compactMap(\.stringValue), texts.count == reminders.arrayValue?.count,
                        let minutes = Optional(texts.compactMap(ReminderOffset.minutes)), minutes.count == texts.count
                    else {
                        throw source.error("\(at).reminders", "must be a list of offsets before the due time", fix: "e.g. [\"1d\", \"2h\"]")
                    }
                    course.reminders = minutes
                }
                if let weights = object["weights"] {
                    guard let table = weights.objectValue else {
                        throw source.error("\(at).weights", "must map categories to percentages", fix: "e.g. {\"test\": 40, \"homework\": 30}")
                    }
                    for (category, value) in table {
                        guard let number = value.numberValue else { throw source.error("\(at).weights.\(category)", "must be a percentage") }
                        course.weights[category] = number
                    }
                }
                if let problem = course.validate().first { throw source.error(at, problem.description) }
                rules.append(Rule(course: course, match: match))
            }
        }
        if let fallback = source.options["course"] {
            guard let code = fallback.stringValue, !code.isEmpty else { throw source.error("options.course", "must be a course code") }
            self.fallback = code
        }
    }

    /// Checks what every deadline source may set (`courses`, `course`, `category`,
    /// `schoolDayEnds`), naming the option and what is wrong.
    public static func checkDeadlineOptions(_ source: SourceDefinition) throws {
        if let category = source.options["category"], category.stringValue.flatMap(Deadline.Category.init(rawValue:)) == nil {
            throw source.error("options.category", "must be one of " + Deadline.Category.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let ends = source.options["schoolDayEnds"], ends.stringValue.flatMap(DateParser.findTime) == nil {
            throw source.error("options.schoolDayEnds", "must be a time of day", fix: "e.g. \"15:30\" or \"3:30 PM\"")
        }
        _ = try CourseRules(source: source)
    }

    /// The course a text names: the first rule matched by code, name or one of its words.
    public func course(in text: String) -> Course? {
        let folded = CourseRules.fold(text)
        guard !folded.isEmpty else { return nil }
        for rule in rules {
            let words = [rule.course.code, rule.course.name] + rule.match
            if words.map(CourseRules.fold).contains(where: { !$0.isEmpty && (folded == $0 || TextNormalizer.has(" \(folded) ", " \($0) ")) }) {
                return rule.course
            }
        }
        return nil
    }

    /// The rule of a course code.
    public func course(code: String) -> Course? {
        rules.first { $0.course.code.caseInsensitiveCompare(code) == .orderedSame }?.course
    }

    /// Lowercased words separated by single spaces: "AP  Chemistry!" → "ap chemistry".
    public static func fold(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: " ")
    }
}

/// Reading deadline fields: categories from words, relative days ("next Monday"), points.
public enum DeadlineReading {
    /// Words pointing to a category, checked in this order.
    static let categoryWords: [(Deadline.Category, [String])] = [
        (.quiz, ["quiz", "quizzes", "quizz"]),
        (.test, ["test", "tests", "exam", "exams", "midterm", "final exam", "assessment"]),
        (.project, ["project", "presentation", "portfolio", "poster"]),
        (.reading, ["reading", "read", "chapter", "chapters", "ch", "pages", "pp"]),
        (.homework, ["homework", "hw", "worksheet", "problem set", "problems", "assignment", "essay", "lab", "report", "practice", "exercises", "discussion"]),
    ]

    /// The category a label, a title and a link point to; nil when nothing does.
    public static func category(label: String?, title: String, link: String?) -> Deadline.Category? {
        if let label {
            let clean = label.trimmingCharacters(in: .whitespaces).lowercased()
            if let exact = Deadline.Category(rawValue: clean) { return exact }
            if let found = find(in: clean) { return found }
        }
        // LMS links say what the work is: Canvas /quizzes/, /discussion_topics/; Moodle /mod/quiz/.
        if let link = link?.lowercased() {
            if link.contains("/quizzes/") || link.contains("/mod/quiz/") || link.contains("quiz") { return .quiz }
            if link.contains("/discussion_topics/") || link.contains("/mod/forum/") { return .homework }
        }
        return find(in: title.lowercased())
    }

    static func find(in text: String) -> Deadline.Category? {
        let words = " " + CourseRules.fold(text) + " "
        for (category, keywords) in categoryWords where keywords.contains(where: { TextNormalizer.has(words, " \($0) ") }) {
            return category
        }
        return nil
    }

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The weekday a word names (`fri`, `Thurs`, `tuesday`), 1 = Sunday.
    public static func weekday(_ word: String) -> Int? {
        let w = word.lowercased()
        guard w.count >= 3 else { return nil }
        for (index, name) in weekdays.enumerated()
        where name.hasPrefix(w) || (w == "tues" && index == 2) || (w == "thur" && index == 4) || (w == "thurs" && index == 4) {
            return index + 1
        }
        return nil
    }

    /// A day named relative to `reference` ("today", "tomorrow", "Friday", "next Monday",
    /// "this Thursday"), as local midnight in `zone`, with how it was read; nil when the text
    /// names none.
    ///
    /// A bare weekday is the next such day after the reference day; "next X" is X
    /// of the following week (weeks from Monday).
    public static func relativeDay(_ text: String, reference: Date, zone: TimeZone) -> (day: Date, reading: String)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.firstWeekday = 2
        let today = calendar.startOfDay(for: reference)
        let words = CourseRules.fold(text).split(separator: " ").map(String.init)
        func day(_ offset: Int) -> Date? { calendar.date(byAdding: .day, value: offset, to: today) }
        if words.contains("tomorrow") { return day(1).map { ($0, "tomorrow") } }
        if words.contains("today") || words.contains("tonight") { return day(0).map { ($0, "today") } }
        for (index, word) in words.enumerated() {
            guard let target = weekday(word) else { continue }
            let current = calendar.component(.weekday, from: today)
            var ahead = (target - current + 7) % 7
            if ahead == 0 { ahead = 7 }
            let previous = index > 0 ? words[index - 1] : ""
            if previous == "next" {
                // X of the following week: Monday-based weeks.
                let mondayIndex = { (weekday: Int) in (weekday + 5) % 7 }  // Monday 0 … Sunday 6
                let thisWeekStart = -mondayIndex(current)
                ahead = thisWeekStart + 7 + mondayIndex(target)
            }
            return day(ahead).map { ($0, (previous == "next" ? "next " : "") + weekdays[target - 1].capitalized) }
        }
        return nil
    }

    /// A number in a text ("10 pts", "20%", "worth 15 points"); nil when none.
    public static func number(_ text: String) -> Double? {
        var digits = ""
        var seen = false
        for c in text {
            if c.isASCII, c.isNumber || (c == "." && seen && !digits.contains(".")) {
                digits.append(c)
                seen = true
            } else if seen {
                break
            }
        }
        return Double(digits).flatMap { $0.isFinite ? $0 : nil }
    }
}

extension Normalizer {
    /// The raw value holding the instant relative and yearless dates are read against, when
    /// not the run's time (a photo's date): ISO 8601.
    public static let referenceField = "@reference"

    /// When a school day ends, for deadlines given without a time (`options.schoolDayEnds`).
    public static let defaultSchoolDayEnds = "15:30"

    func deadline(_ raw: RawItem, _ guesses: inout [Guess]) throws -> Deadline {
        let title = try required(raw, "title")
        let course = try course(raw, &guesses)
        let (due, guessedTime) = try due(raw, &guesses)
        let link = try url(raw, "link")
        let description = raw["description"].map { TextNormalizer.decodeEntities($0) }.map { text in
            text.split(separator: "\n").map { TextNormalizer.collapse(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }.flatMap { $0.isEmpty ? nil : $0 }
        let fallbackCategory = source.options["category"]?.stringValue.flatMap(Deadline.Category.init(rawValue:))
        let category = DeadlineReading.category(label: text(raw, "category"), title: title, link: link) ?? fallbackCategory ?? .other
        var reminders: [Int]?
        if let text = text(raw, "reminders") {
            let offsets = text.split(separator: ",").compactMap { ReminderOffset.minutes(String($0)) }
            guard !offsets.isEmpty else {
                throw TimeTrackError(.validation, "reminders '\(text.prefix(80))' are not offsets like 1d, 2h", context: ["field": "reminders"])
            }
            reminders = offsets
        }
        return Deadline(
            title: title, course: course.code, courseName: course.name, teacher: course.teacher, due: due, timeZone: source.timeZone.identifier,
            dueTimeGuessed: guessedTime,
            category: category, weight: text(raw, "weight").flatMap(DeadlineReading.number), points: text(raw, "points").flatMap(DeadlineReading.number),
            reminders: reminders, link: link, description: description, sourceLine: text(raw, "line"))
    }

    /// The course: a rule's, else the text as it came (noted), else the definition's.
    func course(_ raw: RawItem, _ guesses: inout [Guess]) throws -> Course {
        let rules = try CourseRules(source: source)
        var course: Course
        if let named = text(raw, "course") {
            if let rule = rules.course(in: named) ?? rules.course(code: named) {
                course = rule
            } else {
                let code = CourseRules.fold(named).uppercased().replacingOccurrences(of: " ", with: "-")
                guard !code.isEmpty else {
                    throw TimeTrackError(.validation, "course '\(named.prefix(80))' has no letters or digits", context: ["field": "course"])
                }
                course = Course(code: String(code.prefix(64)), name: named, school: source.school)
                guesses.append("course '\(TextNormalizer.truncate(named, to: 60))' is not in the source's courses: filed as \(course.code)")
            }
        } else if let code = rules.fallback {
            course = rules.course(code: code) ?? Course(code: code, name: code, school: source.school)
        } else {
            throw TimeTrackError(
                .validation, "no course found", fix: "name the course in options.course, or map the feed's course names with options.courses",
                context: ["field": "course"])
        }
        if let teacher = text(raw, "teacher") { course.teacher = teacher }
        return course
    }

    /// The due time: a date read from `due` (or `date`), else a day named relative to the
    /// reference ("next Monday", noted); a time from `time`, else the end of the school day
    /// (marked guessed).
    func due(_ raw: RawItem, _ guesses: inout [Guess]) throws -> (due: Date, timeGuessed: Bool) {
        var parser = dates
        if let reference = raw[Normalizer.referenceField].flatMap({ ISO8601DateFormatter().date(from: $0) }) { parser.reference = reference }
        guard let dueText = text(raw, "due") ?? text(raw, "date") else {
            throw TimeTrackError(.validation, "no due date found", context: ["field": "due"])
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        var due: Date
        var hasTime: Bool
        if let parsed = parser.parse(dueText, hint: yearHint(raw)) {
            note(parsed, "due", raw, &guesses)
            (due, hasTime) = (parsed.date, parsed.hasTime)
            // "Fri 10/9" when 10/9 is a Thursday: say so.
            if let named = CourseRules.fold(dueText).split(separator: " ").compactMap({ DeadlineReading.weekday(String($0)) }).first,
                named != calendar.component(.weekday, from: due)
            {
                let actual = DeadlineReading.weekdays[calendar.component(.weekday, from: due) - 1].capitalized
                guesses.append("the text says \(DeadlineReading.weekdays[named - 1].capitalized) but \(Normalizer.day(due, calendar)) is a \(actual)")
            }
        } else if let relative = DeadlineReading.relativeDay(dueText, reference: parser.reference, zone: source.timeZone) {
            (due, hasTime) = (relative.day, false)
            guesses.append("due day read from '\(relative.reading)' counted from \(Normalizer.day(parser.reference, calendar))")
            if let time = DateParser.findTime(dueText),
                let withTime = calendar.date(bySettingHour: time.hour, minute: time.minute, second: time.second, of: due)
            {
                (due, hasTime) = (withTime, true)
            }
        } else {
            throw TimeTrackError(.validation, "due '\(dueText.prefix(80))' is not a date this importer reads", context: ["field": "due"])
        }
        if !hasTime, let timeText = text(raw, "time"), let withTime = parser.time(timeText, on: due) {
            (due, hasTime) = (withTime, true)
        }
        guard !hasTime else { return (due, false) }
        let ends = source.options["schoolDayEnds"]?.stringValue ?? Normalizer.defaultSchoolDayEnds
        guard let time = DateParser.findTime(ends),
            let end = calendar.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: calendar.startOfDay(for: due))
        else {
            throw TimeTrackError(
                .configuration, "options.schoolDayEnds '\(ends.prefix(40))' is not a time of day", fix: "e.g. \"15:30\"", context: ["field": "schoolDayEnds"])
        }
        guesses.append("due time guessed: the end of the school day (\(String(format: "%02d:%02d", time.hour, time.minute)))")
        return (end, true)
    }

    /// `Wed 2026-10-07`: a day as reviewers read it.
    static func day(_ date: Date, _ calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let name = DeadlineReading.weekdays[((c.weekday ?? 1) - 1) % 7].prefix(3).capitalized
        return name + String(format: " %04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
