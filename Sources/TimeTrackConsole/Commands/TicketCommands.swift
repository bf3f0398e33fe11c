import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var keepCommand: CommandSpec {
        CommandSpec(
            "keep", usage: "ID...", summary: "keep items that are missing from their source (resets the missing count)", positional: 1...10_000,
            arguments: [.ids]
        ) { args, session in
            try decideEach(args.positional, action: "keep", session: session) { store, id in try Lifecycle(store).keep(id, by: session.operatorName) }
        }
    }

    static var replyCommand: CommandSpec {
        CommandSpec("reply", usage: "ID TEXT...", summary: "answer a help desk ticket", positional: 2...1000, arguments: [.ids, .none]) { args, session in
            let text = args.positional.dropFirst().joined(separator: " ")
            return try decideEach([args.positional[0]], action: "reply to", session: session) { store, id in
                try Lifecycle(store).reply(id, text: text, by: session.operatorName)
            }
        }
    }

    static var closeCommand: CommandSpec {
        CommandSpec("close", usage: "ID...", summary: "close help desk tickets (they leave the queue)", positional: 1...10_000, arguments: [.ids]) {
            args, session in
            try decideEach(args.positional, action: "close", session: session) { store, id in
                try Lifecycle(store).close(id, by: session.operatorName)
            }
        }
    }

    static var reopenCommand: CommandSpec {
        CommandSpec(
            "reopen", usage: "ID... [--reason R]", summary: "open closed help desk tickets again (the app shows them open; they take replies)",
            options: [OptionSpec("reason", value: "R", help: "why, for the audit log")], positional: 1...10_000, arguments: [.ids]
        ) { args, session in
            try decideEach(args.positional, action: "reopen", session: session) { store, id in
                try Lifecycle(store).reopen(id, by: session.operatorName, reason: args.option("reason"))
            }
        }
    }
}
