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
    /// What keeps the PDF the app serves from being accessible, as its check found (nil: not
    /// checked; empty: nothing).
    ///
    /// Written by an import that fetched the PDF, and by `ocr`.
    public var documentProblems: [DocumentProblem]?
    /// The SHA-256 of the accessible copy the district keeps of this document (made by `ocr`);
    /// the export serves the copy instead of `url`.
    public var accessibleCopy: String?
    /// After this moment the app stops showing it.
    public var expiresAt: Date?

    /// When an approved item goes live (nil: at its approval); see docs/alerts.md.
    public var publishAt: Date?
    /// When a person should look at it again (it then waits in review, still shown).
    public var reviewBy: Date?

    /// What a PDF lacks for a screen reader, as poppler's tools tell it.
    public enum DocumentProblem: String, Codable, CaseIterable, Sendable, Comparable {
        /// No text layer: a scan, read as a picture (WCAG 1.1.1).
        case noText = "no-text"
        /// Not tagged: no structure (headings, lists, tables) for a screen reader (1.3.1).
        case untagged
        /// No title in its properties (2.4.2).
        case noTitle = "no-title"
        /// No language in its catalog (3.1.1).
        case noLanguage = "no-language"

        public static func < (a: Self, b: Self) -> Bool {
            (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
        }
    }

    public init(
        section: Section, title: String, url: String, documentType: DocumentType, fingerprint: String? = nil, group: String? = nil,
        documentProblems: [DocumentProblem]? = nil, accessibleCopy: String? = nil
    ) {
        self.section = section
        self.title = title
        self.url = url
        self.documentType = documentType
        self.fingerprint = fingerprint
        self.group = group
        self.documentProblems = documentProblems
        self.accessibleCopy = accessibleCopy
    }

    /// The problems that keep this item from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.optionalText(group, "group", max: 500, into: &problems)
        if url.isEmpty { problems.append(.init(field: "url", message: "is required")) } else { Check.url(url, "url", into: &problems) }
        for (field, value) in [("fingerprint", fingerprint), ("accessibleCopy", accessibleCopy)] {
            if let value, !SHA256.isHex(value) {
                problems.append(.init(field: field, message: "must be a 64-character hex SHA-256"))
            }
        }
        return problems
    }
}
