import Foundation

/// What is remembered of a source's pages and items, read: what a read-ahead lane may use
/// (it writes nothing; the run's memo entries are written by `apply`, on the import's own
/// connection).
public protocol PageMemoReader: AnyObject {
    /// The payload remembered for this page at this hash and signature, if any.
    func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data?
    /// What is remembered of the source's pages (not its items), by URL: one query.
    func rememberedPages(sourceID: String) -> [String: MemoRecord]
    /// The source's item entries written under `signature`, by item key, each with the content
    /// hash the store last recorded for the item when a re-import of the same content would
    /// leave it exactly as it is (not missing, no locked field): one query.
    func rememberedItems(sourceID: String, signature: String) -> [String: RememberedItem]
}

/// Remembers what an importer read from a page, keyed by the page's hash, so an unchanged page
/// is not parsed again on the next run.
///
/// A cache: losing it costs time, never data.
public protocol PageMemo: PageMemoReader {
    /// Remembers payloads (written together, after the run's items).
    func remember(sourceID: String, entries: [MemoEntry]) throws
}

/// Where item entries live among a source's memo rows.
public enum ItemMemoKeys {
    /// Page memo URLs of item entries start with this, then the item's key.
    public static let prefix = "item:"
}

/// An item's memo entry (`ItemMemo`) and, when the item could be settled, its stored hash.
public struct RememberedItem: Sendable, Equatable {
    /// The digest of the raw values the item was read from.
    public var digest: String
    public var payload: Data
    /// The store's base hash for the item; nil when it is missing, locked or gone.
    public var storedHash: String?

    public init(digest: String, payload: Data, storedHash: String?) {
        (self.digest, self.payload, self.storedHash) = (digest, payload, storedHash)
    }
}

/// One remembered payload: the page (or item) hash and signature it is valid for.
public struct MemoRecord: Sendable, Equatable {
    public var pageHash: String
    public var signature: String
    public var payload: Data
    /// The local file's stamp when its page was hashed (`FileStamp`): while the file still has
    /// it, the page is known unchanged without reading it.
    ///
    /// nil for web pages, items, and files that were changing when read.
    public var stamp: String?

    public init(pageHash: String, signature: String, payload: Data, stamp: String? = nil) {
        self.pageHash = pageHash
        self.signature = signature
        self.payload = payload
        self.stamp = stamp
    }
}

/// A payload to remember for a page (or an item, under an `item:` URL).
public struct MemoEntry: Sendable, Equatable {
    public var url: String
    public var pageHash: String
    public var signature: String
    public var payload: Data
    /// See `MemoRecord.stamp`.
    public var stamp: String?

    public init(url: String, pageHash: String, signature: String, payload: Data, stamp: String? = nil) {
        (self.url, self.pageHash, self.signature, self.payload, self.stamp) = (url, pageHash, signature, payload, stamp)
    }
}
