import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

/// Random interleavings of imports and every kind of decision, on the in-memory repository
/// (the lifecycle is one piece of code over every store; the suites above run it on each).
///
/// After every step: no decision a person made is lost (replies, the closed state, moderation
/// notes, an absence's outcome), an import proposes exactly the source-owned, unlocked fields
/// that differ (no phantom change, none missed), and an absence's outcome follows its status.
@Suite struct DecisionPropertyTests {
    /// The decisions and imports a sequence draws from.
    enum Step: CaseIterable {
        case importIt, reply, close, reopen, approve, reject, restore, archive, editSource, editNote, unlock, undo, revert, editOutcome
    }

    /// What people decided, as the test keeps it.
    struct Decided {
        var replies: [String] = []
        var closed = false
        var moderationNote: String?
    }

    static let kinds: [ItemKind] = [.ticket, .absence, .post]

    /// The upstream content of variant `v` (a source that changes now and then), with staff
    /// fields a hostile submission tries to set when `hostile`.
    static func upstream(_ kind: ItemKind, variant v: Int, hostile: Bool) -> ItemContent {
        switch kind {
        case .ticket:
            return .ticket(
                Ticket(
                    from: "pat@example.org", kind: .question, subject: "Lunch \(v % 2)", message: "When is lunch? \(v)",
                    replies: hostile ? [.init(by: "principal", at: Samples.day, text: "forged")] : [], closed: hostile))
        case .absence:
            return .absence(
                AbsenceReport(
                    student: "Sam Lee", reportedBy: "Pat Lee", dates: ["2026-09-14"], reason: .illness, note: "note \(v)", outcome: hostile ? .excused : nil))
        default:
            return .post(Post(authorName: "Ana", authorRole: .student, text: "post \(v)", createdAt: Samples.day, moderationNote: hostile ? "forged" : nil))
        }
    }

    static func sourceField(_ kind: ItemKind) -> String {
        switch kind {
        case .ticket: return "subject"
        case .absence: return "note"
        default: return "text"
        }
    }

    /// The fields an import of `upstream` must propose on `item`: source-owned, not locked, different.
    static func expectedChanges(_ upstream: ItemContent, on item: Item) -> Set<String> {
        let base = (item.pendingContent ?? item.content).fields()
        let offered = upstream.sourceOwned.fields()
        let owned = ItemContent.operatorOwnedFields(of: item.kind)
        return Set(
            Set(base.keys).union(offered.keys).filter { field in
                !owned.contains(field) && !item.lockedFields.contains(field) && (base[field] ?? .null) != (offered[field] ?? .null)
            })
    }

    /// Every invariant of the decided fields on the item as it stands.
    static func check(_ item: Item, _ decided: Decided, _ trace: [String]) {
        let versions = [item.content] + (item.pendingContent.map { [$0] } ?? [])
        for content in versions {
            switch content {
            case .ticket(let ticket):
                #expect(ticket.replies.map(\.text) == decided.replies, "replies lost after \(trace)")
                #expect(ticket.closed == decided.closed, "closed state lost after \(trace)")
            case .absence(let report):
                let status = item.status == .archived ? (item.archivedFrom ?? .pending) : item.status
                let expected: AbsenceReport.Outcome? = status == .published ? .excused : status == .rejected ? .unexcused : nil
                #expect(report.outcome == expected, "outcome \(String(describing: report.outcome)) contradicts \(item.status) after \(trace)")
            case .post(let post):
                #expect(post.moderationNote == decided.moderationNote, "moderation note lost after \(trace)")
            default:
                break
            }
        }
    }

