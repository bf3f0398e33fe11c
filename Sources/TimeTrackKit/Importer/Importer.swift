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
/// produces and its options. `timetrack-admin plugins` lists these.
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

    public init(url: URL, location: String, data: Data, contentType: String? = nil, charset: String? = nil, fetchedAt: Date = Date()) {
        self.url = url
        self.location = location
        self.data = data
        self.contentType = contentType
        self.charset = charset
        self.fetchedAt = fetchedAt
        self.hash = SHA256.hex(data)
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
}

extension PageFetcher {
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

    public init(_ severity: Severity, _ message: String, location: String, httpStatus: Int? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.httpStatus = httpStatus
    }

    /// For people: a problem quotes page text (a title, a file name), shown through the one
    /// cleaning step for display, so no escape sequence reaches a terminal.
    public var description: String { "\(severity.rawValue): \(SafeText.visible(location)): \(SafeText.visible(message))" }
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
    public var guesses: [String] = []

    public init(key: String, content: ItemContent, pageURL: String, pageHash: String, fetchedAt: Date, location: String) {
        self.key = key
        self.content = content
        self.pageURL = pageURL
        self.pageHash = pageHash
        self.fetchedAt = fetchedAt
        self.location = location
    }

    /// Validates and encodes the content if that was not done yet. Invalid content stays
    /// unprepared: the store reports its problems when the item is applied.
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
    public var problems: [ImportProblem] = []
    public var pagesFetched = 0
    /// Items seen twice (same key) and merged into one.
    public var duplicatesMerged = 0
    /// Pages of the source (listing pages after the first, feed pages) that could not be read.
    /// A run with unread pages saw only part of the source: its unseen items are not counted
    /// missing. Importers with more than one page must fill it; the pipeline never reads
    /// problem messages to decide.
    public var unreadPages: [String] = []
    /// Items the item memo found unchanged since they were stored: counted as found and
    /// unchanged, never normalized again (`ItemMemo`).
    public var settled: [SettledItem] = []
    /// Every item found: read, and settled.
    public var found: Int { items.count + settled.count }
    /// Kept in the run's record beside its outcome (an external importer's stderr).
    public var runNote: String?
    /// Whether every page of the source was read (nothing unseen can be blamed on a failure).
    public var readEveryPage: Bool { unreadPages.isEmpty }

    /// Records a page of the source that could not be read: a problem carrying the fetch's HTTP
    /// status (when there was an answer) and the page in `unreadPages`, so the run counts no
    /// item missing.
    public mutating func pageUnread(_ url: URL, _ error: TimeTrackError, severity: ImportProblem.Severity = .error, message: String? = nil, location: String? = nil) {
        problems.append(ImportProblem(severity, message ?? error.description, location: location ?? url.absoluteString, httpStatus: error.context["status"].flatMap { Int($0) }))
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
    public var memo: PageMemo?
    /// Payloads to remember after the run.
    public var memoEntries: [(url: String, pageHash: String, signature: String, payload: Data)] = []
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
    public func recall(page: FetchedPage, signature: String) -> Data? {
        memo?.recall(sourceID: source.id, url: page.url.absoluteString, pageHash: page.hash, signature: signature)
    }

    /// Queues a payload to remember for a page (written after the run's items).
    public func remember(_ payload: Data, page: FetchedPage, signature: String) {
        guard memo != nil else { return }
        memoEntries.append((page.url.absoluteString, page.hash, signature, payload))
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
