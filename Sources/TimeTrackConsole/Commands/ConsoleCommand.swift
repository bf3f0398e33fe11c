import Foundation
import TimeTrackCore

/// A console command as a type, in the spirit of swift-argument-parser.
///
/// Written here (no package dependencies): its options and arguments are typed properties (`@Flag`, `@Option`,
/// `@Positional`), each declared once with its name, help, default, value parsing, validation and
/// completion. The words of a command line are parsed and validated into a fresh instance
/// before `run`; usage, help, the man page, shell completions and the REPL's TAB come from the
/// declarations (`spec`).
///
/// ```swift
/// struct Approve: ConsoleCommand {
///     static let configuration = CommandConfiguration("approve", summary: "publish the pending content of items")
///     @Positional("ID...", count: 1...10_000, completes: [.ids]) var ids: [String]
///     @Flag("anyway", help: "publish even what the privacy check flags") var anyway: Bool
///     func run(_ session: Session) throws -> Int32 { … }
/// }
/// ```
protocol ConsoleCommand {
    /// The command's name, summary and manners.
    static var configuration: CommandConfiguration { get }
    /// An instance with every option at its default.
    init()
    /// Checks that go beyond each value on its own (options that exclude each other), before `run`.
    func validate() throws
    /// Does the command's work; the exit status.
    func run(_ session: Session) throws -> Int32
}

extension ConsoleCommand {
    func validate() throws {}

    /// The declared parameters of an instance, in declaration order.
    static func parameters(of command: Self) -> [any CommandParameter] {
        Mirror(reflecting: command).children.compactMap { $0.value as? any CommandParameter }
    }

    /// The usage line, as help shows it (generated from the declarations).
    static var usageLine: String { spec.usageLine }

    /// The command as the console runs, helps with and completes it.
    static var spec: CommandSpec {
        let parameters = parameters(of: Self())
        let options = parameters.compactMap(\.option)
        let words = parameters.compactMap { $0 as? any PositionalParameter }
        let positional = words.first
        let optionUsage = options.map { option in
            let word = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
            return option.required ? word : option.spec.repeats ? "[\(word)]..." : "[\(word)]"
        }

        let usage = ([positional?.usage].compactMap { $0 } + optionUsage).joined(separator: " ")
        return CommandSpec(
            configuration.name, usage: usage, summary: configuration.summary, options: options.map(\.spec), positional: positional?.count ?? 0...0,
            arguments: positional?.completes ?? [], pages: configuration.pages
        ) { arguments, session in
            let command = Self()
            let spec = Self.spec
            for parameter in Self.parameters(of: command) { try parameter.bind(arguments, spec: spec) }
            try command.validate()
            return try command.run(session)
        }
    }
}

/// A command's name, one-line summary, and whether its output pages.
struct CommandConfiguration: Sendable {
    var name: String
    var summary: String
    /// Whether its output is read rather than answered: on a terminal it goes through the pager
    /// when it is longer than the screen.
    var pages: Bool

    init(_ name: String, summary: String, pages: Bool = false) {
        self.name = name
        self.summary = summary
        self.pages = pages
    }
}

/// An option as usage and help show it.
struct DeclaredOption {
    var spec: OptionSpec
    /// Shown without brackets in the usage line.
    var required: Bool
    var name: String { spec.name }
    var value: String? { spec.value }
}

/// A declared option or argument: what it looks like, and how it takes its value from the
/// parsed words.
protocol CommandParameter: AnyObject {
    /// The option it declares, if it is one.
    var option: DeclaredOption? { get }
    /// Takes its value from the parsed words; a `.usage` error (with the command's usage) when
    /// the value is not one it takes.
    func bind(_ arguments: Arguments, spec: CommandSpec) throws
}

/// The positional words' declaration.
protocol PositionalParameter: CommandParameter {
    var usage: String { get }
    var count: ClosedRange<Int> { get }
    var completes: [Completion] { get }
}

/// A `--name` that is given or not.
@propertyWrapper final class Flag: CommandParameter {
    let spec: OptionSpec
    var wrappedValue = false

    init(_ name: String, help: String) { spec = OptionSpec(name, help: help) }

    var option: DeclaredOption? { DeclaredOption(spec: spec, required: false) }

    func bind(_ arguments: Arguments, spec command: CommandSpec) throws { wrappedValue = arguments.flags.contains(spec.name) }
}

/// A value an option takes, read from its text.
protocol OptionValue {
    /// The value, or a sentence saying what the text should be ("a whole number").
    static func read(_ text: String) -> Result<Self, OptionValueProblem>
}

/// Why a text is not an option's value.
struct OptionValueProblem: Error, Sendable {
    var expected: String
}

extension String: OptionValue {
    static func read(_ text: String) -> Result<String, OptionValueProblem> { .success(text) }
}

