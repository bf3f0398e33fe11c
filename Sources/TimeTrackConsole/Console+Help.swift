import Foundation
import TimeTrackCore

extension Console {
    /// `text` in lines of at most `width` characters, broken between words (a word longer than
    /// the width has a line of its own).
    static func wrapWords(_ text: String, width: Int) -> [String] {
        var wrapped: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                wrapped.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { wrapped.append(current) }
        return wrapped
    }

    /// A usage line wrapped between its words, a bracketed option (`[--file PATH]`) kept whole.
    static func wrapUsage(_ usage: String, width: Int) -> [String] {
        var words: [String] = []
        var depth = 0
        for piece in usage.split(separator: " ") {
            if depth > 0, let last = words.popLast() { words.append(last + " " + piece) } else { words.append(String(piece)) }
            depth += piece.filter { $0 == "[" }.count - piece.filter { $0 == "]" }.count
        }
        var lines: [String] = []
        for word in words {
            if let last = lines.last, last.count + 1 + word.count <= width {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(word)
            }
        }
        return lines
    }

    /// The general help text.
    public static func helpText() -> String {
        var lines = [
            "timetrack-admin \(version): the Time Track admin console and importer",
            "",
            "usage: timetrack-admin [GLOBAL OPTIONS] COMMAND [ARGS]",
            "       timetrack-admin             (on a terminal: the interactive console)",
            "",
            "commands:",
        ]
        // Two columns that fit the terminal: the usage, then the summary wrapped beside it (or
        // under it, indented, when the terminal is narrow).
        let columns = terminalWidth()
        func rows(_ left: String, _ text: String, width: Int) -> [String] {
            let indent = columns - width - 2 >= 30 ? width + 2 : 6
            let wrapped = wrapWords(text, width: max(20, columns - indent))
            let pad = String(repeating: " ", count: indent)
            if indent == width + 2 {
                return wrapped.enumerated().map { ($0.offset == 0 ? "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) : pad) + $0.element }
            }
            return ["  " + left] + wrapped.map { pad + $0 }
        }
        let width = min(40, (commands.map { $0.usageLine.count }.max() ?? 0) + 2)
        for command in commands {
            if command.usageLine.count + 2 > width {
                // A long usage on lines of its own, wrapped between words when it is wider than
                // the terminal (an option never cut from its value), the summary under it.
                let wrapped = wrapUsage(command.usageLine, width: max(20, columns - 6))
                lines += wrapped.enumerated().map { ($0.offset == 0 ? "  " : "      ") + $0.element }
                lines += rows("", command.summary, width: width)
            } else {
                lines += rows(command.usageLine, command.summary, width: width)
            }
        }
        lines.append("")
        lines.append("global options:")
        for option in globalOptions {
            let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
            lines += rows(left, option.help, width: 18)
        }
        lines.append("")
        lines.append("exit codes: 0 done, 1 failed, 2 usage or configuration error, 3 partly done")
        return lines.joined(separator: "\n")
    }

    /// `words` with the global options given after the command word moved before it, as git
    /// takes `git log --no-pager`: `plugins --imports DIR` is `--imports DIR plugins`.
    ///
    /// An option the command has of its own (`export --format`) stays the command's; nothing after
    /// `--` moves.
    static func hoistingGlobalOptions(_ words: [String]) -> [String] {
        let valued = Set(globalOptions.filter { $0.value != nil }.map(\.name))
        // `COMMAND --help` is the command's help, not the program's.
        let globals = Set(globalOptions.map(\.name)).subtracting(["help", "version"])
        func name(_ word: String) -> String { String(word.dropFirst(2).prefix { $0 != "=" }) }
        // The command word: the first word that is not a leading global option or its value.
        var index = 0
        while index < words.count, words[index].hasPrefix("--") {
            index += valued.contains(name(words[index])) && !words[index].contains("=") ? 2 : 1
        }
        guard index < words.count, let command = command(named: words[index]) else { return words }
        let own = Set(command.options.map(\.name))
        var before = Array(words[..<index]), after: [String] = []
        var rest = words[(index + 1)...].makeIterator()
        while let word = rest.next() {
            if word == "--" {
                after.append(word)
                while let remaining = rest.next() { after.append(remaining) }
                break
            }
            let option = name(word)
            guard word.hasPrefix("--"), globals.contains(option), !own.contains(option) else {
                after.append(word)
                continue
            }
            before.append(word)
            if valued.contains(option), !word.contains("="), let value = rest.next() { before.append(value) }
        }
        return before + [words[index]] + after
    }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
