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
        } else if value.utf8.count > max, value.count > max {  // no more characters than bytes: count only when it may matter
            problems.append(.init(field: field, message: "is \(value.count) characters long; at most \(max) are allowed"))
        }
    }

    /// An optional text of at most `max` characters.
    public static func optionalText(_ value: String?, _ field: String, max: Int, into problems: inout [ValidationProblem]) {
        if let value, value.utf8.count > max, value.count > max {
            problems.append(.init(field: field, message: "is \(value.count) characters long; at most \(max) are allowed"))
        }
    }

    /// An optional absolute http(s) URL.
    ///
    /// Relative links must be resolved by the importer first.
    public static func url(_ value: String?, _ field: String, into problems: inout [ValidationProblem]) {
        guard let value, !value.isEmpty else { return }
        if let reason = urlProblem(value) { problems.append(.init(field: field, message: reason)) }
    }

    /// Why `value` is not an acceptable stored URL, or nil when it is.
    public static func urlProblem(_ value: String) -> String? {
        isPlainWebURL(value) ? nil : parsedURLProblem(value)
    }

    /// `urlProblem` by `URLComponents`, for what `isPlainWebURL` does not vouch for.
    static func parsedURLProblem(_ value: String) -> String? {
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

    /// True for the common shape every check below accepts, read as bytes: `http://` or
    /// `https://` (any case), a host of letters, digits, dots and hyphens, then path, query and at
    /// most one fragment of characters a URL may hold unescaped.
    ///
    /// Anything else (a port, user info, `%`, brackets, spaces, non-ASCII) goes through
    /// `URLComponents`.
    static func isPlainWebURL(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
            var index = 0
            for letter in "http".utf8 {
                guard index < bytes.count, lower(bytes[index]) == letter else { return false }
                index += 1
            }
            if index < bytes.count, lower(bytes[index]) == UInt8(ascii: "s") { index += 1 }
            for mark in "://".utf8 {
                guard index < bytes.count, bytes[index] == mark else { return false }
                index += 1
            }
            let hostStart = index
            while index < bytes.count {
                let byte = bytes[index]
                guard (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 46 || byte == 45 else { break }
                index += 1
            }
            guard index > hostStart else { return false }
            if index < bytes.count {
                // After the host: a path, query or fragment, nothing else (no port, no user info).
                guard bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else { return false }
            }
            var fragments = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 97...122, 65...90, 48...57: break
                case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
                    UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                    UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
                    break
                case UInt8(ascii: "#"):
                    fragments += 1
                    if fragments > 1 { return false }
                default: return false
                }
                index += 1
            }
            return true
        }
    }

    /// An IANA time zone name that this system knows.
    public static func timeZone(_ value: String, _ field: String, into problems: inout [ValidationProblem]) {
        if TimeZone(identifier: value) == nil {
            problems.append(.init(field: field, message: "'\(value)' is not a known time zone (use an IANA name like America/Denver)"))
        }
    }
}
