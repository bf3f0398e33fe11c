import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `feed` importer: RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 to announcements.
///
/// The guid / id is the stable key; enclosures, media:content and media:thumbnail give the image;
/// HTML content is sanitized.
public struct FeedImporter: Importer {
    public static let info = ImporterInfo(
        name: "feed", version: "1.0.0", kinds: [.announcement],
        summary: "RSS 2.0 and Atom 1.0 feeds (guid/id as the key, enclosures and media:content as images)",
        options: [ImporterOption("maxItems", type: "number", help: "stop after this many entries (default 500)")])

    let source: SourceDefinition
    let maxItems: Int

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(FeedImporter.info)
        maxItems = try source.intOption("maxItems", default: 500, range: 1...100_000)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let page = try context.fetcher.fetch(source.url)
        var result = ImportResult()
        result.pagesFetched = 1
        try refuseHTMLPage(page)
        let document: HTMLDocument
        do {
            document = try HTMLDocument(xml: page.data, url: source.publicURL)
        } catch let error as TimeTrackError where error.code == .refusedContent {
            // Well-formed, but refused for what it would cost: its own message says why.
            throw error
        } catch {
            throw TimeTrackError(
                .parse, "this is not an RSS or Atom feed (not well-formed XML)", fix: "check the source's url", context: ["url": source.urlText])
        }
        guard let root = document.rootElement else { throw TimeTrackError(.parse, "the feed is empty", context: ["url": source.urlText]) }
        // A feed that breaks is read as far as it goes, and says where it broke.
        if let broken = document.encodingNote { result.note(ImportProblem(.warning, broken, location: source.urlText)) }
        let (entries, isAtom) = try self.entries(of: root)
        let feedBase = root.attribute("base").flatMap { URL(string: $0, relativeTo: source.publicURL) } ?? source.publicURL
        let normalizer = Normalizer(source: source, now: context.now)
        var seen: Set<String> = []
        for (index, entry) in entries.prefix(maxItems).enumerated() {
            let location = "\(isAtom ? "entry" : "item") \(index + 1)"
            let (raw, key) = read(entry, isAtom: isAtom, base: feedBase)
            guard let key else {
                result.note(ImportProblem(.error, "skipped: no guid, link or title", location: location))
                continue
            }
            guard seen.insert(key).inserted else {
                result.duplicatesMerged += 1
                continue
            }
            switch normalizer.prepare(raw) {
            case .success(let prepared):
                result.items.append(
                    ExtractedItem(
                        key: key, prepared: prepared, pageURL: source.publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt,
                        location: location))
            case .failure(let error):
                result.note(ImportProblem(.error, "skipped '\(raw["title"] ?? key)': \(error.message)", location: location))
            }
        }
        if entries.isEmpty {
            result.note(ImportProblem(.warning, "0 items: the feed has no \(isAtom ? "entry" : "item") elements", location: source.urlText))
        }
        return result
    }

    /// Refuses an HTML page given as a feed, naming the feed the page links when it links one.
    func refuseHTMLPage(_ page: FetchedPage) throws {
        let head = String(decoding: page.data.prefix(2048), as: UTF8.self).lowercased()
        guard head.contains("<html") || head.hasPrefix("<!doctype html") else { return }
        var fix = "use the site's RSS or Atom feed URL, or the html or metadata importer for pages"
        if let document = try? HTMLDocument(data: page.data, url: source.publicURL, declaredCharset: page.charset),
            let feed = (try? document.root.select("link[rel=alternate][type*=rss], link[rel=alternate][type*=atom]"))?.first?.attribute("href").flatMap(
                document.resolve)
        {
            fix = "the page links its feed: \(feed.prefix(300)), use that as the url"
        }
        throw TimeTrackError(.parse, "this is an HTML page, not an RSS or Atom feed", fix: fix, context: ["url": source.urlText])
    }

    /// The entries of an RSS 2.0, RSS 1.0 (RDF) or Atom feed, and whether it is Atom.
    func entries(of root: HTMLNode) throws -> (entries: [HTMLNode], isAtom: Bool) {
        switch root.name.lowercased() {
        case "rss": return (root.child(named: "channel")?.children(named: "item") ?? [], false)
        case "rdf": return (root.children(named: "item"), false)
        case "feed": return (root.children(named: "entry"), true)
        default:
            throw TimeTrackError(.parse, "the XML is a <\(root.name.prefix(40))>, not an RSS or Atom feed", context: ["url": source.urlText])
        }
    }

    /// An entry's fields, and its key (its id or guid, else its link, else its title).
    func read(_ entry: HTMLNode, isAtom: Bool, base feedBase: URL) -> (RawItem, String?) {
        var raw = RawItem()
        func text(_ name: String) -> String? {
            entry.children(named: name).first { $0.prefix == nil || !["media", "itunes"].contains($0.prefix ?? "") }.map(\.rawContent).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        raw["title"] = text("title").map { TextNormalizer.plainText(fromHTML: $0) }
        var link: String?
        if isAtom {
            let links = entry.children(named: "link")
            link = (links.first { ($0.attribute("rel") ?? "alternate") == "alternate" } ?? links.first)?.attribute("href")
        } else {
            link = text("link")
        }
        raw["link"] = link.flatMap { URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: feedBase)?.absoluteString }
        raw["date"] = text(isAtom ? "published" : "pubDate") ?? text(isAtom ? "updated" : "date")
        let contentHTML = entry.children(named: isAtom ? "content" : "encoded").first.map(\.rawContent) ?? text(isAtom ? "content" : "description")
        let summaryHTML = isAtom ? text("summary") : text("description")
        if let html = contentHTML, !html.isEmpty { raw["body"] = Sanitizer.sanitize(html: html, baseURL: URL(string: raw["link"] ?? "") ?? feedBase) }
        if let summary = summaryHTML ?? contentHTML { raw["summary"] = TextNormalizer.removeReadMore(TextNormalizer.plainText(fromHTML: summary)) }
        raw["image"] = image(entry, base: feedBase)
        let key = (text(isAtom ? "id" : "guid")).flatMap { $0.isEmpty ? nil : $0 } ?? raw["link"] ?? raw["title"]
        return (raw, key)
    }

    /// The first image: an image enclosure, media:content, media:thumbnail, or an <img> in the content.
    func image(_ entry: HTMLNode, base: URL) -> String? {
        var candidates: [String] = []
        for enclosure in entry.children(named: "enclosure") where (enclosure.attribute("type") ?? "image/").hasPrefix("image/") {
            if let url = enclosure.attribute("url") { candidates.append(url) }
        }
        for link in entry.children(named: "link") where link.attribute("rel") == "enclosure" && (link.attribute("type") ?? "").hasPrefix("image/") {
            if let href = link.attribute("href") { candidates.append(href) }
        }
        for media in entry.children(named: "content")
        where media.prefix == "media" && (media.attribute("medium") == "image" || (media.attribute("type") ?? "image/").hasPrefix("image/")) {
            if let url = media.attribute("url") { candidates.append(url) }
        }
        for group in entry.children(named: "group") where group.prefix == "media" {
            for media in group.children(named: "content") { if let url = media.attribute("url") { candidates.append(url) } }
        }
        for thumb in entry.children(named: "thumbnail") where thumb.prefix == "media" {
            if let url = thumb.attribute("url") { candidates.append(url) }
        }
        return candidates.lazy.compactMap { URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteString }.first {
            Check.urlProblem($0) == nil
        }
    }
}
