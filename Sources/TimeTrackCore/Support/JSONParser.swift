import Foundation

extension JSONValue {
    /// Why a JSON text could not be read, and where: a line and column a person can go to.
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        /// 1-based line and column (the column counts characters, not bytes).
        public var line: Int
        public var column: Int
        /// What was wrong there, e.g.
        ///
        /// "expected ',' or '}' after a member".
        public var reason: String

        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// How deep arrays and objects may nest before a text is refused (a hostile page cannot
    /// exhaust the stack).
    public static let maximumDepth = 512

    /// Reads JSON text (RFC 8259): any value at the top, a UTF-8 byte order mark skipped,
    /// invalid UTF-8 and lone surrogates in strings replaced by U+FFFD, a member named twice
    /// keeping its last value.
    ///
    /// Numbers that do not fit a `Double` are refused.
    ///
    /// `JSONDecoder` decoding `JSONValue` tried each kind in turn and built an error for every
    /// miss (loading 60 source definitions took 6–7 ms of an import's serial start): source
    /// definitions, settings, feeds and plugin replies are read with this.
    public init(parsing data: Data) throws(SyntaxError) {
        let result: Result<JSONValue, SyntaxError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self))
            return Result { () throws(SyntaxError) in try parser.document() }
        }
        self = try result.get()
    }

    /// Reads JSON text from a string (see `init(parsing: Data)`).
    public init(parsing text: String) throws(SyntaxError) {
        var text = text
        let result: Result<JSONValue, SyntaxError> = text.withUTF8 { bytes in
            var parser = JSONParser(bytes)
            return Result { () throws(SyntaxError) in try parser.document() }
        }
        self = try result.get()
    }
}

