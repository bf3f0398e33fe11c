import Foundation
import TimeTrackCore
import TimeTrackKit

/// The crawl's frontier and what it has proposed: pages of the same site, the likeliest
/// sources first (news, calendars, boards, documents), each address once.
struct CrawlState {
    let start: URL
    let site: String
    var result = DiscoveryResult()
    var recognized: Set<String> = []
    /// JSON endpoints read already (a page's script names the same API on every page).
    var checkedEndpoints: Set<String> = []
    private var queue: [(url: URL, score: Int, order: Int)] = []
    private var seen: Set<String> = []
    private var counter = 0
    private var ids: Set<String> = []

    init(start: URL) {
        self.start = start
        site = CrawlState.site(of: start)
        queue = [(start, 100, 0)]
        seen = [CrawlState.normalized(start)]
    }

    /// The host without `www.`: a site's pages may use either.
    static func site(of url: URL) -> String {
        let host = (url.host ?? "").lowercased()
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    static func normalized(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.fragment = nil
        return components?.url?.absoluteString ?? url.absoluteString
    }

    /// The next page to read: the highest score, first found among equals.
    mutating func next() -> URL? {
        guard let best = queue.indices.max(by: { (queue[$0].score, -queue[$0].order) < (queue[$1].score, -queue[$1].order) }) else { return nil }
        return queue.remove(at: best).url
    }

    static let promising = [
        "news", "calendar", "event", "board", "meeting", "agenda", "document", "info", "resource", "announcement", "handbook", "polic", "schedule", "closing",
        "notice",
        "post", "article", "blog",
    ]
    static let files: Set<String> = [
        "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "jpg", "jpeg", "png", "gif", "svg", "mp4", "mp3", "zip", "ics", "xml", "json", "rss", "css", "js",
    ]

    /// Adds the page's links to the same site (not files, not seen), scored by their words.
    mutating func enqueue(links document: HTMLDocument, from page: URL) {
        for anchor in (try? document.root.select("a[href]")) ?? [] where queue.count < 2_000 {
            guard let href = anchor.attribute("href"), let url = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: page)?.absoluteURL,
                ["http", "https"].contains(url.scheme?.lowercased() ?? ""), CrawlState.site(of: url) == site,
                !CrawlState.files.contains((url.path as NSString).pathExtension.lowercased())
            else { continue }
            let key = CrawlState.normalized(url)
            guard seen.insert(key).inserted else { continue }
            let words = (anchor.text + " " + url.path).lowercased()
            let score = CrawlState.promising.contains { words.contains($0) } ? 10 : 1
            counter += 1
            queue.append((url, score, counter))
        }
    }

    /// A source id not used in this run: the site's first word and the source's name.
    mutating func id(_ name: String) -> String {
        let label = site.split(separator: ".").first.map(String.init) ?? "site"
        let prefix = String(label.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }).prefix(24)
        var id = "\(prefix)-\(name)"
        var number = 2
        while ids.contains(id) {
            id = "\(prefix)-\(name)-\(number)"
            number += 1
        }
        ids.insert(id)
        return id
    }

    func proposed(url: String, importer: ImporterName) -> Bool {
        result.proposals.contains { $0.url == url && $0.importer == importer }
    }

    func proposed(page: String) -> Bool { result.proposals.contains { $0.url == page } }

    mutating func propose(_ definition: [String: JSONValue], origin: Proposal.Origin, how: String, why: String) {
        let url = definition["url"]?.stringValue ?? ""
        let importer = ImporterName(rawValue: definition["importer"]?.stringValue ?? "")
        guard !proposed(url: url, importer: importer), let kindWord = definition["kind"]?.stringValue, let kind = ItemKind(word: kindWord) else { return }
        result.proposals.append(
            Proposal(id: definition["id"]?.stringValue ?? "", origin: origin, kind: kind, importer: importer, definition: definition, how: how, why: why))
    }
}

/// A page of documents (School Info): links to files under headings, as the `documents`
/// importer reads them.
enum DocumentPages {
    /// Whether a link opens a file (a document's extension, a CMS's file store, a shared document).
    static func isFile(_ href: String) -> Bool {
        let lower = href.lowercased()
        let path = (URL(string: lower)?.path ?? lower) as NSString
        return ["pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx"].contains(path.pathExtension)
            || [
                "resource-manager/view", "filedownload.ashx", "docs.google.com", "drive.google.com/file", "download.aspx?", "download.ashx?", "getfile",
                "viewfile", "documentcenter/view", "showdocument",
            ].contains { lower.contains($0) }
    }

    /// Why the page is a document page ("12 links to files under 4 headings"), or nil: four
    /// links to files or more; without `filesOnly`, also eight links or more under three
    /// headings or more (an information page of resources).
    static func detect(_ document: HTMLDocument, filesOnly: Bool) -> String? {
        let links = contentLinks(document)
        let files = links.filter { isFile($0.attribute("href") ?? "") }
        let headings = ((try? document.root.select("h2, h3, h4")) ?? []).filter { !BlockGroups.inChrome($0) }
        let under = headings.isEmpty ? "" : " under \(headings.count) headings"
        if files.count >= 4 { return "\(files.count) links to files" + under }
        if !filesOnly, links.count >= 8, headings.count >= 3 { return "\(links.count) links\(under)" }
        return nil
    }

    /// How many of the page's links (outside its navigation) open a file.
    static func fileCount(_ document: HTMLDocument) -> Int { contentLinks(document).filter { isFile($0.attribute("href") ?? "") }.count }

    /// The page's links outside its navigation, header and footer, to somewhere.
    static func contentLinks(_ document: HTMLDocument) -> [HTMLNode] {
        ((try? document.root.select("a[href]")) ?? []).filter { link in
            let href = (link.attribute("href") ?? "").lowercased()
            return !href.hasPrefix("#") && !href.hasPrefix("mailto:") && !href.hasPrefix("tel:") && !href.hasPrefix("javascript:")
                && !BlockGroups.inChrome(link)
        }
    }
}

/// A page that is one article (its own date and title in its metadata): the `metadata` importer.
enum ArticlePages {
    /// Why the page is an article ("article:published_time 2025-11-05"), or nil.
    static func detect(_ document: HTMLDocument) -> String? {
        let metas = (try? document.root.select("meta[property]")) ?? []
        func meta(_ name: String) -> String? { metas.first { $0.attribute("property") == name }?.attribute("content") }
        if let published = meta("article:published_time") { return "one article (article:published_time \(published.prefix(40)))" }
        if meta("og:type") == "article" { return "one article (og:type article)" }
        return nil
    }
}

/// Where an article's page says its date, the same way on every page given: its
/// `article:published_time`, a `time[datetime]`, or the element whose text is the date.
enum DetailDates {
    static func selector(on documents: [HTMLDocument], dates: DateParser) -> String? {
        var candidates = ["meta[property=\"article:published_time\"]@content", "time@datetime"]
        if let first = documents.first {
            let elements = (BlockGroups.any.map { first.root.select($0) } ?? []).filter { node in
                !node.text.isEmpty && node.text.count <= 60 && !BlockGroups.inChrome(node) && !["title", "script", "style", "html", "body"].contains(node.name)
                    && dates.parse(node.text) != nil
            }
            if let smallest = elements.min(by: { $0.text.count < $1.text.count }) { candidates.append(BlockGroups.step(smallest)) }
        }
        return candidates.first { candidate in
            documents.allSatisfy { document in GroupReading.read(.string(candidate), in: document.root).flatMap { dates.parse($0) } != nil }
        }
    }
}
