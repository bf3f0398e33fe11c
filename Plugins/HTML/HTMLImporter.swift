import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `html` importer: reads listing pages with CSS selectors given entirely in the source
/// definition: item selector, field selectors, pagination, optional detail pages.
///
/// Options (see docs/source-definitions.md): `item` (required), `fields` (required), `next`,
/// `maxPages` (default 5), `detail` (`{"link": "link", "fields": {...}}`), `key`, `section`
/// (default School Info section), `maxItems`.
public struct HTMLImporter: Importer, Sendable {
    public static let info = ImporterInfo(
        name: "html", version: "1.4.0", kinds: MappedFields.kinds,
        summary: "CSS selectors over listing pages, with pagination and detail pages",
        options: [
            ImporterOption(
                "item", type: "selector", required: true,
                help:
                    "matches one element per item; {\"select\": SEL, \"split\": \"lines\"|\"br\"|{\"pattern\": RE}} makes several items of one"
                    + " element (each line, each <br>-separated piece, or each match, its groups read by {\"group\": N})"
            ),
            ImporterOption(
                "fields", type: "object", required: true,
                help:
                    "field name → selector (\"h2 a\", \"a@href\", \"time@datetime\", [fallbacks], {select, pattern, template, exists, value, heading,"
                    + " when, then, else, group})"
            ),
            ImporterOption("next", type: "selector", help: "the next-page link, e.g. \"a.next@href\""),
            ImporterOption("maxPages", type: "number", help: "pages to follow, 1-100 (default 5)"),
            ImporterOption("detail", type: "object", help: "{\"link\": FIELD, \"fields\": {...}}: fetch each item's page and read more fields there"),
            ImporterOption("key", type: "field spec", help: "what identifies an item across runs (default: link, url, or title and date)"),
            ImporterOption("section", type: "string", help: "School Info section when no heading points to one"),
            ImporterOption("maxItems", type: "number", help: "stop after this many items (default 5000)"),
            ImporterOption(
                "xml", type: "boolean",
                help: "read the pages as XML (a CMS export or a feed that is not RSS or Atom): <link> and other elements HTML keeps empty keep their text"),
            ImporterOption("year", type: "number", help: "the year of dates written without one (e.g. 2022, or \"October 2022 – June 2023\")"),
            ImporterOption(
                "yearFrom", type: "selector",
                help:
                    "where the year of dates written without one is: the nearest element before each item matching this selector (true: the nearest"
                    + " heading; \"url\": the page's address), whose text gives a year or a range like \"October 2022 – January 2023\""
            ),
        ])

    let source: SourceDefinition
    let item: Selector
    /// How one matched element becomes several items (`item.split`).
    let split: Split?
    let fields: [(String, FieldSpec)]
    let next: FieldSpec?
    let maxPages: Int
    let maxItems: Int
    let detailLink: String?
    let detailFields: [(String, FieldSpec)]
    let key: FieldSpec?
    /// The heading selectors the fields read (`heading`), each its own index.
    let headingSelectors: [Selector]
    /// The nearest element before an item whose text says the year of yearless dates.
    let yearSelector: Selector?
    /// `yearFrom: "url"`: the year is in the page's address (`/2026-meeting-materials`).
    let yearFromURL: Bool
    /// `xml`: pages are parsed as XML, not HTML.
    let xml: Bool
    /// Every heading, to tell a reviewer when a guessed year disagrees with the page.
    static let anyHeading = try? Selector("h1, h2, h3, h4, h5, h6")

