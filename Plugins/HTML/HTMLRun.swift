import Foundation
import TimeTrackCore
import TimeTrackKit

/// One run of the html importer, step by step: the listing pages (following `next`), the
/// detail pages, the items an unchanged page gave by digest only and that must be read again,
/// then normalizing and what the run remembers for the next one.
///
/// The steps share the run's state (what was found, each item's digests, the pages read
/// afresh), so they are methods of one value rather than one long function.
struct HTMLRun {
    let importer: HTMLImporter
    let context: ImportContext
    let signature: String
    let normalizer: Normalizer
    /// Which items are settled since they were stored (nil: no store).
    let memo: ItemMemo?
    var result = ImportResult()
    /// Every page of the run with its file's stamp (nil: a web page, or a file still changing).
    var pageStamps: [(url: String, stamp: String?)] = []
    var raws: [HTMLImporter.Found] = []
    var indexByKey: [String: Int] = [:]
    /// Listing pages read afresh, remembered once the run knows which items the item memo covers.
    var freshListings: [(page: FetchedPage, listing: HTMLImporter.ListingMemo)] = []
    /// Every listing page of the run, in order: where to read an item's values again.
    var listings: [(url: URL, publicURL: URL, number: Int)] = []
    /// Each item's digest for the item memo: its listing values' digest and its detail page's
    /// values' digest, so a settled item's pages need not be read or parsed again.
    var digests: [Int: String] = [:]
    var detailDigests: [Int: String] = [:]
    /// Detail pages read afresh: remembered after normalizing, with their values only for items
    /// the item memo does not cover (a settled item needs none).
    var freshDetails: [(index: Int, page: FetchedPage, digest: String, values: [String: String])] = []
    /// Items gone from a listing page that changed since they were given by digest.
    var dropped: Set<Int> = []

    init(importer: HTMLImporter, context: ImportContext, signature: String) {
        self.importer = importer
        self.context = context
        self.signature = signature
        normalizer = Normalizer(source: importer.source, now: context.now)
        memo = context.items
    }

    /// The whole run.
    mutating func run() throws -> ImportResult {
        try readListings()
        if let linkField = importer.detailLink {
            try readDetails(linkField)
        } else if memo != nil {
            for index in raws.indices { digests[index] = raws[index].listingDigest }
        }
        try readUnsettledAgain()
        finish()
        return result
    }

    // MARK: Listing pages

    /// Reads the listing pages, following `next` up to `maxPages` and `maxItems`.
    mutating func readListings() throws {
        var pageURL: URL? = importer.source.url
        var visited: Set<String> = []
        var pageNumber = 0
        while let url = pageURL, pageNumber < importer.maxPages, raws.count < importer.maxItems {
            guard visited.insert(url.absoluteString).inserted else { break }
            pageNumber += 1
            guard let (page, listing) = try readListingPage(url, number: pageNumber) else { break }
            let publicURL = URL(string: listing.pageURL) ?? page.url
            listings.append((url, publicURL, pageNumber))
            add(listing, page: page, publicURL: publicURL, pageNumber: pageNumber)
            context.progress?(result.pagesFetched, raws.count)
            // An empty page of a source that may be empty (an alert pop-up on a quiet day) is no problem.
            if listing.matched == 0 && !(importer.source.mayBeEmpty && pageNumber == 1) {
                result.note(
                    ImportProblem(
                        .warning, "0 items: the item selector '\(importer.item.source)' matched nothing on this page",
                        location: pageNumber == 1 ? importer.source.urlText : url.absoluteString))
            }
            pageURL = listing.next.flatMap(URL.init(string:))
        }
        if let pageURL, pageNumber >= importer.maxPages, !visited.contains(pageURL.absoluteString) { result.nextPageNotRead = pageURL.absoluteString }
        if memo != nil {
            for index in raws.indices where raws[index].listingDigest == nil && !raws[index].byDigest {
                raws[index].listingDigest = ItemMemo.digest(raws[index].raw)
            }
        }
    }

