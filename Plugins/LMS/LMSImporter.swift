import Foundation
import ICalImporter
import TimeTrackCore
import TimeTrackKit

/// The `lms` importer: course calendar feeds from Canvas, Schoology, Google Classroom and Moodle
/// to deadlines.
///
/// Each LMS writes the course into its own place of the feed; the definition's
/// `courses` rules map those names to courses, and each assignment's category comes from its
/// description, its link or its title. A due date moved upstream is the same item (keyed by the
/// feed's UID) with a new `due`: CHANGED in review, with both dates.
public struct LMSImporter: Importer {
    public static let info = ImporterInfo(
        name: "lms", version: "1.0.0", kinds: [.deadline],
        summary:
            "course calendar feeds (Canvas, Schoology, Google Classroom, Moodle) to deadlines: course by rules, category from the description, link or title",
        options: [
            ImporterOption(
                "lms", type: "string", help: "canvas, schoology, classroom or moodle: where the feed names the course (default: read from the feed's PRODID)"),
            ImporterOption(
                "courses", type: "array",
                help: "course rules: [{code, name, teacher, school, match: [words], reminders: [\"1d\", \"2h\"], weights: {test: 40}}]"),
            ImporterOption("course", type: "string", help: "the course code of assignments whose text names none"),
            ImporterOption("coursePattern", type: "string", help: "a pattern whose first group is the course in the SUMMARY; the match is cut from the title"),
            ImporterOption("category", type: "string", help: "category of assignments nothing else classifies (default other)"),
            ImporterOption("schoolDayEnds", type: "string", help: "the due time of assignments given as a day only (default 15:30), marked guessed"),
            ImporterOption("pastDays", type: "number", help: "skip assignments due more than this many days ago (default 30)"),
            ImporterOption("maxItems", type: "number", help: "stop after this many assignments (default 5000)"),
        ])

    /// Where each LMS puts the course.
    public enum Flavor: String, CaseIterable, Sendable {
        /// `Lab report 3 [AP Chemistry]`: the course in brackets at the end of the SUMMARY.
        case canvas
        /// `AP Chemistry: Lab report 3`: the course (and section) before a colon.
        case schoology
        /// `Lab report 3 (AP Chemistry)`, else the class calendar's name (X-WR-CALNAME).
        case classroom
        /// `Lab report 3 is due`, the course's short name in CATEGORIES.
        case moodle

        var pattern: String {
            switch self {
            case .canvas: return #"\s*\[([^\]\[]{1,120})\]\s*$"#
            case .schoology: return #"^\s*([^:]{2,120}?)\s*:\s+"#
            case .classroom: return #"\s*\(([^()]{2,120})\)\s*$"#
            case .moodle: return #"$^"#
            }
        }

        /// The flavor a feed's PRODID names.
        static func detect(_ text: String) -> Flavor? {
            guard let line = text.split(whereSeparator: \.isNewline).prefix(20).first(where: { $0.uppercased().hasPrefix("PRODID") }) else { return nil }
            let lower = line.lowercased()
            if lower.contains("instructure") || lower.contains("canvas") { return .canvas }
            if lower.contains("schoology") { return .schoology }
            if lower.contains("google") { return .classroom }
            if lower.contains("moodle") { return .moodle }
            return nil
        }
    }