    public init(source: SourceDefinition) throws {
        self.source = source
        let options = source.options
        try source.checkOptions(HTMLImporter.info)
        let known = try MappedFields.names(for: source, importer: "html")
        (item, split) = try HTMLImporter.itemSpec(options["item"], source: source)
        guard let fieldObject = options["fields"]?.objectValue, !fieldObject.isEmpty else {
            throw source.error(
                "options.fields", "is required: an object of field → selector", fix: "e.g. \"fields\": {\"title\": \"h2 a\", \"link\": \"h2 a@href\"}")
        }
        fields = try HTMLImporter.parseFields(fieldObject, path: "options.fields", known: known, source: source)
        next = try options["next"].map { try FieldSpec($0, field: "options.next", source: source) }
        maxPages = try source.intOption("maxPages", default: 5, range: 1...100)
        maxItems = try source.intOption("maxItems", default: 5000, range: 1...100_000)
        if let detail = options["detail"] {
            guard let object = detail.objectValue, let detailFieldObject = object["fields"]?.objectValue, !detailFieldObject.isEmpty else {
                throw source.error("options.detail", "must be {\"link\": FIELD, \"fields\": {...}}")
            }
            detailLink = object["link"]?.stringValue ?? "link"
            detailFields = try HTMLImporter.parseFields(detailFieldObject, path: "options.detail.fields", known: known, source: source)
        } else {
            detailLink = nil
            detailFields = []
        }
        key = try options["key"].map { try FieldSpec($0, field: "options.key", source: source) }
        headingSelectors = (fields + detailFields).flatMap(\.1.headingSelectors) + (key?.headingSelectors ?? [])
        switch options["yearFrom"] {
        case nil, .bool(false)?: (yearSelector, yearFromURL) = (nil, false)
        case .bool(true)?: (yearSelector, yearFromURL) = (HTMLImporter.anyHeading, false)
        case .string("url")?: (yearSelector, yearFromURL) = (nil, true)
        case .string(let text)?:
            do { yearSelector = try Selector.compiled(text) } catch let error as TimeTrackError {
                throw source.error("options.yearFrom", error.message, fix: error.fix)
            }
            yearFromURL = false
        default:
            throw source.error("options.yearFrom", "must be a selector (\"h2.month\") or true (the nearest heading)")
        }
        try source.checkYearOption()
        xml = try source.boolOption("xml", default: false)
        try MappedFields.check(Set((fields + detailFields).map(\.0)), source: source)
        let splitByPattern: Bool = { if case .pattern? = split { return true } else { return false } }()
        try FieldShape.checkReferences(
            fields.map { ($0.0, $0.1.readsFields, $0.1.usesGroups) }, path: "options.fields", splitByPattern: splitByPattern, source: source)
        try FieldShape.checkReferences(
            detailFields.map { ($0.0, $0.1.readsFields, $0.1.usesGroups) }, path: "options.detail.fields", splitByPattern: false,
            alsoKnown: Set(fields.map(\.0)),
            source: source)
    }

    /// How an element is cut into several items.
    enum Split: Sendable {
        /// At each `<br>` and around each block element.
        case lines
        /// At each `<br>` only.
        case br
        /// Every match of the pattern; its groups are read by `{"group": N}` fields.
        case pattern(SafePattern)
    }

    /// `item`: a selector, or `{"select": SEL, "split": ...}`.
    static func itemSpec(_ value: JSONValue?, source: SourceDefinition) throws -> (Selector, Split?) {
        let selectorText: String
        var split: Split?
        switch value {
        case .string(let text)?:
            selectorText = text
        case .object(let object)?:
            for key in object.keys where !["select", "split"].contains(key) {
                throw source.error("options.item.\(key)", "is not an item option", fix: "use select and split")
            }
            guard let text = object["select"]?.stringValue else { throw source.error("options.item.select", "is required: a CSS selector") }
            selectorText = text
            switch object["split"] {
            case nil: break
            case .string("lines")?: split = .lines
            case .string("br")?: split = .br
            case .object(let splitObject)? where splitObject.keys.sorted() == ["pattern"]:
                guard let pattern = splitObject["pattern"]?.stringValue else {
                    throw source.error("options.item.split.pattern", "must be a regular expression string")
                }
                do { split = .pattern(try SafePattern(pattern)) } catch let error as SafePattern.SyntaxError {
                    throw source.error(
                        "options.item.split.pattern", "'\(pattern.prefix(80))' \(error.message)", fix: "see \"Patterns\" in docs/source-definitions.md")
                }
            default:
                throw source.error("options.item.split", "must be \"lines\", \"br\" or {\"pattern\": \"...\"}")
            }
        default:
            throw source.error(
                "options.item", "is required: a CSS selector matching one element per item",
                fix: "e.g. \"item\": \"article.news\", or {\"select\": \"div.schedule p\", \"split\": \"lines\"}")
        }
        if let at = Selector.attributeSplit(selectorText) {
            let attribute = selectorText[selectorText.index(after: at)...]
            throw source.error(
                "options.item", "'\(selectorText)' reads an attribute (@\(attribute)), and an item is an element",
                fix:
                    "for a list of items kept as JSON in it, use the json importer with \"from\": \"\(selectorText)\"; for one value, read it in a"
                    + " field, with \"json\": PATH for JSON"
            )
        }
        do { return (try Selector.compiled(selectorText), split) } catch let error as TimeTrackError {
            throw source.error("options.item", error.message, fix: error.fix)
        }
    }

