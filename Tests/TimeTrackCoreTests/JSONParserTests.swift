import Foundation
import TestSupport
import Testing
import TimeTrackCore

/// `JSONValue(parsing:)`: the same values as Foundation's decoder on valid text, a line and
/// column on invalid text, and no trap on anything.
@Suite struct JSONParserTests {
    /// What Foundation's `JSONDecoder` reads, for comparison.
    func foundation(_ text: String) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    @Test func readsWhatFoundationReads() throws {
        let texts = [
            #"{"id": "news", "importer": "html", "options": {"item": "ul li", "maxPages": 9, "fields": {"title": "h2"}}}"#,
            #"[1, -2, 3.25, -0.5e-3, 1E+2, 0, 123456789012345678901234567890, 9007199254740993]"#,
            #"{"a": [true, false, null, [], {}], "b": "tab\there \"quoted\" back\\slash \/ \b\f\n\r"}"#,
            #""caf\u00e9 \u20AC \ud83d\ude00 é 😀""#, "  \n\t 42 \r\n", "null", "\"\"", #"{"":""}"#,
            #"[[[[[[[[["deep"]]]]]]]]]"#, "-0", "0.1", "1e-7", "[1.7976931348623157e308]",
        ]
        for text in texts {
            let ours = try JSONValue(parsing: text)
            #expect(ours == foundation(text), "\(text)")
            #expect(try JSONValue(parsing: Data(text.utf8)) == ours)
        }
    }

    @Test func generatedDocumentsReadBackAsTheyWereWritten() throws {
        var random = SplitMix64(state: 16)
        func make(_ depth: Int) -> JSONValue {
            switch random.int(0...(depth > 3 ? 3 : 5)) {
            case 0: return .number(Double(random.int(-1_000_000...1_000_000)) / Double([1, 10, 1000][random.int(0...2)]))
            case 1: return .bool(random.chance(50))
            case 2: return .null
            case 3:
                let alphabet = Array("abc é\"\\/\n\t\u{01}😀<>&")
                return .string(String((0..<random.int(0...12)).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }))
            case 4: return .array((0..<random.int(0...4)).map { _ in make(depth + 1) })
            default:
                var members: [String: JSONValue] = [:]
                for index in 0..<random.int(0...4) { members["k\(index)\(random.int(0...9))"] = make(depth + 1) }
                return .object(members)
            }
        }
        for _ in 0..<500 {
            let value = make(0)
            for text in [value.canonicalText, try JSONCoding.prettyString(value)] {
                #expect(try JSONValue(parsing: text) == value, "\(text)")
            }
        }
    }

    @Test func mistakesSayWhereAndWhat() {
        func error(_ text: String) -> JSONValue.SyntaxError? {
            do {
                _ = try JSONValue(parsing: text)
                return nil
            } catch { return error }
        }
        let missingComma = error("{\n  \"id\": \"x\",\n  \"url\": \"p.html\"\n  \"kind\": \"event\"\n}")
        #expect(missingComma?.line == 4 && missingComma?.column == 3, "\(String(describing: missingComma))")
        #expect(missingComma?.reason.contains("expected ',' or '}'") == true)
        #expect(missingComma?.reason.contains("\"url\"") == true)
        #expect(error(#"{"a": 1,}"#)?.reason.contains("member name in double quotes") == true)
        #expect(error("[1, 2")?.reason.contains("ends inside a list") == true)
        #expect(error(#"{"a": "open"#)?.reason.contains("never closed") == true)
        #expect(error(#"{"a": True}"#)?.reason.contains("lower case") == true)
        #expect(error("{'a': 1}")?.reason.contains("double quotes") == true)
        #expect(error("[01]")?.reason.contains("may not start with 0") == true)
        #expect(error("[1.]") != nil && error("[.5]") != nil && error("[1e]") != nil && error("[-]") != nil)
        #expect(error("[1e999]")?.reason.contains("too large") == true)
        #expect(error("\"a\tb\"")?.reason.contains("a tab") == true)
        #expect(error(#""\x41""#)?.reason.contains("not a JSON escape") == true)
        #expect(error(#""\u12G4""#)?.reason.contains("four hex digits") == true)
        #expect(error("{} {}")?.reason.contains("only one value") == true)
        #expect(error("")?.reason.contains("empty") == true)
        #expect(error("   ")?.reason.contains("empty") == true)
        // Columns count characters: "é" is one.
        #expect(error(#"["é" x]"#)?.column == 6)
    }

    @Test func oddButReadable() throws {
        // A byte order mark (editors on Windows write one) is skipped.
        #expect(try JSONValue(parsing: Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == .array([.number(1)]))
        // Lone surrogates and invalid UTF-8 become U+FFFD; a member named twice keeps its last value.
        #expect(try JSONValue(parsing: #""a\ud800b\udc00c""#) == .string("a\u{FFFD}b\u{FFFD}c"))
        #expect(try JSONValue(parsing: #""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONValue(parsing: Data([0x22, 0x61, 0xFF, 0x62, 0x22])) == .string("a\u{FFFD}b"))
        #expect(try JSONValue(parsing: #"{"a": 1, "a": 2}"#) == .object(["a": .number(2)]))
    }

    @Test func hostileTextIsRefusedWithoutATrap() {
        // Nesting far deeper than the stack allows: refused at the limit, not a crash.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(parsing: deep) }
        let limit = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect((try? JSONValue(parsing: limit)) != nil)
        // Every prefix of a document, and random bytes, give a value or an error.
        let document = Array(#"{"a": [1, -2.5e3, "x\u00e9\n", true, null, {"b": false}], "c": "😀"}"#.utf8)
        for end in 0...document.count {
            let prefix = Data(document[..<end])
            #expect((try? JSONValue(parsing: prefix)) == nil || end == document.count)
        }
        var random = SplitMix64(state: 7)
        let pieces = Array("{}[]\",:-0123456789.eE+\\u tfnrlasn\u{00}".utf8) + [0xC3, 0xFF]
        for _ in 0..<5_000 {
            let bytes = (0..<random.int(0...24)).map { _ in pieces[random.int(0...(pieces.count - 1))] }
            _ = try? JSONValue(parsing: Data(bytes))
        }
    }
}
