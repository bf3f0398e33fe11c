import Foundation

/// One property of an iCalendar component: `NAME;PARAM=VALUE:value`.
struct ICSProperty {
    var name: String
    var parameters: [String: String]
    var value: String
    /// The content line it started on (1-based), for problems.
    var line: Int
}

/// A component (`VCALENDAR`, `VEVENT`, `VTIMEZONE`, `STANDARD`...) with its properties and children.
final class ICSComponent {
    let name: String
    let line: Int
    var properties: [ICSProperty] = []
    var children: [ICSComponent] = []
    var terminated = false

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }

    func first(_ name: String) -> ICSProperty? { properties.first { $0.name == name } }
    func all(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }
}

/// RFC 5545 text to components: unfolds lines (CRLF or LF), splits parameters (quoted values
/// too), and reports unterminated components instead of failing.
enum ICSParser {
    struct Result {
        var root: [ICSComponent]
        var problems: [(line: Int, message: String)]
    }

    /// How deep components may nest.
    static let maxDepth = 8

    static func parse(_ text: String) -> Result {
        var problems: [(Int, String)] = []
        // Unfold: a line starting with a space or tab continues the previous one.
        var lines: [(Int, String)] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += String(line.dropFirst())
            } else if !line.isEmpty {
                lines.append((number, line))
            }
        }
        var roots: [ICSComponent] = []
        var stack: [ICSComponent] = []
        // Components nested deeper than any real calendar (VCALENDAR > VTIMEZONE > STANDARD is 3)
        // are skipped as a whole, so hostile nesting can neither exhaust the stack nor the memory.
        var skippedDepth = 0
        for (number, line) in lines {
            guard let property = parseLine(line, number: number) else {
                problems.append((number, "not an iCalendar content line: \(line.prefix(60))"))
                continue
            }
            if skippedDepth > 0 {
                if property.name == "BEGIN" { skippedDepth += 1 } else if property.name == "END" { skippedDepth -= 1 }
                continue
            }
            switch property.name {
            case "BEGIN":
                if stack.count >= maxDepth {
                    problems.append((number, "\(property.value.prefix(40)) nested more than \(maxDepth) components deep: skipped with everything inside it"))
                    skippedDepth = 1
                    continue
                }
                let component = ICSComponent(name: property.value.uppercased(), line: number)
                if let parent = stack.last { parent.children.append(component) } else { roots.append(component) }
                stack.append(component)
            case "END":
                let name = property.value.uppercased()
                guard let index = stack.lastIndex(where: { $0.name == name }) else {
                    problems.append((number, "END:\(name) without a BEGIN"))
                    continue
                }
                for unclosed in stack[(index + 1)...] {
                    problems.append((unclosed.line, "\(unclosed.name) that starts here is not terminated (no END:\(unclosed.name))"))
                }
                stack[index].terminated = true
                stack.removeSubrange(index...)
            default:
                stack.last?.properties.append(property)
            }
        }
        for unclosed in stack {
            problems.append((unclosed.line, "\(unclosed.name) that starts here is not terminated (no END:\(unclosed.name))"))
        }
        return Result(root: roots, problems: problems)
    }

    static func parseLine(_ line: String, number: Int) -> ICSProperty? {
        var name = ""
        var parameters: [String: String] = [:]
        var index = line.startIndex
        while index < line.endIndex, line[index] != ";" && line[index] != ":" {
            name.append(line[index])
            index = line.index(after: index)
        }
        guard !name.isEmpty, index < line.endIndex else { return nil }
        while index < line.endIndex, line[index] == ";" {
            index = line.index(after: index)
            var key = ""
            while index < line.endIndex, line[index] != "=" && line[index] != ":" && line[index] != ";" {
                key.append(line[index])
                index = line.index(after: index)
            }
            var value = ""
            if index < line.endIndex, line[index] == "=" {
                index = line.index(after: index)
                var quoted = false
                while index < line.endIndex {
                    let c = line[index]
                    if c == "\"" { quoted.toggle() } else if !quoted && (c == ";" || c == ":") { break } else { value.append(c) }
                    index = line.index(after: index)
                }
            }
            parameters[key.uppercased()] = value
        }
        guard index < line.endIndex, line[index] == ":" else { return nil }
        return ICSProperty(name: name.uppercased(), parameters: parameters, value: String(line[line.index(after: index)...]), line: number)
    }

    /// Unescapes TEXT values: `\,` `\;` `\\` `\n` `\N`.
    static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        var escaping = false
        for c in value {
            if escaping {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Splits a list value on unescaped commas (CATEGORIES, EXDATE).
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for c in value {
            if escaping { current.append("\\"); current.append(c); escaping = false; continue }
            if c == "\\" { escaping = true; continue }
            if c == "," { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts.map { unescape($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