    /// The items one matched element gives: itself, or the pieces `split` cuts from it (each
    /// parsed on its own, so field selectors work inside it) with the pattern's groups.
    func units(of element: HTMLNode) -> [(node: HTMLNode, groups: [String?])] {
        guard let split else { return [(element, [])] }
        func fragment(_ html: String) -> HTMLNode? {
            guard let document = try? HTMLDocument(data: Data(("<div>" + html + "</div>").utf8), url: element.document.baseURL) else { return nil }
            return HTMLImporter.fragmentRoot.flatMap { document.root.first($0) }
        }
        switch split {
        case .lines, .br:
            let isLines: Bool = { if case .lines = split { return true } else { return false } }()
            return element.pieces(atBlocks: isLines).compactMap(fragment).map { ($0, []) }
        case .pattern(let pattern):
            let text = element.blockText
            var out: [(HTMLNode, [String?])] = []
            var rest = Substring(text)
            while !rest.isEmpty, out.count < maxItems {
                let remaining = String(rest)
                guard let match = pattern.firstMatch(in: remaining) else { break }
                let whole = String(remaining[match.whole])
                let groups = match.groups.map { $0.map { TextNormalizer.collapse(String(remaining[$0])) } }
                if let node = fragment(Sanitizer.escape(whole)) { out.append((node, groups)) }
                // On past the match (one character past an empty one).
                rest = rest.dropFirst(remaining.distance(from: remaining.startIndex, to: match.whole.upperBound) + (match.whole.isEmpty ? 1 : 0))
            }
            return out
        }
    }

    static let fragmentRoot = try? Selector("body > div")

    static func parseFields(_ object: [String: JSONValue], path: String, known: Set<String>, source: SourceDefinition) throws -> [(String, FieldSpec)] {
        let parsed = try object.keys.sorted().map { name in
            guard known.contains(name) else {
                throw source.error(
                    "\(path).\(name)", "is not a field of \(source.kind.rawValue) items", fix: "fields: " + known.sorted().joined(separator: ", "))
            }
            return (name, try FieldSpec(object[name] ?? .null, field: "\(path).\(name)", source: source))
        }
        return FieldShape.order(parsed) { $0.readsFields }
    }

    /// What a listing page gave, remembered by the page's hash.
    struct ListingMemo: MemoCodable {
        struct Entry {
            var key: String
            var values: [String: String]
            /// Set when the item memo covered the item (and the source has no detail pages): the
            /// digest of its listing values, which `values` then leaves out.
            ///
            /// An unchanged page gives such an item by its digest; should it not be settled, the
            /// page is read again.
            var digest: String?
        }
        var entries: [Entry]
        var next: String?
        var matched: Int
        /// The public URL the page stood for (its canonical link, for a local page without baseURL).
        var pageURL: String

        func write(to writer: inout MemoWriter) {
            writer.write(pageURL)
            writer.write(matched)
            writer.write(next)
            writer.write(entries) { writer, entry in
                writer.write(entry.key)
                writer.write(entry.values)
                writer.write(entry.digest)
            }
        }

        init(entries: [Entry], next: String?, matched: Int, pageURL: String) {
            self.entries = entries
            self.next = next
            self.matched = matched
            self.pageURL = pageURL
        }

        init?(reading reader: inout MemoReader) {
            guard let pageURL = reader.readString(), let matched = reader.readInt(), let next = reader.readOptionalString(),
                let entries = reader.readList({ reader -> Entry? in
                    guard let key = reader.readString(), let values = reader.readDictionary(), let digest = reader.readOptionalString() else { return nil }
                    return Entry(key: key, values: values, digest: digest)
                })
            else { return nil }
            self.init(entries: entries, next: next, matched: matched, pageURL: pageURL)
        }
    }

    /// What a detail page gave, remembered by the page's hash: the digest of its values, and the
    /// values themselves unless the item memo covers the item (its body is then in its revision
    /// only, not copied here).
    struct DetailMemo: MemoCodable {
        var digest: String
        var values: [String: String]?

        func write(to writer: inout MemoWriter) {
            writer.write(digest)
            writer.write(values == nil ? 0 : 1)
            if let values { writer.write(values) }
        }

