import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    /// Runs `decide` for each id (one transaction each); prints a line per id; 3 when some failed.
    static func decideEach(_ ids: [String], action: String, session: Session, _ decide: (any ItemStore, String) throws -> Item) throws -> Int32 {
        let store = try session.store()
        var failed = 0
        var done: [JSONValue] = []
        for id in ids {
            if Interrupt.requested {
                session.output.note("interrupted: \(done.count) done, \(ids.count - done.count - failed) not attempted")
                break
            }
            do {
                let target = try store.item(id)
                try session.requireDecision(on: target.kind, school: target.school, action: action, in: store)
                let item = try decide(store, id)
                done.append(.object(["id": .string(item.id), "status": .string(item.status.rawValue)]))
                if !session.output.json {
                    session.output.line("\(item.id): \(ItemRendering.statusWord(item))" + (item.pendingContent != nil ? " (a change still waits)" : ""))
                }
            } catch let error as TimeTrackError {
                failed += 1
                session.output.error(error)
                if error.code == .permission && ids.count > 1 { break }
            }
        }
        if session.output.json { session.output.printJSON(JSONValue.array(done)) }
        if failed == 0 { return 0 }
        return done.isEmpty ? 1 : 3
    }

    static var approveCommand: CommandSpec { ApproveCommand.spec }

    struct ApproveCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("approve", summary: "publish the pending content of items (an absence report: excuse it)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]
        @Flag(
            "anyway",
            help: "publish even what the privacy check flags (a phone number, an e-mail, an address, a student's name), or what has expired;"
                + " recorded") var anyway: Bool

        func run(_ session: Session) throws -> Int32 {
            let allowed = session.privacyAllowList()
            // Items approved in one command are one decision: `undo` takes them back together.
            let batch = words.count > 1 ? Lifecycle.newBatch() : nil
            return try decideEach(words, action: "approve", session: session) { store, id in
                try refuseExpired(try store.item(id), anyway: anyway, session: session)
                let done = try Lifecycle(store).approve(id, by: session.operatorName, batch: batch, anyway: anyway, allowed: allowed)
                tellOnAlert(done, store: store, session: session)
                return done
            }
        }
    }

    /// An emergency or urgent alert just published: the district's `onAlert` command is told
    /// (one scheduled for later is told when `import --due` puts it live).
    static func tellOnAlert(_ item: Item, store: any ItemStore, session: Session) {
        guard item.status == .published, AlertHook.applies(to: item), let hook = AlertHook.configured(folder: session.importsPath) else { return }
        for line in hook.notify([item.id], event: .published, store: store, by: session.operatorName) { session.output.note(line) }
    }

    static var rejectCommand: CommandSpec { RejectCommand.spec }

    struct RejectCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("reject", summary: "refuse the pending content of items, with a reason (an absence report: unexcused)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]
        @Option("reason", value: "R", required: true, help: "why (required)") var reason: String?

        func run(_ session: Session) throws -> Int32 {
            guard let reason = reason, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw TimeTrackError(.usage, "reject: a reason is required", fix: "usage: reject ID... --reason \"why\"")
            }
            return try decideEach(words, action: "reject", session: session) { store, id in
                try Lifecycle(store).reject(id, reason: reason, by: session.operatorName)
            }
        }
    }

    static var editCommand: CommandSpec { EditCommand.spec }

    struct EditCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "edit", summary: "change fields of an item and lock them against re-imports (empty VALUE clears a field)")
        @Positional("ID FIELD=VALUE...", count: 2...100, completes: [.ids, .fields]) var words: [String]
        @Option("reason", value: "R", help: "why, for the audit log") var reason: String?
        @Flag("keep-duration", help: "an event's new start moves its end too, keeping its length (and locks end)") var keepDuration: Bool

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let id = words[0]
            let item = try store.item(id)
            try session.requireDecision(on: item.kind, school: item.school, action: "edit", in: store)
            var assignments: [(String, String)] = []
            for word in words.dropFirst() {
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw TimeTrackError(
                        .usage, "edit: '\(word)' is not FIELD=VALUE",
                        fix: "fields of \(item.kind.rawValue): " + ItemContent.fieldNames(of: item.kind).joined(separator: ", "))
                }
                assignments.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            }
            let keepDuration = keepDuration
            let changes = try ItemContent.parseEdits(
                assignments, kind: item.kind, current: item.pendingContent ?? item.content, zone: session.zone(of: item), keepDuration: keepDuration)
            var typed = Set(assignments.map(\.0))
            if keepDuration { typed.insert("end") }
            let edited: Item
            do {
                // What follows from a typed value (an all-day event's end) is part of the same
                // decision and locked with it: an import must not take half of it back.
                edited = try Lifecycle(store).edit(id, changes: changes, by: session.operatorName, reason: reason)
            } catch let error as TimeTrackError where error.code == .validation && item.kind == .event && typed.contains("start") && !typed.contains("end") {
                // A new start after the old end: the end stays where it was unless asked.
                throw TimeTrackError(
                    error.code, error.message,
                    fix: "move the end too: `edit \(id) start=… end=…`, or `edit \(id) start=… --keep-duration` to keep its length",
                    context: error.context)
            }
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(edited))
            } else {
                let implied = changes.keys.filter { !typed.contains($0) }.sorted()
                if implied.contains("allDay") {
                    session.output.line("\(edited.id): start is a day alone, so the event is all day (allDay=true, ending the next day)")
                }
                session.output.line(
                    "\(edited.id): edited \(changes.keys.sorted().joined(separator: ", ")); locked against re-imports:"
                        + " \(edited.lockedFields.joined(separator: ", ")) (`unlock \(edited.id) FIELD` to follow the source again)"
                        + (implied.isEmpty ? "" : "; \(implied.joined(separator: ", ")) followed from what you typed"))
            }
            return 0
        }
    }

    static var archiveCommand: CommandSpec { ArchiveCommand.spec }

    struct ArchiveCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("archive", summary: "move items to the archive (read-only history, restorable)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]
        @Option("reason", value: "R", help: "why, for the audit log") var reason: String?

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "archive", session: session) { store, id in
                try Lifecycle(store).archive(id, by: session.operatorName, reason: reason)
            }
        }
    }

    static var restoreCommand: CommandSpec { RestoreCommand.spec }

    struct RestoreCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("restore", summary: "bring archived items back, or rejected items back into review")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "restore", session: session) { store, id in try Lifecycle(store).restore(id, by: session.operatorName) }
        }
    }

    static var unlockCommand: CommandSpec { UnlockCommand.spec }

    struct UnlockCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("unlock", summary: "let edited fields follow their source again (its latest value comes back)")
        @Positional("ID FIELD...", count: 2...100, completes: [.ids, .fields]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let id = words[0]
            let item = try store.item(id)
            try session.requireDecision(on: item.kind, school: item.school, action: "unlock", in: store)
            let unlocked = try Lifecycle(store).unlock(id, fields: Array(words.dropFirst()), by: session.operatorName)
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(unlocked))
            } else {
                session.output.line(
                    "\(unlocked.id): unlocked \(words.dropFirst().joined(separator: ", "))"
                        + (unlocked.lockedFields.isEmpty ? "" : "; still locked: " + unlocked.lockedFields.joined(separator: ", ")))
            }
            return 0
        }
    }

    static var revertCommand: CommandSpec { RevertCommand.spec }

    struct RevertCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "revert", summary: "put the previously published version back live (never published before: back to review); `history ID` lists revisions")
        @Positional("ID", count: 1...1, completes: [.ids]) var words: [String]
        @Option("to", value: "REVISION", in: 1...Int(Int32.max), help: "the revision number to put back live (see `history ID`)") var to: Int?

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "revert", session: session) { store, id in
                let item = try Lifecycle(store).revert(id, to: to, by: session.operatorName)
                // Which revision went back live (or that it left the app), as the audit log says.
                if !session.output.json, let said = try store.audit(itemID: item.id, limit: 1).first?.detail {
                    session.output.line("\(item.id): " + SafeText.visible(said))
                }
                return item
            }
        }
    }

    /// Refuses to publish content whose expiry has passed (a pop-up for a day that is over)
    /// unless `anyway`: it would leave the app at once, or show a stale alert where exports
    /// do not check.
    static func refuseExpired(_ item: Item, anyway: Bool, session: Session) throws {
        let content = item.pendingContent ?? item.content
        guard !anyway, content.hasExpired(at: Date()), let expiry = content.expiresAt else { return }
        throw TimeTrackError(
            .validation, "\(item.id) expired on \(Display.date(expiry, zone: session.zone(of: item))): published, it would not be shown",
            fix: "edit its expiry (`edit \(item.id) expiresAt=…`), reject it, or approve it anyway (`approve \(item.id) --anyway`)", context: ["item": item.id])
    }
}
