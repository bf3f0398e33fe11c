import Foundation

/// One request at a time per host, with a pause between them, for every client that shares it.
///
/// An import may read several sources at once (see `ReadAhead`), each with its own
/// `WebClient`; they share one schedule, so a district's server still sees one request at a
/// time from us, `requestDelay` apart, however many of its sources are being read.
public final class HostSchedule: @unchecked Sendable {
    private struct State {
        var busy = false
        var lastEnd: Date?
    }

    private let condition = NSCondition()
    private var hosts: [String: State] = [:]
    /// When the import command that shares this schedule started (its run budget counts from here).
    public let startedAt: Date

    public init(startedAt: Date = Date()) { self.startedAt = startedAt }

    /// Runs `body` when it is `host`'s turn: no other request to it is under way, and `delay`
    /// seconds have passed since the last one ended.
    ///
    /// A nil host (a file URL) never waits.
    public func turn<T>(host: String?, delay: TimeInterval, _ body: () throws -> T) rethrows -> T {
        guard let host = host?.lowercased() else { return try body() }
        condition.lock()
        while hosts[host]?.busy == true { condition.wait() }
        let last = hosts[host]?.lastEnd
        hosts[host, default: State()].busy = true
        condition.unlock()
        defer {
            condition.lock()
            hosts[host] = State(busy: false, lastEnd: Date())
            condition.broadcast()
            condition.unlock()
        }
        if let last {
            let wait = delay - Date().timeIntervalSince(last)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        return try body()
    }
}
