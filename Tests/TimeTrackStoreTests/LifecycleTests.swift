import Foundation
import TestSupport
import Testing
import TimeTrackCore
@testable import TimeTrackStore

/// Every lifecycle transition and every refused one, on a real SQLite file.
@Suite struct LifecycleTests {
    func withStore(_ body: (SQLiteStore, TemporaryDirectory) throws -> Void) throws {
        let dir = try TemporaryDirectory("store")
        defer { dir.remove() }
        let store = try SQLiteStore(path: dir.path("t.sqlite"))
        defer { store.close() }
        try body(store, dir)
    }

    @Test("every model round-trips through the store", arguments: Samples.allKinds)
    func roundTrip(_ content: ItemContent) throws {
        try withStore { (store, dir) throws in
            let item = try store.submit(content, school: "hillcrest", by: "ana", note: nil)
            #expect(item.status == .pending)
            #expect(item.id.hasPrefix(content.kind.idPrefix))
            // Reopen from disk: nothing cached.
            store.close()
            let reopened = try SQLiteStore(path: dir.path("t.sqlite"), create: false)
            defer { reopened.close() }
            let read = try reopened.item(item.id)
            #expect(read.content == content)
            #expect(read.school == "hillcrest")
            #expect(try reopened.item(item.id.uppercased()).id == item.id)
        }
    }

    @Test func approvePublishesAndWritesRevisionAndAuditTogether() throws {
        try withStore { (store, _) throws in
            let item = try store.submit(Samples.announcement(), school: nil, by: "ana", note: nil)
            let published = try store.approve(item.id, by: "ana")
            #expect(published.status == .published)
            #expect(published.approvedBy == "ana")
            let revisions = try store.revisions(of: item.id)
            #expect(revisions.map(\.state) == [.live])
            let audit = try store.audit(itemID: item.id, limit: 10)
            #expect(audit.map(\.action) == ["approve", "submit"])
            // The typed row an app backend reads.
            let title = try store.db.row("SELECT title FROM published_announcements WHERE id = ?", [.text(item.id)]) { $0.text(0) }
            #expect(title == "Back to school night")
        }
    }

    @Test func rejectNeedsReasonAndKeepsIt() throws {
        try withStore { (store, _) throws in
            let item = try store.submit(Samples.post(), school: nil, by: "sam", note: nil)
            #expect(throws: TimeTrackError.self) { try store.reject(item.id, reason: "  ", by: "sam") }
            let rejected = try store.reject(item.id, reason: "off topic", by: "sam")
            #expect(rejected.status == .rejected)
            #expect(rejected.rejectReason == "off topic")
            #expect(try store.audit(itemID: item.id, limit: 5).first?.reason == "off topic")
            // Refused transitions on a rejected item.
            #expect(throws: TimeTrackError.self) { try store.approve(item.id, by: "sam") }
            #expect(throws: TimeTrackError.self) { try store.reject(item.id, reason: "again", by: "sam") }
            #expect(throws: TimeTrackError.self) { try store.edit(item.id, changes: ["text": .string("x")], by: "sam", reason: nil) }
            // Restore puts it back in review, then it can be approved.
            #expect(try store.restore(item.id, by: "sam").status == .pending)
            #expect(try store.approve(item.id, by: "sam").status == .published)
        }
    }

    @Test func upstreamChangeIsAPendingRevisionWhileThePublishedVersionStaysLive() throws {
        try withStore { (store, _) throws in
            let record = ImportedRecord(key: "k1", content: Samples.announcement("Old title"), school: nil, provenance: Samples.provenance())
            let first = try store.recordImported(record, runID: nil, by: "cron")
            guard case .new(let id) = first else { Issue.record("expected new, got \(first)"); return }
            _ = try store.approve(id, by: "ana")
            #expect(try store.recordImported(record, runID: nil, by: "cron") == .unchanged(id: id))

            var changed = record
            changed.content = Samples.announcement("New title")
            let outcome = try store.recordImported(changed, runID: nil, by: "cron")
            guard case .changed(_, let changes, _) = outcome else { Issue.record("expected changed, got \(outcome)"); return }
            #expect(changes.map(\.field) == ["title"])
            let item = try store.item(id)
            #expect(item.status == .published)
            #expect(item.content.title == "Old title")
            #expect(item.pendingContent?.title == "New title")
            let liveTitle = try store.db.row("SELECT title FROM published_announcements WHERE id = ?", [.text(id)]) { $0.text(0) }
            #expect(liveTitle == "Old title")

            // Rejecting the change keeps the published version.
            let afterReject = try store.reject(id, reason: "typo upstream", by: "ana")
            #expect(afterReject.status == .published)
            #expect(afterReject.pendingContent == nil)
            // The same upstream change again is not new: it was already seen... but the live one differs, so it comes back for review.
            _ = try store.recordImported(changed, runID: nil, by: "cron")
            let approved = try store.approve(id, by: "ana")
            #expect(approved.content.title == "New title")
            #expect(try store.revisions(of: id).map(\.state) == [.superseded, .rejected, .live])
        }
    }

