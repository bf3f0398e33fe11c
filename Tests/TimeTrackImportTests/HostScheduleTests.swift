import Foundation
import Testing

@testable import TimeTrackImport

/// Issue 36: the per-host schedule shared by an import's readers: one request at a time per
/// host, at least the delay apart, other hosts and local files not held up.
@Suite struct HostScheduleTests {
    /// What ran when, across threads.
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var spans: [(host: String, start: Date, end: Date)] = []
        var inFlight: [String: Int] = [:]
        var most: [String: Int] = [:]

        func run(_ host: String, seconds: TimeInterval) {
            lock.lock()
            inFlight[host, default: 0] += 1
            most[host] = max(most[host] ?? 0, inFlight[host] ?? 0)
            lock.unlock()
            let start = Date()
            Thread.sleep(forTimeInterval: seconds)
            lock.lock()
            inFlight[host, default: 0] -= 1
            spans.append((host, start, Date()))
            lock.unlock()
        }
    }

    @Test func oneRequestAtATimePerHostTheDelayApart() {
        let schedule = HostSchedule()
        let log = Log()
        let delay = 0.05
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let host = index % 2 == 0 ? "www.district.k12.us" : "WWW.DISTRICT.K12.US"
            schedule.turn(host: host, delay: delay) { log.run("district", seconds: 0.01) }
        }
        #expect(log.most["district"] == 1, "\(log.most)")
        let spans = log.spans.sorted { $0.start < $1.start }
        #expect(spans.count == 8)
        for (before, after) in zip(spans, spans.dropFirst()) {
            // Names differing in case are one host; each request starts the delay after the last ended.
            #expect(after.start.timeIntervalSince(before.end) >= delay - 0.002, "\(after.start.timeIntervalSince(before.end))")
        }
    }

    @Test func otherHostsAndFilesAreNotHeldUp() {
        let schedule = HostSchedule()
        let log = Log()
        // Threads of their own: a dispatch queue may run the two one after the other.
        let done = DispatchSemaphore(value: 0)
        for host in ["a.example", "b.example"] {
            Thread {
                schedule.turn(host: host, delay: 0) { log.run(host, seconds: 0.2) }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        let spans = log.spans.sorted { $0.start < $1.start }
        // The two hosts ran side by side: the second began before the first ended.
        #expect(spans.count == 2 && spans[1].start < spans[0].end)
        var ran = false
        schedule.turn(host: nil, delay: 60) { ran = true }
        #expect(ran)
    }

    @Test func anErrorEndsTheTurnAndTheNextOneStillWaits() {
        struct Refused: Error {}
        let schedule = HostSchedule()
        #expect(throws: Refused.self) { try schedule.turn(host: "x.example", delay: 0) { throw Refused() } }
        let start = Date()
        schedule.turn(host: "x.example", delay: 0.05) {}
        #expect(Date().timeIntervalSince(start) >= 0.045)
    }
}
