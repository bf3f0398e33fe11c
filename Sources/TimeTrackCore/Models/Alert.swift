import Foundation

/// An emergency or urgent notice (a closure, a lockdown, a late start): the top of every screen of
/// the app while it lasts.
///
/// Unlike an announcement, an alert always ends: `expiresAt` is the source's, or the end of the
/// school day in the school's zone (`SourceDefinition.alertEnds`). When the district takes it
/// down, the next import withdraws it from the app. See docs/alerts.md.
public struct Alert: Codable, Equatable, Sendable {
    /// How loudly the app raises it.
    public enum Severity: String, Codable, CaseIterable, Sendable, Comparable {
        /// Safety: a lockdown, a closure for weather, an evacuation.
        case emergency
        /// Today's plans change: a late start, a bus delay.
        case urgent
        /// Worth knowing now, no action needed.
        case info

        /// Whether a published or withdrawn alert of this severity runs the district's `onAlert` hook.
        public var notifies: Bool { self != .info }

        public static func < (a: Self, b: Self) -> Bool {
            (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
        }
    }

    public var title: String
    /// Plain text, a sentence or two.
    public var message: String?
    public var severity: Severity
    /// Where the district says more.
    public var link: String?
    /// When the district posted it, when the source says.
    public var publishedAt: Date?
    /// When the app stops showing it: always set.
    public var expiresAt: Date
    /// When an approved alert goes live (nil: at its approval).
    public var publishAt: Date?
    /// When a person should look at it again.
    public var reviewBy: Date?

    public init(
        title: String, message: String? = nil, severity: Severity = .urgent, link: String? = nil, publishedAt: Date? = nil, expiresAt: Date,
        publishAt: Date? = nil
    ) {
        self.title = title
        self.message = message
        self.severity = severity
        self.link = link
        self.publishedAt = publishedAt
        self.expiresAt = expiresAt
        self.publishAt = publishAt
    }

    /// The problems that keep this alert from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.optionalText(message, "message", max: 5_000, into: &problems)
        Check.url(link, "link", into: &problems)
        if let publishAt, expiresAt <= publishAt {
            problems.append(.init(field: "expiresAt", message: "is not after publishAt"))
        }
        return problems
    }
}
