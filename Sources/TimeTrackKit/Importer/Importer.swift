import Foundation
import TimeTrackCore

/// One option an importer reads from a source definition's `options`.
public struct ImporterOption: Sendable {
    public var name: String
    /// What the value looks like (`selector`, `number`, `object`...).
    public var type: String
    public var required: Bool
    public var help: String

    public init(_ name: String, type: String, required: Bool = false, help: String) {
        self.name = name
        self.type = type
        self.required = required
        self.help = help
    }
}

/// What an importer is: its name (the `importer` of a source definition), version, the kinds it
/// produces and its options.
///
/// `timetrack-admin plugins` lists these.
public struct ImporterInfo: Sendable {
    public var name: String
    public var version: String
    public var kinds: [ItemKind]
    public var summary: String
    public var options: [ImporterOption]

    public init(name: String, version: String, kinds: [ItemKind], summary: String, options: [ImporterOption]) {
        self.name = name
        self.version = version
        self.kinds = kinds
        self.summary = summary
        self.options = options
    }
}

/// A page as fetched: bytes, where from, and its hash.
public struct FetchedPage: Sendable {
    /// The URL the page stands for (public URL for local mirrors), used to resolve links.
    public var url: URL
    /// Where the bytes were actually read from (a file path or the final URL after redirects).
    public var location: String
    public var data: Data
    /// The HTTP `Content-Type` without parameters, if known.
    public var contentType: String?
    /// The charset from the `Content-Type` header, if any.
    public var charset: String?
    public var fetchedAt: Date
    /// SHA-256 of the bytes.
    public var hash: String
    /// True when the server answered 304 and these are the cached bytes.
    public var notModified = false
    /// For a local file read while it was not changing: its `FileStamp` when it was read.
    public var stamp: String?
    /// True for a page `ImportContext.fetchRemembered` found unchanged by its file's stamp:
    /// `data` is empty and `hash` is the remembered one.
    ///
    /// `ImportContext.read` reads it.
    public var unread = false

    public init(url: URL, location: String, data: Data, contentType: String? = nil, charset: String? = nil, fetchedAt: Date = Date()) {
        self.url = url
        self.location = location
        self.data = data
        self.contentType = contentType
        self.charset = charset
        self.fetchedAt = fetchedAt
        self.hash = SHA256.hex(data)
    }

    /// A page known unchanged by its file's stamp, not read: its remembered hash, no bytes.
    public init(unreadAt url: URL, location: String, hash: String, stamp: String, fetchedAt: Date = Date()) {
        self.url = url
        self.location = location
        self.data = Data()
        self.fetchedAt = fetchedAt
        self.hash = hash
        self.stamp = stamp
        self.unread = true
    }
}

/// A local file's identity and change times, as one string: device, inode, size, and the
/// modification and status-change times in nanoseconds.
///
/// Writing the file, replacing it (a new inode) or setting its modification time back (which
/// changes the status-change time) all
/// change it; reading it does not.
///
/// A file changed within `settle` seconds of being stamped has no stamp (`of` returns nil), as
/// git treats a "racily clean" file: a write in the same clock tick as the read could leave the
/// times as they were.
public enum FileStamp {
    /// Seconds a file must have been left alone before its stamp is trusted.
    public static let settle: Double = 2

