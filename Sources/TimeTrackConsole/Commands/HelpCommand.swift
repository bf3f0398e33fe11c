import TimeTrackCore

extension Console {
    static var helpCommand: CommandSpec {
        CommandSpec("help", usage: "[COMMAND]", summary: "list the commands, or show one command's usage and options", positional: 0...1) { args, session in
            guard let name = args.positional.first else {
                session.output.line(helpText())
                return 0
            }
            guard let command = command(named: name) else {
                throw TimeTrackError(.usage, "help: unknown command '\(name)'", fix: "`help` lists the commands")
            }
            session.output.line("usage: \(command.usageLine)")
            session.output.line("")
            session.output.line(command.summary)
            if !command.options.isEmpty {
                session.output.line("")
                session.output.line("options:")
                for option in command.options {
                    let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
                    session.output.line("  " + left.padding(toLength: 20, withPad: " ", startingAt: 0) + option.help)
                }
            }
            return 0
        }
    }
}
