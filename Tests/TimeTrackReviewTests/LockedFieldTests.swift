import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

/// Issue 36: a field a person edited stays theirs through imports, on every repository: the
/// source's new value is noted on the lock once (one audit entry, no revision), noted again only
/// when it changes again, and settled when the source agrees with the person.
@Suite struct LockedFieldTests {
    static func record(_ title: String) -> ImportedRecord {
        ImportedRecord(key: "k1", content: Samples.announcement(title), school: "hillcrest", provenance: Samples.provenance())
    }

    static func lock(_ repo: any ItemRepository, _ id: String) throws -> FieldLock? {
        guard let row = try repo.row(id: id) else { return nil }
        return try repo.locks(of: row).first { $0.field == "title" }
    }

    @Test(arguments: [Backend.memory, Backend.sqlite])
    func theSourcesValueIsNotedOnceAndSettles(_ backend: Backend) throws {
        try backend.with { repo, life in
            guard case .new(let id) = try life.recordImported(Self.record("Picture day"), runID: nil, by: "cron") else {
                Issue.record("the first import makes a new item")
                return
            }
            _ = try life.approve(id, by: "ana")
            // An edit of a published item is live at once, and locks the field.
            _ = try life.edit(id, changes: ["title": .string("Picture Day is Friday")], by: "ana", reason: "clearer")
            let auditBefore = try repo.audit(itemID: id, limit: 100).count
            // The source changes the title: kept, noted, audited once, no revision.
            let revisions = try repo.revisions(of: id).count
            let first = try life.recordImported(Self.record("Picture day (rescheduled)"), runID: nil, by: "cron")
            guard case .unchanged = first else {
                Issue.record("a change to a locked field alone makes no revision: \(first)")
                return
            }
            #expect(try repo.revisions(of: id).count == revisions)
            #expect(try Self.lock(repo, id)?.upstream == .string("Picture day (rescheduled)"))
            #expect(try repo.audit(itemID: id, limit: 100).count == auditBefore + 1)
            #expect(try repo.item(id).content.fields()["title"] == .string("Picture Day is Friday"))
            // The same value again: nothing new.
            _ = try life.recordImported(Self.record("Picture day (rescheduled)"), runID: nil, by: "cron")
            #expect(try repo.audit(itemID: id, limit: 100).count == auditBefore + 1)
            // Another value: noted again.
            _ = try life.recordImported(Self.record("Picture day moved to Monday"), runID: nil, by: "cron")
            #expect(try Self.lock(repo, id)?.upstream == .string("Picture day moved to Monday"))
            #expect(try repo.audit(itemID: id, limit: 100).count == auditBefore + 2)
            // The source agrees with the person: the note goes, the lock stays.
            _ = try life.recordImported(Self.record("Picture Day is Friday"), runID: nil, by: "cron")
            let settled = try #require(try Self.lock(repo, id))
            #expect(settled.upstream == nil && settled.lockedBy == "ana")
            #expect(try repo.item(id).content.fields()["title"] == .string("Picture Day is Friday"))
            #expect(try repo.item(id).status == .published)
        }
    }

    @Test(arguments: [Backend.memory, Backend.sqlite])
    func otherFieldsStillComeFromTheSource(_ backend: Backend) throws {
        try backend.with { repo, life in
            var content = Samples.announcement("Bus routes")
            guard case .new(let id) = try life.recordImported(Self.record("Bus routes"), runID: nil, by: "cron") else {
                Issue.record("the first import makes a new item")
                return
            }
            _ = try life.approve(id, by: "ana")
            _ = try life.edit(id, changes: ["title": .string("New bus routes")], by: "ana", reason: nil)
            if case .announcement(var a) = content {
                a.summary = "Route 4 now stops at Elm St."
                content = .announcement(a)
            }
            let changed = try life.recordImported(
                ImportedRecord(key: "k1", content: content, school: "hillcrest", provenance: Samples.provenance()), runID: nil, by: "cron")
            guard case .changed(_, let changes, let conflicts) = changed else {
                Issue.record("a new summary is a change: \(changed)")
                return
            }
            #expect(changes.map(\.field) == ["summary"] && conflicts.isEmpty)
            let pending = try #require(try repo.item(id).pendingContent)
            #expect(pending.fields()["title"] == .string("New bus routes"))
            #expect(pending.fields()["summary"] == .string("Route 4 now stops at Elm St."))
        }
    }
}
