import Foundation

/// A parent's report that a student is or was absent.
public struct AbsenceReport: Codable, Equatable, Sendable {
    /// Why the student is absent.
    public enum Reason: String, Codable, CaseIterable, Sendable { case illness, appointment, family, other }
    /// What the school decided.
    public enum Outcome: String, Codable, CaseIterable, Sendable { case excused, unexcused }

    public var student: String
    public var reportedBy: String
    /// School days as `yyyy-MM-dd`.
    public var dates: [String]
    /// Class periods, empty for the whole day.
    public var periods: [String]
    public var reason: Reason
    public var note: String?
    public var outcome: Outcome?

    public init(student: String, reportedBy: String, dates: [String], periods: [String] = [], reason: Reason, note: String? = nil, outcome: Outcome? = nil) {
        self.student = student
        self.reportedBy = reportedBy
        self.dates = dates
        self.periods = periods
        self.reason = reason
        self.note = note
        self.outcome = outcome
    }

    /// The problems that keep this report from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(student, "student", max: 200, into: &problems)
        Check.text(reportedBy, "reportedBy", max: 200, into: &problems)
        if dates.isEmpty { problems.append(.init(field: "dates", message: "needs at least one date")) }
        for (index, date) in dates.enumerated() where !AbsenceReport.isCalendarDate(date) {
            problems.append(.init(field: "dates[\(index)]", message: "'\(date)' is not a date like 2026-09-14"))
        }
        Check.optionalText(note, "note", max: 5_000, into: &problems)
        return problems
    }

    /// Whether `text` is a real `yyyy-MM-dd` calendar date.
    public static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return false }
        return calendar.component(.day, from: date) == day && calendar.component(.month, from: date) == month
    }
}
