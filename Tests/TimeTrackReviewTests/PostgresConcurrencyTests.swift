import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview
import TimeTrackStore

/// Four desks deciding the same forty items at once on one PostgreSQL store: every item decided
/// exactly once, every decision in the audit log once, the chain intact, and no error but "already
/// decided" (the lifecycle suite's rules, under real concurrency).
@Suite struct PostgresConcurrencyTests {
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var decided = 0, refused = 0
        var errors: [String] = []
        func add(_ body: (Tally) -> Void) { lock.withLock { body(self) } }
    }

    @Test func fourDesksDecideFortyItemsOnceEach() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let address = try PostgresServer.shared().database()
        let setup = try PostgresStore(address: address)
        defer { setup.close() }
        let ids = try (0..<40).map { try Lifecycle(setup).submit(Samples.announcement("Notice \($0)"), school: "hillcrest", by: "office", note: nil).id }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { desk in
            guard let repository = try? PostgresStore(address: address) else {
                tally.add { $0.errors.append("desk \(desk) could not connect") }
                return
            }
            defer { repository.close() }
            let life = Lifecycle(repository)
            // Each desk walks the items in its own order, approving or rejecting.
            let order = desk % 2 == 0 ? ids : ids.reversed()
            for (index, id) in order.enumerated() {
                do {
                    if (index + desk) % 3 == 0 {
                        _ = try life.reject(id, reason: "duplicate", by: "desk\(desk)")
                    } else {
                        _ = try life.approve(id, by: "desk\(desk)")
                    }
                    tally.add { $0.decided += 1 }
                } catch let error as TimeTrackError where error.code == .illegalTransition || error.code == .usage {
                    tally.add { $0.refused += 1 }  // another desk decided it first
                } catch {
                    tally.add { $0.errors.append("\(id): \(error)") }
                }
            }
        }
        #expect(tally.errors.isEmpty, "\(tally.errors)")
        #expect(tally.decided == 40 && tally.refused == 120, "decided \(tally.decided), refused \(tally.refused)")
        let audit = try setup.audit(itemID: nil, limit: 1000)
        let decisions = audit.filter { ["approve", "reject"].contains($0.action) }
        #expect(decisions.count == 40 && Set(decisions.compactMap(\.itemID)) == Set(ids), "\(decisions.count) decisions in the audit log")
        #expect(audit.count == 80)
        #expect(try setup.verifyAudit().brokenEntry == nil)
        for id in ids { #expect(try [.published, .rejected].contains(setup.requireRow(id).status)) }
    }
}
