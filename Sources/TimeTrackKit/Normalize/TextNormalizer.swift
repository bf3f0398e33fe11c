import Foundation

/// Text cleanup shared by all importers.
public enum TextNormalizer {
    /// Whether `text` contains `needle`, byte for byte in UTF-8 (`memchr` + `memcmp`): for the
    /// many keyword checks normalizing does per item, where Foundation's `contains` is slow.
    public static func has(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard !pattern.isEmpty else { return true }
                guard let h = haystack.baseAddress, let p = pattern.baseAddress, haystack.count >= pattern.count else { return false }
                let last = haystack.count - pattern.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(h + offset, Int32(p[0]), last - offset + 1) else { return false }
                    offset = UnsafeRawPointer(found) - UnsafeRawPointer(h)
                    if memcmp(h + offset, p, pattern.count) == 0 { return true }
                    offset += 1
                }
                return false
            }
        }
    }

    /// Collapses runs of whitespace (including `&nbsp;`, tabs, newlines and zero-width spaces) to
    /// one space and trims the ends.
    public static func collapse(_ text: String) -> String {
        var text = text
        switch text.withUTF8(collapseASCII) {
        case .unchanged: return text
        case .collapsed(let result): return result
        case .notASCII: break
        }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x200B, 0x200C, 0x200D, 0xFEFF, 0xAD: continue  // zero-width and soft hyphen
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0xA0, 0x2007, 0x202F, 0x3000, 0x2000...0x200A:
                pendingSpace = true
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }  // control characters
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    enum ASCIICollapse {
        case unchanged, collapsed(String), notASCII
    }

    /// `collapse` for text of ASCII only, as bytes: most fields are, and most need nothing done
    /// (then no string is made at all).
    ///
    /// The same rules: whitespace runs become one space, none at either end, other control
    /// characters go.
    static func collapseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> ASCIICollapse {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        var clean = true
        var previousSpace = true  // a space at the start is dropped
        for byte in bytes {
            if byte >= 0x80 { return .notASCII }
            if byte < 0x20 || byte == 0x7F {
                clean = false
            } else if byte == 0x20 {
                if previousSpace { clean = false }
                previousSpace = true
                continue
            }
            previousSpace = false
        }
        if let last = bytes.last, isSpace(last) { clean = false }
        if clean { return .unchanged }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            if isSpace(byte) {
                pendingSpace = true
            } else if byte < 0x20 || byte == 0x7F {
                continue
            } else {
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                out.append(byte)
            }
        }
        return .collapsed(String(decoding: out, as: UTF8.self))
    }

    /// Decodes HTML entities (`&amp;`, `&#8217;`, `&hellip;`...) in text that came as HTML-escaped strings.
    public static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            guard c == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                out.append(c)
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let decoded = entity(String(name)) {
                out.append(decoded)
                index = text.index(after: semicolon)
            } else {
                out.append(c)
                index = text.index(after: index)
            }
        }
        return out
    }

    static func entity(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[name]
    }

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "hellip": "…", "mdash": "—",
        "ndash": "–", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "copy": "©", "reg": "®", "trade": "™",
        "bull": "•", "middot": "·", "eacute": "é", "egrave": "è", "aacute": "á", "ntilde": "ñ", "oacute": "ó",
        "iacute": "í", "uacute": "ú", "uuml": "ü", "ouml": "ö", "auml": "ä", "ccedil": "ç", "laquo": "«", "raquo": "»",
        "deg": "°", "frac12": "½", "times": "×",
    ]

    /// Text from an HTML snippet: tags removed (a block element's or `<br>`'s edge is a space,
    /// an inline one's nothing: "<strong>April 8</strong>." stays "April 8."), comments
    /// dropped, entities decoded, whitespace collapsed.
    public static func plainText(fromHTML html: String) -> String {
        var out = ""
        var tag: String?
        for c in html {
            if var inside = tag {
                if c == ">" && !(inside.hasPrefix("!--") && !inside.hasSuffix("--")) {
                    let name = inside.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                    if HTMLNode.blockNames.contains(name) || name == "td" || name == "th" { out.append(" ") }
                    tag = nil
                } else {
                    inside.append(c)
                    tag = inside
                }
                continue
            }
            if c == "<" {
                tag = ""
                continue
            }
            out.append(c)
        }
        return collapse(decodeEntities(out))
    }

    /// Drops the "Read more…", "Continue reading »" and "[…]" tails that listing excerpts carry:
    /// at the end of the text, after optional space, `[…]` or `[...]`; `read more`, `learn more`
    /// or `see more` with an optional `…`, `...`, `»`, `›`, `>` or `→`; `continue reading` with
    /// the same but `>`.
    ///
    /// Repeated tails all go. (Matched by hand: this runs for every excerpt
    /// of every run, and a regular expression cost more than the rest of the normalizing.)
    public static func removeReadMore(_ text: String) -> String {
        guard mayEndInReadMore(text) else { return text }
        // The tail is short: match on the last 128 scalars, and on all of them only when
        // repeated tails reach the start of that window.
        let all = text.unicodeScalars
        let window = Array(all.suffix(128))
        var scalars = window
        var end = scalars.count
        var whole = window.count == all.count
        while true {
            if let start = readMoreTailStart(scalars, end: end), start < end {
                end = start
                continue
            }
            // A tail may straddle the window's start (the longest is about 20 characters): look
            // again over the whole text.
            guard !whole, end < 32 else { break }
            scalars = Array(all)
            end += all.count - window.count
            whole = true
        }
        let cut = scalars.count - end
        guard cut > 0 else { return text.trimmingSpaces() }
        return String(String.UnicodeScalarView(all.dropLast(cut))).trimmingSpaces()
    }

    /// Whether the last 40 characters, lowercased, hold "more", "reading" or "]": the only texts
    /// worth the scalar work below.
    ///
    /// Searched as bytes, ASCII letters in either case: lowercasing
    /// a non-ASCII letter never gives one of these words' letters, so this is the same test
    /// without making a lowercased copy. When the last 80 bytes are ASCII they hold at least the
    /// last 40 characters; otherwise the 40 characters are counted.
    static func mayEndInReadMore(_ text: String) -> Bool {
        let utf8 = text.utf8
        var start = utf8.index(utf8.endIndex, offsetBy: -80, limitedBy: utf8.startIndex) ?? utf8.startIndex
        if !utf8[start...].allSatisfy({ $0 < 0x80 }) {
            start = text.index(text.endIndex, offsetBy: -40, limitedBy: text.startIndex) ?? text.startIndex
        }
        let tail = Array(utf8[start...])
        func contains(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard tail.count >= count else { return false }
            for first in 0...(tail.count - count) {
                var same = true
                for offset in 0..<count {
                    var byte = tail[first + offset]
                    if byte >= 65 && byte <= 90 { byte += 32 }
                    if byte != word.utf8Start[offset] {
                        same = false
                        break
                    }
                }
                if same { return true }
            }
            return false
        }
        return contains("more") || contains("reading") || contains("]")
    }

    /// Where a read-more tail ending `s[..<end]` (after optional space) starts, its leading space
    /// included; nil when there is none.
    static func readMoreTailStart(_ s: [Unicode.Scalar], end: Int) -> Int? {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            let v = scalar.value
            if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
            return scalar.properties.isWhitespace
        }
        func skipSpaces(_ i: Int) -> Int {
            var j = i
            while j > 0 && isSpace(s[j - 1]) { j -= 1 }
            return j
        }
        /// Start of `word` (ASCII letters, any case) if it ends at `i`.
        func word(_ word: String, endingAt i: Int) -> Int? {
            let letters = Array(word.utf8)
            guard i >= letters.count else { return nil }
            for (k, letter) in letters.enumerated() {
                var v = s[i - letters.count + k].value
                if v >= 65 && v <= 90 { v += 32 }
                guard v == UInt32(letter) else { return nil }
            }
            return i - letters.count
        }
        func ellipsis(endingAt i: Int) -> Int? {
            if i >= 1 && s[i - 1] == "…" { return i - 1 }
            if i >= 3 && s[i - 1] == "." && s[i - 2] == "." && s[i - 3] == "." { return i - 3 }
            return nil
        }
        let e = skipSpaces(end)
        // [ … ] or [ ... ]
        if e >= 1 && s[e - 1] == "]", let dots = ellipsis(endingAt: skipSpaces(e - 1)) {
            let open = skipSpaces(dots)
            if open >= 1 && s[open - 1] == "[" { return skipSpaces(open - 1) }
        }
        // Where the words may end: at the end, or before an arrow or ellipsis (`>` only after "more").
        var candidates: [(end: Int, continueAllowed: Bool)] = [(e, true)]
        if e >= 1, ["»", "›", "→"].contains(s[e - 1]) { candidates.append((e - 1, true)) }
        if e >= 1, s[e - 1] == ">" { candidates.append((e - 1, false)) }
        if let dots = ellipsis(endingAt: e) { candidates.append((dots, true)) }
        for (candidate, continueAllowed) in candidates {
            let q = skipSpaces(candidate)
            if let more = word("more", endingAt: q) {
                let gap = skipSpaces(more)
                if gap < more {
                    for verb in ["read", "learn", "see"] {
                        if let start = word(verb, endingAt: gap) { return skipSpaces(start) }
                    }
                }
            }
            if continueAllowed, let reading = word("reading", endingAt: q) {
                let gap = skipSpaces(reading)
                if gap < reading, let start = word("continue", endingAt: gap) { return skipSpaces(start) }
            }
        }
        return nil
    }

    /// Cuts text to at most `limit` characters at a word boundary, adding `…`.
    public static func truncate(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit - 1)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]).trimmingCharacters(in: .whitespaces) + "…"
    }
}
