import Foundation

/// A social feed post shared by a student, parent or teacher; staff moderate it.
public struct Post: Codable, Equatable, Sendable {
    /// Who wrote a post.
    public enum AuthorRole: String, Codable, CaseIterable, Sendable { case student, parent, teacher, staff, other }

    public var authorName: String
    public var authorRole: AuthorRole
    public var text: String
    public var imageURLs: [String]
    public var createdAt: Date
    /// Why staff approved or refused it.
    public var moderationNote: String?
    /// What each photo shows, in the order of `imageURLs` (written by staff: `l` in review, or
    /// `edit ID imageAlts="…|…"`); an empty one is not described yet.
    ///
    /// Nil: none described.
    public var imageAlts: [String]?
    /// After this moment the app stops showing it.
    public var expiresAt: Date?

    /// When an approved item goes live (nil: at its approval); see docs/alerts.md.
    public var publishAt: Date?
    /// When a person should look at it again (it then waits in review, still shown).
    public var reviewBy: Date?

    public init(authorName: String, authorRole: AuthorRole, text: String, imageURLs: [String] = [], createdAt: Date, moderationNote: String? = nil) {
        self.authorName = authorName
        self.authorRole = authorRole
        self.text = text
        self.imageURLs = imageURLs
        self.createdAt = createdAt
        self.moderationNote = moderationNote
    }

    /// The problems that keep this post from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(authorName, "authorName", max: 200, into: &problems)
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && imageURLs.isEmpty {
            problems.append(.init(field: "text", message: "is required when the post has no image"))
        }
        Check.optionalText(text, "text", max: 10_000, into: &problems)
        if let imageAlts {
            if imageAlts.count > imageURLs.count {
                problems.append(.init(field: "imageAlts", message: "has \(imageAlts.count) descriptions for \(imageURLs.count) photo(s)"))
            }
            for (index, alt) in imageAlts.enumerated() { Check.optionalText(alt, "imageAlts[\(index)]", max: 1_000, into: &problems) }
        }
        for (index, url) in imageURLs.enumerated() {
            // A photo submitted to a local inbox is a file until it is exported (as a copy
            // without its location, linked relatively): file URLs with an absolute path are fine.
            if let parsed = URL(string: url), parsed.isFileURL, parsed.path.hasPrefix("/") { continue }
            Check.url(url, "imageURLs[\(index)]", into: &problems)
        }
        return problems
    }
}
