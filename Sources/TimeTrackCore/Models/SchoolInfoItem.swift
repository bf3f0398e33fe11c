import Foundation

/// A School Info document or page: schedules, policies, programs...
public struct SchoolInfoItem: Codable, Equatable, Sendable {
    /// The School Info screen the item appears on.
    public enum Section: String, Codable, CaseIterable, Sendable {
        case schedules, calendars, disclosures, policies, programs, activities, resources, counseling, other
    }

    /// What the link opens.
    public enum DocumentType: String, Codable, CaseIterable, Sendable {
        case pdf, image, page, video, document, spreadsheet, other
    }

    public var section: Section
    public var title: String
    public var url: String
    public var documentType: DocumentType
    /// SHA-256 of the document's bytes, when fetched.
    public var fingerprint: String?
    /// The heading the link was listed under on its page (a meeting date, a program name).
    public var group: String?

    public init(section: Section, title: String, url: String, documentType: DocumentType, fingerprint: String? = nil, group: String? = nil) {
        self.section = section
        self.title = title
        self.url = url
        self.documentType = documentType
        self.fingerprint = fingerprint
        self.group = group
    }

    /// The problems that keep this item from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.optionalText(group, "group", max: 500, into: &problems)
        if url.isEmpty { problems.append(.init(field: "url", message: "is required")) } else { Check.url(url, "url", into: &problems) }
        if let fingerprint, fingerprint.count != 64 || !fingerprint.allSatisfy(\.isHexDigit) {
            problems.append(.init(field: "fingerprint", message: "must be a 64-character hex SHA-256"))
        }
        return problems
    }
}
