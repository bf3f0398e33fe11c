import Foundation
import TimeTrackCore

/// A CSS selector (a practical subset) compiled to XPath.
///
/// Supported: `tag`, `*`, `#id`, `.class`, `[attr]`, `[attr=value]`, `[attr~=value]`,
/// `[attr^=value]`, `[attr$=value]`, `[attr*=value]`, `[attr|=value]`, descendant (space), child
/// (`>`), adjacent (`+`) and general (`~`) siblings, `,` lists, `:first-child`, `:last-child`,
/// `:nth-child(n)`, `:nth-of-type(n)`, `:first-of-type`, `:not(simple)`. Matching is relative to
/// the node you select from (its descendants). A selector may also start with `xpath:` to give
/// raw XPath.
public final class Selector: CustomStringConvertible {
    /// The selector as written.
    public let source: String
    /// The XPath it compiles to.
    public let xpathExpression: String
    let compiled: XPath

    /// Compiles a selector; errors name the selector and the problem.
    public init(_ source: String) throws {
        self.source = source
        let trimmed = source.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("xpath:") {
            xpathExpression = String(trimmed.dropFirst(6))
        } else {
            var parser = SelectorParser(trimmed, source: source)
            xpathExpression = try parser.parseList()
        }
        do {
            compiled = try XPath(xpathExpression)
        } catch {
            throw TimeTrackError(.selector, "'\(source)' compiles to XPath that libxml2 refuses (\(xpathExpression))", context: ["selector": source])
        }
    }

    public var description: String { source }
}

/// A recursive-descent parser from CSS to XPath.
struct SelectorParser {
    let chars: [Character]
    let source: String
    var index = 0

    init(_ text: String, source: String) {
        chars = Array(text)
        self.source = source
    }

    func error(_ message: String) -> TimeTrackError {
        TimeTrackError(.selector, "invalid selector '\(source)': \(message)", fix: "see docs/source-definitions.md for the selectors supported", context: ["selector": source])
    }

    var atEnd: Bool { index >= chars.count }
    var current: Character? { atEnd ? nil : chars[index] }

    mutating func skipSpaces() -> Bool {
        var skipped = false
        while let c = current, c.isWhitespace {
            index += 1
            skipped = true
        }
        return skipped
    }

    mutating func parseList() throws -> String {
        guard !chars.isEmpty else { throw error("it is empty") }
        var parts: [String] = []
        repeat {
            _ = skipSpaces()
            parts.append(try parseComplex())
            _ = skipSpaces()
            if current == "," { index += 1 } else { break }
        } while true
        if !atEnd { throw error("unexpected '\(chars[index])' at position \(index + 1)") }
        return parts.joined(separator: " | ")
    }

    mutating func parseComplex() throws -> String {
        var xpath = ".//" + (try parseCompound())
        while true {
            let hadSpace = skipSpaces()
            guard let c = current, c != "," else { break }
            switch c {
            case ">":
                index += 1
                _ = skipSpaces()
                xpath += "/" + (try parseCompound())
            case "+":
                index += 1
                _ = skipSpaces()
                let (tag, predicates) = try parseCompoundParts()
                xpath += "/following-sibling::*[1][self::\(tag)]" + predicates
            case "~":
                index += 1
                _ = skipSpaces()
                xpath += "/following-sibling::" + (try parseCompound())
            default:
                guard hadSpace else { throw error("unexpected '\(c)' at position \(index + 1)") }
                xpath += "//" + (try parseCompound())
            }
        }
        return xpath
    }

    mutating func parseCompound() throws -> String {
        let (tag, predicates) = try parseCompoundParts()
        return tag + predicates
    }

    /// A tag (or `*`) and its XPath predicates. Position predicates come first so that they
    /// count among siblings of the same tag, as CSS does.
    mutating func parseCompoundParts() throws -> (String, String) {
        var tag = "*"
        if let c = current, c == "*" {
            index += 1
        } else if let c = current, isNameStart(c) {
            tag = parseName().lowercased()
        }
        var positional: [String] = []
        var predicates: [String] = []
        var any = tag != "*" || (index > 0 && chars[index - 1] == "*")
        loop: while let c = current {
            switch c {
            case "#":
                index += 1
                let name = parseName()
                guard !name.isEmpty else { throw error("'#' needs an id") }
                predicates.append("[@id=\(literal(name))]")
            case ".":
                index += 1
                let name = parseName()
                guard !name.isEmpty else { throw error("'.' needs a class name") }
                predicates.append("[contains(concat(' ', normalize-space(@class), ' '), \(literal(" \(name) ")))]")
            case "[":
                index += 1
                predicates.append(try parseAttribute())
            case ":":
                index += 1
                let (pseudo, isPositional) = try parsePseudo(tag: tag)
                if isPositional { positional.append(pseudo) } else { predicates.append(pseudo) }
            default:
                break loop
            }
            any = true
        }
        guard any else {
            if let c = current { throw error("unexpected '\(c)' at position \(index + 1)") }
            throw error("a selector is missing after a combinator")
        }
        return (tag, positional.joined() + predicates.joined())
    }

