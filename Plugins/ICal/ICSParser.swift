import Foundation
import TimeTrackKit

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
        var problems: [Problem]
    }

    /// What the parser met, on which line, and how bad it is: an unterminated component loses
    /// what it holds (an error); a stray line is skipped (a warning).
    struct Problem {
        var line: Int
        var message: String
        var severity: ImportProblem.Severity

        /// The problem as an import reports it.
        var imported: ImportProblem { ImportProblem(severity, message, location: "line \(line)") }
    }

    /// How deep components may nest.
    static let maxDepth = 8

    static func parse(_ text: String) -> Result {
        var problems: [Problem] = []
        // Unfold: a line starting with a space or tab continues the previous one.
        var lines: [(Int, String)] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            // By scalar: a fold may fall inside a character ("👩\r\n \u{200D}👩"), and then the
            // space and what follows are one Character.
            if let first = line.unicodeScalars.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += String(String.UnicodeScalarView(line.unicodeScalars.dropFirst()))
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
                problems.append(Problem(line: number, message: "not an iCalendar content line: \(line.prefix(60))", severity: .warning))
                continue
            }
            if skippedDepth > 0 {
                if property.name == "BEGIN" { skippedDepth += 1 } else if property.name == "END" { skippedDepth -= 1 }
                continue
            }
            switch property.name {
            case "BEGIN":
                if stack.count >= maxDepth {
                    problems.append(
                        Problem(
                            line: number,
                            message: "\(property.value.prefix(40)) nested more than \(maxDepth) components deep: skipped with everything inside it",
                            severity: .warning))
                    skippedDepth = 1
                    continue
                }
                let component = ICSComponent(name: property.value.uppercased(), line: number)
                if let parent = stack.last { parent.children.append(component) } else { roots.append(component) }
                stack.append(component)
            case "END":
                let name = property.value.uppercased()
                guard let index = stack.lastIndex(where: { $0.name == name }) else {
                    problems.append(Problem(line: number, message: "END:\(name) without a BEGIN", severity: .warning))
                    continue
                }
                for unclosed in stack[(index + 1)...] {
                    problems.append(
                        Problem(line: unclosed.line, message: "\(unclosed.name) that starts here is not terminated (no END:\(unclosed.name))", severity: .error)
                    )
                }
                stack[index].terminated = true
                stack.removeSubrange(index...)
            default:
                stack.last?.properties.append(property)
            }
        }
        for unclosed in stack {
            problems.append(
                Problem(line: unclosed.line, message: "\(unclosed.name) that starts here is not terminated (no END:\(unclosed.name))", severity: .error))
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
