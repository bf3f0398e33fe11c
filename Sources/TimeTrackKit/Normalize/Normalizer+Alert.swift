import Foundation
import TimeTrackCore

/// Alerts, and the times every kind the app shows may carry (docs/alerts.md).
extension Normalizer {
    /// The raw names of the time fields: `publishAt` (live from), `expires` (out of the app
    /// from), `reviewBy` (a person looks again by).
    public static let timeNames: Set<String> = ["publishAt", "expires", "reviewBy"]

    /// The end of the school day an alert without an expiry ends at, when the definition says
    /// none (`options.alertEnds`).
    public static let defaultAlertEnd = "16:00"

    /// Sets the content's times from the raw item's `publishAt`, `expires` and `reviewBy`.
    func timed(_ content: ItemContent, _ raw: RawItem, _ guesses: inout [Guess]) throws -> ItemContent {
        let publishAt = try date(raw, "publishAt", &guesses)?.date
        let expires = try date(raw, "expires", &guesses)?.date
        let reviewBy = try date(raw, "reviewBy", &guesses)?.date
        guard publishAt != nil || expires != nil || reviewBy != nil else { return content }
        // An alert's times are its own builder's (its expiry is never empty); absence reports and
        // tickets have none. An expiry the content already says (a closing's end) stays when
        // the source gives none.
        if case .alert = content { return content }
        return content.withTimes(ItemTimes(publishAt: publishAt, expiresAt: expires ?? content.expiresAt, reviewBy: reviewBy))
    }

    /// An alert: its title, message (plain text, from `message`, `summary` or `body`),
    /// severity (said, else read from its words), link, and an expiry that is always set: the
    /// source's, else the first end of the school day after it was posted (guessed, and said so).
    func alert(_ raw: RawItem, _ guesses: inout [Guess]) throws -> Alert {
        let title = try required(raw, "title")
        let said = text(raw, "message") ?? text(raw, "summary") ?? raw["body"].map { TextNormalizer.plainText(fromHTML: $0) }
        let message = said.map { TextNormalizer.truncate($0, to: 2_000) }.flatMap { $0.isEmpty || $0 == title ? nil : $0 }
        let posted = try date(raw, "date", &guesses)?.date
        let publishAt = try date(raw, "publishAt", &guesses)?.date
        var expires = try date(raw, "expires", &guesses)?.date
        if expires == nil {
            let end = endOfSchoolDay(after: publishAt ?? posted ?? dates.reference)
            expires = end
            guesses.append(Guess("expiry guessed: the end of the school day (\(alertEndText))"))
        }
        var alert = Alert(
            title: title, message: message,
            severity: Normalizer.severity(raw["severity"] ?? source.options["severity"]?.stringValue, words: title + " " + (message ?? "")),
            link: try url(raw, "link"), publishedAt: posted, expiresAt: expires ?? dates.reference, publishAt: publishAt)
        alert.reviewBy = try date(raw, "reviewBy", &guesses)?.date
        return alert
    }

    /// `options.alertEnds` ("16:00"), or the default.
    var alertEndText: String { source.options["alertEnds"]?.stringValue ?? Normalizer.defaultAlertEnd }

    /// The first end of the school day (in the source's zone) after `moment`.
    func endOfSchoolDay(after moment: Date) -> Date {
        let parts = alertEndText.split(separator: ":").compactMap { Int($0) }
        let (hour, minute) = (parts.first ?? 16, parts.count > 1 ? parts[1] : 0)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        let today = calendar.date(bySettingHour: min(max(hour, 0), 23), minute: min(max(minute, 0), 59), second: 0, of: moment) ?? moment
        return today > moment ? today : calendar.date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
    }

    /// An alert's severity: the word the source gives (`emergency`, `urgent`, `info`, and the
    /// platforms' `high`, `critical`, `warning`, `notice`...), else the words of its text.
    public static func severity(_ said: String?, words: String) -> Alert.Severity {
        if let said = said?.lowercased().trimmingCharacters(in: .whitespaces), !said.isEmpty {
            if let exact = Alert.Severity(rawValue: said) { return exact }
            if ["critical", "high", "severe", "red", "danger", "emergency-alert"].contains(said) { return .emergency }
            if ["warning", "medium", "important", "alert", "orange", "yellow"].contains(said) { return .urgent }
            if ["low", "notice", "information", "informational", "general", "normal", "blue", "green"].contains(said) { return .info }
        }
        let text = " " + words.lowercased() + " "
        let emergency = ["lockdown", "lock down", "shelter in place", "shelter-in-place", "evacuat", "emergency", "threat", "active shooter", "hold in place"]
        if emergency.contains(where: { TextNormalizer.has(text, $0) }) { return .emergency }
        let urgent = [
            "closed", "closure", "closing", "cancel", "delay", "late start", "early dismissal", "early release", "remote learning", "no school",
            "power outage", "weather", "snow", "ice ", "bus ",
        ]
        if urgent.contains(where: { TextNormalizer.has(text, $0) }) { return .urgent }
        return .info
    }
}
