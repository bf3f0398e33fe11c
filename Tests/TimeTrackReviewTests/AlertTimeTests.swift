import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore
@testable import TimeTrackReview
@testable import TimeTrackStore

/// A clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    var now: Date
    init(_ start: Date) { now = start }
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
}

extension Backend {
    /// Runs `body` with a fresh repository of this kind whose decisions are stamped by `clock`.
    func with(clock: TestClock, _ body: (any ItemRepository, Lifecycle) throws -> Void) throws {
        try with { repository, _ in
            switch repository {
            case let store as SQLiteStore: store.now = { clock.now }
            case let store as PostgresStore: store.now = { clock.now }
            case let memory as InMemoryRepository: memory.now = { clock.now }
            default: Issue.record("a repository whose clock this test cannot set")
            }
            try body(repository, Lifecycle(repository))
        }
    }
}

/// Issue 46: time on every item (publishAt, expiresAt, reviewBy) and alerts withdrawn when
/// their source no longer has them, with a clock the test sets, on every repository (SQLite,
/// PostgreSQL, memory).
@Suite struct AlertTimeTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z
    static let hour: TimeInterval = 3_600

    static func alert(_ title: String = "Schools closed today: snow", expires: Date) -> ItemContent {
        .alert(Alert(title: title, message: "All schools are closed.", severity: .emergency, expiresAt: expires))
    }

    static func record(_ content: ItemContent, key: String = "closure", source: String = "district-alerts") -> ImportedRecord {
        ImportedRecord(key: key, content: content, school: nil, provenance: Samples.provenance(source))
    }

    @Test(arguments: Backend.allCases)
    func eachTimeIsAppliedAtItsTimeAndOnce(_ backend: Backend) throws {
        let clock = TestClock(Self.start)
        try backend.with(clock: clock) { repo, life in
            let times = ItemTimes(publishAt: Self.start + Self.hour, expiresAt: Self.start + 3 * Self.hour, reviewBy: Self.start + 2 * Self.hour)
            let item = try life.submit(Samples.announcement().withTimes(times), school: nil, by: "ana", note: nil)
            #expect(try life.approve(item.id, by: "ana").status == .scheduled)  // approved now, live at publishAt
            #expect(try life.applyDue(by: "cron").isEmpty)
            clock.advance(Self.hour - 1)
            #expect(try life.applyDue(by: "cron").isEmpty, "one second early")
            clock.advance(1)
            #expect(try life.applyDue(by: "cron").map(\.kind) == [.publishAt])
            #expect(try repo.item(item.id).status == .published)
            #expect(try life.applyDue(by: "cron").isEmpty, "once")
            clock.advance(Self.hour)
            #expect(try life.applyDue(by: "cron").map(\.kind) == [.reviewBy])
            #expect(try life.applyDue(by: "cron").isEmpty, "once")
            #expect(try repo.item(item.id).status == .published, "due for review, still shown")
            _ = try life.keep(item.id, by: "ana")  // looked at: stays, its reviewBy cleared
            #expect(try repo.item(item.id).content.times.reviewBy == nil)
            clock.advance(Self.hour)
            #expect(try life.applyDue(by: "cron").map(\.kind) == [.expiresAt])
            #expect(try repo.item(item.id).status == .expired)
            #expect(try life.applyDue(by: "cron").isEmpty, "once")
            #expect(throws: TimeTrackError.self) { try life.restore(item.id, by: "ana") }  // still past its expiry
            let actions = try repo.audit(itemID: item.id, limit: 20).map(\.action)
            #expect(actions == ["expire", "keep", "review-due", "go-live", "approve", "submit"])
            #expect(try repo.audit(itemID: item.id, limit: 20).filter { $0.action == "expire" }.allSatisfy { $0.at == Self.start + 3 * Self.hour })
        }
    }

    @Test(arguments: Backend.allCases)
    func anItemScheduledPastItsExpiryExpiresWithoutGoingLive(_ backend: Backend) throws {
        let clock = TestClock(Self.start)
        try backend.with(clock: clock) { repo, life in
            let times = ItemTimes(publishAt: Self.start + Self.hour, expiresAt: Self.start + 2 * Self.hour)
            let item = try life.submit(Samples.event().withTimes(times), school: nil, by: "ana", note: nil)
            _ = try life.approve(item.id, by: "ana")
            clock.advance(5 * Self.hour)  // cron did not run for hours
            #expect(try life.applyDue(by: "cron").map(\.kind) == [.expiresAt])
            #expect(try repo.item(item.id).status == .expired)
        }
    }

    @Test(arguments: Backend.allCases)
    func editingPublishAtOfALiveItemTakesItOutUntilThen(_ backend: Backend) throws {
        let clock = TestClock(Self.start)
        try backend.with(clock: clock) { repo, life in
            let item = try life.submit(Samples.schoolInfo(), school: nil, by: "ana", note: nil)
            _ = try life.approve(item.id, by: "ana")
            let later = StoreDate.format(Self.start + Self.hour)
            #expect(try life.edit(item.id, changes: ["publishAt": .string(later)], by: "ana", reason: nil).status == .scheduled)
            clock.advance(Self.hour)
            #expect(try life.applyDue(by: "cron").map(\.kind) == [.publishAt])
            #expect(try repo.item(item.id).status == .published)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAlertGoneFromItsSourceIsWithdrawnAtThatRunAndComesBackToReviewWhenPostedAgain(_ backend: Backend) throws {
        let clock = TestClock(Self.start)
        try backend.with(clock: clock) { repo, life in
            let outcome = try life.recordImported(Self.record(Self.alert(expires: Self.start + 8 * Self.hour)), runID: nil, by: "import:district-alerts")
            let id = outcome.id
            #expect(try life.recordPresence(sourceID: "district-alerts", seenKeys: ["closure"], runID: nil) == ([], []))
            _ = try life.approve(id, by: "ana")
            clock.advance(Self.hour)
            let gone = try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil)
            #expect(gone.withdrawn == [id] && gone.missing == [id])
            #expect(try repo.item(id).status == .withdrawn)
            let entry = try #require(try repo.audit(itemID: id, limit: 1).first)
            #expect(entry.action == "withdraw" && entry.operatorName == "import:district-alerts" && entry.reason == "taken down by the district")
            // A second empty run withdraws nothing more.
            #expect(try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil).withdrawn.isEmpty)
            // Posted again: back in review, never straight back in the app.
            let again = try life.recordImported(Self.record(Self.alert(expires: Self.start + 8 * Self.hour)), runID: nil, by: "import:district-alerts")
            #expect(again.id == id)
            #expect(try repo.item(id).status == .pending)
            _ = try life.approve(id, by: "ana")
            _ = try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil)
            // `restore` is the person's way back (the district took it down by mistake), and the
            // next run, which still does not find it, leaves that decision alone.
            #expect(try life.restore(id, by: "ana").status == .published)
            #expect(try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil).withdrawn.isEmpty)
            #expect(try repo.item(id).status == .published)
            // Posted again and taken down again: withdrawn again.
            _ = try life.recordImported(Self.record(Self.alert(expires: Self.start + 8 * Self.hour)), runID: nil, by: "import:district-alerts")
            #expect(try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil).withdrawn == [id])
        }
    }

    @Test(arguments: Backend.allCases)
    func aPendingAlertTakenDownIsWithdrawnToo(_ backend: Backend) throws {
        try backend.with(clock: TestClock(Self.start)) { repo, life in
            let id = try life.recordImported(Self.record(Self.alert(expires: Self.start + Self.hour)), runID: nil, by: "import:a").id
            #expect(try life.recordPresence(sourceID: "district-alerts", seenKeys: [], runID: nil).withdrawn == [id])
            #expect(throws: TimeTrackError.self) { try life.approve(id, by: "ana") }  // nobody approves what the district took down
            #expect(try repo.item(id).status == .withdrawn)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAnnouncementGoneFromItsSourceIsOnlyCountedMissing(_ backend: Backend) throws {
        try backend.with(clock: TestClock(Self.start)) { repo, life in
            let id = try life.recordImported(Self.record(Samples.announcement(), source: "news"), runID: nil, by: "import:news").id
            _ = try life.approve(id, by: "ana")
            #expect(try life.recordPresence(sourceID: "news", seenKeys: [], runID: nil) == ([id], []))
            #expect(try repo.item(id).status == .published)
        }
    }
}