        init(digest: String, values: [String: String]?) {
            self.digest = digest
            self.values = values
        }

        init?(reading reader: inout MemoReader) {
            guard let digest = reader.readString(), let flag = reader.readInt() else { return nil }
            if flag == 1 {
                guard let values = reader.readDictionary() else { return nil }
                self.values = values
            } else {
                values = nil
            }
            self.digest = digest
        }
    }

    /// The raw values standing for an item's listing values and its detail page's values in its
    /// memo digest.
    static let detailDigestField = "@detail"
    static let listingDigestField = "@listing"

    /// The digest of a detail page's values.
    static func digest(_ values: [String: String]) -> String { ItemMemo.digest(RawItem(values)) }

    /// Identifies how pages were read: a change of options or importer version reads them again.
    ///
    /// Kept as its SHA-256 (every memo row holds it). `memo 2`: listing entries by digest;
    /// `memo 3`: integers in as few bytes as they need (`MemoWriter`).
    var signature: String {
        SHA256.hex(
            "html/\(HTMLImporter.info.version)|memo 3|\(source.kind.rawValue)|\(source.baseURL?.absoluteString ?? "")|"
                + JSONValue.object(source.options).canonicalText)
    }

    /// One item found on a listing page, as the run carries it.
    struct Found {
        var key: String
        var raw: RawItem
        /// The listing page (its hash and time go with the item).
        var page: FetchedPage
        var pageURL: URL
        var location: String
        /// The digest of its listing values (`ListingMemo.Entry.digest`).
        var listingDigest: String?
        /// Given by digest: `raw` holds none of its listing values until its page is read again.
        var byDigest = false
        /// Seen on more than one listing page (merged).
        var merged = false
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let signature = self.signature
        // Every page as it was and every item settled: nothing to read (`SourceMemo`).
        if context.items != nil, let saved = context.rememberedSource(signature: signature), let unchanged = context.unchangedReading(saved) {
            context.progress?(unchanged.pagesFetched, unchanged.found)
            return unchanged
        }
        var run = HTMLRun(importer: self, context: context, signature: signature)
        return try run.run()
    }

    /// The values of every item of `pages` (listing pages, read afresh), merged by key as the
    /// run merges them; a page that cannot be read is a page unread (nothing counted missing).
    func readListingsAgain(_ pages: [(url: URL, publicURL: URL, number: Int)], context: ImportContext, result: inout ImportResult) throws -> (
        values: [String: [String: String]], read: [(page: FetchedPage, listing: ListingMemo)]
    ) {
        var values: [String: [String: String]] = [:]
        var read: [(page: FetchedPage, listing: ListingMemo)] = []
        for (url, publicURL, number) in pages {
            let page: FetchedPage
            do {
                page = try context.fetcher.fetch(url)
            } catch let error as TimeTrackError where error.code != .interrupted {
                result.pageUnread(url, error, message: "page \(number) could not be read again: \(error.description)")
                continue
            }
            let listing = try readListing(page, publicURL: publicURL, normalizer: Normalizer(source: source, now: context.now)).listing
            read.append((page, listing))
            for entry in listing.entries.prefix(maxItems) where !entry.key.isEmpty {
                if var known = values[entry.key] {
                    var raw = RawItem(known)
                    raw.merge(RawItem(entry.values))
                    known = raw.values
                    values[entry.key] = known
                } else {
                    values[entry.key] = entry.values
                }
            }
        }
        return (values, read)
    }

    /// The problem of an element that gave no key.
    ///
    /// Names each of title, link and key the definition gives and what it found for this item,
    /// so the message blames the spec that matched nothing, never one that matched.
    func noKeyProblem(_ location: String, found raw: RawItem = RawItem()) -> ImportProblem {
        let specs = ["title", "link", "key"].compactMap { name -> String? in
            guard let spec = source.options["fields"]?.objectValue?[name] ?? (name == "key" ? source.options["key"] : nil) else { return nil }
            let shown = "options.fields.\(name) \(TextNormalizer.truncate(spec.description, to: 60))"
            return raw[name].map { "\(shown) gave '\(TextNormalizer.truncate($0, to: 40))'" } ?? "\(shown) matched nothing"
        }
        return ImportProblem(
            .error, "skipped: no title, link or key found (" + (specs.isEmpty ? "check options.fields" : specs.joined(separator: ", ")) + ")",
            location: location)
    }

