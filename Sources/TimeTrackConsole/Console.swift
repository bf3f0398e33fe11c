import Foundation
import TimeTrackCore
import TimeTrackImport

/// The front door: parses global options, then runs one command (CLI), commands from stdin
/// (a pipe), or the REPL (a terminal).
///
/// `timetrack-admin`'s `main.swift` only calls `Console.main`.
public enum Console {
    /// The program's version.
    public static let version = "0.1.0"

    /// Every command, in help order.
    ///
    /// Made once: each from its type's declarations (read by reflection).
    public static let commands: [CommandSpec] = {
        [
            helpCommand, statusCommand, pluginsCommand, sourcesCommand, extractCommand, tryCommand, discoverCommand, pluginCommand, importCommand,
            reviewCommand, agendaCommand, listCommand,
            showCommand, historyCommand, approveCommand, rejectCommand, editCommand, unlockCommand, archiveCommand, restoreCommand, keepCommand,
            revertCommand, undoCommand,
            replyCommand, closeCommand, reopenCommand, runsCommand, auditCommand, exportCommand, previewCommand, gradesCommand, scoreCommand, courseCommand,
            coursesCommand, placeCommand,
            placesCommand, privacyCommand, a11yCommand, ocrCommand, storeCommand, operatorCommand, completionsCommand, manCommand,
            quitCommand,
        ]
    }()

    /// Looks a command up by name.
    public static func command(named name: String) -> CommandSpec? {
        if name == "__complete" { return completeCommand }  // for completion scripts; not in help
        return commands.first { $0.name == name }
    }

    /// Global options shared by every command.
    public static let globalOptions: [OptionSpec] = [
        OptionSpec(
            "store", value: "PATH", completes: .path,
            help: "the store file, or a postgresql://USER@HOST/DB address (env TIMETRACK_STORE, default ./timetrack.sqlite)"),
        OptionSpec("imports", value: "DIR", completes: .path, help: "the folder of source definitions (default ./Imports)"),
        OptionSpec("plugins", value: "DIR", completes: .path, help: "the folder of external importers (default: Plugins.d beside the imports folder)"),
        OptionSpec("as", value: "NAME", help: "admins only: act as operator NAME (recorded as NAME (by you)); you are the operator of your Unix account"),
        OptionSpec("group", value: "GROUP", completes: .group, help: "a new store is made 0660 in this Unix group (staff who share it) instead of 0600"),
        OptionSpec("json", help: "machine-readable output"),
        OptionSpec(
            "format", value: "F", completes: .words(["table", "json", "csv"]), help: "table (default), json (as --json) or csv (tables for spreadsheets)"),
        OptionSpec("no-input", help: "never prompt"),
        OptionSpec("no-pager", help: "never page long output (by default it goes through $PAGER, or less -FRX, on a terminal)"),
        OptionSpec("bail", help: "reading commands from stdin: stop at the first that fails (exit 1)"),
        OptionSpec("utc", help: "times of runs, sources, the audit log and previews in UTC (by default: the district's zone, its sources' own)"),
        OptionSpec("help", help: "show help"),
        OptionSpec("version", help: "show the version"),
    ]

    /// The global options of one run, as given (`--store`, `--json`…).
    struct GlobalOptions {
        var storePath: String
        var importsPath = "./Imports"
        var pluginsPath: String?
        var actingAs: String?
        var group: gid_t?
        var json = false, noInput = false, noPager = false, csv = false, bail = false, utc = false
    }

