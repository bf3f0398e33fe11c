import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

/// `undo` takes back exactly the operator's last action, of any kind, over random sequences of
/// decisions and imports: the item is then as it was just before that action (status, what the
/// app shows, what waits, locks), or, when an import or another person changed it since, left
/// alone and said so.
@Suite struct UndoPropertyTests {
    enum Step: CaseIterable {
        case importIt, approve, reject, restore, archive, keep, edit, unlock, revert, reply, close, reopen, otherPerson, undo
    }

    /// What a person sees of an item.
    struct Seen: Equatable {
        var status: ItemStatus
        var content: ItemContent
        var pending: ItemContent?
        var locks: [String]
        var rejectReason: String?
        var archivedFrom: ItemStatus?

        init(_ item: Item) {
            (status, content, pending, locks) = (item.status, item.content, item.pendingContent, item.lockedFields.sorted())
            (rejectReason, archivedFrom) = (item.rejectReason, item.archivedFrom)
        }
    }

    /// One of the operator's actions, as the test remembers it: the item before it, and whether
    /// anything else changed the item after it.
    struct Done {
        var step: Step
        var before: Seen
        var changedSince = false
    }

    static let kinds: [ItemKind] = [.announcement, .ticket, .absence, .post]

    static func upstream(_ kind: ItemKind, variant v: Int) -> ItemContent {
        switch kind {
        case .announcement:
            return .announcement(Announcement(title: "Picture day \(v % 2)", summary: "Smile \(v)", publishedAt: Samples.day))
        default:
            return DecisionPropertyTests.upstream(kind, variant: v, hostile: false)
        }
    }

    static func sourceField(_ kind: ItemKind) -> String {
        kind == .announcement ? "title" : DecisionPropertyTests.sourceField(kind)
    }

    /// Runs the operator's (ana's) action for `step`; true when it was taken.
    static func act(_ step: Step, on id: String, kind: ItemKind, variant: Int, life: Lifecycle) -> Bool {
        let done: Any?
        switch step {
        case .approve: done = try? life.approve(id, by: "ana", anyway: true)
        case .reject: done = try? life.reject(id, reason: "no \(variant)", by: "ana")
        case .restore: done = try? life.restore(id, by: "ana")
        case .archive: done = try? life.archive(id, by: "ana", reason: nil)
        case .keep: done = try? life.keep(id, by: "ana")
        case .edit: done = try? life.edit(id, changes: [sourceField(kind): .string("edited \(variant)")], by: "ana", reason: nil)
        case .unlock: done = try? life.unlock(id, fields: [sourceField(kind)], by: "ana")
        case .revert: done = try? life.revert(id, by: "ana")
        case .reply: done = try? life.reply(id, text: "answer \(variant)", by: "ana")
        case .close: done = try? life.close(id, by: "ana")
        case .reopen: done = try? life.reopen(id, by: "ana", reason: "asked again")
        case .importIt, .otherPerson, .undo: done = nil
        }
        return done != nil
    }

    /// One random sequence; returns how many undos took an action back and how many were refused.
    static func run(_ random: inout SplitMix64, length: Int) throws -> (taken: Int, refused: Int) {
        let repository = InMemoryRepository()
        let life = Lifecycle(repository)
        let kind = kinds[random.int(0...kinds.count - 1)]
        let record = ImportedRecord(key: "k", content: upstream(kind, variant: 0), school: "hillcrest", provenance: Samples.provenance())
        let id = try life.recordImported(record, runID: nil, by: "cron").id
        var stack: [Done] = []
        var trace: [String] = []
        var tally = (taken: 0, refused: 0)
        for _ in 0..<length {
            let step = Step.allCases[random.int(0...Step.allCases.count - 1)]
            let variant = random.int(0...2)
            trace.append("\(step)")
            let before = Seen(try repository.item(id))
            switch step {
            case .importIt:
                let outcome = try life.recordImported(
                    ImportedRecord(key: "k", content: upstream(kind, variant: variant), school: "hillcrest", provenance: Samples.provenance()), runID: nil,
                    by: "cron")
                if case .changed = outcome { for index in stack.indices { stack[index].changedSince = true } }
            case .otherPerson:
                // Someone else decides: everything the operator did before is changed since.
                if (try? life.archive(id, by: "lee", reason: nil)) != nil || (try? life.restore(id, by: "lee")) != nil {
                    for index in stack.indices { stack[index].changedSince = true }
                }
            case .undo:
                let undone = try life.undo(by: "ana")
                guard let last = stack.popLast() else {
                    #expect(undone.isEmpty, "undid \(undone) with nothing done, after \(trace)")
                    continue
                }
                let after = Seen(try repository.item(id))
                if last.changedSince {
                    #expect(undone.map(\.outcome).allSatisfy { if case .decidedSince = $0 { return true } else { return false } }, "\(undone) after \(trace)")
                    #expect(after == before, "a refused undo changed the item after \(trace)")
                    tally.refused += 1
                } else {
                    #expect(undone.count == 1 && undone.first?.outcome == .undone(after.status), "\(undone) after \(trace) on \(kind)")
                    #expect(after == last.before, "undo of \(last.step) did not put the item back after \(trace):\n\(after)\nwanted\n\(last.before)")
                    tally.taken += 1
                }
            default:
                if act(step, on: id, kind: kind, variant: variant, life: life) { stack.append(Done(step: step, before: before)) }
            }
        }
        return tally
    }

    /// 5,000 random sequences of every action, imports and another person's decisions between.
    @Test func undoTakesBackExactlyTheLastActionOfAnyKind() throws {
        var random = SplitMix64(state: 0x0DD0_5EED)
        var total = (taken: 0, refused: 0)
        for _ in 0..<5_000 {
            let tally = try Self.run(&random, length: random.int(3...14))
            total.taken += tally.taken
            total.refused += tally.refused
        }
        #expect(total.taken > 1_200 && total.refused > 150, "\(total)")
    }
}