extension Int: OptionValue {
    static func read(_ text: String) -> Result<Int, OptionValueProblem> {
        Int(text).map { .success($0) } ?? .failure(OptionValueProblem(expected: "a whole number"))
    }
}

extension Double: OptionValue {
    static func read(_ text: String) -> Result<Double, OptionValueProblem> {
        Double(text).flatMap { $0.isFinite ? $0 : nil }.map { .success($0) } ?? .failure(OptionValueProblem(expected: "a number"))
    }
}

/// A `--name VALUE`: optional (nil when not given), with a default (`= 20`), or repeated
/// (`[String]`, every value given in order).
@propertyWrapper final class Option<Value>: CommandParameter {
    let spec: OptionSpec
    let required: Bool
    /// How the text becomes the value, and what is checked of it.
    let read: (String) -> Result<Value, OptionValueProblem>
    /// How repeated values add up (nil: the last one given counts).
    let append: ((Value, Value) -> Value)?
    var wrappedValue: Value

    init(
        default value: Value, name: String, value placeholder: String, required: Bool, completes: Completion, help: String,
        append: ((Value, Value) -> Value)? = nil, read: @escaping (String) -> Result<Value, OptionValueProblem>
    ) {
        wrappedValue = value
        spec = OptionSpec(name, value: placeholder, repeats: append != nil, completes: completes, help: help)
        self.required = required
        self.read = read
        self.append = append
    }

    var option: DeclaredOption? { DeclaredOption(spec: spec, required: required) }

    func bind(_ arguments: Arguments, spec command: CommandSpec) throws {
        let texts = append == nil ? arguments.options[spec.name].map { [$0] } ?? [] : arguments.repeated[spec.name] ?? []
        for text in texts {
            switch read(text) {
            case .success(let value): wrappedValue = append.map { $0(wrappedValue, value) } ?? value
            case .failure(let problem):
                throw TimeTrackError(.usage, "--\(spec.name) must be \(problem.expected), not '\(SafeText.visible(String(text.prefix(80))))'")
            }
        }
    }
}

extension Option {
    /// An optional option: nil unless given.
    ///
    /// `required` only shows it unbracketed in the usage line: the command says what is missing
    /// in its own words.
    convenience init<Wrapped: OptionValue>(_ name: String, value: String, required: Bool = false, completes: Completion = .none, help: String)
    where Value == Wrapped? {
        self.init(default: nil, name: name, value: value, required: required, completes: completes, help: help) { Wrapped.read($0).map { $0 } }
    }

    /// An option with a default value (`@Option(…) var limit = 20`).
    convenience init(wrappedValue: Value, _ name: String, value: String, completes: Completion = .none, help: String) where Value: OptionValue {
        self.init(default: wrappedValue, name: name, value: value, required: false, completes: completes, help: help) { Value.read($0) }
    }

    /// A whole number within `range`, with a default.
    convenience init(wrappedValue: Int, _ name: String, value: String, in range: ClosedRange<Int>, help: String) where Value == Int {
        self.init(default: wrappedValue, name: name, value: value, required: false, completes: .none, help: help) { text in
            guard let number = Int(text), range.contains(number) else {
                return .failure(OptionValueProblem(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"))
            }
            return .success(number)
        }
    }

    /// An optional whole number within `range`: nil unless given.
    convenience init(_ name: String, value: String, in range: ClosedRange<Int>, help: String) where Value == Int? {
        self.init(default: nil, name: name, value: value, required: false, completes: .none, help: help) { text in
            guard let number = Int(text), range.contains(number) else {
                return .failure(OptionValueProblem(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"))
            }
            return .success(number)
        }
    }

    /// A repeated option: every value given, in order (`--alias Gym --alias "Main Gym"`).
    convenience init(_ name: String, value: String, repeating: Bool, completes: Completion = .none, help: String) where Value == [String] {
        self.init(
            default: [], name: name, value: value, required: false, completes: completes, help: help, append: { $0 + $1 },
            read: { .success([$0]) })
    }
}

/// The positional words (`ID...`, `SOURCE`, `KIND`): how many, what usage calls them, what
/// each completes to.
@propertyWrapper final class Positional: PositionalParameter {
    let usage: String
    let count: ClosedRange<Int>
    let completes: [Completion]
    var wrappedValue: [String] = []

    /// `usage`: how the usage line shows them (`ID...`, `ID FIELD=VALUE...`, `[KIND]`).
    init(_ usage: String, count: ClosedRange<Int>, completes: [Completion] = []) {
        self.usage = usage
        self.count = count
        self.completes = completes
    }

    var option: DeclaredOption? { nil }

    func bind(_ arguments: Arguments, spec: CommandSpec) throws { wrappedValue = arguments.positional }
}