    /// The stamp of the file `info` describes, or nil when it changed too recently (or is not a
    /// regular file).
    public static func of(_ info: stat, now: Date = Date()) -> String? {
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        let latest = Double(max(modified, changed)) / 1_000_000_000
        guard now.timeIntervalSince1970 - latest >= settle else { return nil }
        // "dev:ino:size:modified:changed", the numbers written in place (this runs for every
        // page of every unchanged source; string interpolation was most of its time).
        let numbers: [(magnitude: UInt64, negative: Bool)] = [
            (UInt64(info.st_dev), false), (UInt64(info.st_ino), false), (Int64(info.st_size).magnitude, info.st_size < 0),
            (modified.magnitude, modified < 0), (changed.magnitude, changed < 0),
        ]
        return String(unsafeUninitializedCapacity: 5 * 21 + 4) { text in
            var at = 0
            for (index, number) in numbers.enumerated() {
                if index > 0 {
                    text[at] = UInt8(ascii: ":")
                    at += 1
                }
                if number.negative {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                // Digits from the last, then turned around.
                let first = at
                var rest = number.magnitude
                repeat {
                    text[at] = UInt8(truncatingIfNeeded: rest % 10) + 48
                    rest /= 10
                    at += 1
                } while rest > 0
                var (low, high) = (first, at - 1)
                while low < high {
                    text.swapAt(low, high)
                    low += 1
                    high -= 1
                }
            }
            return at
        }
    }
}

/// Fetches pages for importers (files, http), with the run's limits and politeness.
public protocol PageFetcher: AnyObject {
    /// Fetches a page; errors are `.fetch` errors naming the URL.
    func fetch(_ url: URL) throws -> FetchedPage
    /// Fetches several pages, results in order. A fetcher may read local files at once on
    /// several threads; web pages still go one at a time (politeness). An `.interrupted`
    /// error stops the whole call.
    func fetchAll(_ urls: [URL]) throws -> [Result<FetchedPage, TimeTrackError>]
    /// For a page read from a local file: where it is read from and the file's `FileStamp` now,
    /// without reading it (nil: a web page, a file that cannot be read or is changing; `fetch`
    /// says why).
    func stamp(of url: URL) -> (location: String, stamp: String)?
}

extension PageFetcher {
    /// No stamps: every page is fetched.
    public func stamp(of url: URL) -> (location: String, stamp: String)? { nil }

    /// One after another.
    public func fetchAll(_ urls: [URL]) throws -> [Result<FetchedPage, TimeTrackError>] {
        try urls.map { url in
            do { return .success(try fetch(url)) } catch let error as TimeTrackError where error.code != .interrupted { return .failure(error) }
        }
    }
}

/// Something wrong with one item or page: reported with where it happened, never dropped silently.
public struct ImportProblem: Codable, Sendable, Equatable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Codable, Sendable { case warning, error }
    public var severity: Severity
    public var message: String
    /// The page and item position (`page 2 item 5`), or the field.
    public var location: String
    /// The HTTP status of the answer that caused it, when a fetch did (a field, never parsed
    /// from the message).
    public var httpStatus: Int?

    /// A problem quotes page text (a title, a file name, an entry's id): its message and
    /// location are shown through the one cleaning step for display (`SafeText.visible`) here,
    /// so no escape sequence reaches a terminal, the runs table or a JSON reader.
    public init(_ severity: Severity, _ message: String, location: String, httpStatus: Int? = nil) {
        self.severity = severity
        self.message = SafeText.visible(message)
        self.location = SafeText.visible(location)
        self.httpStatus = httpStatus
    }

    /// For people: `severity: location: message`.
    public var description: String { "\(severity.rawValue): \(location): \(message)" }
}

/// One normalized item found by an importer.
public struct ExtractedItem: Sendable {
    /// Stable key within the source.
    public var key: String
    /// Setting it drops a preparation made for the old content.
    public var content: ItemContent {
        didSet { prepared = nil }
    }
    /// The content validated and encoded, when the importer did it (on its reading threads).
    public private(set) var prepared: PreparedContent?
    /// The page the item was read from.
    public var pageURL: String
    public var pageHash: String
    public var fetchedAt: Date
    /// Where it was on the page (`page 1 item 3`).
    public var location: String
    /// What the importer had to guess ("year guessed: 2026 (start)"): shown to the reviewer.
    public var guesses: [Guess] = []
    /// The key an older version of the importer gave this item, when it differs (events were
    /// keyed by their date text): a stored item under it is this one, and takes the new key.
    public var formerKey: String?

