import CLibXML2
import CXMLArena
import Dispatch
import Foundation
import TimeTrackCore

/// Runs independent pieces of an import (reading local files, parsing fetched pages,
/// normalizing items) on all cores.
///
/// Only pure work goes here: the pieces must not touch the store or the import context, and
/// must not share a libxml2 document. Web pages are still fetched on the calling thread, in
/// order, so politeness rules (per-host delay, robots.txt, the HTTP cache) are unchanged.
public enum Parallel {
    /// Threads to use: the machine's active cores (at most 8), or `TIMETRACK_WORKERS` when set
    /// (1 turns parallel work off).
    public static let workers: Int = {
        if let text = Environment.value("TIMETRACK_WORKERS"), let count = Int(text), count >= 1 { return min(count, 64) }
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    }()

    /// `transform` applied to every input, results in input order.
    ///
    /// Runs on the calling thread when there is one worker or too little to share.
    public static func map<Input: Sendable, Output: Sendable>(_ inputs: [Input], minimumPerWorker: Int = 2, _ transform: @Sendable (Input) -> Output)
        -> [Output]
    {
        let count = inputs.count
        let threads = min(workers, count / max(1, minimumPerWorker))
        guard threads > 1 else { return inputs.map(transform) }
        // libxml2 sets up its global tables once; doing it here, before any worker starts,
        // is what its documentation asks of threaded programs.
        ttxml_install()  // the arena allocator, then xmlInitParser
        let results = Slots<Output>(count)
        defer { results.buffer.deallocate() }
        // Workers take the next input from a shared counter: pages differ a lot in size.
        let next = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.increment()
                guard index < count else { return }
                // Each index is initialized by exactly one worker, exactly once.
                results.buffer.initializeElement(at: index, to: transform(inputs[index]))
            }
        }
        // Every index below `count` was taken by some worker before the workers returned.
        let output = Array(results.buffer)
        _ = results.buffer.deinitialize()
        return output
    }
}

extension Parallel {
    /// Starts `map` on other threads and returns at once; `wait()` gives the results.
    ///
    /// The caller can fetch the next pages meanwhile.
    public static func start<Input: Sendable, Output: Sendable>(_ inputs: [Input], _ transform: @escaping @Sendable (Input) -> Output) -> Pending<Output> {
        let pending = Pending<Output>()
        // Nothing to do (every page of a window known unchanged): no thread.
        guard !inputs.isEmpty else {
            pending.finish([])
            return pending
        }
        // A thread of its own that joins the workers: queue threads are as many as cores, and
        // the caller may itself be on one.
        let thread = Thread { pending.finish(map(inputs, transform)) }
        thread.stackSize = 8 << 20
        thread.start()
        return pending
    }

    /// Results that are being computed on other threads.
    public final class Pending<Output: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var results: [Output] = []

        fileprivate func finish(_ value: [Output]) {
            lock.lock()
            results = value
            lock.unlock()
            done.signal()
        }

        /// Blocks until the results are there (call once).
        public func wait() -> [Output] {
            done.wait()
            lock.lock()
            defer { lock.unlock() }
            return results
        }
    }
}

/// Result slots the workers fill, one index each: no two threads touch the same element.
struct Slots<Output>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Output>

    init(_ count: Int) { buffer = .allocate(capacity: count) }
}

/// A counter shared by worker threads.
final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    /// Returns the current value and adds one.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let current = value
        value += 1
        return current
    }
}
