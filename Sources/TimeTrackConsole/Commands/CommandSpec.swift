import Foundation
import TimeTrackCore

/// What a word of a command line completes to, in the shells (bash, zsh, fish) and at the
/// console's prompt: declared with each option and argument, so every completion comes from
/// the commands themselves.
public enum Completion: Sendable, Equatable {
    /// Nothing to offer (free text).
    case none
    /// A file or folder.
    case path
    /// A Unix group.
    case group
    /// One of these words.
    case words([String])
    /// Item ids from the store (the newest 500 the operator may read).
    case ids
    /// After an item id: its fields (`edit`: `title=`…; `unlock`: the locked ones).
    case fields
    /// Source ids from the imports folder.
    case sources
    /// The console's command names.
    case commands

    /// The fixed words it offers.
    var words: [String] {
        switch self {
        case .words(let words): return words
        case .commands: return Console.commands.map(\.name)
        case .none, .path, .group, .ids, .fields, .sources: return []
        }
    }
}

/// One option a command takes.
public struct OptionSpec: Sendable {
    /// The long name without dashes (`reason` for `--reason`).
    public var name: String
    /// The value's placeholder (`R`), or nil for a flag.
    public var value: String?
    public var help: String
    /// Whether it may be given more than once (`--alias Gym --alias "Main Gym"`); otherwise the
    /// last one given counts.
    public var repeats = false
    /// What its value completes to.
    public var completes: Completion

    public init(_ name: String, value: String? = nil, repeats: Bool = false, completes: Completion = .none, help: String) {
        self.name = name
        self.value = value
        self.repeats = repeats
        self.completes = completes
        self.help = help
    }
}

/// The parsed words of one command.
public struct Arguments: Sendable {
    public var positional: [String] = []
    public var options: [String: String] = [:]
    public var flags: Set<String> = []

    /// The value of `--name`, if given.
    public func option(_ name: String) -> String? { options[name] }
    /// Every value of a repeatable `--name`, in the order given.
    public func values(_ name: String) -> [String] { repeated[name] ?? options[name].map { [$0] } ?? [] }
    var repeated: [String: [String]] = [:]
    /// Whether `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A command of the shared REPL/CLI command set; `help` is generated from these definitions.
public struct CommandSpec: Sendable {
    public var name: String
    /// Words after the name in the usage line (`SOURCE [--file PATH]`).
    public var usage: String
    public var summary: String
    public var options: [OptionSpec]
    /// Allowed count of positional words.
    public var positional: ClosedRange<Int>
    /// What each positional word completes to, in order; the last one for every word after it.
    public var arguments: [Completion]
    /// Whether its output is read rather than answered: on a terminal it goes through the pager
    /// when it is longer than the screen (`list`, `show`, `help`…).
    public var pages: Bool
    /// Whether this command changes the store (used by read-only checks and help).
    public var run: @Sendable (Arguments, Session) throws -> Int32

    public init(
        _ name: String, usage: String = "", summary: String, options: [OptionSpec] = [], positional: ClosedRange<Int> = 0...0, arguments: [Completion] = [],
        pages: Bool = false,
        run: @escaping @Sendable (Arguments, Session) throws -> Int32
    ) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options
        self.positional = positional
        self.arguments = arguments
        self.pages = pages
        self.run = run
    }

    /// Whether any of its arguments completes to `completion`.
    func takes(_ completion: Completion) -> Bool { arguments.contains(completion) }

    /// `name usage`.
    public var usageLine: String { usage.isEmpty ? name : "\(name) \(usage)" }

    /// Parses the words after the command name; a usage error names the bad word.
    public func parse(_ words: [String]) throws -> Arguments {
        var arguments = Arguments()
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || !word.hasPrefix("--") || word == "-" {
                arguments.positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                let near = Console.didYouMean(name, among: options.map(\.name)).replacingOccurrences(of: "mean `", with: "mean `--")
                var error = usageError("unknown option --\(name)")
                error.fix = near + (error.fix ?? "")
                throw error
            }
            if spec.value != nil {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw usageError("--\(name) needs a value (\(spec.value ?? "VALUE"))")
                }
                arguments.options[name] = value
                if spec.repeats { arguments.repeated[name, default: []].append(value) }
            } else {
                if inlineValue != nil { throw usageError("--\(name) takes no value") }
                arguments.flags.insert(name)
            }
        }
        if !positional.contains(arguments.positional.count) {
            if arguments.positional.count < positional.lowerBound {
                throw usageError("missing argument")
            }
            throw usageError("unexpected argument '\(arguments.positional[positional.upperBound])'")
        }
        return arguments
    }

    /// A `.usage` error that shows this command's usage.
    public func usageError(_ message: String) -> TimeTrackError {
        TimeTrackError(.usage, "\(name): \(message)", fix: "usage: \(usageLine)")
    }
}