    /// Runs the program with `arguments` (without the program name); returns the exit code.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let stdinIsTerminal = isatty(0) == 1
        let stdoutIsTerminal = isatty(1) == 1
        // no-color.org: a NO_COLOR that is set and not empty turns colors off.
        let colorAllowed = (environment["NO_COLOR"] ?? "").isEmpty
        let output = Output(json: false, color: stdoutIsTerminal && colorAllowed, errorColor: isatty(2) == 1 && colorAllowed)
        var words = arguments
        var options = GlobalOptions(storePath: environment["TIMETRACK_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? Session.defaultStorePath)
        if let code = parseGlobals(&words, into: &options, output: output) { return code }
        output.json = options.json
        output.csv = options.csv && !options.json
        let session = Session(
            storePath: options.storePath, importsPath: options.importsPath, operatorName: options.actingAs ?? "",
            interactive: stdinIsTerminal && !options.noInput, output: output)
        session.actingAs = options.actingAs
        session.storeGroup = options.group
        session.utc = options.utc
        // External importers: Plugins.d beside the imports folder, or --plugins.
        session.pluginsPath =
            options.pluginsPath
            ?? (URL(fileURLWithPath: options.importsPath).standardizedFileURL.deletingLastPathComponent().path as NSString)
            .appendingPathComponent("Plugins.d")
        ImporterRegistry.usePlugins(folder: session.pluginsPath)
        if stdoutIsTerminal && !options.noPager { session.pager = pagerCommand(environment) }
        defer {
            output.flush()
            session.close()
        }
        guard !words.isEmpty else {
            if session.interactive { return repl(session: session) }
            return script(session: session, bail: options.bail)
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

    /// Reads the global options at the front of `words` (moved there from after the command
    /// word, as git takes them) into `options`, leaving the command.
    ///
    /// Returns an exit code when the run ends here: `--help`, `--version`, or a usage error
    /// (printed).
    static func parseGlobals(_ words: inout [String], into options: inout GlobalOptions, output: Output) -> Int32? {
        // -h and -V, as most tools take them.
        if let first = words.first, first == "-h" || first == "-V" { words[0] = first == "-h" ? "--help" : "--version" }
        words = hoistingGlobalOptions(words)
        while let word = words.first, word.hasPrefix("--") {
            words.removeFirst()
            var name = String(word.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let takesValue = globalOptions.first { $0.name == name }?.value != nil
            var value: String?
            if takesValue { value = inline ?? (words.isEmpty ? nil : words.removeFirst()) }
            if let code = apply(name, value: value, to: &options, output: output) { return code }
        }
        return nil
    }

    /// One global option into `options`; an exit code when the run ends here.
    static func apply(_ name: String, value: String?, to options: inout GlobalOptions, output: Output) -> Int32? {
        func fail(_ message: String, _ fix: String) -> Int32 {
            output.error(TimeTrackError(.usage, message, fix: fix))
            return 2
        }
        switch name {
        case "store", "imports", "as", "plugins":
            guard let value, !value.isEmpty else {
                return fail("--\(name) needs a value", "usage: timetrack-admin [--store PATH] [--imports DIR] [--as NAME] [--json] [--no-input] COMMAND")
            }
            switch name {
            case "store": options.storePath = value
            case "imports": options.importsPath = value
            case "plugins": options.pluginsPath = value
            default: options.actingAs = value
            }
        case "group":
            guard let value, !value.isEmpty else { return fail("--group needs a value", "usage: timetrack-admin --group GROUP COMMAND") }
            guard let entry = getgrnam(value) else {
                return fail(
                    "no group \(value) on this machine", "create it (`groupadd \(value)`) and add the staff accounts, or check the name (`getent group`)")
            }
            options.group = entry.pointee.gr_gid
        case "format":
            switch value {
            case "json"?: options.json = true
            case "csv"?: options.csv = true
            case "table"?: break
            default: return fail("--format takes table, json or csv", "usage: timetrack-admin --format csv list events")
            }
        case "json": options.json = true
        case "no-input": options.noInput = true
        case "no-pager": options.noPager = true
        case "bail": options.bail = true
        case "utc": options.utc = true
        case "help", "version":
            output.line(name == "help" ? helpText() : "timetrack-admin \(version)")
            output.flush()
            return 0
        default:
            return fail("unknown option --\(name)", "`timetrack-admin --help` lists the options")
        }
        return nil
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
        if let index = rest.firstIndex(of: "--format"), index + 1 < rest.count, !command.options.contains(where: { $0.name == "format" }),
            !rest[..<index].contains("--")
        {
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
        let pages = session.pager != nil && command.pages
        session.output.holding = pages
        defer { if pages { session.output.release(pager: session.pager, rows: terminalRows()) } }
        do {
            let arguments = try command.parse(rest)
            defer { Console.anchorAfterCommand(session) }
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
}