    /// Parses a listing page: each item's field values, the next page, how many elements matched.
    func readListing(_ page: FetchedPage, publicURL: URL, normalizer: Normalizer) throws -> (listing: ListingMemo, note: String?) {
        let document = try parse(page, url: publicURL)
        let headings = FieldTarget.headings(document, headingSelectors)
        // A table's header rows (only <th> cells) are no items: a selector like `table tr`
        // matches them, and each was an error that ended every run `partial`.
        let elements = document.root.select(item).filter { !HTMLImporter.isHeaderRow($0) }
        var entries: [ListingMemo.Entry] = []
        entries.reserveCapacity(elements.count)
        let years = YearLookup(document: document, selector: yearSelector, items: elements)
        let page = publicURL.absoluteString
        if split == nil && elements.count >= HTMLImporter.parallelListing {
            entries = readEntries(
                Array(elements.prefix(maxItems)), years: years, headings: headings, document: document, publicURL: publicURL, normalizer: normalizer)
        } else {
            for element in elements.prefix(maxItems) {
                for unit in units(of: element) where entries.count < maxItems {
                    let context = listingContext(element, years: years, publicURL: publicURL)
                    entries.append(
                        entry(
                            unit.node, anchor: element, groups: unit.groups, raw: context, headings: headings, document: document, page: page,
                            normalizer: normalizer))
                }
            }
        }
        var inputs = FieldInputs(page: publicURL.absoluteString, text: { "" })
        let next = self.next.flatMap { $0.value(FieldTarget(element: document.root), &inputs) }.flatMap { document.resolve($0) }
        var notes = document.encodingNote.map { [$0] } ?? []
        if case .pattern(let pattern)? = split, entries.isEmpty, let first = elements.first {
            // Every element cut into nothing: say what the pattern was given to read.
            notes.append(
                "0 items: the item selector '\(item.source)' matched \(elements.count) element(s), and options.item.split.pattern"
                    + " '\(pattern.source.prefix(80))' matched nothing in their text (the first reads:"
                    + " '\(TextNormalizer.truncate(first.blockText.replacingOccurrences(of: "\n", with: " "), to: 100))')"
            )
        }
        return (
            ListingMemo(entries: entries, next: next, matched: elements.count, pageURL: publicURL.absoluteString),
            notes.isEmpty ? nil : notes.joined(separator: "; ")
        )
    }

    /// A page as the definition reads it: HTML, or with `xml`, XML.
    func parse(_ page: FetchedPage, url: URL) throws -> HTMLDocument {
        if xml { return try HTMLDocument(xml: page.data, url: url) }
        return try HTMLDocument(data: page.data, url: url, declaredCharset: page.charset)
    }

