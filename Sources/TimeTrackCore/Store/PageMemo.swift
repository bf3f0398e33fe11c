import Foundation

/// Remembers what an importer read from a page, keyed by the page's hash, so an unchanged page
/// is not parsed again on the next run. A cache: losing it costs time, never data.
public protocol PageMemo: AnyObject {
    /// The payload remembered for this page at this hash and signature, if any.
    func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data?
    /// Remembers payloads (written together, after the run's items).
    func remember(sourceID: String, entries: [MemoEntry]) throws
    /// Every payload remembered for the source under URLs starting with `urlPrefix`, by the rest
    /// of the URL: one query for what would be one per item.
    func recallAll(sourceID: String, urlPrefix: String) -> [String: MemoRecord]
    /// The content hash the store last recorded for each of the source's items that a re-import
    /// of the same content would leave exactly as it is (not missing, no locked field), by key.
    func settledHashes(sourceID: String) -> [String: String]
}

/// One remembered payload: the page (or item) hash and signature it is valid for.
public struct MemoRecord: Sendable, Equatable {
    public var pageHash: String
    public var signature: String
    public var payload: Data
    /// The local file's stamp when its page was hashed (`FileStamp`): while the file still has
    /// it, the page is known unchanged without reading it. nil for web pages, items, and files
    /// that were changing when read.
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
