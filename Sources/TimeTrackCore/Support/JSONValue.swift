import Foundation

/// A JSON value: used for field-by-field diffs, edits, `--json` output and source options.
public enum JSONValue: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string inside, or nil.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The object inside, or nil.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    /// The array inside, or nil.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The number inside, or nil.
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    /// The boolean inside, or nil.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// Compact text: strings bare, everything else as JSON.
    public var description: String {
        switch self {
        case .null: return "null"
        case .string(let s): return s
        case .bool(let b): return String(b)
        case .number(let n): return n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        default: return (try? JSONCoding.compactString(self)) ?? "?"
        }
    }
}

/// Shared JSON encoders and decoders: ISO 8601 dates, sorted keys (stable hashes and diffs).
public enum JSONCoding {
    /// An encoder with sorted keys and ISO 8601 dates.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for ISO 8601 dates.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Encodes a value to compact, key-sorted JSON text.
    public static func compactString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    /// Encodes a value to pretty, key-sorted JSON text.
    public static func prettyString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder(pretty: true).encode(value), as: UTF8.self)
    }

    /// Converts an encodable value to a `JSONValue`.
    public static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue(parsing: encoder().encode(value))
    }

    /// Converts a `JSONValue` to a decodable value.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decoder().decode(type, from: encoder().encode(value))
    }
}

extension JSONValue {
    /// Compact JSON with object keys sorted, the same text for the same value every time: what
    /// signatures hash (a source's options in the page and item memos).
    ///
    /// Built by hand: the encoder took a tenth of an unchanged import's CPU for it.
    public var canonicalText: String {
        var out = ""
        appendCanonical(to: &out)
        return out
    }

    private func appendCanonical(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value):
            out += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "\""
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.appendCanonical(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out += "," }
                JSONValue.string(member.key).appendCanonical(to: &out)
                out += ":"
                member.value.appendCanonical(to: &out)
            }
            out += "}"
        }
    }
}