    /// One listing page: from the memo when it serves, else read afresh; nil when a page after
    /// the first cannot be read (the run keeps what it has).
    mutating func readListingPage(_ url: URL, number pageNumber: Int) throws -> (FetchedPage, HTMLImporter.ListingMemo)? {
        var page: FetchedPage
        let remembered: HTMLImporter.ListingMemo?
        do {
            let fetched = try context.fetchRemembered(url, signature: signature)
            remembered = fetched.payload.flatMap(HTMLImporter.ListingMemo.init)
            // A page known unchanged by its file's stamp is read only if its memo does not serve.
            page = remembered == nil ? try context.read(fetched.page) : fetched.page
        } catch let error as TimeTrackError where pageNumber > 1 && error.code != .interrupted {
            result.pageUnread(url, error, message: "page \(pageNumber) could not be read: \(error.description)")
            return nil
        }
        result.pagesFetched += 1
        pageStamps.append((url.absoluteString, page.stamp))
        if let remembered { return (page, remembered) }
        // Only a page read afresh is searched for its canonical link.
        let source = importer.source
        let publicURL = pageNumber == 1 ? (source.baseURL ?? importer.canonical(page) ?? page.url) : page.url
        let read = try importer.readListing(page, publicURL: publicURL, normalizer: normalizer)
        freshListings.append((page, read.listing))
        // A charset declaration the bytes contradict (noted when the page is read afresh).
        if let note = read.note { result.note(ImportProblem(.warning, note, location: url.absoluteString)) }
        if !importer.xml, pageNumber == 1, let note = HTMLImporter.xmlReadAsHTML(page.data) {
            result.note(ImportProblem(.warning, note, location: url.absoluteString))
        }
        return (page, read.listing)
    }

    /// A listing page's entries as found items: merged by key, at most `maxItems`.
    mutating func add(_ listing: HTMLImporter.ListingMemo, page: FetchedPage, publicURL: URL, pageNumber: Int) {
        for (index, entry) in listing.entries.enumerated() {
            guard raws.count < importer.maxItems else {
                result.note(ImportProblem(.warning, "stopped at \(importer.maxItems) items (options.maxItems)", location: "page \(pageNumber)"))
                break
            }
            let location = "page \(pageNumber) item \(index + 1)"
            let raw = RawItem(entry.values)
            guard !entry.key.isEmpty else {
                result.note(importer.noKeyProblem(location, found: raw))
                continue
            }
            if let existing = indexByKey[entry.key] {
                raws[existing].raw.merge(raw)
                raws[existing].merged = true
                raws[existing].byDigest = raws[existing].byDigest || entry.digest != nil
                raws[existing].listingDigest = nil
                result.duplicatesMerged += 1
                continue
            }
            indexByKey[entry.key] = raws.count
            raws.append(
                HTMLImporter.Found(
                    key: entry.key, raw: raw, page: page, pageURL: publicURL, location: location, listingDigest: entry.digest, byDigest: entry.digest != nil))
        }
    }

    /// The digest the item memo keeps for an item: its listing values' and, with detail pages,
    /// its detail page's; nil while either is unknown.
    func combined(_ index: Int) -> String? {
        guard let listing = raws[index].listingDigest else { return nil }
        guard importer.detailLink != nil else { return listing }
        guard let detail = detailDigests[index] else { return nil }
        return ItemMemo.digest(RawItem([HTMLImporter.listingDigestField: listing, HTMLImporter.detailDigestField: detail]))
    }

    // MARK: Items given by digest only

    /// Items an unchanged listing page gave by digest only, and not settled (edited, gone
    /// missing, changed on their detail page): their values are read from the page again.
    mutating func readUnsettledAgain() throws {
        let unsettled = raws.indices.filter { index in
            raws[index].byDigest && (raws[index].merged || !(digests[index].map { memo?.isSettled(key: raws[index].key, digest: $0) == true } ?? false))
        }
        guard !unsettled.isEmpty else { return }
        // The pages holding them (every page when an item merged across pages), by a set of
        // their addresses: a filter of pages by items was pages × items.
        let holding = Set(unsettled.map { raws[$0].page.url })
        let pages = raws.contains { $0.byDigest && $0.merged } ? listings : listings.filter { holding.contains($0.url) }
        let again = try importer.readListingsAgain(pages, context: context, result: &result)
        freshListings += again.read
        for index in unsettled {
            guard let values = again.values[raws[index].key] else {
                // Gone from a page that changed since: it was not found this run.
                dropped.insert(index)
                continue
            }
            var raw = RawItem(values)
            for (name, _) in importer.detailFields { if let value = raws[index].raw[name] { raw[name] = value } }
            raws[index].raw = raw
            raws[index].byDigest = false
            raws[index].listingDigest = ItemMemo.digest(RawItem(values))
            digests[index] = combined(index)
        }
    }