/// A recursive-descent reader over the bytes of one JSON text.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() throws(JSONValue.SyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        skipSpace()
        guard at < bytes.count else { throw fail("the text is empty; expected a JSON value") }
        let value = try self.value()
        skipSpace()
        guard at == bytes.count else { throw fail("unexpected \(shown(at)) after the value; only one value may be given") }
        return value
    }

    // MARK: Values

    private mutating func value() throws(JSONValue.SyntaxError) -> JSONValue {
        guard at < bytes.count else { throw fail("the text ends where a value was expected") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case let byte where (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"):
            throw fail("unexpected \(shown(at)); expected a value (JSON words are lower case: true, false, null; strings need double quotes)")
        default: throw fail("unexpected \(shown(at)); expected a value (an object, a list, a string, a number, true, false or null)")
        }
    }

    private mutating func object() throws(JSONValue.SyntaxError) -> JSONValue {
        try enter()
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else {
                throw fail(at < bytes.count ? "unexpected \(shown(at)); expected a member name in double quotes" : "the text ends inside an object")
            }
            let key = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else {
                throw fail(at < bytes.count ? "unexpected \(shown(at)); expected ':' after the member name \"\(key)\"" : "the text ends inside an object")
            }
            at += 1
            skipSpace()
            members[key] = try value()
            skipSpace()
            guard at < bytes.count else { throw fail("the text ends inside an object; expected ',' or '}'") }
            switch bytes[at] {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "}"):
                at += 1
                depth -= 1
                return .object(members)
            default: throw fail("unexpected \(shown(at)); expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    private mutating func array() throws(JSONValue.SyntaxError) -> JSONValue {
        try enter()
        at += 1
        var values: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            depth -= 1
            return .array(values)
        }
        while true {
            skipSpace()
            values.append(try value())
            skipSpace()
            guard at < bytes.count else { throw fail("the text ends inside a list; expected ',' or ']'") }
            switch bytes[at] {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "]"):
                at += 1
                depth -= 1
                return .array(values)
            default: throw fail("unexpected \(shown(at)); expected ',' or ']' after a list element")
            }
        }
    }

    private mutating func enter() throws(JSONValue.SyntaxError) {
        depth += 1
        guard depth <= JSONValue.maximumDepth else { throw fail("lists and objects nest deeper than \(JSONValue.maximumDepth)") }
    }

    private mutating func word(_ text: StaticString) throws(JSONValue.SyntaxError) {
        let start = at
        let count = text.utf8CodeUnitCount
        var matches = at + count <= bytes.count
        if matches {
            for offset in 0..<count where bytes[at + offset] != text.utf8Start[offset] {
                matches = false
                break
            }
        }
        guard matches else {
            at = start
            throw fail(
                "unexpected \(shown(start)); expected a value (did you mean \(text)? JSON words are lower case: true, false, null; strings need double quotes)")
        }
        at += count
    }

    // MARK: Strings

    private mutating func string() throws(JSONValue.SyntaxError) -> String {
        let open = at
        at += 1
        let start = at
        // Fast path: no escapes, the bytes are the string.
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("a control character (\(byteName(byte))) inside a string; write it as an escape such as \\n") }
            at += 1
        }
        guard at < bytes.count else {
            at = open
            throw fail("this string is never closed; add the closing double quote")
        }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<at]))
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &scratch)
            default:
                if byte < 0x20 { throw fail("a control character (\(byteName(byte))) inside a string; write it as an escape such as \\n") }
                scratch.append(byte)
                at += 1
            }
        }
        at = open
        throw fail("this string is never closed; add the closing double quote")
    }

    private mutating func escape(into scratch: inout [UInt8]) throws(JSONValue.SyntaxError) {
        guard at + 1 < bytes.count else { throw fail("the text ends inside an escape") }
        let letter = bytes[at + 1]
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            at += 2
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by \u and a low one; alone it is U+FFFD.
                if at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                    let save = at
                    at += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                        at = save
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD
            }
            UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { scratch.append($0) }
            return
        default:
            at += 1
            throw fail("\\\(shown(at)) is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
        }
        at += 2
    }

    private mutating func hex4() throws(JSONValue.SyntaxError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw fail("the text ends inside a \\u escape; it takes four hex digits") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[at + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                at += offset
                throw fail("a \\u escape takes four hex digits, not \(shown(at))")
            }
            value = value << 4 | UInt32(digit)
        }
        at += 4
        return value
    }

    // MARK: Numbers

    private mutating func number() throws(JSONValue.SyntaxError) -> Double {
        let start = at
        var integer: Int64 = 0
        var simple = true
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { throw fail("a '-' must be followed by digits") }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, isDigit(bytes[at]) { throw fail("a number may not start with 0 (write 7, not 07)") }
        } else {
            var digits = 0
            while at < bytes.count, isDigit(bytes[at]) {
                if digits < 15 { integer = integer * 10 + Int64(bytes[at] - UInt8(ascii: "0")) } else { simple = false }
                digits += 1
                at += 1
            }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            simple = false
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { throw fail("a '.' in a number must be followed by digits") }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            simple = false
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { throw fail("an exponent in a number must have digits") }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if simple {
            // Up to 15 digits: exact as a Double.
            return bytes[start] == UInt8(ascii: "-") ? -Double(integer) : Double(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            at = start
            throw fail("the number \(text.prefix(40)) is too large")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Whitespace and errors

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    /// The character at `offset`, quoted, for a message.
    private func shown(_ offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let byte = bytes[offset]
        if byte < 0x20 || byte == 0x7F { return byteName(byte) }
        // The whole character (up to 4 bytes of UTF-8).
        var end = offset + 1
        while end < bytes.count, end < offset + 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self) + "'"
    }

    private func byteName(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: return "a line break"
        case 0x09: return "a tab"
        case 0x0D: return "a carriage return"
        default: return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    /// An error at the current offset, with its line and column.
    private func fail(_ reason: String) -> JSONValue.SyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(at, bytes.count)
        for offset in 0..<end where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        // Columns count characters: UTF-8 continuation bytes are not counted.
        var column = 1
        for offset in lineStart..<end where bytes[offset] & 0xC0 != 0x80 { column += 1 }
        return JSONValue.SyntaxError(line: line, column: column, reason: reason)
    }
}