    public init(key: String, content: ItemContent, pageURL: String, pageHash: String, fetchedAt: Date, location: String) {
        self.key = key
        self.content = content
        self.pageURL = pageURL
        self.pageHash = pageHash
        self.fetchedAt = fetchedAt
        self.location = location
    }

    /// Validates and encodes the content if that was not done yet.
    ///
    /// Invalid content stays unprepared: the store reports its problems when the item is applied.
    public mutating func prepare() {
        if prepared == nil { prepared = try? PreparedContent(content) }
    }

    /// An item whose content was validated and encoded already (`Normalizer.prepare`).
    public init(key: String, prepared: PreparedContent, pageURL: String, pageHash: String, fetchedAt: Date, location: String) {
        self.init(key: key, content: prepared.content, pageURL: pageURL, pageHash: pageHash, fetchedAt: fetchedAt, location: location)
        self.prepared = prepared
    }
}

/// What an importer hands back for one source.
public struct ImportResult: Sendable {
    public var items: [ExtractedItem] = []
    /// The run's problems as recorded: at most `maxProblems` (`note` counts the rest in
    /// `problemsNotRecorded`), so a page of a million unusable entries costs a count, not a
    /// million messages.
    public var problems: [ImportProblem] = []
    /// Problems past `maxProblems`: counted, not recorded.
    public var problemsNotRecorded = 0
    /// Errors among `problemsNotRecorded` (a run with errors fails, whichever were recorded).
    public var errorsNotRecorded = 0
    /// Problems a run records at most.
    public static let maxProblems = 200
    public var pagesFetched = 0
    /// Items seen twice (same key) and merged into one.
    public var duplicatesMerged = 0
    /// Pages of the source (listing pages after the first, feed pages) that could not be read.
    ///
    /// A run with unread pages saw only part of the source: its unseen items are not counted
    /// missing. Importers with more than one page must fill it; the pipeline never reads
    /// problem messages to decide.
    public var unreadPages: [String] = []
    /// Items the item memo found unchanged since they were stored: counted as found and
    /// unchanged, never normalized again (`ItemMemo`).
    public var settled: [SettledItem] = []
    /// Items kept in a temporary file rather than in `items` (an external importer's long
    /// output): applied a batch at a time.
    public var spilled: SpilledItems?
    /// Every item found: read, spilled, and settled.
    public var found: Int { items.count + settled.count + (spilled?.count ?? 0) }

    /// Moves the spilled items into `items` (a dry run that shows them all).
    public mutating func loadSpilled() throws {
        guard let spilled else { return }
        items = try spilled.all() + items
        self.spilled = nil
    }
    /// Kept in the run's record beside its outcome (an external importer's stderr).
    public var runNote: String?
    /// The next page a listing pointed to when the run stopped at its page limit (`maxPages`).
    public var nextPageNotRead: String?
    /// The definition's fields that gave no value for any item read this run (`options.fields.summary`):
    /// shown by `extract` and `try`, where a definition is written; not a problem of the run (a
    /// field may be empty on today's items).
    public var fieldsNeverRead: [String] = []

    /// Sets `fieldsNeverRead` from the raw values of the items read (`values`); nothing when
    /// fewer than two items were read whole.
    public mutating func noteFieldsNeverRead(_ names: [String], path: String, values: [[String: String]]) {
        guard values.count >= 2 else { return }
        fieldsNeverRead = names.filter { name in !values.contains { !($0[name] ?? "").isEmpty } }.map { "\(path).\($0)" }
    }
    /// Records a problem, or past `maxProblems` counts it.
    public mutating func note(_ problem: ImportProblem) {
        guard problems.count >= Self.maxProblems else { return problems.append(problem) }
        problemsNotRecorded += 1
        if problem.severity == .error { errorsNotRecorded += 1 }
    }

    /// Moves the problems past `maxProblems` (an importer or plugin that set `problems` itself)
    /// into the counts.
    public mutating func capProblems() {
        guard problems.count > Self.maxProblems else { return }
        let rest = problems[Self.maxProblems...]
        problemsNotRecorded += rest.count
        errorsNotRecorded += rest.filter { $0.severity == .error }.count
        problems.removeSubrange(Self.maxProblems...)
    }

