import Foundation
import TimeTrackCore

/// Link text that says nothing out of context ("click here", a bare address) named from where
/// the link goes: the target page's title (its `og:title`, `<title>` or first heading), or a
/// PDF's title.
///
/// A fix for WCAG 2.4.4 a reviewer accepts or not; never applied by an import.
public enum LinkNames {
    /// A link whose text says nothing: in a body (`field` "body"), or a School Info document's
    /// title (`field` "title").
    public struct Vague: Sendable, Equatable {
        public var field: String
        public var url: String
        public var text: String
    }

    /// The vague links of a content, each address once, in order.
    public static func vague(in content: ItemContent) -> [Vague] {
        switch content {
        case .announcement(let a):
            guard let body = a.body, let document = try? HTMLDocument(html: "<div>" + body + "</div>") else { return [] }
            var seen = Set<String>(), out: [Vague] = []
            for link in (try? document.root.select("a[href]")) ?? [] where link.first("img") == nil {
                guard let href = link.attribute("href"), let url = URL(string: href), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                    AccessibilityCheck.linkTextProblem(link.text, href: href) != nil, seen.insert(href).inserted
                else { continue }
                out.append(Vague(field: "body", url: href, text: TextNormalizer.collapse(link.text)))
            }
            return out
        case .schoolInfo(let info):
            guard AccessibilityCheck.linkTextProblem(info.title, href: info.url) != nil else { return [] }
            return [Vague(field: "title", url: info.url, text: info.title)]
        case .event, .post, .absence, .ticket, .deadline, .alert:
            return []
        }
    }

    /// The name of what `data` is: a PDF's title, or a page's `og:title`, `<title>` or first
    /// `h1`, with the site's name after a separator cut off; nil when none says more than the
    /// link did.
    public static func name(of data: Data, url: URL) -> String? {
        var candidates: [String] = []
        if data.starts(with: Array("%PDF-".utf8)) {
            if let title = try? PDFCheck.title(of: data) { candidates.append(title) }
        } else if let document = try? HTMLDocument(data: data, url: url, declaredCharset: nil) {
            candidates += [
                document.root.first("meta[property='og:title']")?.attribute("content"), document.root.first("title")?.text, document.root.first("h1")?.text,
            ].compactMap { $0 }
        }
        for candidate in candidates {
            let name = cleaned(candidate)
            if name.count >= 4, !poorTitles.contains(name.lowercased()), AccessibilityCheck.linkTextProblem(name, href: url.absoluteString) == nil {
                return name
            }
        }
        return nil
    }

    /// Titles that name no page ("Home", an error page's "Page Not Found", a login wall): the
    /// next candidate (the page's first heading) is tried instead.
    static let poorTitles: Set<String> = [
        "home", "home page", "homepage", "welcome", "untitled", "untitled document", "index", "default", "page not found", "not found",
        "404 not found", "404", "error", "sign in", "log in", "login", "access denied", "forbidden", "redirecting", "just a moment...",
    ]

    /// A title without the site's name (`Lunch Menu | Hillcrest Elementary` → `Lunch Menu`),
    /// on one line, at most 120 characters.
    static func cleaned(_ title: String) -> String {
        var text = SafeText.visible(TextNormalizer.collapse(title))
        for separator in [" | ", " – ", " — ", " - ", " :: ", " » "] {
            if let range = text.range(of: separator), text.distance(from: text.startIndex, to: range.lowerBound) >= 4 {
                text = String(text[..<range.lowerBound])
                break
            }
        }
        return String(text.prefix(120)).trimmingCharacters(in: .whitespaces)
    }

    /// The edits that give the links their names: a body with the links' text replaced, or a
    /// document's title.
    ///
    /// `names`: address → name.
    public static func changes(_ content: ItemContent, names: [String: String]) -> [String: JSONValue] {
        switch content {
        case .announcement(let a):
            guard let body = a.body, !names.isEmpty else { return [:] }
            return ["body": .string(Sanitizer.sanitize(html: body, baseURL: nil, renaming: names))]
        case .schoolInfo(let info):
            return names[info.url].map { ["title": .string($0)] } ?? [:]
        case .event, .post, .absence, .ticket, .deadline, .alert:
            return [:]
        }
    }
}
