import Foundation

/// A PDF a body links to, and what it lacks for a screen reader (`SchoolInfoItem.DocumentProblem`).
public struct LinkedDocument: Codable, Equatable, Sendable {
    /// The document's address, as the body links it (made absolute).
    public var url: String
    public var problems: [SchoolInfoItem.DocumentProblem]

    public init(url: String, problems: [SchoolInfoItem.DocumentProblem]) {
        self.url = url
        self.problems = problems
    }
}
