import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// `discover`: from a district's or a school's home page, a bounded, polite crawl of the same
/// site that finds its sources (feeds it declares, pages of a platform it recognizes, listings
/// it infers, document pages) and proposes a definition for each, read once for a sample.
public final class Discovery {
    public struct Settings: Sendable {
        /// Pages to read at most (the crawl's budget).
        public var maxPages = 30
        /// The zone of the site's dates.
        public var zone: TimeZone
        /// The site is on a private or loopback address (its definitions say so too).
        public var allowPrivate = false
        public var now = Date()
        /// The imports folder: its `_settings.json` holds for the crawl; its `recognizers`
        /// folder adds to the bundled recognizers.
        public var importsPath: String
        /// The User-Agent's version.
        public var version: String

        public init(zone: TimeZone, importsPath: String, version: String) {
            self.zone = zone
            self.importsPath = importsPath
            self.version = version
        }
    }

    let settings: Settings
    let recognizers: [Recognizer]
    let recognizerErrors: [TimeTrackError]
    /// Pages read and sources found so far, after each page.
    public var progress: ((Int, Int) -> Void)?
    /// Checked between pages: true stops the crawl with what it found (Ctrl-C).
    public var shouldStop: () -> Bool = { false }

    public init(settings: Settings) {
        self.settings = settings
        (recognizers, recognizerErrors) = Recognizer.load(folder: (settings.importsPath as NSString).appendingPathComponent("recognizers"))
    }

    /// The school the site is (from its first page's title), nil for a district's site: every
    /// proposal carries it, and its items are that school's (an alert, that school's only).
    var school: String?

