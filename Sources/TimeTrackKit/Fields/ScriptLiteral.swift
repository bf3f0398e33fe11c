import Foundation
import TimeTrackCore

/// A reader of JavaScript literals as JSON.
///
/// Objects with bare or quoted keys, arrays, strings in either quote, numbers, `!0`/`!1`,
/// `void 0`, and names bound to values (Nuxt 2's function parameters). Nothing is run: a call or an expression it does not know reads as null, and a
/// text it cannot follow gives nil. Bounded by `PageData.maxValues` and `maxDepth`.
struct ScriptLiteral {
    private let bytes: [UInt8]
    private var at = 0
    private var made = 0
    private var names: [String: JSONValue] = [:]

    init(_ text: String) { bytes = Array(text.utf8) }

    /// `(function(a,b){…return VALUE}(ARGS))`, or `(function(a){…})(ARGS)`, or a value.
    mutating func program() -> JSONValue? {
        skipSpace()
        let start = at
        guard take("("), word() == "function" else {
            at = start
            return value(depth: 0)
        }
        guard take("(") else { return nil }
        var parameters: [String] = []
        while !take(")") {
            guard let name = word() else { return nil }
            parameters.append(name)
            _ = take(",")
            guard at < bytes.count else { return nil }
        }
        skipSpace()
        guard peek() == UInt8(ascii: "{") else { return nil }
        let body = at
        guard skipBalanced() else { return nil }
        let afterBody = at
        _ = take(")")
        guard take("(") else { return nil }
        var arguments: [JSONValue] = []
        while !take(")") {
            guard let argument = value(depth: 0) else { return nil }
            arguments.append(argument)
            _ = take(",")
            guard at < bytes.count else { return nil }
        }
        for (index, name) in parameters.enumerated() { names[name] = index < arguments.count ? arguments[index] : .null }
        at = body + 1
        guard let returned = findReturn(before: afterBody) else { return nil }
        at = returned
        return value(depth: 0)
    }

    /// The position after the body's own `return` (not one inside a nested function).
    private mutating func findReturn(before end: Int) -> Int? {
        var depth = 0
        while at < end {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard string() != nil else { return nil }
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") { depth -= 1 }
            if depth == 0, matches("return"), at == 0 || !Self.isName(bytes[at - 1]) {
                return at + 6
            }
            at += 1
        }
        return nil
    }

    mutating func value(depth: Int) -> JSONValue? {
        made += 1
        guard depth < PageData.maxDepth, made < PageData.maxValues else { return nil }
        skipSpace()
        guard let byte = peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return string().map(JSONValue.string)
        case UInt8(ascii: "!"):
            at += 1
            guard let inner = value(depth: depth + 1) else { return nil }
            return .bool(!Self.truthy(inner))
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default:
            guard let name = word() else { return nil }
            switch name {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "undefined", "NaN", "Infinity": return .null
            case "void":
                _ = value(depth: depth + 1)
                return .null
            case "new":
                _ = word()
                skipSpace()
                if peek() == UInt8(ascii: "(") { guard skipBalanced() else { return nil } }
                return .null
            default:
                skipSpace()
                // A call (`Object.freeze({…})`, `Symbol("x")`): not run, read as null.
                while take(".") { _ = word() }
                if peek() == UInt8(ascii: "(") {
                    guard skipBalanced() else { return nil }
                    return .null
                }
                return names[name] ?? .null
            }
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        at += 1
        var out: [String: JSONValue] = [:]
        while true {
            skipSpace()
            if take("}") { return .object(out) }
            let key: String?
            let first = peek() ?? 0
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                key = string()
            } else if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
                key = number()?.description
            } else {
                key = word()
            }
            guard let key, take(":"), let item = value(depth: depth + 1) else { return nil }
            out[key] = item
            _ = take(",")
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        at += 1
        var out: [JSONValue] = []
        while true {
            skipSpace()
            if take("]") { return .array(out) }
            guard let item = value(depth: depth + 1) else { return nil }
            out.append(item)
            _ = take(",")
        }
    }

    private mutating func string() -> String? {
        guard let quote = peek() else { return nil }
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\"), at < bytes.count else {
                out.append(byte)
                continue
            }
            let escaped = bytes[at]
            at += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "v"), UInt8(ascii: "0"): break
            case UInt8(ascii: "u"), UInt8(ascii: "x"):
                let width = escaped == UInt8(ascii: "u") ? 4 : 2
                guard at + width <= bytes.count, let code = UInt32(String(decoding: bytes[at..<at + width], as: UTF8.self), radix: 16) else { return nil }
                at += width
                out.append(contentsOf: Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
            default: out.append(escaped)
            }
        }
        return nil
    }

    private mutating func number() -> JSONValue? {
        let start = at
        while at < bytes.count, Self.isNumberByte(bytes[at]) { at += 1 }
        guard let number = Double(String(decoding: bytes[start..<at], as: UTF8.self)) else { return nil }
        return .number(number)
    }

    /// Steps over a bracketed span (`(…)`, `{…}`, `[…]`), strings inside included.
    private mutating func skipBalanced() -> Bool {
        var depth = 0
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard string() != nil else { return false }
                continue
            }
            at += 1
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return true }
            }
        }
        return false
    }

    private mutating func word() -> String? {
        skipSpace()
        let start = at
        while at < bytes.count, Self.isName(bytes[at]) { at += 1 }
        return at > start ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
    }

    private mutating func take(_ text: StaticString) -> Bool {
        skipSpace()
        let byte = text.withUTF8Buffer { $0[0] }
        guard peek() == byte else { return false }
        at += 1
        return true
    }

    private func matches(_ text: String) -> Bool {
        let word = Array(text.utf8)
        guard at + word.count <= bytes.count, Array(bytes[at..<at + word.count]) == word else { return false }
        return at + word.count == bytes.count || !Self.isName(bytes[at + word.count])
    }

    private func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 32 || bytes[at] == 10 || bytes[at] == 13 || bytes[at] == 9 || bytes[at] == UInt8(ascii: ";") { at += 1 }
    }

    static func isName(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95 || byte == 36 || byte >= 128
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    static func truthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        default: return true
        }
    }
}
