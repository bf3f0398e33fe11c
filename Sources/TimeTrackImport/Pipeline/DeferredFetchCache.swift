import Foundation
import TimeTrackCore

/// The HTTP cache as a source being read ahead sees it: answers come from its lane's read-only
/// connection; what it would save is kept here and written by the importing connection when the
/// source is applied (`flush`).
///
/// Reading connections never write.
final class DeferredFetchCache: FetchCache, @unchecked Sendable {
    private let lock = NSLock()
    /// The connection of the lane reading the source (set when its reading starts: a lane's
    /// connection is never used by two threads at once, and a reading runs in whichever lane
    /// is free).
    private var reading: (any FetchCacheReader)?
    private var pending: [(url: String, response: CachedResponse)] = []

    /// Answers come from `connection` from now on: the lane that reads the source.
    func read(through connection: (any FetchCacheReader)?) {
        lock.lock()
        reading = connection
        lock.unlock()
    }

    func cachedResponse(for url: String) throws -> CachedResponse? {
        lock.lock()
        let own = pending.last { $0.url == url }?.response
        let connection = reading
        lock.unlock()
        return try own ?? connection?.cachedResponse(for: url)
    }

    func saveResponse(_ response: CachedResponse, for url: String) throws {
        lock.lock()
        pending.append((url, response))
        lock.unlock()
    }

    /// Writes what was saved through `cache` (the importing connection), in order.
    func flush(into cache: FetchCache?) throws {
        lock.lock()
        let writes = pending
        pending.removeAll()
        lock.unlock()
        guard let cache else { return }
        for write in writes { try cache.saveResponse(write.response, for: write.url) }
    }
}
