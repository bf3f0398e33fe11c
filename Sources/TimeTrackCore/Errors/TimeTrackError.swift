import Foundation

/// The one error type of Time Track Admin: what went wrong, where, and how to fix it.
///
/// `code` is an open set (new codes can be added without breaking callers); `message` says what
/// happened in words a district administrator can act on; `fix` says what to do; `context` names
/// the file, field, URL, item id or SQL involved. `description` prints on one line for the REPL
/// and logs; `jsonObject` is the shape printed with `--json`.
public struct TimeTrackError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A stable, extensible error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Bad command-line or console usage (exit code 2).
        public static let usage = Code(rawValue: "usage")
        /// A bad configuration file or source definition (exit code 2).
        public static let configuration = Code(rawValue: "configuration")
        /// A model failed validation.
        public static let validation = Code(rawValue: "validation")
        /// No item, source or operator with that name.
        public static let notFound = Code(rawValue: "not-found")
        /// A lifecycle transition that the item's status does not allow.
        public static let illegalTransition = Code(rawValue: "illegal-transition")
        /// The operator's role does not allow the action.
        public static let permission = Code(rawValue: "permission")
        /// The store file cannot be used (not SQLite, corrupt, newer schema...).
        public static let storeUnusable = Code(rawValue: "store-unusable")
        /// A database error while reading or writing the store.
        public static let database = Code(rawValue: "database")
        /// Reading a page or file failed.
        public static let fetch = Code(rawValue: "fetch")
        /// A fetch the address policy refused: a private or loopback address the source does
        /// not allow (`allowPrivateNetwork`).
        public static let refusedAddress = Code(rawValue: "refused-address")
        /// A page could not be parsed.
        public static let parse = Code(rawValue: "parse")
        /// A page or file that was refused before it was parsed, for what it would cost (entity
        /// declarations that expand without bound, an element with a flood of attributes): the
        /// message says which; it is well-formed, not broken.
        public static let refusedContent = Code(rawValue: "refused-content")
        /// A CSS selector or XPath expression is invalid.
        public static let selector = Code(rawValue: "selector")
        /// Another run holds the lock.
        public static let busy = Code(rawValue: "busy")
        /// An operating-system call failed.
        public static let system = Code(rawValue: "system")
        /// The person pressed Ctrl-C: the operation stopped.
        ///
        /// Importers pass it on, never record it as a page problem.
        public static let interrupted = Code(rawValue: "interrupted")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in one sentence.
    public var message: String
    /// How to fix it, if there is something the user can do.
    public var fix: String?
    /// Where it happened: `file`, `field`, `url`, `item`, `sql`, `selector`...
    public var context: [String: String]
    /// The underlying error's description, when there is one.
    public var underlying: String?
    /// What a caller may act on, as types (never read from `context`'s words).
    public var signals: Set<Signal> = []

    /// A fact about an error that code decides by.
    public enum Signal: Hashable, Sendable {
        /// Trying again may work: a timeout, a dropped connection, no answer, no DNS.
        case retryable
        /// The source's or the import's network time is used up: nothing more is asked.
        case budgetSpent
        /// The fetcher's policy refused where it was sent (a redirect to another scheme, a
        /// broken compressed answer).
        case refused
        /// The server answered with this HTTP status.
        case httpStatus(Int)
        /// The database refused with this SQLSTATE (`42501`: insufficient privilege).
        case sqlState(String)
        /// The source definition file the error is about (what `import ID` finds a broken one by).
        case definitionFile(String)
    }

    /// This error with one more signal.
    public func with(_ signal: Signal) -> TimeTrackError {
        var error = self
        error.signals.insert(signal)
        return error
    }

    /// This error said of a source (`source` in its context unless it names one already), its
    /// signals kept.
    public func tagged(source: String) -> TimeTrackError {
        var error = self
        if error.context["source"] == nil { error.context["source"] = SafeText.visible(source) }
        return error
    }

    /// The source definition file the error is about, if any.
    public var definitionFile: String? {
        for case .definitionFile(let path) in signals { return path }
        return nil
    }

    /// The HTTP status the error carries, if any.
    public var httpStatus: Int? {
        for case .httpStatus(let status) in signals { return status }
        return nil
    }

    /// Creates an error.
    ///
    /// Messages quote input (a file name, a page's text, an entry's id): every
    /// part is shown through `SafeText.visible` here, once, so no control character in it can
    /// reach a terminal, a log or a JSON reader, whatever path the error takes.
    public init(
        _ code: Code, _ message: String, fix: String? = nil, context: [String: String] = [:],
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = SafeText.visible(message)
        self.fix = fix.map(SafeText.visible)
        self.context = context.mapValues(SafeText.visible)
        self.underlying = underlying.map { SafeText.visible(String(describing: $0)) }
    }

    /// One line: `where: what (cause). fix`.
    public var description: String {
        var out = ""
        let place = ["file", "source", "item", "url", "field", "selector"].compactMap { key in
            context[key].map { key == "field" ? "field '\($0)'" : $0 }
        }.filter { !message.contains($0) }
        if !place.isEmpty { out += place.joined(separator: ", ") + ": " }
        out += message
        if let underlying, !message.contains(underlying) { out += " (\(underlying))" }
        if let fix { out += "; " + fix }
        return out
    }

    /// The error as a JSON-ready dictionary.
    public var jsonObject: [String: JSONValue] {
        var object: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let fix { object["fix"] = .string(fix) }
        if !context.isEmpty { object["context"] = .object(context.mapValues { .string($0) }) }
        if let underlying { object["underlying"] = .string(underlying) }
        return object
    }

    /// The process exit code a command failing with this error should use.
    public var exitCode: Int32 {
        switch code {
        case .usage, .configuration: return 2
        default: return 1
        }
    }
}
