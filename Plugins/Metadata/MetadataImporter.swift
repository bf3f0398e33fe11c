import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `metadata` importer: one item per page with no selectors, from schema.org JSON-LD
/// (NewsArticle, Article, BlogPosting, Event; `@graph` too), then OpenGraph and meta tags, then
/// `<title>` and the first `<h1>`.
///
/// It notices `<link rel="alternate">` feeds and says so.
public struct MetadataImporter: Importer {
    public static let info = ImporterInfo(
        name: "metadata", version: "1.0.0", kinds: [.announcement, .event],
        summary: "one item per page from JSON-LD, OpenGraph and meta tags; no selectors",
        options: [ImporterOption("pages", type: "list of URLs", help: "more pages of the same source, one item each")])

    let source: SourceDefinition
    let pages: [URL]

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(MetadataImporter.info)
        var pages = [source.url]
        if let list = source.options["pages"] {
            guard let array = list.arrayValue else { throw source.error("options.pages", "must be a list of URLs") }
            for (index, entry) in array.enumerated() {
                guard let text = entry.stringValue, let url = URL(string: text, relativeTo: source.url)?.absoluteURL else {
                    throw source.error("options.pages[\(index)]", "is not a URL")
                }
                pages.append(url)
            }
        }
        self.pages = pages
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var result = ImportResult()
        let normalizer = Normalizer(source: source, now: context.now)
        for (index, url) in pages.enumerated() {
            let location = "page \(index + 1)"
            let page: FetchedPage
            do { page = try context.fetcher.fetch(url) } catch let error as TimeTrackError where index > 0 && error.code != .interrupted {
                result.pageUnread(url, error, location: location)
                continue
            }
            result.pagesFetched += 1
            let publicURL = index == 0 ? source.publicURL : url
            let document = try HTMLDocument(data: page.data, url: publicURL, declaredCharset: page.charset)
            let raw = MetadataImporter.read(document, kind: source.kind)
            for feed in (try? document.root.select("link[rel=alternate][type*=rss], link[rel=alternate][type*=atom], link[rel=alternate][type*=calendar]"))
                ?? []
            {
                if let href = feed.attribute("href").flatMap(document.resolve) {
                    result.note(
                        ImportProblem(
                            .warning, "the page links a feed: \(href) (\(feed.attribute("type") ?? "feed")); the feed or ical importer reads all its items",
                            location: location))
                }
            }
            let key = raw["link"] ?? publicURL.absoluteString
            switch normalizer.prepare(raw) {
            case .success(let prepared):
                result.items.append(
                    ExtractedItem(
                        key: key, prepared: prepared, pageURL: publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt, location: location))
            case .failure(let error):
                result.note(ImportProblem(.error, "skipped: \(error.message)", location: location))
            }
        }
        return result
    }

    /// Field values from a page: JSON-LD first, then OpenGraph/meta, then title/h1.
    public static func read(_ document: HTMLDocument, kind: ItemKind) -> RawItem {
        var raw = RawItem()
        var modified: String?
        let root = document.root
        if let object = linkedData(root, kind: kind) {
            modified = readLinkedData(object, kind: kind, document: document, into: &raw)
        }
        // 2. OpenGraph and meta tags fill what is still missing.
        func meta(_ selector: String) -> String? {
            ((try? root.select(selector)) ?? []).compactMap { $0.attribute("content") }.map(TextNormalizer.collapse).first { !$0.isEmpty }
        }
        if raw["title"] == nil { raw["title"] = meta("meta[property='og:title']") ?? meta("meta[name='twitter:title']") }
        if raw["summary"] == nil { raw["summary"] = meta("meta[property='og:description']") ?? meta("meta[name=description]") }
        if raw["link"] == nil {
            raw["link"] = meta("meta[property='og:url']").flatMap(document.resolve) ?? document.canonicalURL?.absoluteString ?? document.baseURL?.absoluteString
        }
        if raw["image"] == nil { raw["image"] = (meta("meta[property='og:image']") ?? meta("meta[name='twitter:image']")).flatMap(document.resolve) }
        if kind == .announcement, raw["date"] == nil {
            raw["date"] =
                meta("meta[property='article:published_time']") ?? meta("meta[name=date]") ?? root.first("time[datetime]")?.attribute("datetime") ?? modified
                ?? meta("meta[property='article:modified_time']")
        }
        if kind == .event, raw["start"] == nil {
            raw["start"] = meta("meta[property='event:start_time']") ?? root.first("time[datetime]")?.attribute("datetime")
        }
        // 3. The page's own title and first heading.
        if raw["title"] == nil {
            raw["title"] = root.first("h1").map(\.text).flatMap { $0.isEmpty ? nil : $0 } ?? root.first("title").map(\.text)
        }
        if let title = raw["title"] { raw["title"] = TextNormalizer.collapse(TextNormalizer.decodeEntities(title)) }
        // The article's body, found with no selector (`ArticleExtractor`); on a page too short
        // for it to judge, the element the page marks or wraps as its article.
        if kind == .announcement {
            if let article = ArticleExtractor().extract(root.document) {
                raw["body"] = article.html
            } else if let article = MetadataImporter.articleBody(root) {
                raw["body"] = Sanitizer.sanitize(article)
            }
        }
        return raw
    }

    /// 1. The page's JSON-LD object of the kind's types (an article or an event; a WebPage last).
    static func linkedData(_ root: HTMLNode, kind: ItemKind) -> [String: JSONValue]? {
        let wanted: Set<String> =
            kind == .event ? ["Event", "EducationEvent", "SocialEvent", "SportsEvent"] : ["NewsArticle", "Article", "BlogPosting", "Report", "WebPage"]
        var objects: [[String: JSONValue]] = []
        for script in (try? root.select("script[type='application/ld+json']")) ?? [] {
            guard let value = try? JSONValue(parsing: script.rawContent) else { continue }
            collect(value, into: &objects)
        }
        func types(_ o: [String: JSONValue]) -> [String] {
            switch o["@type"] {
            case .string(let t)?: return [t]
            case .array(let list)?: return list.compactMap(\.stringValue)
            default: return []
            }
        }
        return objects.filter { !Set(types($0)).isDisjoint(with: wanted) }.sorted { a, _ in !types(a).contains("WebPage") }.first
    }

    /// The fields a JSON-LD object gives; returns its `dateModified` (the last resort for an
    /// article's date, after the page's published time).
    static func readLinkedData(_ object: [String: JSONValue], kind: ItemKind, document: HTMLDocument, into raw: inout RawItem) -> String? {
        func string(_ key: String) -> String? {
            switch object[key] {
            case .string(let s)?: return s
            case .object(let o)?: return o["name"]?.stringValue ?? o["url"]?.stringValue ?? o["@id"]?.stringValue
            case .array(let a)?: return a.first.flatMap { $0.stringValue ?? $0.objectValue?["url"]?.stringValue ?? $0.objectValue?["name"]?.stringValue }
            default: return nil
            }
        }
        raw["title"] = (string("headline") ?? string("name")).map { TextNormalizer.decodeEntities($0) }
        raw["summary"] = string("description").map { TextNormalizer.decodeEntities($0) }
        raw["link"] = string("url").flatMap(document.resolve)
        raw["image"] = string("image").flatMap(document.resolve)
        guard kind == .event else {
            raw["date"] = string("datePublished") ?? string("dateCreated")
            return string("dateModified")
        }
        raw["start"] = string("startDate")
        raw["end"] = string("endDate")
        raw["description"] = raw["summary"]
        if case .object(let place)? = object["location"] {
            raw["location"] = place["name"]?.stringValue
            if case .object(let address)? = place["address"] {
                raw["address"] = ["streetAddress", "addressLocality", "addressRegion", "postalCode"].compactMap { address[$0]?.stringValue }.joined(
                    separator: ", ")
            } else {
                raw["address"] = place["address"]?.stringValue
            }
            if case .object(let geo)? = place["geo"] {
                raw["latitude"] = geo["latitude"]?.description
                raw["longitude"] = geo["longitude"]?.description
            }
        } else {
            raw["location"] = string("location")
        }
        if let status = string("eventStatus")?.lowercased() {
            raw["state"] = status.contains("cancel") ? "cancelled" : status.contains("postpone") ? "postponed" : nil
        }
        return nil
    }

    /// The element holding the article's text when the extractor found none: marked as the body (`itemprop=articleBody`),
    /// else the `<article>` holding the page's `<h1>`, else the `<article>` with the most text
    /// (a CMS may wrap its header logo in the first one), else `<main>`.
    static func articleBody(_ root: HTMLNode) -> HTMLNode? {
        if let marked = root.first("[itemprop=articleBody]") { return marked }
        let articles = (try? root.select("article")) ?? []
        if let titled = articles.first(where: { $0.first("h1") != nil }) { return titled }
        return articles.max { $0.text.count < $1.text.count } ?? root.first("main")
    }

    static func collect(_ value: JSONValue, into objects: inout [[String: JSONValue]]) {
        switch value {
        case .array(let list): for v in list { collect(v, into: &objects) }
        case .object(let o):
            objects.append(o)
            if let graph = o["@graph"] { collect(graph, into: &objects) }
        default: break
        }
    }
}