    /// The school a site's title names ("Home - Lincoln High School"), as a school id
    /// (`lincoln-high-school`); nil when the title names a district or no school.
    static func school(fromTitle title: String) -> String? {
        let lower = title.lowercased()
        guard !lower.contains("district"), !lower.contains("public schools"), !lower.contains("county schools"), !lower.contains("city schools")
        else { return nil }
        let words = ["high school", "middle school", "elementary", "primary school", "intermediate school", "junior high", "academy", "k-8", "charter school"]
        let pieces = title.components(separatedBy: CharacterSet(charactersIn: "|–—/")).flatMap { $0.components(separatedBy: " - ") }
        guard let piece = pieces.first(where: { piece in words.contains { piece.lowercased().contains($0) } }) else { return nil }
        let slug = String(piece.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }).split(separator: "-").joined(separator: "-")
        return slug.isEmpty || slug.count > 60 ? nil : slug
    }

    /// The definition's top level every proposal shares.
    func base(id: String, kind: ItemKind, importer: ImporterName, url: String) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(id), "importer": .string(importer.rawValue), "kind": .string(kind.rawValue), "url": .string(url),
            "timeZone": .string(settings.zone.identifier),
            // Cron reads what changes daily once a day, School Info once a week (a template's
            // own schedule, an alert source's 15 minutes, replaces it).
            "schedule": .string(kind == .schoolInfo ? "7d" : kind == .alert ? "15m" : "1d"),
        ]
        if settings.allowPrivate { object["allowPrivateNetwork"] = .bool(true) }
        if let school { object["school"] = .string(school) }
        return object
    }

    /// The web client of the crawl: the imports folder's settings, robots.txt, the host schedule,
    /// the private-network rule (as for imports).
    func client(for start: URL) throws -> WebClient {
        var object = base(id: "discover", kind: .announcement, importer: .html, url: start.absoluteString)
        object["options"] = .object([:])
        let probe = try SourceDefinition.parse(object, file: (settings.importsPath as NSString).appendingPathComponent("discover.json"))
        return try WebClient.forSource(probe, cache: nil, version: settings.version)
    }

    /// Crawls from `start` and proposes a definition per source found.
    public func run(_ start: URL) throws -> DiscoveryResult {
        var state = CrawlState(start: start)
        state.result.notes += recognizerErrors.map { "recognizer not used: \($0.description)" }
        let web = try client(for: start)
        // Ctrl-C stops a request under way within a second, not when its server answers.
        web.shouldStop = shouldStop
        while let next = state.next(), state.result.pagesRead < settings.maxPages {
            if shouldStop() {
                state.result.interrupted = true
                break
            }
            let page: FetchedPage
            do {
                page = try web.get(next, maxBytes: 5_000_000)
            } catch let error as TimeTrackError where error.code == .interrupted {
                state.result.interrupted = true
                state.result.notes.append("stopped (Ctrl-C) while reading \(next.absoluteString)")
                break
            } catch let error as TimeTrackError {
                if state.result.pagesRead == 0 { throw error }
                state.result.notes.append("not read: \(next.absoluteString): \(error.message)")
                continue
            }
            state.result.pagesRead += 1
            // A start address that is a feed, a calendar, JSON or XML is proposed as what it is.
            if state.result.pagesRead == 1, proposeGiven(page, state: &state) { break }
            let type = (page.contentType ?? "").lowercased()
            guard type.isEmpty || type.contains("html"), let document = try? HTMLDocument(data: page.data, url: page.url, declaredCharset: page.charset) else {
                continue
            }
            if state.result.pagesRead == 1, let title = Discovery.titleSelector.flatMap({ document.root.first($0) })?.text {
                school = Discovery.school(fromTitle: title)
                if let school {
                    state.result.notes.append(
                        "the site is a school's (its title: \(TextNormalizer.truncate(title, to: 80))): proposals carry \"school\": \"\(school)\"")
                }
            }
            analyze(document, page: page, isStart: state.result.pagesRead == 1 && Discovery.isHome(page.url), state: &state)
            if !state.proposed(page: page.url.absoluteString), state.result.pagesRead > 1 {
                proposeWithDetailDates(document, page: page.url, web: web, state: &state)
            }
            proposeJSONEndpoints(document, page: page.url, web: web, state: &state)
            proposePageData(document, page: page.url, state: &state)
            state.enqueue(links: document, from: page.url)
            progress?(state.result.pagesRead, state.result.proposals.count)
        }
        sample(&state.result.proposals, web: web)
        // An inferred source that reads nothing is no source; an alert source that reads nothing is
        // one with no alert up today.
        state.result.proposals.removeAll { $0.origin == .inferred && ($0.sample?.count ?? 0) == 0 && !Discovery.emptyIsNormal($0) }
        state.result.proposals = Discovery.oneProposalPerContent(state.result.proposals)
        return state.result
    }

    /// Whether an address is a site's home page (`/`, `/en-US`, `/index.html`).
    ///
    /// Its teasers repeat the listings the crawl reaches next, so no listing is inferred there. Any other
    /// start address is a page the person chose, and is read for what it holds.
    static func isHome(_ url: URL) -> Bool {
        let words = url.path.split(separator: "/").map { $0.lowercased() }
        guard words.count <= 1, url.query == nil else { return false }
        guard let word = words.first else { return true }
        let stem = (word as NSString).deletingPathExtension
        return ["index", "default", "home", "homepage"].contains(stem) || word.range(of: #"^[a-z]{2}(-[a-z]{2})?$"#, options: .regularExpression) != nil
    }

    static let titleSelector = try? Selector.compiled("title")

    /// How an inferred proposal was found (`Proposal.how`).
    public static let inferred = "inferred"

    /// Everything a page offers: feeds, a platform's pages, a listing, documents.
    func analyze(_ document: HTMLDocument, page: FetchedPage, isStart: Bool, state: inout CrawlState) {
        let markup = String(decoding: page.data.prefix(2_000_000), as: UTF8.self).lowercased()
        for feed in FeedFinder.feeds(in: document, page: page.url) {
            let name = feed.importer == .ical ? "calendar" : feed.importer == .wordpress ? "news" : "feed"
            state.propose(
                base(id: state.id(name), kind: feed.kind, importer: feed.importer, url: feed.url), origin: .declared,
                how: "a \(feed.importer == .ical ? "calendar" : "feed") the site declares", why: feed.why)
        }
        for recognizer in recognizers where !state.recognized.contains(recognizer.platform) {
            guard let why = recognizer.recognizes(document, markup: markup, url: page.url) else { continue }
            state.recognized.insert(recognizer.platform)
            state.result.platforms.append((recognizer.platform, why))
            for template in recognizer.siteTemplates { propose(template, of: recognizer, page: page.url, document: document, markup: markup, state: &state) }
        }
        var matchedTemplate = false
        for recognizer in recognizers where state.recognized.contains(recognizer.platform) {
            for template in recognizer.templates(for: document) {
                propose(template, of: recognizer, page: page.url, state: &state)
                matchedTemplate = true
            }
        }
        proposeAlertBlock(document, page: page.url, state: &state)
        guard !matchedTemplate, !state.proposed(page: page.url.absoluteString) else { return }
        // A page that says it is one article (`article:published_time`) is that article, whatever
        // repeated blocks its body holds (a newsletter's sections).
        if !isStart || settings.maxPages == 1, let article = ArticlePages.detect(document), article.contains("published_time") {
            state.propose(
                base(id: state.id(Discovery.name(of: page.url, or: "article")), kind: .announcement, importer: .metadata, url: page.url.absoluteString),
                origin: .inferred, how: Discovery.inferred, why: article)
            return
        }
        if !isStart || settings.maxPages == 1, let event = EventPages.detect(document) {
            var object = base(id: state.id(Discovery.name(of: page.url, or: "event")), kind: .event, importer: .html, url: page.url.absoluteString)
            object["options"] = .object(event.options)
            state.propose(object, origin: .inferred, how: Discovery.inferred, why: event.why)
            return
        }
        // The home page's teasers repeat the listings the crawl reaches next.
        let listing = !isStart || settings.maxPages == 1 ? ListingInference.infer(document, pageURL: page.url, zone: settings.zone, now: settings.now) : nil
        // Links to files beside a dated listing are its agendas and minutes: the listing is the
        // source (a meetings archive), unless the files outnumber its rows.
        if let documents = DocumentPages.detect(document, filesOnly: true), (listing?.dated ?? 0) * 2 < DocumentPages.fileCount(document) {
            proposeDocuments(page.url, why: documents, state: &state)
            return
        }
        if let listing {
            var object = base(id: state.id(Discovery.name(of: page.url, or: "listing")), kind: listing.kind, importer: .html, url: page.url.absoluteString)
            object["options"] = .object(listing.options)
            state.propose(object, origin: .inferred, how: Discovery.inferred, why: listing.why)
            return
        }
        guard !isStart || settings.maxPages == 1 else { return }
        if let lines = BrLines.infer(document, pageURL: page.url, zone: settings.zone, now: settings.now) {
            var object = base(id: state.id(Discovery.name(of: page.url, or: "dates")), kind: lines.kind, importer: .html, url: page.url.absoluteString)
            object["options"] = .object(lines.options)
            state.propose(object, origin: .inferred, how: Discovery.inferred, why: lines.why)
            return
        }
        if let article = ArticlePages.detect(document) {
            state.propose(
                base(id: state.id(Discovery.name(of: page.url, or: "article")), kind: .announcement, importer: .metadata, url: page.url.absoluteString),
                origin: .inferred, how: Discovery.inferred,
                why: article)
        } else if let links = DocumentPages.detect(document, filesOnly: false) {
            proposeDocuments(page.url, why: links, state: &state)
        }
    }

    /// A listing of headlines without dates whose articles carry theirs: the date is read on
    /// each item's page (`detail`), when the first two articles give it the same way.
    func proposeWithDetailDates(_ document: HTMLDocument, page: URL, web: WebClient, state: inout CrawlState) {
        guard let (listing, links) = ListingInference.undated(document, pageURL: page, zone: settings.zone, now: settings.now), links.count >= 2 else { return }
        var details: [HTMLDocument] = []
        for link in links.prefix(2) where CrawlState.site(of: link) == state.site {
            guard let fetched = try? web.get(link, maxBytes: 5_000_000),
                let parsed = try? HTMLDocument(data: fetched.data, url: fetched.url, declaredCharset: fetched.charset)
            else { continue }
            details.append(parsed)
        }
        let dates = DateParser(timeZone: settings.zone, reference: settings.now)
        guard details.count == 2, let date = DetailDates.selector(on: details, dates: dates) else { return }
        var options = listing.options
        options["detail"] = .object(["link": .string("link"), "fields": .object(["date": .string(date)])])
        var object = base(id: state.id(Discovery.name(of: page, or: "news")), kind: .announcement, importer: .html, url: page.absoluteString)
        object["options"] = .object(options)
        state.propose(object, origin: .inferred, how: Discovery.inferred, why: listing.why + "; the date from each article's page (\(date))")
    }

    /// A recognizer's template as a proposal for `page` (or the site's origin).
    func propose(
        _ template: Recognizer.PageTemplate, of recognizer: Recognizer, page: URL, document: HTMLDocument? = nil, markup: String? = nil, state: inout CrawlState
    ) {
        var definition = template.definition
        let origin = page.scheme.map { "\($0)://" + (page.host ?? "") + (page.port.map { ":\($0)" } ?? "") } ?? ""
        // `{dir}`: the page's address without its last step (a BoardDocs site's `…/Board.nsf`).
        let directory = origin + (page.path as NSString).deletingLastPathComponent
        var url = (definition["url"]?.stringValue ?? "{page}").replacingOccurrences(of: "{page}", with: page.absoluteString).replacingOccurrences(
            of: "{origin}", with: origin
        ).replacingOccurrences(of: "{dir}", with: directory == origin + "/" ? origin : directory)
        // `{markup:PATTERN}`: the pattern's first group in the page's markup (an Apptegy site's
        // organization id), digits, letters, `-` and `_` only.
        while let open = url.range(of: "{markup:"), let close = url.range(of: "}", range: open.upperBound..<url.endIndex) {
            let pattern = String(url[open.upperBound..<close.lowerBound])
            guard let markup, let found = (try? SafePattern(pattern))?.firstCapture(in: markup), !found.isEmpty, found.count <= 64,
                found.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else { return }
            url.replaceSubrange(open.lowerBound..<close.upperBound, with: found)
        }
        // `{body@ATTR}`: an attribute of the page's body (Finalsite's page id), digits and letters only.
        while let open = url.range(of: "{body@"), let close = url.range(of: "}", range: open.upperBound..<url.endIndex) {
            let name = String(url[open.upperBound..<close.lowerBound])
            guard let value = document?.root.first("body")?.attribute(name), !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber }) else { return }
            url.replaceSubrange(open.lowerBound..<close.upperBound, with: value)
        }
        let importer = definition["importer"]?.stringValue.map(ImporterName.init(rawValue:)) ?? .html
        guard !state.proposed(url: url, importer: importer) else { return }
        var object = base(id: state.id(template.name), kind: template.kind, importer: importer, url: url)
        definition["url"] = nil
        definition["importer"] = nil
        for (key, value) in definition { object[key] = value }
        state.propose(
            object, origin: .recognized, how: "\(recognizer.platform) recognizer: \(template.name)",
            why: "recognized by " + (state.result.platforms.first { $0.platform == recognizer.platform }?.why.joined(separator: "; ") ?? ""))
    }

    /// A name for a page's source: its address's last word ("news", "board-meetings").
    static func name(of url: URL, or fallback: String) -> String {
        let words = url.path.split(separator: "/").map(String.init).filter { !$0.isEmpty && Int($0) == nil }
        guard let last = words.last else { return fallback }
        let slug = String((last as NSString).deletingPathExtension.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        let trimmed = slug.split(separator: "-").prefix(4).joined(separator: "-")
        return trimmed.isEmpty || ["default", "index", "home", "page"].contains(trimmed) ? fallback : String(trimmed.prefix(40))
    }
}
