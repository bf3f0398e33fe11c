import TimeTrackCore

/// Splits a console line into words like a shell: spaces separate, quotes group, `\` escapes.
enum Words {
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for c in line {
            if escaping {
                current.append(c)
                escaping = false
                inWord = true
                continue
            }
            if c == "\\" && quote != "'" {
                escaping = true
                continue
            }
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
                continue
            }
            if c == "\"" || c == "'" {
                quote = c
                inWord = true
                continue
            }
            if c.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
                continue
            }
            if c == "#" && !inWord { break }  // a comment to the end of the line
            current.append(c)
            inWord = true
        }
        if let quote { throw TimeTrackError(.usage, "unterminated \(quote) quote", fix: "close the quote, or escape it with \\") }
        if inWord || escaping { words.append(current) }
        return words
    }
}