    let source: SourceDefinition
    let flavor: Flavor?
    let coursePattern: SafePattern?
    let pastDays: Int
    let maxItems: Int

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(LMSImporter.info)
        if let name = source.options["lms"] {
            guard let flavor = name.stringValue.flatMap({ Flavor(rawValue: $0.lowercased()) }) else {
                throw source.error("options.lms", "must be one of " + Flavor.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.flavor = flavor
        } else {
            flavor = nil
        }
        if let pattern = source.options["coursePattern"] {
            guard let text = pattern.stringValue else { throw source.error("options.coursePattern", "must be a pattern text") }
            do {
                let compiled = try SafePattern(text)
                guard compiled.groupCount >= 1 else { throw source.error("options.coursePattern", "needs a group ( … ) around the course name") }
                coursePattern = compiled
            } catch let error as SafePattern.SyntaxError {
                throw source.error("options.coursePattern", "is not a pattern this importer reads: \(error.message)")
            }
        } else {
            coursePattern = nil
        }
        try CourseRules.checkDeadlineOptions(source)
        pastDays = try source.intOption("pastDays", default: 30, range: 0...3660)
        maxItems = try source.intOption("maxItems", default: 5000, range: 1...100_000)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let page = try context.fetcher.fetch(source.url)
        var result = ImportResult()
        result.pagesFetched = 1
        let text = String(decoding: page.data, as: UTF8.self)
        let feed = try CalendarFeed(text, fallback: source.timeZone, url: source.urlText)
        result.problems += feed.problems
        let flavor = self.flavor ?? Flavor.detect(text) ?? .canvas
        let pattern = coursePattern ?? (try? SafePattern(flavor.pattern))
        let oldest = context.now.addingTimeInterval(-Double(pastDays) * 86_400)
        var found: [MappedFields.Found] = []
        var keys = DistinctKeys()
        for entry in feed.entries {
            let location = "line \(entry.line)"
            if entry.status == "CANCELLED" { continue }
            guard entry.start >= oldest else { continue }
            guard found.count < maxItems else {
                result.note(
                    ImportProblem(.error, "stopped at \(maxItems) assignments: the feed holds more (raise options.maxItems)", location: location))
                break
            }
            var raw = RawItem()
            var title = entry.summary
            var courseText: String?
            if let pattern, let match = pattern.firstMatch(in: title), let group = match.groups.first ?? nil {
                courseText = String(title[group])
                title.removeSubrange(match.whole)
                title = TextNormalizer.collapse(title)
            }
            if flavor == .moodle {
                // Moodle: "Essay is due", "Quiz 2 closes"; the course's short name in CATEGORIES.
                for suffix in [" is due", " closes", " should be completed", " due"] where title.lowercased().hasSuffix(suffix) {
                    title = String(title.dropLast(suffix.count))
                    break
                }
                courseText = courseText ?? entry.categories.first
            }
            if courseText == nil, flavor == .classroom { courseText = feed.name }
            raw["title"] = title
            raw["course"] = courseText
            raw["link"] = entry.url.flatMap { Check.urlProblem($0) == nil ? $0 : nil }
            raw["description"] = entry.description
            raw["category"] = LMSImporter.categoryLabel(entry, flavor: flavor)
            raw["points"] = entry.description.flatMap(LMSImporter.points)
            // A day without a time is read as that day (the normalizer adds the end of the school day).
            if entry.isAllDay {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = entry.zone
                let c = calendar.dateComponents([.year, .month, .day], from: entry.start)
                raw["due"] = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
            } else {
                raw["due"] = ISO8601DateFormatter().string(from: entry.start)
            }
            let key = keys.key(for: entry.uid)
            found.append(MappedFields.Found(key: key, raw: raw, page: page, pageURL: source.publicURL.absoluteString, location: location))
        }
        let normalizer = Normalizer(source: source, now: context.now)
        MappedFields.finish(found, normalizer: normalizer, into: &result, context: context)
        return result
    }

    /// What the feed says the work is: a `Type:` or `Category:` line of the description
    /// (Schoology, Classroom's "Quiz assignment"), else CATEGORIES (not Moodle's: the course).
    static func categoryLabel(_ entry: CalendarFeed.Entry, flavor: Flavor) -> String? {
        for line in (entry.description ?? "").split(separator: "\n").prefix(20) {
            let lower = line.lowercased()
            for label in ["type:", "category:", "assignment type:", "item type:"] where lower.hasPrefix(label) {
                return String(line.dropFirst(label.count)).trimmingCharacters(in: .whitespaces)
            }
            if lower.hasPrefix("quiz assignment") { return "quiz" }
        }
        return flavor == .moodle ? nil : entry.categories.first
    }

    /// "Points: 20", "20 pts", "worth 20 points" in a description.
    static func points(_ description: String) -> String? {
        for line in description.split(separator: "\n").prefix(40) {
            let lower = line.lowercased()
            if lower.hasPrefix("points:") || lower.hasPrefix("points possible:") || lower.contains(" pts") || lower.contains(" points") {
                if let number = DeadlineReading.number(String(line)) { return String(number) }
            }
        }
        return nil
    }
}