    // MARK: The end of the run

    /// Notes fields no item had, normalizes the items (on all cores, in page order) and
    /// remembers what the next run can use.
    mutating func finish() {
        if !raws.contains(where: \.byDigest) {
            let values = raws.map(\.raw.values)
            result.noteFieldsNeverRead(importer.fields.map(\.0), path: "options.fields", values: values)
            if importer.detailLink != nil {
                let listing = result.fieldsNeverRead
                result.noteFieldsNeverRead(importer.detailFields.map(\.0), path: "options.detail.fields", values: values)
                result.fieldsNeverRead = listing + result.fieldsNeverRead
            }
        }
        MappedFields.finish(
            raws.indices.filter { !dropped.contains($0) }.map { index in
                let entry = raws[index]
                return MappedFields.Found(
                    key: entry.key, raw: entry.raw, page: entry.page, pageURL: entry.pageURL.absoluteString, location: entry.location, digest: digests[index])
            }, normalizer: normalizer, into: &result, context: context)
        let covered = memo == nil ? [] : Set(result.items.filter(\.guesses.isEmpty).map(\.key)).union(result.settled.map(\.key))
        rememberSource(covered: covered)
        rememberPages(covered: covered)
    }

    /// Remembers the reading whole when it is clean.
    ///
    /// Clean: every page stamped, nothing wrong, every item covered by the item memo. Any
    /// other reading says so (an older entry must not serve).
    func rememberSource(covered: Set<String>) {
        guard memo != nil else { return }
        let kept = raws.indices.filter { !dropped.contains($0) }
        let stamped = pageStamps.compactMap { page in page.stamp.map { (url: page.url, stamp: $0) } }
        let items = kept.compactMap { index in
            digests[index].flatMap {
                covered.contains(raws[index].key) ? SourceMemo.Item(key: raws[index].key, digest: $0, location: raws[index].location) : nil
            }
        }
        let clean =
            result.problems.isEmpty && result.readEveryPage && result.runNote == nil && stamped.count == pageStamps.count && items.count == kept.count
            && result.found == kept.count
        context.rememberSource(
            clean
                ? SourceMemo(firstURL: importer.source.url.absoluteString, stamped: stamped, items: items, duplicatesMerged: result.duplicatesMerged)
                : nil, signature: signature)
    }

    /// Remembers the listing and detail pages read afresh.
    ///
    /// A listing keeps an item the item memo covers by its digest only, when the source has no
    /// detail pages. (With detail pages the values stay: a changed
    /// article, the common change, would have its listing page parsed again for them.) Detail
    /// pages read afresh keep their values only where the item memo does not cover the item
    /// (it had to guess, or it was not valid).
    func rememberPages(covered: Set<String>) {
        let merged = Set(raws.filter(\.merged).map(\.key))
        for (page, listing) in freshListings {
            var kept = listing
            if importer.detailLink == nil {
                kept.entries = listing.entries.map { entry in
                    guard covered.contains(entry.key), !merged.contains(entry.key) else { return entry }
                    return HTMLImporter.ListingMemo.Entry(key: entry.key, values: [:], digest: ItemMemo.digest(RawItem(entry.values)))
                }
            }
            context.remember(kept.encoded, page: page, signature: signature)
        }
        for detail in freshDetails {
            let keep = memo == nil || !covered.contains(raws[detail.index].key)
            context.remember(
                HTMLImporter.DetailMemo(digest: detail.digest, values: keep ? detail.values : nil).encoded, page: detail.page, signature: signature)
        }
    }
}
