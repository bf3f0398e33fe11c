import TimeTrackCore

extension Console {
    static var helpCommand: CommandSpec {
        CommandSpec(
            "help", usage: "[COMMAND]", summary: "list the commands, or show one command's usage and options", positional: 0...1, arguments: [.commands],
            pages: true
        ) { args, session in
            guard let name = args.positional.first else {
                session.output.line(helpText())
                return 0
            }
            guard let command = command(named: name) else {
                throw TimeTrackError(
                    .usage, "help: unknown command '\(name)'", fix: didYouMean(name, among: commands.map(\.name)) + "`help` lists the commands")
            }
            printHelp(for: command, to: session.output)
            return 0
        }
    }

    /// One command's usage, summary and options (`help CMD`, `CMD --help`).
    static func printHelp(for command: CommandSpec, to output: Output) {
        output.line("usage: \(command.usageLine)")
        output.line("")
        output.line(command.summary)
        guard !command.options.isEmpty else { return }
        output.line("")
        output.line("options:")
        for option in command.options {
            let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
            output.line("  " + left.padding(toLength: 20, withPad: " ", startingAt: 0) + option.help)
        }
    }
}