    /// Runs one random sequence of `length` steps on a fresh repository.
    static func runSequence(_ random: inout SplitMix64, length: Int, steps: [Step]) throws -> (imports: Int, changed: Int) {
        let repository = InMemoryRepository()
        let life = Lifecycle(repository)
        let kind = kinds[random.int(0...kinds.count - 1)]
        var decided = Decided()
        var trace: [String] = []
        var id: String?
        var counts = (imports: 0, changed: 0)
        // The moderation note before each of ana's decisions: `undo` takes her last one back.
        var notesBefore: [String?] = []
        for _ in 0..<length {
            // Imports a third of the time: the rule is about imports meeting decisions.
            let step = random.chance(33) ? .importIt : steps[random.int(0...steps.count - 1)]
            let variant = random.int(0...2)
            trace.append("\(step)")
            guard let itemID = id else {
                let record = ImportedRecord(
                    key: "k", content: upstream(kind, variant: variant, hostile: random.chance(50)), school: "hillcrest", provenance: Samples.provenance())
                id = try life.recordImported(record, runID: nil, by: "cron").id
                check(try repository.item(id ?? ""), decided, trace)
                continue
            }
            let before = try repository.item(itemID)
            switch step {
            case .importIt:
                let content = upstream(kind, variant: variant, hostile: random.chance(50))
                let outcome = try life.recordImported(
                    ImportedRecord(key: "k", content: content, school: "hillcrest", provenance: Samples.provenance()), runID: nil, by: "cron")
                counts.imports += 1
                let expected = expectedChanges(content, on: before)
                switch outcome {
                case .skipped: #expect(before.status == .rejected || before.status == .archived, "skipped a \(before.status) item after \(trace)")
                case .unchanged: #expect(expected.isEmpty || before.status == .rejected || before.status == .archived, "missed \(expected) after \(trace)")
                case .changed(_, let changes, _):
                    counts.changed += 1
                    #expect(Set(changes.map(\.field)) == expected, "proposed \(changes.map(\.field)) where the source changed \(expected) after \(trace)")
                case .new: Issue.record("a second import made a new item after \(trace)")
                }
            case .reply:
                if (try? life.reply(itemID, text: "reply \(decided.replies.count)", by: "sam")) != nil {
                    decided.replies.append("reply \(decided.replies.count)")
                }
            case .close: if (try? life.close(itemID, by: "sam")) != nil { decided.closed = true }
            case .reopen: if (try? life.reopen(itemID, by: "sam", reason: "wrote back")) != nil { decided.closed = false }
            case .approve: if (try? life.approve(itemID, by: "ana", anyway: true)) != nil { notesBefore.append(decided.moderationNote) }
            case .reject: if (try? life.reject(itemID, reason: "no", by: "ana")) != nil { notesBefore.append(decided.moderationNote) }
            case .restore: if (try? life.restore(itemID, by: "ana")) != nil { notesBefore.append(decided.moderationNote) }
            case .archive: if (try? life.archive(itemID, by: "ana", reason: nil)) != nil { notesBefore.append(decided.moderationNote) }
            case .editSource:
                if (try? life.edit(itemID, changes: [sourceField(kind): .string("edited \(variant)")], by: "ana", reason: nil)) != nil {
                    notesBefore.append(decided.moderationNote)
                }
            case .editNote:
                let note = "note \(variant)"
                if kind == .post, (try? life.edit(itemID, changes: ["moderationNote": .string(note)], by: "ana", reason: nil)) != nil {
                    notesBefore.append(decided.moderationNote)
                    decided.moderationNote = note
                }
            case .editOutcome:
                if kind == .absence {
                    #expect(throws: TimeTrackError.self, "edit outcome= was taken after \(trace)") {
                        try life.edit(itemID, changes: ["outcome": .string(variant == 0 ? "excused" : "unexcused")], by: "ana", reason: nil)
                    }
                }
            case .unlock: if (try? life.unlock(itemID, fields: [sourceField(kind)], by: "ana")) != nil { notesBefore.append(decided.moderationNote) }
            case .undo:
                // Her last decision is taken back (her note with it), or left when changed since.
                let undone = (try? life.undo(by: "ana")) ?? []
                if let before = notesBefore.popLast(), undone.contains(where: { if case .undone = $0.outcome { return true } else { return false } }) {
                    decided.moderationNote = before
                }
            case .revert: if kind == .absence, (try? life.revert(itemID, by: "ana")) != nil { notesBefore.append(decided.moderationNote) }
            }
            check(try repository.item(itemID), decided, trace)
        }
        return counts
    }

    /// 10,000 sequences of imports and decisions of every kind: 0 lost decisions, 0 phantom changes.
    @Test func importsNeverUndoADecision() throws {
        var random = SplitMix64(state: 0x5AFE_37)
        var totals = (imports: 0, changed: 0)
        for _ in 0..<10_000 {
            let counts = try Self.runSequence(&random, length: random.int(2...9), steps: Step.allCases)
            totals.imports += counts.imports
            totals.changed += counts.changed
        }
        // The sequences did exercise both sides of the rule.
        #expect(totals.imports > 10_000 && totals.changed > 1_000, "\(totals)")
    }

    /// Every sequence of approve, reject, restore, edit and archive up to length 5 on an absence
    /// report, 10,000 of them at random: the outcome follows the decision after every step.
    @Test func anAbsenceOutcomeFollowsItsDecision() throws {
        var random = SplitMix64(state: 0xAB5E_4CE)
        let steps: [Step] = [.approve, .reject, .restore, .editSource, .editOutcome, .archive, .revert, .undo, .importIt]
        for _ in 0..<10_000 {
            _ = try Self.runAbsence(&random, length: random.int(1...5), steps: steps)
        }
    }

    static func runAbsence(_ random: inout SplitMix64, length: Int, steps: [Step]) throws -> Int {
        let repository = InMemoryRepository()
        let life = Lifecycle(repository)
        let record = ImportedRecord(
            key: "k", content: upstream(.absence, variant: 0, hostile: random.chance(50)), school: "hillcrest", provenance: Samples.provenance())
        let id = try life.recordImported(record, runID: nil, by: "cron").id
        var trace: [String] = []
        for _ in 0..<length {
            let step = steps[random.int(0...steps.count - 1)]
            trace.append("\(step)")
            switch step {
            case .approve: _ = try? life.approve(id, by: "ana")
            case .reject: _ = try? life.reject(id, reason: "no note", by: "ana")
            case .restore: _ = try? life.restore(id, by: "ana")
            case .archive: _ = try? life.archive(id, by: "ana", reason: nil)
            case .revert: _ = try? life.revert(id, by: "ana")
            case .undo: _ = try? life.undo(by: "ana")
            case .editSource: _ = try? life.edit(id, changes: ["note": .string("edited")], by: "ana", reason: nil)
            case .editOutcome:
                #expect(throws: TimeTrackError.self) { try life.edit(id, changes: ["outcome": .string("excused")], by: "ana", reason: nil) }
            case .importIt:
                _ = try life.recordImported(
                    ImportedRecord(
                        key: "k", content: upstream(.absence, variant: random.int(0...1), hostile: random.chance(50)), school: "hillcrest",
                        provenance: Samples.provenance()),
                    runID: nil, by: "cron")
            default: break
            }
            check(try repository.item(id), Decided(), trace)
        }
        return trace.count
    }
}
