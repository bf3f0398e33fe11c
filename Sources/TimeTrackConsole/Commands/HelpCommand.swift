import TimeTrackCore

extension Console {
    static var helpCommand: CommandSpec { HelpCommand.spec }

    struct HelpCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("help", summary: "list the commands, or show one command's usage and options", pages: true)
        @Positional("[COMMAND]", count: 0...1, completes: [.commands]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            guard let name = words.first else {
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
        // The usage line wrapped between its words at the terminal's width, a bracketed option
        // kept whole, continued under its first word.
        for (index, line) in wrapUsage(command.usageLine, width: max(30, terminalWidth() - 7)).enumerated() {
            output.line((index == 0 ? "usage: " : "       ") + line)
        }
        output.line("")
        for line in wrapWords(command.summary, width: terminalWidth()) { output.line(line) }
        guard !command.options.isEmpty else { return }
        output.line("")
        output.line("options:")
        // The options in a column as wide as the widest (up to 26), their help wrapped between
        // words beside it; an option wider than the column has its help on the lines under it.
        let lefts = command.options.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }
        let width = min(26, (lefts.map(\.count).max() ?? 0) + 2)
        let room = max(30, terminalWidth() - 2 - width)
        let pad = String(repeating: " ", count: 2 + width)
        for (left, option) in zip(lefts, command.options) {
            let help = wrapWords(option.help, width: room)
            if left.count + 2 > width {
                output.line("  " + left)
                for line in help { output.line(pad + line) }
            } else {
                for (index, line) in help.enumerated() {
                    output.line((index == 0 ? "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) : pad) + line)
                }
            }
        }
    }
}
