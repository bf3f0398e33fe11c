import Foundation

/// Values kept for the whole process, by key, for things that are the same every time they are
/// made (a compiled selector, a time zone, a folder's URL) and costly enough to make once.
///
/// Thread-safe; emptied when it reaches `limit` entries, so odd keys cannot grow it without end.
public final class ProcessCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private let limit: Int

    public init(limit: Int) { self.limit = limit }

    /// The value kept for `key`, or the one `make` gives (kept for next time; an error is not).
    public func value(_ key: Key, make: () throws -> Value) rethrows -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let made = try make()
        lock.withLock {
            if values.count >= limit { values.removeAll() }
            values[key] = made
        }
        return made
    }
}
