import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview
import TimeTrackStore

/// The repositories the lifecycle suite runs against: every rule must hold on each.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, memory, postgres
    var testDescription: String { rawValue }

    /// Runs `body` with a fresh repository of this kind (a real SQLite file for `sqlite`).
    func with(_ body: (any ItemRepository, Lifecycle) throws -> Void) throws {
        switch self {
        case .memory:
            let repository = InMemoryRepository()
            try body(repository, Lifecycle(repository))
        case .sqlite:
            let dir = try TemporaryDirectory("lifecycle")
            defer { dir.remove() }
            let store = try SQLiteStore(path: dir.path("t.sqlite"))
            defer { store.close() }
            try body(store, Lifecycle(store))
        case .postgres:
            // A fresh database on a real server this test process started.
            try PostgresServer.requireOrSkip()
            guard PostgresServer.unavailable == nil else { return }
            let repository = try PostgresStore(address: try PostgresServer.shared().database())
            defer { repository.close() }
            try body(repository, Lifecycle(repository))
        }
    }
}

/// Every decision and every reconciliation case, written once in `Lifecycle`, on every repository.
@Suite struct LifecycleSuiteTests {
    @Test(arguments: Backend.allCases)
    func approvePublishesAndAudits(_ backend: Backend) throws {
        try backend.with { repo, life in
            let item = try life.submit(Samples.announcement(), school: "hillcrest", by: "ana", note: nil)
            #expect(item.status == .pending && item.school == "hillcrest")
            let published = try life.approve(item.id, by: "ana")
            #expect(published.status == .published && published.approvedBy == "ana")
            #expect(try repo.revisions(of: item.id).map(\.state) == [.live])
            #expect(try repo.audit(itemID: item.id, limit: 10).map(\.action) == ["approve", "submit"])
            #expect(throws: TimeTrackError.self) { try life.approve(item.id, by: "ana") }  // nothing pending
        }
    }

    @Test(arguments: Backend.allCases)
    func rejectNeedsAReasonAndRestoreBringsItBack(_ backend: Backend) throws {
        try backend.with { repo, life in
            let item = try life.submit(Samples.post(), school: nil, by: "sam", note: nil)
            #expect(throws: TimeTrackError.self) { try life.reject(item.id, reason: "  ", by: "sam") }
            let rejected = try life.reject(item.id, reason: "off topic", by: "sam")
            #expect(rejected.status == .rejected && rejected.rejectReason == "off topic")
            #expect(throws: TimeTrackError.self) { try life.approve(item.id, by: "sam") }
            #expect(throws: TimeTrackError.self) { try life.reject(item.id, reason: "again", by: "sam") }
            #expect(throws: TimeTrackError.self) { try life.edit(item.id, changes: ["text": .string("x")], by: "sam", reason: nil) }
            #expect(try life.restore(item.id, by: "sam").status == .pending)
            #expect(try life.approve(item.id, by: "sam").status == .published)
            #expect(try repo.audit(itemID: item.id, limit: 10).map(\.action) == ["approve", "restore", "reject", "submit"])
        }
    }

    @Test(arguments: Backend.allCases)
    func anUpstreamChangeWaitsBesideThePublishedVersion(_ backend: Backend) throws {
        try backend.with { repo, life in
            let record = ImportedRecord(key: "k1", content: Samples.announcement("Old title"), school: nil, provenance: Samples.provenance())
            let first = try life.recordImported(record, runID: nil, by: "cron")
            guard case .new(let id) = first else { Issue.record("expected new, got \(first)"); return }
            _ = try life.approve(id, by: "ana")
            #expect(try life.recordImported(record, runID: nil, by: "cron") == .unchanged(id: id))
            var changed = record
            changed.content = Samples.announcement("New title")
            let outcome = try life.recordImported(changed, runID: nil, by: "cron")
            guard case .changed(_, let changes, _) = outcome else { Issue.record("expected changed, got \(outcome)"); return }
            #expect(changes.map(\.field) == ["title"])
            let item = try repo.item(id)
            #expect(item.status == .published && item.content.title == "Old title" && item.pendingContent?.title == "New title")
            // Rejecting the change keeps the published version; the same change again comes back.
            let afterReject = try life.reject(id, reason: "typo upstream", by: "ana")
            #expect(afterReject.status == .published && afterReject.pendingContent == nil)
            _ = try life.recordImported(changed, runID: nil, by: "cron")
            #expect(try life.approve(id, by: "ana").content.title == "New title")
            #expect(try repo.revisions(of: id).map(\.state) == [.superseded, .rejected, .live])
        }
    }

