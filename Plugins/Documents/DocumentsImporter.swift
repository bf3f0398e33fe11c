import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `documents` importer: a School Info listing page to School info items.
///
/// Every link to a document or page in the content area becomes an item: section from the nearest
/// heading,
/// title from the link text ("(PDF)" removed), type from the extension, the label or the
/// server's Content-Type. mailto:, tel:, anchors and navigation chrome are skipped; the same URL
/// listed twice is one item. With `fingerprint`, each document is fetched and its SHA-256 kept,
/// so a changed PDF shows up as a change in review.
public struct DocumentsImporter: Importer {
    public static let info = ImporterInfo(
        name: "documents", version: "1.2.0", kinds: [.schoolInfo],
        summary: "every document link of a School Info page, sectioned by its headings",
        options: [
            ImporterOption("content", type: "selector", help: "the content area (default: main, #content, .content, article, body: the first that exists)"),
            ImporterOption(
                "exclude", type: "selector", help: "chrome whose links are skipped (default: nav, header, footer, breadcrumbs, menus; \"\" for none)"),
            ImporterOption("headings", type: "selector", help: "headings that name sections (default: h1, h2, h3, h4)"),
            ImporterOption("section", type: "string", help: "School Info section when no heading points to one (default: other)"),
            ImporterOption("fingerprint", type: "boolean", help: "fetch each document and keep its SHA-256 (default false)"),
            ImporterOption("detectTypes", type: "boolean", help: "ask the server for the type of links without one (default false)"),
        ])

    let source: SourceDefinition
    let content: [Selector]
    /// Chrome whose links are skipped; nil: none.
    let exclude: Selector?
    let headings: Selector
    let fingerprint: Bool
    let detectTypes: Bool

