import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackReview

extension Session {
    /// The privacy check's allow list: `_privacy.json` in the imports folder, and the hosts of
    /// the sources' sites (their e-mail domains are the district's own).
    func privacyAllowList() -> PrivacyAllowList {
        if let privacyAllowed { return privacyAllowed }
        var list = PrivacyAllowList()
        for entry in Console.privacyEntries(importsPath: importsPath) { _ = list.add(entry) }
        for source in sources().sources {
            for url in [source.baseURL, source.url] {
                guard let host = url?.host?.lowercased(), url?.isFileURL == false, !host.isEmpty else { continue }
                list.siteHosts.insert(host.hasPrefix("www.") ? String(host.dropFirst(4)) : host)
            }
        }
        privacyAllowed = list
        return list
    }
}

extension Console {
    /// Where the allow list is kept.
    static func privacyFile(_ importsPath: String) -> String { (importsPath as NSString).appendingPathComponent("_privacy.json") }

    static func privacyEntries(importsPath: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: privacyFile(importsPath)), let object = (try? JSONValue(parsing: data))?.objectValue else {
            return []
        }
        return object["allow"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    static var privacyCommand: CommandSpec { PrivacyCommand.spec }

    struct PrivacyCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "privacy",
            summary: "what the privacy check lets through: the district's own contact e-mails, phones and domains (`privacy allow info@district.org"
                + " 555-123-4567 district.org`)")
        @Positional("[allow|disallow VALUE...]", count: 0...100, completes: [.words(["allow", "disallow"]), .none]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let out = session.output
            var entries = privacyEntries(importsPath: session.importsPath)
            guard let verb = words.first else {
                let list = session.privacyAllowList()
                out.line("allowed (\(privacyFile(session.importsPath))): " + (entries.isEmpty ? "none" : entries.joined(separator: ", ")))
                out.line(
                    "the district's sites (e-mails at their domains are its own): "
                        + (list.siteHosts.isEmpty ? "none" : list.siteHosts.sorted().joined(separator: ", ")))
                out.line("street addresses and students' names are always flagged")
                return 0
            }
            guard ["allow", "disallow"].contains(verb), words.count >= 2 else {
                throw TimeTrackError(.usage, "privacy: allow or disallow, then what", fix: "privacy allow info@district.org 555-123-4567 district.org")
            }
            try session.requireAdmin(in: try session.store(), for: "privacy \(verb)")
            for value in words.dropFirst() {
                var probe = PrivacyAllowList()
                guard let what = probe.add(value) else {
                    throw TimeTrackError(
                        .usage, "privacy: '\(value)' is not an e-mail address, a phone number or a domain",
                        fix: "e.g. info@district.org, 555-123-4567, district.org")
                }
                let normalized = value.trimmingCharacters(in: .whitespaces).lowercased()
                if verb == "allow" {
                    if !entries.contains(normalized) { entries.append(normalized) }
                    out.line("allowed: \(what)")
                } else {
                    let before = entries.count
                    entries.removeAll { $0 == normalized }
                    out.line(before == entries.count ? "not on the list: \(what)" : "no longer allowed: \(what)")
                }
            }
            let text = (try? JSONCoding.prettyString(JSONValue.object(["allow": .array(entries.sorted().map(JSONValue.string))]))) ?? "{}"
            try AtomicFile.write(Data(text.utf8), to: privacyFile(session.importsPath))
            session.privacyAllowed = nil
            return 0
        }
    }

}
