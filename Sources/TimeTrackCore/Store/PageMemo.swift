import Foundation

/// Remembers what an importer read from a page, keyed by the page's hash, so an unchanged page
/// is not parsed again on the next run. A cache: losing it costs time, never data.
public protocol PageMemo: AnyObject {
    /// The payload remembered for this page at this hash and signature, if any.
    func recall(sourceID: String, url: String, pageHash: String, signature: String) -> Data?
    /// Remembers payloads (written together, after the run's items).
    func remember(sourceID: String, entries: [(url: String, pageHash: String, signature: String, payload: Data)]) throws
}
