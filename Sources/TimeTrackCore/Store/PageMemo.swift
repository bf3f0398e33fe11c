import Foundation

/// Remembers what an importer read from a page, keyed by the page's hash, so an unchanged page
/// is not parsed again on the next run. A cache: losing it costs time, never data.
public protocol PageMemo: AnyObject {
    /// The payload remembered for this page at this hash and signature, if any.
    func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data?
    /// Remembers payloads (written together, after the run's items).
    func remember(sourceID: String, entries: [(url: String, pageHash: String, signature: String, payload: Data)]) throws
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

    public init(pageHash: String, signature: String, payload: Data) {
        self.pageHash = pageHash
        self.signature = signature
        self.payload = payload
    }
}