    mutating func parseAttribute() throws -> String {
        _ = skipSpaces()
        let name = parseName().lowercased()
        guard !name.isEmpty else { throw error("'[' needs an attribute name") }
        _ = skipSpaces()
        if current == "]" {
            index += 1
            return "[@\(name)]"
        }
        var op = ""
        while let c = current, "~|^$*=".contains(c) {
            op.append(c)
            index += 1
        }
        _ = skipSpaces()
        let value = try parseValue()
        _ = skipSpaces()
        if current == "i" || current == "s" { index += 1; _ = skipSpaces() }  // case flag: accepted, ignored
        guard current == "]" else { throw error("']' expected after [\(name)\(op)\(value)") }
        index += 1
        let v = literal(value)
        switch op {
        case "=": return "[@\(name)=\(v)]"
        case "~=": return "[contains(concat(' ', normalize-space(@\(name)), ' '), \(literal(" \(value) ")))]"
        case "^=": return "[starts-with(@\(name), \(v))]"
        case "$=": return "[substring(@\(name), string-length(@\(name)) - \(value.count - 1)) = \(v)]"
        case "*=": return "[contains(@\(name), \(v))]"
        case "|=": return "[@\(name)=\(v) or starts-with(@\(name), \(literal(value + "-")))]"
        default: throw error("unknown attribute operator '\(op)'")
        }
    }

    mutating func parseValue() throws -> String {
        if let quote = current, quote == "\"" || quote == "'" {
            index += 1
            var value = ""
            while let c = current, c != quote {
                value.append(c)
                index += 1
            }
            guard current == quote else { throw error("unterminated quoted value") }
            index += 1
            return value
        }
        let value = parseName()
        guard !value.isEmpty else { throw error("an attribute value is missing") }
        return value
    }

    mutating func parsePseudo(tag: String) throws -> (String, Bool) {
        let name = parseName().lowercased()
        var argument: String?
        if current == "(" {
            index += 1
            var depth = 1
            var text = ""
            while let c = current {
                index += 1
                if c == "(" { depth += 1 }
                if c == ")" {
                    depth -= 1
                    if depth == 0 { break }
                }
                text.append(c)
            }
            guard depth == 0 else { throw error("unclosed '(' after :\(name)") }
            argument = text.trimmingCharacters(in: .whitespaces)
        }
        func number() throws -> Int {
            guard let argument, let n = Int(argument), n > 0 else { throw error(":\(name) takes a positive number, like :\(name)(2)") }
            return n
        }
        switch name {
        case "first-child": return ("[not(preceding-sibling::*)]", false)
        case "last-child": return ("[not(following-sibling::*)]", false)
        case "only-child": return ("[not(preceding-sibling::*) and not(following-sibling::*)]", false)
        case "nth-child": return ("[count(preceding-sibling::*) = \(try number() - 1)]", false)
        case "first-of-type": return (tag == "*" ? "[not(preceding-sibling::*)]" : "[1]", tag != "*")
        case "last-of-type": return (tag == "*" ? "[not(following-sibling::*)]" : "[last()]", tag != "*")
        case "nth-of-type":
            let n = try number()
            return (tag == "*" ? "[count(preceding-sibling::*) = \(n - 1)]" : "[\(n)]", tag != "*")
        case "not":
            guard let argument, !argument.isEmpty else { throw error(":not needs a simple selector, like :not(.hidden)") }
            var inner = SelectorParser(argument, source: source)
            let (innerTag, predicates) = try inner.parseCompoundParts()
            guard inner.atEnd else { throw error(":not takes one simple selector") }
            let test = innerTag == "*" ? "" : "self::\(innerTag)"
            let conditions = predicates.isEmpty ? test : (test.isEmpty ? "self::*\(predicates)" : "self::\(innerTag)\(predicates)")
            return ("[not(\(conditions.isEmpty ? "true()" : conditions))]", false)
        default:
            throw error("unsupported pseudo-class ':\(name)'")
        }
    }

    func isNameStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "-" || c.isNumber }

    mutating func parseName() -> String {
        var name = ""
        while let c = current, c.isLetter || c.isNumber || c == "-" || c == "_" || c == "\\" {
            if c == "\\" {
                index += 1
                if let escaped = current { name.append(escaped) }
                index += 1
                continue
            }
            name.append(c)
            index += 1
        }
        return name
    }

    /// An XPath string literal for any text (quotes handled with concat()).
    func literal(_ text: String) -> String {
        if !text.contains("'") { return "'\(text)'" }
        if !text.contains("\"") { return "\"\(text)\"" }
        return "concat('" + text.replacingOccurrences(of: "'", with: "', \"'\", '") + "')"
    }
}
