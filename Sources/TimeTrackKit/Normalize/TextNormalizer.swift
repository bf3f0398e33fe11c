import Foundation

/// Text cleanup shared by all importers.
public enum TextNormalizer {
    /// Collapses runs of whitespace (including `&nbsp;`, tabs, newlines and zero-width spaces) to
    /// one space and trims the ends.
    public static func collapse(_ text: String) -> String {
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

    /// Decodes HTML entities (`&amp;`, `&#8217;`, `&hellip;`...) in text that came as HTML-escaped strings.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
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

    /// Text from an HTML snippet: tags removed, entities decoded, whitespace collapsed.
    public static func plainText(fromHTML html: String) -> String {
        var out = ""
        var inTag = false
        for c in html {
            if c == "<" { inTag = true; out.append(" "); continue }
            if c == ">" && inTag { inTag = false; continue }
            if !inTag { out.append(c) }
        }
        return collapse(decodeEntities(out))
    }

    static let readMorePattern = try? NSRegularExpression(
        pattern: #"\s*(?:\[\s*(?:…|\.\.\.)\s*\]|(?:read|learn|see)\s+more\s*(?:…|\.\.\.|»|›|>|→)?|continue\s+reading\s*(?:…|\.\.\.|»|›|→)?)\s*$"#,
        options: [.caseInsensitive])

    /// Drops the "Read more…", "Continue reading »" and "[…]" tails that listing excerpts carry.
    public static func removeReadMore(_ text: String) -> String {
        let lower = text.suffix(40).lowercased()
        guard lower.contains("more") || lower.contains("reading") || lower.contains("]") else { return text }
        var result = text
        while let regex = readMorePattern,
            let match = regex.firstMatch(in: result, range: NSRange(location: 0, length: (result as NSString).length)), match.range.length > 0
        {
            result = (result as NSString).replacingCharacters(in: match.range, with: "")
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Cuts text to at most `limit` characters at a word boundary, adding `…`.
    public static func truncate(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit - 1)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]).trimmingCharacters(in: .whitespaces) + "…"
    }
}
