import Dispatch
import Foundation
import TimeTrackCore

/// Reads the next sources on other threads while the caller applies the current one.
///
/// Applying a source is store writes on one connection; reading the next ones is fetching and
/// parsing. Overlapping them keeps the cores busy during `import --all` and cron runs. Up to
/// `depth` readings run at once, each in a lane that is free, and up to `window` readings may
/// be opened ahead of the one the caller waits for, half a window at a time (one `prepare`
/// call, so one transaction for their run records); the caller gets them in order.
///
/// Why free lanes and a window wider than the lanes: a district's sources come in families
/// (each school's calendar, info page and news), so one source in three is the heavy one. With
/// lane `index % 3` and only three readings ahead, every news source fell in the same lane and
/// was read alone while the other two lanes waited for the window to move.
///
/// Contract: `work` runs on another thread, so it must use only what the caller leaves alone
/// meanwhile: its own read-only store connection (opened by `ImportRunner`), its own `WebClient`, a
/// pipeline value made for it. Call `finish()` before closing what `work` uses.
public final class ReadAhead<Value>: @unchecked Sendable {
    /// One reading: its result, and a signal when it is there.
    private final class Slot: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<Value, any Error>?
        /// Set when `prepare` failed for the reading: its outcome, whatever the reading gave.
        var prepareError: (any Error)?
    }

    private let count: Int
    private let enabled: Bool
    private let depth: Int
    private let window: Int
    private let work: (_ index: Int, _ lane: Int) throws -> Value
    private let prepare: ((_ indexes: Range<Int>) throws -> Void)?
    /// Guards everything below; lanes wait on it for readings to take.
    private let condition = NSCondition()
    private var slots: [Int: Slot] = [:]
    /// Readings opened and not yet taken by a lane, in order.
    private var queue: [(index: Int, slot: Slot)] = []
    /// Readings 0..<opened have been opened (or dropped by `finish`).
    private var opened = 0
    /// Lanes made so far (each a thread, numbered 0..<depth), and how many wait for a reading.
    private var lanesMade = 0
    private var idleLanes = 0
    private let exited = DispatchSemaphore(value: 0)
    /// The index `value` must be asked for next (readings are handed out once, in order).
    private var next = 0
    /// Set by `finish()`: no reading starts after it, and the lanes end.
    private var finished = false

    /// - Parameters:
    ///   - count: how many readings there are (indexes 0..<count).
    ///   - enabled: false runs each reading on the caller's thread when asked for (no overlap).
    ///   - depth: how many readings may run at once, each in its own lane (`work` is told
    ///     which); two readings never share a lane at the same time: give each lane its own
    ///     store connection and web client.
    ///   - window: how many readings may be opened ahead of the one asked for, counting it
    ///     (default four per lane, never fewer than `depth`). Finished readings wait in memory
    ///     until they are asked for.
    ///   - prepare: called on the caller's thread with the readings just opened, in index
    ///     order, while the lanes may already start them (to open their run records on the
    ///     caller's connection, in one transaction: readings only read, and the first ones need
    ///     not wait for that write); if it throws, that is each of their errors, whatever they read.
    ///   - work: reads one; called at most once per index.
    public init(
        count: Int, enabled: Bool = true, depth: Int = 1, window: Int? = nil, prepare: ((_ indexes: Range<Int>) throws -> Void)? = nil,
        _ work: @escaping (_ index: Int, _ lane: Int) throws -> Value
    ) {
        self.count = count
        self.enabled = enabled
        self.depth = max(1, depth)
        self.window = max(self.depth, window ?? self.depth * 4)
        self.prepare = prepare
        self.work = work
    }

    /// Opens the next readings (on the caller's thread) when no more than half a window is open
    /// ahead of `index`, up to a window ahead of it, and queues them for the lanes.
    private func refill(from index: Int) {
        let limit = min(count, index + window)
        condition.lock()
        let first = opened
        guard !finished, first < limit, first - index <= window / 2 else {
            condition.unlock()
            return
        }
        let range = first..<limit
        let fresh = range.map { ($0, Slot()) }
        for (index, slot) in fresh { slots[index] = slot }
        opened = limit
        queue.append(contentsOf: fresh)
        // Lanes are threads made when there is more queued than lanes waiting (up to `depth`),
        // and kept until `finish()`: a source's reading is a millisecond when nothing changed,
        // and a thread made and torn down for each cost a tenth of that.
        let made = lanesMade
        lanesMade = min(depth, lanesMade + max(0, queue.count - idleLanes))
        let numbers = made..<lanesMade
        condition.broadcast()
        condition.unlock()
        for number in numbers {
            // A thread of its own, not a dispatch queue's: the reading blocks while its pages are
            // parsed on the queue's threads, and must not take one of them (2 cores: 2 threads).
            let thread = Thread { self.serve(number) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        // The readings are under way; their run records are opened meanwhile, here. (`value`
        // runs on this thread too, so it sees a failure set here before it looks.)
        do {
            try prepare?(range)
        } catch {
            condition.lock()
            for (_, slot) in fresh { slot.prepareError = error }
            condition.unlock()
        }
    }

    /// A lane's thread: takes the first queued reading whenever it is free, until `finish()`.
    private func serve(_ number: Int) {
        while true {
            condition.lock()
            while queue.isEmpty && !finished {
                idleLanes += 1
                condition.wait()
                idleLanes -= 1
            }
            guard !queue.isEmpty else {
                condition.unlock()
                break
            }
            let (index, slot) = queue.removeFirst()
            condition.unlock()
            let result = Result { try self.work(index, number) }
            condition.lock()
            slot.result = result
            condition.unlock()
            slot.done.signal()
        }
        exited.signal()
    }

    /// Reading `index` (ask in order 0, 1, 2…, once each): waits for it, with the next ones
    /// opened meanwhile (up to `window` in all).
    public func value(_ index: Int) throws -> Value {
        guard index >= 0 && index < count else { throw TimeTrackError(.system, "read-ahead: there is no reading \(index) of \(count)") }
        guard index == next else { throw TimeTrackError(.system, "read-ahead: reading \(index) asked for out of order (next is \(next))") }
        next += 1
        guard enabled else {
            try prepare?(index..<(index + 1))
            return try work(index, 0)
        }
        refill(from: index)
        condition.lock()
        let slot = slots[index]
        condition.unlock()
        guard let slot else { throw TimeTrackError(.system, "read-ahead: reading \(index) was dropped") }
        slot.done.wait()
        condition.lock()
        let result = slot.result
        let prepareError = slot.prepareError
        slots[index] = nil
        condition.unlock()
        // Its place in the window is free: the next half window may be opened.
        refill(from: index + 1)
        if let prepareError { throw prepareError }
        guard let result else { throw TimeTrackError(.system, "read-ahead: reading \(index) gave no result") }
        return try result.get()
    }

    /// Waits for readings under way (stopping early, or after the last), drops them and the
    /// ones not yet taken by a lane, and ends the lanes' threads.
    ///
    /// Call it once the readings are done with; later calls do nothing.
    public func finish() {
        condition.lock()
        let dropped = Set(queue.map(\.index))
        queue.removeAll()
        let running = slots.filter { !dropped.contains($0.key) }.map(\.value)
        slots.removeAll()
        finished = true
        let lanes = lanesMade
        lanesMade = 0
        condition.broadcast()
        condition.unlock()
        // A reading that failed as it was opened (its slot signalled already) is waited for at once.
        for slot in running { slot.done.wait() }
        for _ in 0..<lanes { exited.wait() }
    }
}
