import Foundation
import TimeTrackCore

/// What in a public item (announcement, event, post, school info) looks like private
/// information: a phone number, an e-mail address, a street address in running text, or the name
/// of a student who appears in an absence report.
///
/// Approving such an item takes an explicit "anyway", which the audit records
/// (`Lifecycle.approve`).
public enum PrivacyLint {
    /// One thing found.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case phone = "phone number"
            case email = "e-mail address"
            case address = "street address"
            case student = "student's name"
        }
        public var kind: Kind
        /// The field it is in.
        public var field: String
        /// The text that matched, as it is in the field.
        public var match: String
        /// The field's text around it (at most about 30 characters each side).
        public var before: String
        public var after: String

        public var description: String { "\(kind.rawValue) \"\(match)\" in \(field)" }
    }

    /// Fields whose values are meant to hold places, links or machine values, not running text.
    static let skipped: Set<String> = [
        "link", "url", "imageURL", "imageURLs", "address", "locationName", "timeZone", "fingerprint", "latitude", "longitude",
        "start", "end", "publishedAt", "expiresAt", "createdAt", "priority", "category", "state", "section", "documentType", "authorRole",
    ]

    static let patterns: [(Finding.Kind, NSRegularExpression?)] = [
        (.phone, try? NSRegularExpression(pattern: #"(?<![\d-])(?:\+?1[-. ]?)?(?:\(\d{3}\)\s?|\d{3}[-. ])\d{3}[-. ]\d{4}(?![\d-])"#)),
        (.email, try? NSRegularExpression(pattern: #"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+"#)),
        (
            .address,
            try? NSRegularExpression(
                pattern:
                    #"\b\d{1,5}\s+(?:[NSEW]\.?\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+"#
                    + #"(?:St|Street|Ave|Avenue|Rd|Road|Dr|Drive|Ln|Lane|Ct|Court|Blvd|Boulevard|Way|Pl|Place|Cir|Circle|Ter|Terrace)\b"#
            )
        ),
    ]

    /// Whether items of `kind` are linted (what families and the public see).
    public static func applies(to kind: ItemKind) -> Bool { kind.traits.exported }

    /// What in `content` looks private; `students` are the names from absence reports.
    ///
    /// `allowed`: the district's own e-mails, phones and domains, not flagged.
    public static func findings(_ content: ItemContent, students: [String], allowed: PrivacyAllowList = PrivacyAllowList()) -> [Finding] {
        guard applies(to: content.kind) else { return [] }
        var found: [Finding] = []
        let studentPatterns = students.filter { $0.count >= 3 }.map { name in
            try? NSRegularExpression(pattern: #"\b"# + NSRegularExpression.escapedPattern(for: name) + #"\b"#, options: [.caseInsensitive])
        }
        for (field, value) in content.fields().sorted(by: { $0.key < $1.key }) where !skipped.contains(field) {
            guard let text = value.stringValue, !text.isEmpty else { continue }
            let ns = text as NSString
            func add(_ kind: Finding.Kind, _ range: NSRange) {
                let start = max(0, range.location - 30), end = min(ns.length, range.location + range.length + 30)
                found.append(
                    Finding(
                        kind: kind, field: field, match: ns.substring(with: range),
                        before: ns.substring(with: NSRange(location: start, length: range.location - start)),
                        after: ns.substring(with: NSRange(location: range.location + range.length, length: end - range.location - range.length))))
            }
            for (kind, pattern) in patterns {
                for match in pattern?.matches(in: text, range: NSRange(location: 0, length: ns.length)) ?? [] { add(kind, match.range) }
            }
            for pattern in studentPatterns {
                for match in pattern?.matches(in: text, range: NSRange(location: 0, length: ns.length)) ?? [] { add(.student, match.range) }
            }
        }
        return found.filter { !allowed.allows($0) }
    }
}
