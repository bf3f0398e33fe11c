import Foundation
import TimeTrackCore
import TimeTrackImport

/// The front door: parses global options, then runs one command (CLI), commands from stdin
/// (a pipe), or the REPL (a terminal). `timetrack-admin`'s `main.swift` only calls `Console.main`.
public enum Console {
    /// The program's version.
    public static let version = "0.1.0"

    /// Every command, in help order.
    public static var commands: [CommandSpec] {
        [
            helpCommand, statusCommand, pluginsCommand, sourcesCommand, extractCommand, tryCommand, discoverCommand, pluginCommand, importCommand, reviewCommand, listCommand,
            showCommand, historyCommand, approveCommand, rejectCommand, editCommand, unlockCommand, archiveCommand, restoreCommand, keepCommand,
            revertCommand, undoCommand,
            replyCommand, closeCommand, reopenCommand, runsCommand, auditCommand, exportCommand, previewCommand, gradesCommand, courseCommand, coursesCommand, placeCommand,
            placesCommand, privacyCommand, a11yCommand, ocrCommand, storeCommand, operatorCommand, completionsCommand, manCommand,
            quitCommand,
        ]
    }

    /// Looks a command up by name.
    public static func command(named name: String) -> CommandSpec? {
        if name == "__complete" { return completeCommand }  // for completion scripts; not in help
        return commands.first { $0.name == name }
    }

    /// Global options shared by every command.
    public static let globalOptions: [OptionSpec] = [
        OptionSpec("store", value: "PATH", help: "the store file, or a postgresql://USER@HOST/DB address (env TIMETRACK_STORE, default ./timetrack.sqlite)"),
        OptionSpec("imports", value: "DIR", help: "the folder of source definitions (default ./Imports)"),
        OptionSpec("plugins", value: "DIR", help: "the folder of external importers (default: Plugins.d beside the imports folder)"),
        OptionSpec("as", value: "NAME", help: "admins only: act as operator NAME (recorded as NAME (by you)); you are the operator of your Unix account"),
        OptionSpec("group", value: "GROUP", help: "a new store is made 0660 in this Unix group (staff who share it) instead of 0600"),
        OptionSpec("json", help: "machine-readable output"),
        OptionSpec("format", value: "F", help: "table (default), json (as --json) or csv (tables for spreadsheets)"),
        OptionSpec("no-input", help: "never prompt"),
        OptionSpec("no-pager", help: "never page long output (by default it goes through $PAGER, or less -FRX, on a terminal)"),
        OptionSpec("bail", help: "reading commands from stdin: stop at the first that fails (exit 1)"),
        OptionSpec("utc", help: "times of runs, sources, the audit log and previews in UTC (by default: the district's zone, its sources' own)"),
        OptionSpec("help", help: "show help"),
        OptionSpec("version", help: "show the version"),
    ]

