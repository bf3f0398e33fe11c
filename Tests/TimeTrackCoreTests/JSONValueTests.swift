import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// Issue 36: JSON values on generated documents: the canonical text (what hashes and memos are
/// made of) parses back to the same value and does not depend on the order keys were added in;
/// the encoder and the parser agree; values read as people write them in messages.
@Suite struct JSONValueTests {
    static let keys = ["a", "b", "Title", "é", "x y", "\"q\"", "back\\slash", "", "tab\t", "emoji 👩‍👩‍👧"]
    static let strings = ["", "plain", "quote \" inside", "back\\slash", "new\nline", "\u{1}control", "日本語", "👩‍👩‍👧", "</script>", "\u{2028}"]

    static func value(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch depth >= 3 ? random.int(0...3) : random.int(0...5) {
        case 0: return .null
        case 1: return .bool(random.chance(50))
        case 2: return .number([0, -0.0, 1, -17, 0.5, 1e14, 123456789012345, 1e20, -2.5e-7, 3.14159][random.int(0...9)])
        case 3: return .string(strings[random.int(0...(strings.count - 1))])
        case 4: return .array((0..<random.int(0...4)).map { _ in value(&random, depth: depth + 1) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<random.int(0...4) { object[keys[random.int(0...(keys.count - 1))]] = value(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    /// The same value with every object's keys added in another order.
    static func reordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(reordered))
        case .object(let object):
            var copy: [String: JSONValue] = [:]
            for key in object.keys.sorted().reversed() { copy[key] = reordered(object[key] ?? .null) }
            return .object(copy)
        default: return value
        }
    }

    @Test func theCanonicalTextParsesBackAndIgnoresKeyOrder() throws {
        var random = SplitMix64(state: 8_259)
        for _ in 0..<2_000 {
            let value = Self.value(&random)
            let text = value.canonicalText
            #expect(try JSONValue(parsing: Data(text.utf8)) == value, "\(text)")
            #expect(Self.reordered(value).canonicalText == text)
        }
    }

    @Test func theEncoderAndTheParserAgree() throws {
        var random = SplitMix64(state: 7_159)
        for _ in 0..<1_000 {
            let value = Self.value(&random)
            let encoded = try JSONCoding.compactString(value)
            #expect(try JSONValue(parsing: Data(encoded.utf8)) == value, "\(encoded)")
            #expect(try JSONCoding.value(value) == value)
        }
    }

    @Test(arguments: [
        (JSONValue.number(3), "3"), (.number(123_456_789_012_345), "123456789012345"), (.number(-0.0), "0"), (.number(2.5), "2.5"), (.string("as is"), "as is"),
        (.null, "null"),
        (.bool(false), "false"), (.array([.number(1), .string("a")]), #"[1,"a"]"#), (.object(["b": .number(1), "a": .null]), #"{"a":null,"b":1}"#),
    ])
    func valuesInMessages(_ value: JSONValue, _ expected: String) {
        #expect(value.description == expected)
    }

    @Test func accessorsTellTheKindsApart() {
        let values: [JSONValue] = [.null, .bool(true), .number(1), .string("1"), .array([]), .object([:])]
        #expect(values.map { $0.stringValue != nil } == [false, false, false, true, false, false])
        #expect(values.map { $0.numberValue != nil } == [false, false, true, false, false, false])
        #expect(values.map { $0.boolValue != nil } == [false, true, false, false, false, false])
        #expect(values.map { $0.arrayValue != nil } == [false, false, false, false, true, false])
        #expect(values.map { $0.objectValue != nil } == [false, false, false, false, false, true])
        #expect(Set(values).count == 6)
    }

    @Test func controlCharactersAreEscapedInTheCanonicalText() {
        #expect(JSONValue.string("a\u{1}b\nc\"d\\").canonicalText == #""a\u0001b\u000ac\"d\\""#)
    }
}