    @Test func editLocksFieldsAgainstReimport() throws {
        try withStore { (store, _) throws in
            let record = ImportedRecord(key: "k1", content: Samples.announcement("Upstream"), school: nil, provenance: Samples.provenance())
            let id = try store.recordImported(record, runID: nil, by: "cron").id
            _ = try store.approve(id, by: "ana")
            let edited = try store.edit(id, changes: ["title": .string("Edited by Ana")], by: "ana", reason: "clearer")
            #expect(edited.content.title == "Edited by Ana")
            #expect(edited.lockedFields == ["title"])
            // Unchanged upstream: the lock keeps the edit, nothing new.
            #expect(try store.recordImported(record, runID: nil, by: "cron") == .unchanged(id: id))
            // Upstream changes the locked title: the edit stays, the source's value is recorded on
            // the lock once, and no revision is made (the lock settles instead of churning).
            let revisionsBefore = try store.revisions(of: id).count
            var changed = record
            changed.content = Samples.announcement("Upstream v2")
            for _ in 0..<5 { #expect(try store.recordImported(changed, runID: nil, by: "cron") == .unchanged(id: id)) }
            #expect(try store.revisions(of: id).count == revisionsBefore)
            #expect(try store.item(id).pendingContent == nil)
            #expect(try store.fieldLocks(id).first?.upstream == .string("Upstream v2"))
            let actions = try store.audit(itemID: id, limit: 100).map(\.action)
            #expect(actions.filter { $0 == "import-locked" }.count == 1, "\(actions)")
            // `unlock` takes the source's value back, as one audited decision.
            let unlocked = try store.unlock(id, fields: ["title"], by: "ana")
            #expect(unlocked.content.title == "Upstream v2")
            #expect(unlocked.lockedFields.isEmpty)
            #expect(try store.audit(itemID: id, limit: 100).contains { $0.action == "unlock" })
            #expect(try store.recordImported(changed, runID: nil, by: "cron") == .unchanged(id: id))
            #expect(throws: TimeTrackError.self) { try store.unlock(id, fields: ["title"], by: "ana") }
            // A locked field whose upstream comes back to the edited value forgets the recorded one.
            _ = try store.edit(id, changes: ["title": .string("Shared title")], by: "ana", reason: nil)
            _ = try store.recordImported(changed, runID: nil, by: "cron")
            #expect(try store.fieldLocks(id).first?.upstream == .string("Upstream v2"))
            var same = record
            same.content = Samples.announcement("Shared title")
            _ = try store.recordImported(same, runID: nil, by: "cron")
            #expect(try store.fieldLocks(id).first?.upstream == nil)
            // Bad edits are refused with the field named.
            #expect(throws: TimeTrackError.self) { try store.edit(id, changes: ["nope": .string("x")], by: "ana", reason: nil) }
            #expect(throws: TimeTrackError.self) { try store.edit(id, changes: ["title": .string("")], by: "ana", reason: nil) }
        }
    }

    @Test func archiveAndRestore() throws {
        try withStore { (store, _) throws in
            let item = try store.submit(Samples.event(), school: nil, by: "ana", note: nil)
            _ = try store.approve(item.id, by: "ana")
            #expect(try store.archive(item.id, by: "ana", reason: "past").status == .archived)
            #expect(throws: TimeTrackError.self) { try store.archive(item.id, by: "ana", reason: nil) }
            #expect(throws: TimeTrackError.self) { try store.approve(item.id, by: "ana") }
            #expect(throws: TimeTrackError.self) { try store.edit(item.id, changes: ["title": .string("x")], by: "ana", reason: nil) }
            #expect(try store.restore(item.id, by: "ana").status == .published)
            #expect(throws: TimeTrackError.self) { try store.restore(item.id, by: "ana") }
            #expect(throws: TimeTrackError.self) { try store.approve(item.id, by: "ana") }  // nothing pending
            let actions = try store.audit(itemID: item.id, limit: 10).map(\.action)
            #expect(actions == ["restore", "archive", "approve", "submit"])
        }
    }

    @Test func unknownIDsSayNoItem() throws {
        try withStore { (store, _) throws in
            for id in ["a999", "zz", "", "e-1", "a1x"] {
                do {
                    _ = try store.item(id)
                    Issue.record("\(id) was found")
                } catch let error as TimeTrackError {
                    #expect(error.code == .notFound)
                    #expect(error.message == "no item \(id)")
                }
            }
        }
    }

    @Test func invalidContentIsRefusedAndNothingIsWritten() throws {
        try withStore { (store, _) throws in
            let bad = ItemContent.event(Event(title: "Game", start: Samples.day, end: Samples.day.addingTimeInterval(-60), timeZone: "Mars/Olympus"))
            #expect(throws: TimeTrackError.self) { try store.submit(bad, school: nil, by: "ana", note: nil) }
            #expect(try store.counts().isEmpty)
            #expect(try store.audit(itemID: nil, limit: 10).isEmpty)
        }
    }

    @Test func missingItemsAreCountedNotDeleted() throws {
        try withStore { (store, _) throws in
            var keys: Set<String> = []
            for i in 0..<3 {
                let record = ImportedRecord(key: "k\(i)", content: Samples.announcement("A \(i)"), school: nil, provenance: Samples.provenance())
                _ = try store.recordImported(record, runID: nil, by: "cron")
                keys.insert("k\(i)")
            }
            let missing = try store.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1"], runID: nil)
            #expect(missing.count == 1)
            _ = try store.recordMissing(sourceID: "test-news", seenKeys: ["k0", "k1"], runID: nil)
            let rows = try store.list(ItemQuery(kind: .announcement))
            #expect(rows.count == 3)
            #expect(rows.map(\.missingRuns).sorted() == [0, 0, 2])
        }
    }

    @Test func firstOperatorIsAdmin() throws {
        try withStore { (store, _) throws in
            #expect(try store.addOperator("sam", role: .staff, by: "sam").role == .admin)
            #expect(try store.addOperator("lee", role: .staff, by: "sam").role == .staff)
            #expect(throws: TimeTrackError.self) { try store.addOperator("bad name!", role: .staff, by: "sam") }
            #expect(try store.operators().map(\.name) == ["lee", "sam"])
        }
    }
}

/// A batch of imported records: one bad record rolls back alone; the others commit together.
@Suite struct ImportBatchTests {
    @Test func aFailingRecordInABatchRollsBackAlone() throws {
        let dir = try TemporaryDirectory("batch")
        defer { dir.remove() }
        let store = try SQLiteStore(path: dir.path("t.sqlite"))
        defer { store.close() }
        var failures = 0
        try store.batch {
            for i in 0..<5 {
                let content: ItemContent = i == 2
                    ? .announcement(Announcement(title: "Bad", link: "javascript:alert(1)"))
                    : Samples.announcement("Item \(i)")
                do {
                    _ = try store.recordImported(ImportedRecord(key: "k\(i)", content: content, school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
                } catch let error as TimeTrackError where error.code == .validation {
                    failures += 1
                }
            }
        }
        #expect(failures == 1)
        #expect(try store.counts()[.announcement]?[.pending] == 4)
        #expect(try store.audit(itemID: nil, limit: 10).count == 4)
        // A batch that throws leaves nothing.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.batch {
                _ = try store.recordImported(ImportedRecord(key: "k9", content: Samples.announcement("Lost"), school: nil, provenance: Samples.provenance()), runID: nil, by: "cron")
                throw Stop()
            }
        }
        #expect(try store.counts()[.announcement]?[.pending] == 4)
    }
}
