import Foundation

/// A district or school announcement: the app's slideshow and news.
public struct Announcement: Codable, Equatable, Sendable {
    /// How prominently the app shows an announcement.
    public enum Priority: String, Codable, CaseIterable, Sendable { case normal, urgent }

    public var title: String
    /// Plain text, a sentence or two.
    public var summary: String?
    /// Sanitized HTML (see the importer kit's sanitizer).
    public var body: String?
    public var imageURL: String?
    public var imageAlt: String?
    /// The original article.
    public var link: String?
    public var publishedAt: Date?
    public var priority: Priority
    /// After this moment the app stops showing it.
    public var expiresAt: Date?
    /// The PDFs its body links to, with what each lacks for a screen reader (checked at import
    /// when the source says `"checkPDFs": true`; nil: not checked).
    public var linkedDocuments: [LinkedDocument]?

    /// When an approved item goes live (nil: at its approval); see docs/alerts.md.
    public var publishAt: Date?
    /// When a person should look at it again (it then waits in review, still shown).
    public var reviewBy: Date?

    public init(
        title: String, summary: String? = nil, body: String? = nil, imageURL: String? = nil, imageAlt: String? = nil,
        link: String? = nil, publishedAt: Date? = nil, priority: Priority = .normal, expiresAt: Date? = nil
    ) {
        self.title = title
        self.summary = summary
        self.body = body
        self.imageURL = imageURL
        self.imageAlt = imageAlt
        self.link = link
        self.publishedAt = publishedAt
        self.priority = priority
        self.expiresAt = expiresAt
    }

    /// The problems that keep this announcement from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.optionalText(summary, "summary", max: 5_000, into: &problems)
        Check.optionalText(body, "body", max: 1_000_000, into: &problems)
        Check.url(imageURL, "imageURL", into: &problems)
        Check.url(link, "link", into: &problems)
        if let publishedAt, let expiresAt, expiresAt < publishedAt {
            problems.append(.init(field: "expiresAt", message: "is before publishedAt"))
        }
        return problems
    }
}
