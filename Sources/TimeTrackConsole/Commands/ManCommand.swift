import Foundation
import TimeTrackCore

extension Console {
    static var manCommand: CommandSpec { ManCommand.spec }

    struct ManCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "man",
            summary: "print the manual page (roff), made from the same commands and options as help: `timetrack-admin man > timetrack-admin.1; man"
                + " ./timetrack-admin.1`")

        func run(_ session: Session) throws -> Int32 {
            session.output.line(manPage(date: Date()))
            return 0
        }
    }

    /// The manual page, in man(7) macros: every command with its usage, summary and options,
    /// the global options, exit codes, the environment and files.
    static func manPage(date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        var lines: [String] = [
            ".\\\" Made by `timetrack-admin man` from the commands' own descriptions; do not edit.",
            ".TH TIMETRACK-ADMIN 1 \(formatter.string(from: date)) \"timetrack-admin \(version)\" \"Time Track Admin\"",
            ".nh", ".ad l", ".SH NAME", "timetrack-admin \\- import, review and publish a school district's content for the Time Track app",
            ".SH SYNOPSIS", ".B timetrack-admin", ".RI [ global-options ] \" \" command \" \" [ arguments ]", ".br", ".B timetrack-admin",
            ".RI [ global-options ]",
            ".SH DESCRIPTION",
            roff(
                "Imports district news, events and school information from the sources in the imports folder, keeps every decision in an audited"
                    + " store (SQLite, or PostgreSQL), and publishes what staff approve. Without a command it is an interactive console on a terminal"
                    + " (TAB completes, Ctrl-C cancels, Ctrl-D leaves), or reads commands one per line from standard input."
            ),
            ".SH GLOBAL OPTIONS",
        ]
        for option in globalOptions { lines += optionLines(option) }
        lines.append(".SH COMMANDS")
        for command in commands {
            lines.append(".TP")
            lines.append(".B " + roff(command.name) + (command.usage.isEmpty ? "" : " " + roff(command.usage)))
            lines.append(roff(command.summary))
            if !command.options.isEmpty {
                lines.append(".RS")
                for option in command.options { lines += optionLines(option) }
                lines.append(".RE")
            }
        }
        lines += [
            ".SH EXIT STATUS", ".TP", ".B 0", "done", ".TP", ".B 1", "failed", ".TP", ".B 2", "a usage or configuration error", ".TP", ".B 3", "partly done",
            ".SH ENVIRONMENT", ".TP", ".B TIMETRACK_STORE", roff("the store, as --store (a file, or a postgresql:// address)"), ".TP", ".B PAGER",
            roff("the pager for long output on a terminal (default: less -FRX)"), ".TP", ".B NO_COLOR", roff("set and not empty: no colors"),
            ".SH FILES", ".TP", ".I ./Imports", roff("source definitions (one JSON file each), their _settings.json, recognizers/ for discover"), ".TP",
            ".I ./timetrack.sqlite", roff("the default store"),
            ".SH SEE ALSO",
            roff("README.md and docs/ in the source tree: source-definitions.md, importers/, discover.md, running-from-cron.md, postgresql.md."),
        ]
        return lines.joined(separator: "\n")
    }

    static func optionLines(_ option: OptionSpec) -> [String] {
        [".TP", ".B \\-\\-" + roff(option.name) + (option.value.map { " \\fI" + roff($0) + "\\fR" } ?? ""), roff(option.help)]
    }

    /// Text as roff reads it literally: backslashes doubled, a leading dot or quote escaped,
    /// dashes as minus signs (so they copy as typed).
    static func roff(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
