import Foundation
import TimeTrackCore

/// What the privacy check lets through: the district's own contact e-mails, phone numbers and
/// domains (`privacy allow`, kept in the imports folder's `_privacy.json`), and by default the
/// domains of the district's own sites (an e-mail at the site's domain or a parent of it is the
/// district's).
///
/// Street addresses and students' names are never let through.
public struct PrivacyAllowList: Sendable, Equatable {
    /// E-mail addresses, lowercased.
    public var emails: Set<String> = []
    /// Domains whose every e-mail address is allowed, lowercased.
    public var domains: Set<String> = []
    /// Phone numbers as their last ten digits.
    public var phones: Set<String> = []
    /// The hosts of the district's sites: e-mails at them (or a parent domain) are allowed.
    public var siteHosts: Set<String> = []

    public init() {}

    /// An entry as typed (`info@district.org`, `district.org`, `(555) 555-0100`) added; nil when it
    /// is none of the three.
    public mutating func add(_ entry: String) -> String? {
        let text = entry.trimmingCharacters(in: .whitespaces).lowercased()
        if text.contains("@") {
            guard text.split(separator: "@").count == 2 else { return nil }
            emails.insert(text)
            return "e-mail \(text)"
        }
        let digits = text.filter(\.isNumber)
        if digits.count >= 7, text.allSatisfy({ $0.isNumber || " ()-.+".contains($0) }) {
            phones.insert(String(digits.suffix(10)))
            return "phone \(text)"
        }
        let domain = text.hasPrefix("@") ? String(text.dropFirst()) : text
        guard domain.contains("."), domain.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        domains.insert(domain)
        return "domain \(domain)"
    }

    /// Whether the finding is the district's own, as this list says.
    public func allows(_ finding: PrivacyLint.Finding) -> Bool {
        switch finding.kind {
        case .email:
            let address = finding.match.lowercased()
            if emails.contains(address) { return true }
            guard let domain = address.split(separator: "@").last.map(String.init) else { return false }
            if domains.contains(where: { domain == $0 || domain.hasSuffix("." + $0) }) { return true }
            return siteHosts.contains { host in host == domain || (host.hasSuffix("." + domain) && PrivacyAllowList.isOwnDomain(domain)) }
        case .phone:
            return phones.contains(String(finding.match.filter(\.isNumber).suffix(10)))
        case .address, .student:
            return false
        }
    }

    /// Whether a parent domain of a site is the district's own rather than one shared by many
    /// (`k12.ca.us`, `org`): two labels at least, and not a state's K-12 domain.
    static func isOwnDomain(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".")
        guard labels.count >= 2 else { return false }
        if labels.count == 3, labels[0] == "k12", labels[2] == "us" { return false }
        return true
    }

    /// The entries as written in `_privacy.json` (`{"allow": [...]}`), sorted.
    public var entries: [String] { (emails.sorted() + domains.sorted() + phones.sorted()) }
}