    /// What to say when an XML document (not XHTML) is read as HTML: HTML empties `<link>` and
    /// a few other elements, so fields read from them come out empty without a word.
    static func xmlReadAsHTML(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(512), as: UTF8.self).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard head.hasPrefix("<?xml"), !head.lowercased().contains("<html"), !head.lowercased().contains("<!doctype html") else { return nil }
        return "the page is XML, read as HTML: <link> and other elements HTML keeps empty lose their text; add \"xml\": true to the options"
    }

    /// Whether `element` is a table row of header cells only.
    static func isHeaderRow(_ element: HTMLNode) -> Bool {
        guard element.name == "tr" else { return false }
        let cells = element.children.filter { $0.name == "th" || $0.name == "td" }
        return !cells.isEmpty && cells.allSatisfy { $0.name == "th" }
    }

    /// From this many items on, a listing's items are read on all cores.
    static let parallelListing = 512

    /// The entries of a listing's elements, one each (no `split`), read on all cores in order.
    ///
    /// The tree is only read (selectors, text, links: arena documents are read-only), and what
    /// each element's reading shares is read-only too; the year and heading lookups, which
    /// keep a cache, run first, on this thread.
    func readEntries(
        _ elements: [HTMLNode], years: YearLookup, headings: [String: HeadingIndex], document: HTMLDocument, publicURL: URL, normalizer: Normalizer
    ) -> [ListingMemo.Entry] {
        let page = publicURL.absoluteString
        let context = elements.map { listingContext($0, years: years, publicURL: publicURL) }
        /// What the workers share, read-only (nodes and the document are not `Sendable` by type).
        struct Shared: @unchecked Sendable {
            let importer: HTMLImporter
            let elements: [HTMLNode]
            let headings: [String: HeadingIndex]
            let document: HTMLDocument
            let normalizer: Normalizer
        }
        let shared = Shared(importer: self, elements: elements, headings: headings, document: document, normalizer: normalizer)
        return Parallel.map(Array(zip(elements.indices, context).map { IndexedRaw(index: $0.0, raw: $0.1) }), minimumPerWorker: 256) { input in
            let element = shared.elements[input.index]
            return shared.importer.entry(
                element, anchor: element, groups: [], raw: input.raw, headings: shared.headings, document: shared.document, page: page,
                normalizer: shared.normalizer)
        }
    }

    /// What a listing element's reading starts from: the year its heading or URL gives.
    func listingContext(_ element: HTMLNode, years: YearLookup, publicURL: URL) -> RawItem {
        var raw = RawItem()
        years.fill(&raw, for: element)
        if yearFromURL { raw[Normalizer.yearField] = publicURL.path.removingPercentEncoding ?? publicURL.path }
        return raw
    }

    /// One item of a listing: its fields read from `node` (the element, or a piece of it), and its key.
    func entry(
        _ node: HTMLNode, anchor: HTMLNode, groups: [String?], raw context: RawItem, headings: [String: HeadingIndex], document: HTMLDocument, page: String,
        normalizer: Normalizer
    ) -> ListingMemo.Entry {
        var raw = context
        let target = FieldTarget(element: node, anchor: anchor, headings: headings)
        FieldSpec.fill(&raw, fields: fields, item: target, groups: groups, page: page, resolve: document.resolve)
        var inputs = FieldInputs(fields: raw.values, groups: groups, page: page, text: { node.text })
        let key = key?.value(target, &inputs) ?? MappedFields.defaultKey(raw, kind: source.kind, normalizer: normalizer) ?? ""
        return ListingMemo.Entry(key: key, values: raw.values)
    }

    /// Parses a detail page: the detail fields' values.
    func readDetail(_ page: FetchedPage) throws -> [String: String] {
        let document = try parse(page, url: page.url)
        var raw = RawItem()
        var target = FieldTarget(element: document.root, headings: FieldTarget.headings(document, headingSelectors))
        target.prefetch(detailFields)
        FieldSpec.fill(&raw, fields: detailFields, item: target, page: page.url.absoluteString, resolve: document.resolve)
        return raw.values
    }

    /// The page's canonical URL when the page was read from a local file.
    func canonical(_ page: FetchedPage) -> URL? {
        guard page.url.isFileURL, let document = try? HTMLDocument(data: page.data.prefix(16_384), url: page.url) else { return nil }
        return document.canonicalURL
    }

}

/// For each item: the text that says the year of its yearless dates (`yearFrom`), and the
/// nearest heading when it names a year (so a guessed year that disagrees with the page is
/// said).
///
/// Texts are read once per heading, not once per item.
final class YearLookup {
    let chosen: HeadingIndex?
    let headings: HeadingIndex?
    private var texts: [Int: String] = [:]

    init(document: HTMLDocument, selector: Selector?, items: [HTMLNode] = []) {
        chosen = selector.map { HeadingIndex(document: document, selector: $0) }
        // A heading inside an item is that item's title, not a heading over the items after it.
        let inside = Set(items.map(\.identity))
        func outside(_ node: HTMLNode) -> Bool {
            var current: HTMLNode? = node
            while let here = current {
                if inside.contains(here.identity) { return false }
                current = here.parent
            }
            return true
        }
        headings = HTMLImporter.anyHeading.map { HeadingIndex(HeadingIndex(document: document, selector: $0), keeping: outside) }
    }

    private func text(_ node: HTMLNode) -> String {
        if let known = texts[node.identity] { return known }
        let text = String(node.text.prefix(300))
        texts[node.identity] = text
        return text
    }

    func fill(_ raw: inout RawItem, for element: HTMLNode) {
        if let node = chosen?.nearest(before: element) { raw[Normalizer.yearField] = text(node) }
        if let node = headings?.nearest(before: element) {
            let heading = text(node)
            if heading.contains(where: \.isNumber) { raw[Normalizer.headingField] = heading }
        }
    }
}

/// An element's position in its listing and what was read for it before its fields.
struct IndexedRaw: Sendable {
    var index: Int
    var raw: RawItem
}