    /// Every problem of the run, recorded or counted.
    public var problemCount: Int { problems.count + problemsNotRecorded }
    /// Whether any problem of the run is an error.
    public var hasErrors: Bool { errorsNotRecorded > 0 || problems.contains { $0.severity == .error } }
    /// How many problems of the run are errors.
    public var errorCount: Int { errorsNotRecorded + problems.filter { $0.severity == .error }.count }
    /// `"(and 999,800 more problems not listed)"`, or nil when every problem was recorded.
    public var unlistedProblems: String? {
        problemsNotRecorded == 0 ? nil : "(and \(problemsNotRecorded) more problem\(problemsNotRecorded == 1 ? "" : "s") not listed)"
    }

    /// Whether every page of the source was read (nothing unseen can be blamed on a failure).
    public var readEveryPage: Bool { unreadPages.isEmpty }

    /// Records a page of the source that could not be read: a problem carrying the fetch's HTTP
    /// status (when there was an answer) and the page in `unreadPages`, so the run counts no
    /// item missing.
    public mutating func pageUnread(
        _ url: URL, _ error: TimeTrackError, severity: ImportProblem.Severity = .error, message: String? = nil, location: String? = nil
    ) {
        note(
            ImportProblem(
                severity, message ?? error.description, location: location ?? url.absoluteString, httpStatus: error.httpStatus))
        unreadPages.append(url.absoluteString)
    }

    public init() {}
}

/// An item found unchanged since it was stored (see `ItemMemo`).
public struct SettledItem: Sendable, Equatable {
    public var key: String
    /// Whether its content has a date (the shrink guard counts dated items).
    public var dated: Bool
    public var location: String

    public init(key: String, dated: Bool, location: String) {
        (self.key, self.dated, self.location) = (key, dated, location)
    }
}

/// What an importer gets to do its work.
public final class ImportContext {
    public let source: SourceDefinition
    public let fetcher: any PageFetcher
    /// Where unchanged pages' extractions are remembered (nil: parse everything, remember nothing).
    public var memo: (any PageMemoReader)?
    /// What `memo` remembers of the source's pages, by URL, read in one query (nil: `recall`
    /// asks `memo` page by page).
    ///
    /// The memo is only written after the run, so this is what a query per page would find. Read on
    /// first use when `loadRememberedPages` is set: a source
    /// known unchanged as a whole (`SourceMemo`) never needs it.
    public var rememberedPages: [String: MemoRecord]? {
        get {
            if let load = loadRememberedPages {
                loadedPages = load()
                loadRememberedPages = nil
            }
            return loadedPages
        }
        set {
            loadedPages = newValue
            loadRememberedPages = nil
        }
    }
    /// Reads `rememberedPages` when it is first asked for.
    public var loadRememberedPages: (() -> [String: MemoRecord])?
    private var loadedPages: [String: MemoRecord]?
    /// Payloads to remember after the run.
    public var memoEntries: [MemoEntry] = []
    /// The run's clock: dates without a year resolve against it.
    public let now: Date
    /// Called as pages are fetched and items found (for progress on a terminal).
    public var progress: ((_ pages: Int, _ items: Int) -> Void)?
    /// Which items are unchanged since they were stored (nil: no store, every item is read).
    public var items: ItemMemo?
    /// True once the run should stop (Ctrl-C at the console): importers that wait on something
    /// other than the fetcher (an external importer's process) ask it.
    public var shouldStop: (() -> Bool)?

    public init(source: SourceDefinition, fetcher: any PageFetcher, now: Date = Date()) {
        self.source = source
        self.fetcher = fetcher
        self.now = now
    }

