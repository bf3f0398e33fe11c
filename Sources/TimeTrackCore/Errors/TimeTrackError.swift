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
