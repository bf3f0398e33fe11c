import Foundation
import TimeTrackCore

extension ArticleExtractor {
    /// The article's headline, publication date and lead image, from the page's own statements
    /// first (schema.org JSON-LD, OpenGraph and article meta tags), then from its markup (the
    /// first `<h1>`, a `<time>`, a dateline in the text above the body, the body's first image).
    struct Metadata {
        var headline: String?
        var date: String?
        var image: String?
    }

    /// Reads the metadata of `document`, whose body is `text`.
    static func metadata(_ document: HTMLDocument, body text: String, bodyHTML: String) -> Metadata {
        let root = document.root
        func meta(_ selector: String) -> String? {
            root.first(selector)?.attribute("content").map(TextNormalizer.collapse).flatMap { $0.isEmpty ? nil : $0 }
        }
        let linked = linkedArticle(root)
        var found = Metadata()
        found.headline =
            linked?["headline"]?.stringValue.map { TextNormalizer.collapse(TextNormalizer.decodeEntities($0)) }
            ?? meta("meta[property='og:title']") ?? root.first("h1").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
            ?? root.first("title").map(\.text)
        found.date =
            meta("meta[property='article:published_time']") ?? linked?["datePublished"]?.stringValue
            ?? meta("meta[name='date']") ?? meta("meta[name='pubdate']") ?? meta("meta[itemprop='datePublished']")
            ?? root.first("time[datetime]")?.attribute("datetime") ?? dateline(root.text, before: text)
        let linkedImage: String? = {
            switch linked?["image"] {
            case .string(let url)?: return url
            case .object(let object)?: return object["url"]?.stringValue
            case .array(let list)?: return list.first.flatMap { $0.stringValue ?? $0.objectValue?["url"]?.stringValue }
            default: return nil
            }
        }()
        let firstImage = try? HTMLDocument(html: "<html><body>\(bodyHTML)</body></html>").root.first("img")?.attribute("src")
        found.image = (meta("meta[property='og:image']") ?? linkedImage ?? firstImage ?? nil).flatMap(document.resolve)
        return found
    }

    /// The page's schema.org article object (`NewsArticle`, `Article`, `BlogPosting`, also in a
    /// `@graph`), if any.
    static func linkedArticle(_ root: HTMLNode) -> [String: JSONValue]? {
        let wanted: Set<String> = ["NewsArticle", "Article", "BlogPosting", "Report", "ReportageNewsArticle"]
        var queue: [JSONValue] = ((try? root.select("script[type='application/ld+json']")) ?? []).compactMap { try? JSONValue(parsing: $0.rawContent) }
        var steps = 0
        while !queue.isEmpty, steps < 10_000 {
            steps += 1
            let value = queue.removeFirst()
            switch value {
            case .array(let list): queue += list
            case .object(let object):
                let types = object["@type"].map { $0.stringValue.map { [$0] } ?? $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
                if !Set(types).isDisjoint(with: wanted) { return object }
                if let graph = object["@graph"] { queue.append(graph) }
            default: continue
            }
        }
        return nil
    }

    /// A date written as a dateline ("November 19, 2026", "19 Nov 2026", "2026-11-19") in the
    /// page's text before the body begins.
    static func dateline(_ page: String, before body: String) -> String? {
        let start = body.prefix(60)
        let head = start.isEmpty ? Substring(page.prefix(3_000)) : page.range(of: start).map { page[..<$0.lowerBound].suffix(3_000) } ?? page.prefix(3_000)
        let months =
            "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?"
        let patterns = [months + " \\d{1,2},? \\d{4}", "\\d{1,2} " + months + " \\d{4}", "\\b\\d{4}-\\d{2}-\\d{2}\\b"]
        for pattern in patterns {
            if let range = head.range(of: pattern, options: [.regularExpression, .backwards]) { return String(head[range]) }
        }
        return nil
    }
}
