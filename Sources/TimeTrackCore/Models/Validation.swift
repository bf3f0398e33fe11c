import Foundation

/// One problem found by validating a model: which field and what is wrong.
public struct ValidationProblem: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The field's name, as in the model's JSON.
    public var field: String
    /// What is wrong with it.
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Checks shared by the models' `validate()`.
public enum Check {
    /// A required, non-blank text of at most `max` characters.
    public static func text(_ value: String, _ field: String, max: Int = 500, into problems: inout [ValidationProblem]) {
        if value.isBlank {
            problems.append(.init(field: field, message: "is required"))
        } else if value.count > max {
            problems.append(.init(field: field, message: "is \(value.count) characters long; at most \(max) are allowed"))
        }
    }

    /// An optional text of at most `max` characters.
    public static func optionalText(_ value: String?, _ field: String, max: Int, into problems: inout [ValidationProblem]) {
        if let value, value.count > max {
            problems.append(.init(field: field, message: "is \(value.count) characters long; at most \(max) are allowed"))
        }
    }

    /// An optional absolute http(s) URL. Relative links must be resolved by the importer first.
    public static func url(_ value: String?, _ field: String, into problems: inout [ValidationProblem]) {
        guard let value, !value.isEmpty else { return }
        if let reason = urlProblem(value) { problems.append(.init(field: field, message: reason)) }
    }

    /// Why `value` is not an acceptable stored URL, or nil when it is.
    public static func urlProblem(_ value: String) -> String? {
        guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased() else {
            if value.hasPrefix("/") || !value.contains(":") {
                return "'\(value)' is a relative link; the importer must resolve it against the page URL"
            }
            return "'\(value)' is not a valid URL"
        }
        guard scheme == "http" || scheme == "https" else {
            return "'\(value)' uses \(scheme):, only http and https links are allowed"
        }
        guard let host = components.host, !host.isEmpty else { return "'\(value)' has no host" }
        return nil
    }

    /// An IANA time zone name that this system knows.
    public static func timeZone(_ value: String, _ field: String, into problems: inout [ValidationProblem]) {
        if TimeZone(identifier: value) == nil {
            problems.append(.init(field: field, message: "'\(value)' is not a known time zone (use an IANA name like America/Denver)"))
        }
    }
}
