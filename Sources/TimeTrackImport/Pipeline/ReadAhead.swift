import Dispatch
import Foundation
import TimeTrackCore

/// Reads the next sources on other threads while the caller applies the current one.
///
/// Applying a source is store writes on one connection; reading the next ones is fetching and
/// parsing. Overlapping them keeps the cores busy during `import --all` and cron runs. Up to
/// `depth` readings run at once, each in its own lane; the caller gets them in order.
///
/// Contract: `work` runs on another thread, so it must use only what the caller leaves alone
/// meanwhile: its own read-only store connection (opened by `ImportRunner`), its own `WebClient`, a
/// pipeline value made for it. Call `finish()` before closing what `work` uses.
public final class ReadAhead<Value>: @unchecked Sendable {
    /// One reading: its result, and a signal when it is there.
    private final class Slot: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<Value, any Error>?
    }

    private let count: Int
    private let enabled: Bool
    private let depth: Int
    private let work: (_ index: Int, _ lane: Int) throws -> Value
    private let prepare: ((_ index: Int) throws -> Void)?
    private var slots: [Int: Slot] = [:]
    private let lock = NSLock()
    /// The index `value` must be asked for next (readings are handed out once, in order).
    private var next = 0
    /// Set by `finish()`: no reading starts after it.
    private var finished = false

    /// - Parameters:
    ///   - count: how many readings there are (indexes 0..<count).
    ///   - enabled: false runs each reading on the caller's thread when asked for (no overlap).
    ///   - depth: how many readings may run at once. Reading `index` runs in lane
    ///     `index % depth`, and two readings never share a lane at the same time: give each
    ///     lane its own store connection and web client.
    ///   - prepare: called on the caller's thread just before reading `index` starts (to open
    ///     its run record on the caller's connection); if it throws, that is the reading's error.
    ///   - work: reads one; called at most once per index.
    public init(
        count: Int, enabled: Bool = true, depth: Int = 1, prepare: ((_ index: Int) throws -> Void)? = nil,
        _ work: @escaping (_ index: Int, _ lane: Int) throws -> Value
    ) {
        self.count = count
        self.enabled = enabled
        self.depth = max(1, depth)
        self.prepare = prepare
        self.work = work
    }

    /// One thread per lane, made when the lane's first reading starts and kept until `finish()`:
    /// a source's reading is a millisecond when nothing changed, and a thread made and torn
    /// down for each cost a tenth of that.
    private final class Lane: @unchecked Sendable {
        let ready = DispatchSemaphore(value: 0)
        let exited = DispatchSemaphore(value: 0)
        /// Readings queued for the lane (nil: stop).
        var queue: [(index: Int, slot: Slot)?] = []
    }
    private var lanes: [Int: Lane] = [:]

    /// Opens reading `index` (on the caller's thread) and hands it to its lane's thread.
    private func start(_ index: Int) {
        guard index < count else { return }
        let slot = Slot()
        lock.lock()
        let fresh = slots[index] == nil && !finished
        if fresh { slots[index] = slot }
        lock.unlock()
        guard fresh else { return }
        do {
            try prepare?(index)
        } catch {
            lock.lock()
            slot.result = .failure(error)
            lock.unlock()
            slot.done.signal()
            return
        }
        let number = index % depth
        lock.lock()
        let lane = lanes[number] ?? Lane()
        let made = lanes[number] == nil
        lanes[number] = lane
        lane.queue.append((index, slot))
        lock.unlock()
        if made {
            // A thread of its own, not a dispatch queue's: the reading blocks while its pages are
            // parsed on the queue's threads, and must not take one of them (2 cores: 2 threads).
            let thread = Thread { self.serve(lane, number) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        lane.ready.signal()
    }

    /// A lane's thread: runs the lane's readings in turn until told to stop.
    private func serve(_ lane: Lane, _ number: Int) {
        while true {
            lane.ready.wait()
            lock.lock()
            let next = lane.queue.isEmpty ? nil : lane.queue.removeFirst()
            lock.unlock()
            guard let (index, slot) = next else { break }
            let result = Result { try self.work(index, number) }
            lock.lock()
            slot.result = result
            lock.unlock()
            slot.done.signal()
        }
        lane.exited.signal()
    }

    /// Reading `index` (ask in order 0, 1, 2…, once each): waits for it and starts the reading
    /// whose lane it frees.
    public func value(_ index: Int) throws -> Value {
        guard index >= 0 && index < count else { throw TimeTrackError(.system, "read-ahead: there is no reading \(index) of \(count)") }
        guard index == next else { throw TimeTrackError(.system, "read-ahead: reading \(index) asked for out of order (next is \(next))") }
        next += 1
        guard enabled else {
            try prepare?(index)
            return try work(index, 0)
        }
        for ahead in index..<(index + depth) { start(ahead) }
        lock.lock()
        let slot = slots[index]
        lock.unlock()
        guard let slot else { throw TimeTrackError(.system, "read-ahead: reading \(index) was dropped") }
        slot.done.wait()
        lock.lock()
        let result = slot.result
        slots[index] = nil
        lock.unlock()
        // Its lane is free: the reading `depth` places on may start.
        start(index + depth)
        guard let result else { throw TimeTrackError(.system, "read-ahead: reading \(index) gave no result") }
        return try result.get()
    }

    /// Waits for readings still under way (stopping early, or after the last), drops them, and
    /// ends the lanes' threads. Call it once the readings are done with; later calls do nothing.
    public func finish() {
        lock.lock()
        let running = Array(slots.values)
        slots.removeAll()
        finished = true
        let ending = Array(lanes.values)
        lanes.removeAll()
        for lane in ending { lane.queue.append(nil) }
        lock.unlock()
        for slot in running { slot.done.wait() }
        for lane in ending {
            lane.ready.signal()
            lane.exited.wait()
        }
    }
}