    public init(source: SourceDefinition) throws {
        self.source = source
        let o = source.options
        try source.checkOptions(DocumentsImporter.info)
        func selector(_ key: String, _ fallback: String) throws -> Selector {
            let text = o[key]?.stringValue ?? fallback
            if o[key] != nil && o[key]?.stringValue == nil { throw source.error("options.\(key)", "must be a selector string") }
            do { return try Selector.compiled(text) } catch let error as TimeTrackError { throw source.error("options.\(key)", error.message) }
        }
        if let text = o["content"]?.stringValue {
            content = [try selector("content", text)]
        } else {
            content = try ["main", "#content", ".content", "article", "body"].map { try Selector($0) }
        }
        // `"exclude": ""` (or false, or []) excludes nothing: a site whose documents sit in a
        // <nav> or a <header> can have them all.
        switch o["exclude"] {
        case .string(let text)? where text.trimmingCharacters(in: .whitespaces).isEmpty: exclude = nil
        case .bool(false)?: exclude = nil
        case .array(let list)? where list.isEmpty: exclude = nil
        default: exclude = try selector("exclude", "nav, header, footer, .breadcrumb, .breadcrumbs, [role=navigation], .menu, .nav, .skip-link, .fsTabsNav")
        }
        headings = try selector("headings", "h1, h2, h3, h4")
        if let section = o["section"] {
            guard let text = section.stringValue, SchoolInfoItem.Section(rawValue: text) != nil else {
                throw source.error("options.section", "must be one of " + SchoolInfoItem.Section.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        fingerprint = try source.boolOption("fingerprint")
        detectTypes = try source.boolOption("detectTypes")
    }

    /// One document link as read from the page, before any document is fetched.
    struct Link {
        var location: String
        var label: String
        var raw: RawItem
    }

    /// What the page gave: remembered by the page's hash, so an unchanged page is not parsed again.
    struct PageReading: MemoCodable {
        var links: [Link]
        var duplicates: Int
        var pageURL: String

        func write(to writer: inout MemoWriter) {
            writer.write(pageURL)
            writer.write(duplicates)
            writer.write(links) { writer, link in
                writer.write(link.location)
                writer.write(link.label)
                writer.write(link.raw.values)
            }
        }

        init(links: [Link], duplicates: Int, pageURL: String) {
            self.links = links
            self.duplicates = duplicates
            self.pageURL = pageURL
        }

        init?(reading reader: inout MemoReader) {
            guard let pageURL = reader.readString(), let duplicates = reader.readInt(),
                let links = reader.readList({ reader -> Link? in
                    guard let location = reader.readString(), let label = reader.readString(), let values = reader.readDictionary() else { return nil }
                    return Link(location: location, label: label, raw: RawItem(values))
                })
            else { return nil }
            self.init(links: links, duplicates: duplicates, pageURL: pageURL)
        }
    }

    /// The raw value standing for a document's fingerprint in its item memo digest.
    static let fingerprintDigestField = "@fingerprint"

    /// How the page was read: other options or another version read it again.
    ///
    /// Kept as its SHA-256 (every memo row holds it). `memo 3`: integers in as few bytes as
    /// they need (`MemoWriter`).
    var signature: String {
        SHA256.hex(
            "documents/\(DocumentsImporter.info.version)|memo 3|\(source.publicURL.absoluteString)|" + JSONValue.object(source.options).canonicalText)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let signature = self.signature
        let fetched = try context.fetchRemembered(source.url, signature: signature)
        var result = ImportResult()
        result.pagesFetched = 1
        let reading: PageReading
        if let remembered = fetched.payload.flatMap(PageReading.init) {
            reading = remembered
        } else {
            let page = try context.read(fetched.page)
            reading = try read(page)
            context.remember(reading.encoded, page: page, signature: signature)
        }
        result.duplicatesMerged = reading.duplicates
        let normalizer = Normalizer(source: source, now: context.now)
        // `"checkPDFs": true` in the definition: each PDF is fetched and checked for a screen reader.
        let checking = source.checkPDFs && PDFCheck.available
        if source.checkPDFs && !checking {
            result.note(
                ImportProblem(.warning, "PDFs were not checked: poppler-utils is not installed (apt-get install poppler-utils)", location: source.urlText))
        }
        for link in reading.links {
            var raw = link.raw
            guard let url = raw["url"] else { continue }
            let listed = raw["type"].flatMap(SchoolInfoItem.DocumentType.init(rawValue:)) ?? .other
            let checksPDF = checking && listed == .pdf
            let target = try inspect(link, url: url, type: listed, checksPDF: checksPDF, context: context, result: &result)
            raw["type"] = target.type.rawValue
            // Settled (`ItemMemo`): the same values (and document bytes) its stored content came from.
            var digest: String?
            if let memo = context.items {
                var values = raw
                if let hash = target.hash { values[DocumentsImporter.fingerprintDigestField] = hash + (checksPDF ? "|checked" : "") }
                let made = ItemMemo.digest(values)
                if let settled = memo.settled(key: url, digest: made) {
                    result.settled.append(SettledItem(key: url, dated: settled.dated, location: link.location))
                    continue
                }
                digest = made
            }
            switch normalizer.build(raw) {
            case .success(.schoolInfo(var item)):
                item.fingerprint = fingerprint ? target.hash : nil
                item.documentProblems = target.problems
                add(item, link: link, digest: digest, page: fetched.page, pageURL: reading.pageURL, context: context, result: &result)
            case .success:
                break
            case .failure(let error):
                result.note(ImportProblem(.error, "skipped '\(link.label)': \(error.message)", location: link.location))
            }
            context.progress?(result.pagesFetched, result.items.count)
        }
        // Items settled by the item memo were found too: an unchanged page is no "0 items".
        if result.found == 0 {
            result.note(ImportProblem(.warning, "0 items: no document links in the content area", location: source.urlText))
        }
        return result
    }

    /// What fetching a link's target tells: its served type, its bytes' hash, a PDF's problems.
    ///
    /// Fetched only when the definition asks for it (a fingerprint, a PDF check, the type of an
    /// address without an extension). A target that cannot be fetched is a warning, and the
    /// listed type.
    func inspect(_ link: Link, url: String, type listed: SchoolInfoItem.DocumentType, checksPDF: Bool, context: ImportContext, result: inout ImportResult)
        throws
        -> (type: SchoolInfoItem.DocumentType, hash: String?, problems: [SchoolInfoItem.DocumentProblem]?)
    {
        guard fingerprint || checksPDF || (detectTypes && (listed == .page || listed == .other)), let target = URL(string: url) else {
            return (listed, nil, nil)
        }
        let fetched: FetchedPage
        do {
            fetched = try context.fetcher.fetch(target)
        } catch let error as TimeTrackError where error.code != .interrupted {
            result.note(ImportProblem(.warning, "could not fetch the document: \(error.message)", location: link.location))
            return (listed, nil, nil)
        }
        result.pagesFetched += 1
        let type = fetched.contentType != nil ? DocumentClassifier.documentType(url: url, label: link.label, mimeType: fetched.contentType) : listed
        var problems: [SchoolInfoItem.DocumentProblem]?
        if checksPDF {
            do { problems = try Self.check(fetched, location: link.location, into: &result) } catch let error as TimeTrackError where error.code != .interrupted
            {
                result.note(ImportProblem(.warning, "could not fetch the document: \(error.message)", location: link.location))
            }
        }
        return (type, fetched.hash, problems)
    }

    /// A document as an item (checked first), and its item memo entry.
    func add(
        _ item: SchoolInfoItem, link: Link, digest: String?, page: FetchedPage, pageURL: String, context: ImportContext, result: inout ImportResult
    ) {
        let (prepared, problems) = PreparedContent.checked(.schoolInfo(item))
        guard let prepared else {
            result.note(
                ImportProblem(.error, "skipped '\(link.label)': \(problems.map(\.description).joined(separator: "; "))", location: link.location))
            return
        }
        result.items.append(
            ExtractedItem(
                key: link.raw["url"] ?? "", prepared: prepared, pageURL: pageURL, pageHash: page.hash, fetchedAt: page.fetchedAt, location: link.location))
        if let memo = context.items, let digest, let url = link.raw["url"],
            let entry = memo.entry(key: url, digest: digest, contentHash: prepared.hash, dated: prepared.content.sortDate != nil)
        {
            context.memoEntries.append(entry)
        }
    }

    /// The accessibility problems of a fetched PDF; a file poppler cannot read is a warning, and
    /// nil (not checked).
    static func check(_ fetched: FetchedPage, location: String, into result: inout ImportResult) throws -> [SchoolInfoItem.DocumentProblem]? {
        do {
            return try PDFCheck.problems(of: fetched.data)
        } catch let error as TimeTrackError where error.code == .parse {
            result.note(ImportProblem(.warning, "the PDF was not checked: \(error.message)", location: location))
            return nil
        }
    }

    /// Parses the page: every document link of the content area, in order, chrome skipped, the
    /// same URL once; the type from the link alone (documents are fetched afterwards, if asked).
    func read(_ page: FetchedPage) throws -> PageReading {
        let document = try HTMLDocument(data: page.data, url: source.publicURL, declaredCharset: page.charset)
        let area = content.lazy.compactMap { document.root.select($0).first }.first ?? document.root
        let chrome = exclude.map { area.select($0) } ?? []
        let headingIndex = document.root.select(headings)
        let pageURL = document.baseURL?.absoluteString ?? source.publicURL.absoluteString
        // Each URL once: where its link is, and whether its label is link text (an image's alt
        // or a title attribute gives way to the text of a later link to the same URL).
        var seen: [String: (index: Int, fromText: Bool)] = [:]
        var links: [Link] = []
        var duplicates = 0
        for (index, link) in ((try? area.select("a[href]")) ?? []).enumerated() {
            let location = "link \(index + 1)"
            guard let href = link.attribute("href")?.trimmingCharacters(in: .whitespaces) else { continue }
            let lower = href.lowercased()
            if lower.hasPrefix("mailto:") || lower.hasPrefix("tel:") || lower.hasPrefix("javascript:") || lower.hasPrefix("#") || lower.hasPrefix("sms:") {
                continue
            }
            if chrome.contains(where: { HTMLNode.contains($0, link) }) { continue }
            guard let url = document.resolve(href) else { continue }
            // An anchor on this page is not a document; an anchor into another page or file
            // (`handbook.html#dress-code`, `plan.pdf#page=4`) is its own item.
            if let hash = url.firstIndex(of: "#"), url[..<hash] == pageURL[...] { continue }
            var label = link.text
            let fromText = !label.isEmpty
            if label.isEmpty { label = link.attribute("title") ?? link.attribute("aria-label") ?? link.first("img")?.attribute("alt") ?? "" }
            // A link to a page that says nothing at all (a profile icon beside each row) is no
            // document to list; one to a file stays, to be named in the problems.
            if label.isEmpty, seen[url] == nil, DocumentClassifier.documentType(url: url, label: "", mimeType: nil) == .page { continue }
            if let first = seen[url] {
                duplicates += 1
                if fromText && !first.fromText {
                    links[first.index].label = label
                    links[first.index].raw["title"] = label
                    seen[url] = (first.index, true)
                }
                continue
            }
            seen[url] = (links.count, fromText)
            var raw = RawItem(["url": url, "title": label])
            let heading = nearest(headingIndex, before: link)
            raw["group"] = heading?.text
            if let section = heading.flatMap({ DocumentClassifier.section(forHeading: $0.text) }) { raw["section"] = section.rawValue }
            // Finalsite's resource links carry the file name; a download attribute or a type= MIME helps too.
            let fileName = link.attribute("data-file-name") ?? link.attribute("download").flatMap { $0.isEmpty ? nil : $0 }
            var type = DocumentClassifier.documentType(url: fileName.map { "https://x.invalid/" + $0 } ?? url, label: label, mimeType: link.attribute("type"))
            if type == .page, fileName == nil { type = DocumentClassifier.documentType(url: url, label: label, mimeType: link.attribute("type")) }
            raw["type"] = type.rawValue
            links.append(Link(location: location, label: label, raw: raw))
        }
        return PageReading(links: links, duplicates: duplicates, pageURL: pageURL)
    }

    func nearest(_ headings: [HTMLNode], before node: HTMLNode) -> HTMLNode? {
        var low = 0, high = headings.count
        while low < high {
            let mid = (low + high) / 2
            if HTMLNode.precedes(headings[mid], node) { low = mid + 1 } else { high = mid }
        }
        // A heading that contains the link (a panel title link) is not its section.
        var index = low - 1
        while index >= 0, HTMLNode.contains(headings[index], node) { index -= 1 }
        return index >= 0 ? headings[index] : nil
    }
}