    @Test(arguments: Backend.allCases)
    func locksSettleAndUnlockTakesTheSourceBack(_ backend: Backend) throws {
        try backend.with { repo, life in
            let record = ImportedRecord(key: "k1", content: Samples.announcement("Upstream"), school: nil, provenance: Samples.provenance())
            let id = try life.recordImported(record, runID: nil, by: "cron").id
            _ = try life.approve(id, by: "ana")
            let edited = try life.edit(id, changes: ["title": .string("Edited by Ana")], by: "ana", reason: "clearer")
            #expect(edited.content.title == "Edited by Ana" && edited.lockedFields == ["title"])
            #expect(try life.recordImported(record, runID: nil, by: "cron") == .unchanged(id: id))
            let before = try repo.revisions(of: id).count
            var changed = record
            changed.content = Samples.announcement("Upstream v2")
            for _ in 0..<5 { #expect(try life.recordImported(changed, runID: nil, by: "cron") == .unchanged(id: id)) }
            #expect(try repo.revisions(of: id).count == before)
            #expect(try repo.fieldLocks(id).first?.upstream == .string("Upstream v2"))
            #expect(try repo.audit(itemID: id, limit: 100).filter { $0.action == "import-locked" }.count == 1)
            let unlocked = try life.unlock(id, fields: ["title"], by: "ana")
            #expect(unlocked.content.title == "Upstream v2" && unlocked.lockedFields.isEmpty)
            #expect(throws: TimeTrackError.self) { try life.unlock(id, fields: ["title"], by: "ana") }
            // Upstream back at the edited value: the recorded value is forgotten.
            _ = try life.edit(id, changes: ["title": .string("Shared title")], by: "ana", reason: nil)
            _ = try life.recordImported(changed, runID: nil, by: "cron")
            #expect(try repo.fieldLocks(id).first?.upstream == .string("Upstream v2"))
            var same = record
            same.content = Samples.announcement("Shared title")
            _ = try life.recordImported(same, runID: nil, by: "cron")
            #expect(try repo.fieldLocks(id).first?.upstream == nil)
            #expect(throws: TimeTrackError.self) { try life.edit(id, changes: ["nope": .string("x")], by: "ana", reason: nil) }
            #expect(throws: TimeTrackError.self) { try life.edit(id, changes: ["title": .string("")], by: "ana", reason: nil) }
            #expect(throws: TimeTrackError.self) { try life.edit(id, changes: ["title": .string("Shared title")], by: "ana", reason: nil) }
        }
    }

    @Test(arguments: Backend.allCases)
    func archiveRestoreAndKeep(_ backend: Backend) throws {
        try backend.with { repo, life in
            let item = try life.submit(Samples.event(), school: nil, by: "ana", note: nil)
            _ = try life.approve(item.id, by: "ana")
            #expect(try life.archive(item.id, by: "ana", reason: "past").status == .archived)
            #expect(throws: TimeTrackError.self) { try life.archive(item.id, by: "ana", reason: nil) }
            #expect(throws: TimeTrackError.self) { try life.approve(item.id, by: "ana") }
            #expect(throws: TimeTrackError.self) { try life.edit(item.id, changes: ["title": .string("x")], by: "ana", reason: nil) }
            #expect(try life.restore(item.id, by: "ana").status == .published)
            #expect(throws: TimeTrackError.self) { try life.restore(item.id, by: "ana") }
            #expect(throws: TimeTrackError.self) { try life.keep(item.id, by: "ana") }  // not missing
            #expect(try repo.audit(itemID: item.id, limit: 10).map(\.action) == ["restore", "archive", "approve", "submit"])
        }
    }

    @Test(arguments: Backend.allCases)
    func missingItemsAreCountedNotDeletedAndKeepResets(_ backend: Backend) throws {
        try backend.with { repo, life in
            for i in 0..<3 {
                _ = try life.recordImported(
                    ImportedRecord(key: "k\(i)", content: Samples.announcement("A \(i)"), school: nil, provenance: Samples.provenance()), runID: nil, by: "cron"
                )
            }
            let missing = try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1"], runID: nil)
            #expect(missing.count == 1)
            _ = try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1"], runID: nil)
            #expect(try repo.activeRows(sourceID: "test-news").map(\.missingRuns).sorted() == [0, 0, 2])
            let id = try #require(missing.first)
            #expect(try life.keep(id, by: "ana").missingRuns == 0)
            // Seen again: the count starts over without a decision.
            _ = try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1"], runID: nil)
            _ = try life.recordImported(
                ImportedRecord(key: "k2", content: Samples.announcement("A 2"), school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
            #expect(try repo.item(id).missingRuns == 0)
            // Seen again by a run after a missed one: back to 0. Keys are matched exactly,
            // whatever they hold.
            let odd = "k\"3\\ é\u{2028}"
            _ = try life.recordImported(
                ImportedRecord(key: odd, content: Samples.announcement("A 3"), school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
            #expect(try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1", odd], runID: nil) == [id])
            #expect(try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1", "k2", odd], runID: nil).isEmpty)
            #expect(try repo.activeRows(sourceID: "test-news").map(\.missingRuns) == [0, 0, 0, 0])
            #expect(try life.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1", "k2", "k\"3"], runID: nil).count == 1)
        }
    }

    /// Counting reads only the items it has to (unseen ones, and seen ones still counted): the
    /// result is what counting every active item would give, past the 500 numbers a query
    /// takes at once, with rejected and archived items and another source's items left alone.
    @Test(arguments: Backend.allCases)
    func missingCountsMatchCountingEveryItem(_ backend: Backend) throws {
        try backend.with { repo, life in
            var ids: [String] = []
            for i in 0..<1_100 {
                ids.append(
                    try life.recordImported(
                        ImportedRecord(key: "k\(i)", content: Samples.announcement("A \(i)"), school: nil, provenance: Samples.provenance()), runID: nil,
                        by: "cron"
                    ).id)
                if i % 10 == 0 {
                    _ = try life.recordImported(
                        ImportedRecord(key: "k\(i)", content: Samples.announcement("B \(i)"), school: nil, provenance: Samples.provenance("other-news")),
                        runID: nil, by: "cron")
                }
            }
            for i in stride(from: 1, to: 1_100, by: 7) { _ = try life.reject(ids[i], reason: "duplicate", by: "ana") }
            for i in stride(from: 3, to: 1_100, by: 11) where i % 7 != 1 {
                _ = try life.approve(ids[i], by: "ana")
                _ = try life.archive(ids[i], by: "ana", reason: nil)
            }
            #expect(try repo.activeRows(sourceID: "test-news").count == 1_100 - 157 - 86)
            let other = try repo.activeRows(sourceID: "other-news").map(\.missingRuns)
            /// What counting every active item gives: ids not seen, in item order, and the counts after.
            func expected(_ seen: Set<String>) throws -> ([String], [String: Int]) {
                let rows = try repo.activeRows(sourceID: "test-news")
                let missing = rows.filter { !seen.contains($0.sourceKey ?? "") }
                return (missing.map(\.id), Dictionary(uniqueKeysWithValues: rows.map { ($0.id, seen.contains($0.sourceKey ?? "") ? 0 : $0.missingRuns + 1) }))
            }
            for seen in [
                Set((0..<1_100).filter { $0 % 2 == 0 }.map { "k\($0)" }), Set((0..<1_100).filter { $0 % 3 != 0 }.map { "k\($0)" }),
                Set((0..<1_100).map { "k\($0)" }),
            ] {
                let (ids, counts) = try expected(seen)
                #expect(try life.recordMissing(sourceID: "test-news", seenKeys: seen, runID: nil) == ids)
                let after = try repo.activeRows(sourceID: "test-news")
                #expect(Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0.missingRuns) }) == counts)
            }
            #expect(try repo.activeRows(sourceID: "test-news").allSatisfy { $0.missingRuns == 0 })
            #expect(try repo.activeRows(sourceID: "other-news").map(\.missingRuns) == other)
        }
    }

    @Test(arguments: Backend.allCases)
    func unknownIDsAndInvalidContentWriteNothing(_ backend: Backend) throws {
        try backend.with { repo, life in
            for id in ["a999", "zz", "", "e-1", "a1x"] {
                let error = try #require(throws: TimeTrackError.self) { _ = try life.approve(id, by: "ana") }
                #expect(error.code == .notFound && error.message == "no item \(id)")
            }
            let bad = ItemContent.event(Event(title: "Game", start: Samples.day, end: Samples.day.addingTimeInterval(-60), timeZone: "Mars/Olympus"))
            #expect(throws: TimeTrackError.self) { try life.submit(bad, school: nil, by: "ana", note: nil) }
            #expect(try repo.audit(itemID: nil, limit: 10).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func approvingAnAbsenceExcusesItInOneDecision(_ backend: Backend) throws {
        try backend.with { repo, life in
            let report = try life.submit(Samples.absence(), school: nil, by: "parent", note: nil)
            let approved = try life.approve(report.id, by: "sam")
            guard case .absence(let excused) = approved.content else { Issue.record("not an absence"); return }
            #expect(excused.outcome == .excused && approved.status == .published)
            #expect(try repo.audit(itemID: report.id, limit: 10).map(\.action) == ["approve", "excuse", "submit"])
            let other = try life.submit(Samples.absence(), school: nil, by: "parent", note: nil)
            let rejected = try life.reject(other.id, reason: "no note", by: "sam")
            #expect(rejected.status == .rejected)
            guard case .absence(let unexcused) = try repo.revisions(of: other.id).last?.content else { Issue.record("no revision"); return }
            #expect(unexcused.outcome == .unexcused)
        }
    }

    @Test(arguments: Backend.allCases)
    func ticketsAreAnsweredAndClosedNeverApproved(_ backend: Backend) throws {
        try backend.with { repo, life in
            let ticket = try life.submit(Samples.ticket(), school: nil, by: "parent", note: nil)
            let error = try #require(throws: TimeTrackError.self) { _ = try life.approve(ticket.id, by: "sam") }
            #expect(error.message.contains("answered, not approved"))
            _ = try life.reply(ticket.id, text: "We are on it", by: "sam")
            let closed = try life.close(ticket.id, by: "sam")
            guard case .ticket(let t) = closed.content else { Issue.record("not a ticket"); return }
            #expect(t.closed && t.replies.map(\.text) == ["11:45", "We are on it"] && closed.status == .published)
            #expect(try repo.audit(itemID: ticket.id, limit: 10).map(\.action) == ["approve", "close", "reply", "submit"])
            #expect(throws: TimeTrackError.self) { try life.close(ticket.id, by: "sam") }
            #expect(throws: TimeTrackError.self) { try life.reply(ticket.id, text: "again", by: "sam") }
            let post = try life.submit(Samples.post(), school: nil, by: "parent", note: nil)
            #expect(throws: TimeTrackError.self) { try life.close(post.id, by: "sam") }
        }
    }

    @Test(arguments: Backend.allCases)
    func revertBringsThePreviousPublishedVersionBack(_ backend: Backend) throws {
        try backend.with { repo, life in
            let record = ImportedRecord(key: "k1", content: Samples.announcement("First"), school: nil, provenance: Samples.provenance())
            let id = try life.recordImported(record, runID: nil, by: "cron").id
            _ = try life.approve(id, by: "ana")
            var changed = record
            changed.content = Samples.announcement("Second")
            _ = try life.recordImported(changed, runID: nil, by: "cron")
            _ = try life.approve(id, by: "ana")
            let reverted = try life.revert(id, by: "ana")
            #expect(reverted.content.title == "First" && reverted.status == .published)
            #expect(try repo.revisions(of: id).map(\.state) == [.superseded, .superseded, .live])
            // --to a revision; the live one is refused; an unknown one names those there are.
            #expect(try life.revert(id, to: 2, by: "ana").content.title == "Second")
            #expect(throws: TimeTrackError.self) { try life.revert(id, to: 4, by: "ana") }
            let unknown = try #require(throws: TimeTrackError.self) { _ = try life.revert(id, to: 9, by: "ana") }
            #expect(unknown.fix?.contains("1, 2, 3, 4") == true)
            // Never published before: out of the app and back in review.
            let fresh = try life.submit(Samples.event(), school: nil, by: "ana", note: nil)
            _ = try life.approve(fresh.id, by: "ana")
            let back = try life.revert(fresh.id, by: "ana")
            #expect(back.status == .pending && back.pendingRevision == 1)
            #expect(throws: TimeTrackError.self) { try life.revert(fresh.id, by: "ana") }
            #expect(try life.approve(fresh.id, by: "ana").status == .published)
        }
    }

    @Test(arguments: Backend.allCases)
    func undoTakesBackTheLastBatchAndSkipsWhatWasDecidedSince(_ backend: Backend) throws {
        try backend.with { repo, life in
            let ids = try (0..<3).map { try life.submit(Samples.announcement("News \($0)"), school: nil, by: "cron", note: nil).id }
            let single = try life.submit(Samples.event(), school: nil, by: "cron", note: nil).id
            _ = try life.approve(single, by: "ana")
            let batch = Lifecycle.newBatch()
            for id in ids { _ = try life.approve(id, by: "ana", batch: batch) }
            // Someone decides one of them again.
            _ = try life.archive(ids[2], by: "lee", reason: "old")
            let undone = try life.undo(by: "ana")
            #expect(undone.map(\.itemID) == ids)
            #expect(undone.prefix(2).allSatisfy { $0.outcome == .undone(.pending) })
            #expect(undone[2].outcome == .decidedSince("archive by lee"))
            #expect(try repo.item(ids[0]).status == .pending && repo.item(ids[2]).status == .archived)
            // The audit log shows the bulk approval and its undo.
            let log = try repo.audit(itemID: ids[0], limit: 10)
            #expect(log.map(\.action) == ["undo-item", "approve", "submit"])
            #expect(log[1].batch == batch && log[0].batch == "undo:" + batch)
            // The next undo goes one decision further back: the single approval.
            #expect(try life.undo(by: "ana").map(\.itemID) == [single])
            #expect(try repo.item(single).status == .pending)
            #expect(try life.undo(by: "ana").isEmpty)
            #expect(try life.undo(by: "nobody").isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aFailingRecordInABatchRollsBackAlone(_ backend: Backend) throws {
        try backend.with { repo, life in
            var failures = 0
            try life.batch {
                for i in 0..<5 {
                    let content: ItemContent =
                        i == 2 ? .announcement(Announcement(title: "Bad", link: "javascript:alert(1)")) : Samples.announcement("Item \(i)")
                    do {
                        _ = try life.recordImported(
                            ImportedRecord(key: "k\(i)", content: content, school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
                    } catch let error as TimeTrackError where error.code == .validation {
                        failures += 1
                    }
                }
            }
            #expect(failures == 1)
            #expect(try repo.activeRows(sourceID: "test-news").count == 4)
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try life.batch {
                    _ = try life.recordImported(
                        ImportedRecord(key: "k9", content: Samples.announcement("Lost"), school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
                    throw Stop()
                }
            }
            #expect(try repo.activeRows(sourceID: "test-news").count == 4)
            #expect(try repo.audit(itemID: nil, limit: 10).count == 4)
        }
    }
}