    /// Runs the program with `arguments` (without the program name); returns the exit code.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let stdinIsTerminal = isatty(0) == 1
        let stdoutIsTerminal = isatty(1) == 1
        var words = arguments
        var storePath = environment["TIMETRACK_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? Session.defaultStorePath
        var importsPath = "./Imports"
        var pluginsPath: String?
        var actingAs: String?
        var group: gid_t?
        var json = false
        var noInput = false
        var noPager = false
        var csv = false
        var bail = false
        var utc = false
        // no-color.org: a NO_COLOR that is set and not empty turns colors off.
        let colorAllowed = (environment["NO_COLOR"] ?? "").isEmpty
        let output = Output(json: false, color: stdoutIsTerminal && colorAllowed, errorColor: isatty(2) == 1 && colorAllowed)

        // -h and -V, as most tools take them.
        if let first = words.first, first == "-h" || first == "-V" { words[0] = first == "-h" ? "--help" : "--version" }
        // Global options come before the command word, or after it (`plugins --imports DIR`).
        words = hoistingGlobalOptions(words)
        while let word = words.first, word.hasPrefix("--") {
            words.removeFirst()
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            func takeValue() -> String? {
                if let value { return value }
                guard !words.isEmpty else { return nil }
                return words.removeFirst()
            }
            switch name {
            case "store", "imports", "as", "plugins":
                guard let v = takeValue(), !v.isEmpty else {
                    output.error(TimeTrackError(.usage, "--\(name) needs a value", fix: "usage: timetrack-admin [--store PATH] [--imports DIR] [--as NAME] [--json] [--no-input] COMMAND"))
                    return 2
                }
                switch name {
                case "store": storePath = v
                case "imports": importsPath = v
                case "plugins": pluginsPath = v
                default: actingAs = v
                }
            case "group":
                guard let v = takeValue(), !v.isEmpty else {
                    output.error(TimeTrackError(.usage, "--group needs a value", fix: "usage: timetrack-admin --group GROUP COMMAND"))
                    return 2
                }
                guard let entry = getgrnam(v) else {
                    output.error(TimeTrackError(.usage, "no group \(v) on this machine", fix: "create it (`groupadd \(v)`) and add the staff accounts, or check the name (`getent group`)"))
                    return 2
                }
                group = entry.pointee.gr_gid
            case "json": json = true
            case "format":
                switch takeValue() {
                case "json"?: json = true
                case "csv"?: csv = true
                case "table"?: break
                default:
                    output.error(TimeTrackError(.usage, "--format takes table, json or csv", fix: "usage: timetrack-admin --format csv list events"))
                    return 2
                }
            case "no-input": noInput = true
            case "no-pager": noPager = true
            case "bail": bail = true
            case "utc": utc = true
            case "help":
                output.line(helpText())
                output.flush()
                return 0
            case "version":
                output.line("timetrack-admin \(version)")
                output.flush()
                return 0
            default:
                output.error(TimeTrackError(.usage, "unknown option --\(name)", fix: "`timetrack-admin --help` lists the options"))
                return 2
            }
        }
        output.json = json
        output.csv = csv && !json
        let session = Session(
            storePath: storePath, importsPath: importsPath, operatorName: actingAs ?? "",
            interactive: stdinIsTerminal && !noInput, output: output)
        session.actingAs = actingAs
        session.storeGroup = group
        session.utc = utc
        // External importers: Plugins.d beside the imports folder, or --plugins.
        session.pluginsPath = pluginsPath ?? ((URL(fileURLWithPath: importsPath).standardizedFileURL.deletingLastPathComponent().path as NSString).appendingPathComponent("Plugins.d"))
        ImporterRegistry.usePlugins(folder: session.pluginsPath)
        if stdoutIsTerminal && !noPager { session.pager = pagerCommand(environment) }
        defer {
            output.flush()
            session.close()
        }
        guard !words.isEmpty else {
            if session.interactive { return repl(session: session) }
            return script(session: session, bail: bail)
        }
        if session.interactive {
            // A one-shot command on a terminal may still ask (review after import): the same line
            // editor as the console, loaded when first needed, with no history file. Ctrl-C keeps
            // its usual meaning here and ends the process; every decision already made is committed.
            session.reader = LazyLineReader {
                if ProcessInfo.processInfo.environment["TIMETRACK_NO_LIBEDIT"] == nil, let edit = EditLineReader(historyPath: nil) { return edit }
                return PlainLineReader()
            }
        }
        return run(words, in: session)
    }

