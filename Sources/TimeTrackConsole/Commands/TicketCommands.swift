import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var keepCommand: CommandSpec { KeepCommand.spec }

    struct KeepCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("keep", summary: "keep items that are missing from their source (resets the missing count)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "keep", session: session) { store, id in try Lifecycle(store).keep(id, by: session.operatorName) }
        }
    }

    static var replyCommand: CommandSpec { ReplyCommand.spec }

    struct ReplyCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("reply", summary: "answer a help desk ticket")
        @Positional("ID TEXT...", count: 2...1000, completes: [.ids, .none]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let text = words.dropFirst().joined(separator: " ")
            return try decideEach([words[0]], action: "reply to", session: session) { store, id in
                try Lifecycle(store).reply(id, text: text, by: session.operatorName)
            }
        }
    }

    static var closeCommand: CommandSpec { CloseCommand.spec }

    struct CloseCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("close", summary: "close help desk tickets (they leave the queue)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "close", session: session) { store, id in
                try Lifecycle(store).close(id, by: session.operatorName)
            }
        }
    }

    static var reopenCommand: CommandSpec { ReopenCommand.spec }

    struct ReopenCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("reopen", summary: "open closed help desk tickets again (the app shows them open; they take replies)")
        @Positional("ID...", count: 1...10_000, completes: [.ids]) var words: [String]
        @Option("reason", value: "R", help: "why, for the audit log") var reason: String?

        func run(_ session: Session) throws -> Int32 {
            try decideEach(words, action: "reopen", session: session) { store, id in
                try Lifecycle(store).reopen(id, by: session.operatorName, reason: reason)
            }
        }
    }

}