    /// The payload remembered for a page; nil when the page changed or was never seen.
    ///
    /// A page read from a file whose stamp is not the remembered one (touched, or read too soon
    /// after it was written) but whose bytes are: the payload, and the new stamp is remembered.
    public func recall(page: FetchedPage, signature: String) -> Data? {
        let url = page.url.absoluteString
        if let rememberedPages {
            guard let record = rememberedPages[url], record.pageHash == page.hash, record.signature == signature else { return nil }
            if !page.unread, let stamp = page.stamp, stamp != record.stamp {
                memoEntries.append(MemoEntry(url: url, pageHash: page.hash, signature: signature, payload: record.payload, stamp: stamp))
            }
            return record.payload
        }
        return memo?.recall(sourceID: source.id, url: url, pageHash: page.hash, signature: signature)
    }

    /// Fetches a page with what the memo remembers of it for `signature` (nil: changed, or
    /// never seen).
    ///
    /// A local page whose file still has the stamp it had when it was remembered
    /// is not read: the page comes back `unread`, with the remembered hash. Read it
    /// (`read(_:)`) before parsing it, should the remembered payload not serve.
    public func fetchRemembered(_ url: URL, signature: String) throws -> (page: FetchedPage, payload: Data?) {
        if let page = unchanged(url, signature: signature) { return page }
        let page = try fetcher.fetch(url)
        return (page, recall(page: page, signature: signature))
    }

    /// `fetchRemembered` for several pages, results in order; the pages not known unchanged
    /// are fetched together (`PageFetcher.fetchAll`).
    public func fetchAllRemembered(_ urls: [URL], signature: String) throws -> [Result<(page: FetchedPage, payload: Data?), TimeTrackError>] {
        var results: [Result<(page: FetchedPage, payload: Data?), TimeTrackError>?] = urls.map { url in
            unchanged(url, signature: signature).map { .success($0) }
        }
        let wanted = urls.indices.filter { results[$0] == nil }
        for (index, fetched) in zip(wanted, try fetcher.fetchAll(wanted.map { urls[$0] })) {
            results[index] = fetched.map { page in (page, recall(page: page, signature: signature)) }
        }
        return zip(urls, results).map { url, result in
            result ?? .failure(TimeTrackError(.fetch, "the page was not fetched", context: ["url": url.absoluteString]))
        }
    }

    /// The page with its bytes: an `unread` page is fetched now.
    public func read(_ page: FetchedPage) throws -> FetchedPage {
        guard page.unread else { return page }
        return try fetcher.fetch(page.url)
    }

    /// The remembered page and payload when the page's file has the remembered stamp.
    private func unchanged(_ url: URL, signature: String) -> (page: FetchedPage, payload: Data?)? {
        let text = url.absoluteString
        guard let record = rememberedPages?[text], record.signature == signature, let remembered = record.stamp,
            let (location, stamp) = fetcher.stamp(of: url), stamp == remembered
        else { return nil }
        return (FetchedPage(unreadAt: url, location: location, hash: record.pageHash, stamp: stamp), record.payload)
    }

    /// Queues a payload to remember for a page (written after the run's items).
    public func remember(_ payload: @autoclosure () -> Data, page: FetchedPage, signature: String) {
        // Encoded only when there is a store to remember it in (not for `extract` or `try`).
        guard memo != nil else { return }
        memoEntries.append(MemoEntry(url: page.url.absoluteString, pageHash: page.hash, signature: signature, payload: payload(), stamp: page.stamp))
    }
}

/// An importer plugin: reads pages of a source and produces normalized items.
///
/// Each plugin lives under `Plugins/<Name>/` as its own target and is listed in the registry
/// (`ImporterRegistry`). See docs/writing-an-importer.md.
public protocol Importer {
    /// Name, version, kinds and options.
    static var info: ImporterInfo { get }
    /// Checks the source's options; throws `.configuration` errors naming the file and field.
    init(source: SourceDefinition) throws
    /// Fetches and reads the source. Item-level problems go into the result; only a failure of
    /// the whole source (the first page cannot be read) throws.
    func run(_ context: ImportContext) throws -> ImportResult
}