    /// Runs one command line's words in a session; prints errors; returns the exit code.
    public static func run(_ words: [String], in session: Session) -> Int32 {
        guard let name = words.first else { return 0 }
        guard let command = command(named: name) else {
            let suggestion = commands.map(\.name).min { editDistance($0, name) < editDistance($1, name) }
            var fix = "`help` lists the commands"
            if let suggestion, editDistance(suggestion, name) <= 2 { fix = "did you mean `\(suggestion)`? " + fix }
            session.output.error(TimeTrackError(.usage, "unknown command '\(name)'", fix: fix))
            return 2
        }
        // `--json` may also follow the command (`list announcements --json`), for this command only.
        var rest = Array(words.dropFirst())
        let wasJSON = session.output.json
        defer { session.output.json = wasJSON }
        if let index = rest.firstIndex(of: "--json"), !command.options.contains(where: { $0.name == "json" }), !rest[..<index].contains("--") {
            rest.remove(at: index)
            session.output.json = true
        }
        // So may `--format table|json|csv`, for commands without a --format of their own (export has one).
        let wasCSV = session.output.csv
        defer { session.output.csv = wasCSV }
        if let index = rest.firstIndex(of: "--format"), index + 1 < rest.count, !command.options.contains(where: { $0.name == "format" }), !rest[..<index].contains("--") {
            switch rest[index + 1] {
            case "json": session.output.json = true
            case "csv": session.output.csv = true
            case "table": break
            default:
                session.output.error(TimeTrackError(.usage, "--format takes table, json or csv", fix: "usage: \(command.name) ... --format csv"))
                return 2
            }
            rest.removeSubrange(index...(index + 1))
        }
        // `COMMAND --help` / `-h`: that command's help, whatever else is on the line.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            printHelp(for: command, to: session.output)
            return 0
        }
        // Reading commands' long output goes through the pager on a terminal, as git's does.
        let pages = session.pager != nil && pagedCommands.contains(command.name)
        session.output.holding = pages
        defer { if pages { session.output.release(pager: session.pager, rows: terminalRows()) } }
        do {
            let arguments = try command.parse(rest)
            return try command.run(arguments, session)
        } catch let error as TimeTrackError {
            session.output.error(error)
            return error.exitCode
        } catch {
            let described = FoundationErrors.describe(error)
            session.output.error(described)
            return described.exitCode
        }
    }

    /// Commands whose output is read, not answered: paged when longer than the terminal.
    static let pagedCommands: Set<String> = ["help", "list", "show", "history", "audit", "runs", "sources", "operator", "plugins", "status", "places"]

    /// `$PAGER` ("" turns paging off), else `less -FRX` when less is installed.
    static func pagerCommand(_ environment: [String: String]) -> String? {
        if let pager = environment["TIMETRACK_PAGER"] ?? environment["PAGER"] { return pager.trimmingCharacters(in: .whitespaces).isEmpty ? nil : pager }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/less") } ? "less -FRX" : nil
    }

    /// The terminal's height (LINES overrides it).
    static func terminalRows() -> Int {
        if let lines = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init), lines > 1 { return lines }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 1 { return Int(size.ws_row) }
        return 24
    }

    /// The general help text.
    public static func helpText() -> String {
        var lines = [
            "timetrack-admin \(version): the Time Track admin console and importer",
            "",
            "usage: timetrack-admin [GLOBAL OPTIONS] COMMAND [ARGS]",
            "       timetrack-admin             (on a terminal: the interactive console)",
            "",
            "commands:",
        ]
        // Two columns that fit the terminal: the usage, then the summary wrapped beside it (or
        // under it, indented, when the terminal is narrow).
        let columns = terminalWidth()
        func rows(_ left: String, _ text: String, width: Int) -> [String] {
            let indent = columns - width - 2 >= 30 ? width + 2 : 6
            let room = max(20, columns - indent)
            var wrapped: [String] = []
            var current = ""
            for word in text.split(separator: " ") {
                if !current.isEmpty && current.count + 1 + word.count > room {
                    wrapped.append(current)
                    current = String(word)
                } else {
                    current += (current.isEmpty ? "" : " ") + word
                }
            }
            if !current.isEmpty { wrapped.append(current) }
            let pad = String(repeating: " ", count: indent)
            if indent == width + 2 {
                return wrapped.enumerated().map { ($0.offset == 0 ? "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) : pad) + $0.element }
            }
            return ["  " + left] + wrapped.map { pad + $0 }
        }
        let width = min(40, (commands.map { $0.usageLine.count }.max() ?? 0) + 2)
        for command in commands {
            if command.usageLine.count + 2 > width {
                // A long usage on lines of its own (alternatives one a line when it is wider than
                // the terminal), the summary under it.
                if command.usageLine.count + 2 > columns {
                    let parts = command.usageLine.components(separatedBy: " | ")
                    lines += parts.enumerated().map { ($0.offset == 0 ? "  " : "      | ") + $0.element }
                } else {
                    lines.append("  " + command.usageLine)
                }
                lines += rows("", command.summary, width: width)
            } else {
                lines += rows(command.usageLine, command.summary, width: width)
            }
        }
        lines.append("")
        lines.append("global options:")
        for option in globalOptions {
            let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
            lines += rows(left, option.help, width: 18)
        }
        lines.append("")
        lines.append("exit codes: 0 done, 1 failed, 2 usage or configuration error, 3 partly done")
        return lines.joined(separator: "\n")
    }

    /// `words` with the global options given after the command word moved before it, as git
    /// takes `git log --no-pager`: `plugins --imports DIR` is `--imports DIR plugins`. An option
    /// the command has of its own (`export --format`) stays the command's; nothing after `--` moves.
    static func hoistingGlobalOptions(_ words: [String]) -> [String] {
        let valued = Set(globalOptions.filter { $0.value != nil }.map(\.name))
        // `COMMAND --help` is the command's help, not the program's.
        let globals = Set(globalOptions.map(\.name)).subtracting(["help", "version"])
        func name(_ word: String) -> String { String(word.dropFirst(2).prefix { $0 != "=" }) }
        // The command word: the first word that is not a leading global option or its value.
        var index = 0
        while index < words.count, words[index].hasPrefix("--") {
            index += valued.contains(name(words[index])) && !words[index].contains("=") ? 2 : 1
        }
        guard index < words.count, let command = command(named: words[index]) else { return words }
        let own = Set(command.options.map(\.name))
        var before = Array(words[..<index]), after: [String] = []
        var rest = words[(index + 1)...].makeIterator()
        while let word = rest.next() {
            if word == "--" {
                after.append(word)
                while let remaining = rest.next() { after.append(remaining) }
                break
            }
            let option = name(word)
            guard word.hasPrefix("--"), globals.contains(option), !own.contains(option) else {
                after.append(word)
                continue
            }
            before.append(word)
            if valued.contains(option), !word.contains("="), let value = rest.next() { before.append(value) }
        }
        return before + [words[index]] + after
    }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
