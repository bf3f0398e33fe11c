import Foundation
import TimeTrackCore

/// A path into a JSON document, in the common JSONPath subset: `data`, `data[*].attributes`,
/// `$..events[*]`, `title.rendered`, `_embedded['wp:featuredmedia'][0].source_url`, `items[-1]`.
///
/// - `$` starts at the document; a path without it starts at the value it is applied to (an
///   item, for a field). `@` is the same as no prefix.
/// - `.name` or `['name']`: a member; `[N]`: an element (negative counts from the end);
///   `[*]` or `.*`: every element or member; `..name`: `name` at any depth, in document order
///   (members of an object in key order).
///
/// Filters (`[?(...)]`) are not part of it: the `where` option of the `json` importer says
/// which items to keep.
public struct JSONPath: Sendable, CustomStringConvertible, Equatable {
    enum Step: Sendable, Equatable {
        case member(String)
        case index(Int)
        case all
        /// `..name` (or `..*` with nil): descendants at any depth.
        case descend(String?)
    }

    public let description: String
    let steps: [Step]
    /// Written with `$`: starts at the document, not at the item.
    public let fromDocument: Bool

    /// Parses a path; the error says where it went wrong.
    public init(_ text: String) throws {
        description = text
        var scanner = PathScanner(text)
        fromDocument = scanner.fromDocument
        steps = try scanner.steps()
    }

    /// Reads a path's text into steps, left to right.
    struct PathScanner {
        let text: String
        var chars: [Character]
        var i = 0
        var fromDocument = false

        init(_ text: String) {
            self.text = text
            chars = Array(text.trimmingCharacters(in: .whitespaces))
            if chars.first == "$" {
                fromDocument = true
                chars.removeFirst()
            } else if chars.first == "@" {
                chars.removeFirst()
            }
        }

        func fail(_ message: String) -> TimeTrackError {
            TimeTrackError(.configuration, "path '\(text.prefix(200))' \(message)", fix: "write a path like data[*].attributes, title.rendered or $..events[*]")
        }

        mutating func steps() throws -> [Step] {
            // A path starts at the document ($), at the value (@ or nothing), with a member's name,
            // a bracket or `..`: anything else ("#.data", "/items", "%x") is no root it knows.
            if let first = chars.first, !(first.isLetter || first.isNumber || "_-[.*'\"".contains(first)) {
                throw fail("starts with '\(first)', which is no root: start with $ (the document), @ (the value), or a member's name")
            }
            var steps: [Step] = []
            // A bare first name ("data[*]") is a member of the start.
            if i < chars.count, chars[i] != ".", chars[i] != "[" {
                let first = name()
                steps.append(first == "*" ? .all : .member(first))
            }
            while i < chars.count {
                if chars[i] == "." {
                    steps.append(try dot())
                } else if chars[i] == "[" {
                    steps.append(try bracket())
                } else {
                    throw fail("has '\(chars[i])' where '.' or '[' was expected")
                }
            }
            return steps
        }

        /// A name up to the next `.` or `[`.
        mutating func name() -> String {
            var out = ""
            while i < chars.count, chars[i] != ".", chars[i] != "[" {
                out.append(chars[i])
                i += 1
            }
            return out.trimmingCharacters(in: .whitespaces)
        }

        /// `.name`, `.*`, `..name`, `..*` or `..[*]`.
        mutating func dot() throws -> Step {
            guard i + 1 < chars.count, chars[i + 1] == "." else {
                i += 1
                let member = name()
                guard !member.isEmpty else { throw fail("has an empty name (a '.' with nothing after it)") }
                return member == "*" ? .all : .member(member)
            }
            i += 2
            if i < chars.count, chars[i] == "[" {
                // `..[*]` is every descendant.
                guard i + 2 < chars.count, chars[i + 1] == "*", chars[i + 2] == "]" else { throw fail("has '..[' that is not '..[*]'") }
                i += 3
                return .descend(nil)
            }
            let member = name()
            guard !member.isEmpty else { throw fail("has '..' with no name after it") }
            return .descend(member == "*" ? nil : member)
        }

        /// `[N]`, `[-N]`, `[*]`, `['name']` or `["name"]`.
        mutating func bracket() throws -> Step {
            guard let close = chars[(i + 1)...].firstIndex(of: "]") else { throw fail("has '[' with no ']'") }
            if let open = chars[(i + 1)...].firstIndex(where: { !$0.isWhitespace }), chars[open] == "'" || chars[open] == "\"" {
                // A quoted name may hold ']' or '.': find the closing quote first, then the ']'.
                let quote = chars[open]
                guard let end = chars[(open + 1)...].firstIndex(of: quote), let bracket = chars[(end + 1)...].firstIndex(where: { !$0.isWhitespace }),
                    chars[bracket] == "]"
                else { throw fail("has a quoted name that is not closed") }
                i = bracket + 1
                return .member(String(chars[(open + 1)..<end]))
            }
            let inside = String(chars[(i + 1)..<close]).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            i = close + 1
            if inside == "*" { return .all }
            if let index = Int(inside), abs(index) < 1_000_000 { return .index(index) }
            if inside.hasPrefix("?") { throw fail("uses a filter, which paths here do not support") }
            throw fail("has '[\(inside.prefix(40))]': write [N], [*] or ['name']")
        }
    }

    /// Every value the path reaches from `start`, in document order.
    public func evaluate(_ start: JSONValue) -> [JSONValue] {
        var current = [start]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch step {
                case .member(let name):
                    if let member = value.objectValue?[name] { next.append(member) }
                case .index(let index):
                    if let array = value.arrayValue {
                        let position = index < 0 ? array.count + index : index
                        if array.indices.contains(position) { next.append(array[position]) }
                    }
                case .all:
                    if let array = value.arrayValue {
                        next.append(contentsOf: array)
                    } else if let object = value.objectValue {
                        next.append(contentsOf: object.keys.sorted().compactMap { object[$0] })
                    }
                case .descend(let name):
                    JSONPath.descend(value, name, into: &next)
                }
            }
            current = next
        }
        return current
    }

    /// The first value the path reaches, or nil.
    ///
    /// A value as text: strings as they are, numbers without a needless ".0", true/false, a
    /// list of plain values joined with ", "; nil for objects and null.
    public static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number, .bool: return value.description
        case .array(let list):
            let parts = list.compactMap { entry -> String? in
                switch entry {
                case .string, .number, .bool: return entry.description
                default: return nil
                }
            }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        case .object, .null: return nil
        }
    }

    /// The first value the path finds in a JSON text, as text; nil when the text is no JSON.
    public func text(inJSON json: String) -> String? {
        guard let document = try? JSONValue(parsing: json), let found = first(document) else { return nil }
        return JSONPath.text(found)
    }

    public func first(_ start: JSONValue) -> JSONValue? { evaluate(start).first }

    /// Members named `name` (every value for nil) at any depth below and at `value`.
    ///
    /// Walks with its own stack: a deeply nested document cannot overflow the thread's.
    static func descend(_ value: JSONValue, _ name: String?, into out: inout [JSONValue]) {
        // (value, the member name or array position that reached it); the start is not its own descendant.
        var stack: [(value: JSONValue, key: String?, isStart: Bool)] = [(value, nil, true)]
        while let (top, key, isStart) = stack.popLast() {
            if !isStart, name == nil || key == name { out.append(top) }
            if let object = top.objectValue {
                for member in object.keys.sorted().reversed() { if let child = object[member] { stack.append((child, member, false)) } }
            } else if let array = top.arrayValue {
                for child in array.reversed() { stack.append((child, nil, false)) }
            }
        }
    }
}
