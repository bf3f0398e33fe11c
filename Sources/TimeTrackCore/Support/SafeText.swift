import Foundation

/// Untrusted text made safe to store and show: C0 and C1 control characters (but newline and
/// tab), DEL, and the bidirectional overrides and isolates that can reorder what a reviewer
/// reads are removed.
///
/// Letters, accents, CJK and emoji are untouched.
///
/// Applied once, where content enters the store (`PreparedContent`): importers, the inbox and
/// `edit` all pass there, so exports and every screen read clean text.
public enum SafeText {
    /// Whether a scalar is removed.
    @inline(__always)
    public static func isUnsafe(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        default: return false
        }
    }

    /// The text without unsafe scalars (`\r\n` and `\r` become `\n`).
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar.value == 0x0D { out.append("\n"); previousCR = true; continue }
            if scalar.value == 0x0A && previousCR { previousCR = false; continue }
            previousCR = false
            if !isUnsafe(scalar.value) { out.append(scalar) }
        }
        return String(out)
    }

    /// Text for a terminal: every unsafe scalar shown as a visible stand-in (`␛` for ESC, `␀`
    /// for NUL, `⟨U+202E⟩` for C1 and bidi controls) so that no byte, even one a store written
    /// by another program holds, can move the cursor or reorder a line.
    ///
    /// Newlines and tabs stay.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if !isUnsafe(value) {
                out.append(scalar)
            } else if value < 0x20, let picture = Unicode.Scalar(0x2400 + value) {
                out.append(picture)
            } else if value == 0x7F {
                out.append("\u{2421}")
            } else {
                out.append(contentsOf: String(format: "⟨U+%04X⟩", value).unicodeScalars)
            }
        }
        return String(out)
    }

    /// JSON text with every unsafe scalar the encoder left raw (C1 controls, DEL, bidi
    /// controls) written as a `\uXXXX` escape: the same value for a program, inert on a terminal.
    public static func inertJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { isUnsafe($0.value) }) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar.value) && scalar.value >= 0x20 {
                out += String(format: "\\u%04x", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether canonical JSON (as `JSONEncoder` writes it: controls escaped as `\u00XX`, the
    /// rest as UTF-8) may hold an unsafe scalar: a quick scan that lets clean content skip
    /// the rewrite.
    public static func mayHoldUnsafe(json: String) -> Bool {
        var json = json
        return json.withUTF8 { utf8 in
            let count = utf8.count
            var index = 0
            while index < count {
                let byte = utf8[index]
                index += 1
                // Printable ASCII, the most of any text, is passed at once.
                if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") { continue }
                switch byte {
                case 0x7F: return true
                case UInt8(ascii: "\\"):
                    // A run of backslashes: an odd one escapes the byte after it. \u00XX is a
                    // control (or an escape we cannot rule out cheaply); JSONEncoder writes \r,
                    // \b and \f as short escapes.
                    var run = 1
                    while index < count, utf8[index] == UInt8(ascii: "\\") {
                        run += 1
                        index += 1
                    }
                    if run % 2 == 1, index < count {
                        switch utf8[index] {
                        case UInt8(ascii: "u"), UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"): return true
                        default: break
                        }
                    }
                case 0xC2:
                    // C1 controls: U+0080…U+009F.
                    if index < count, (0x80...0x9F).contains(utf8[index]) { return true }
                case 0xE2:
                    // Bidi overrides U+202A…U+202E and isolates U+2066…U+2069.
                    if index + 1 < count {
                        let (second, third) = (utf8[index], utf8[index + 1])
                        if second == 0x80, (0xAA...0xAE).contains(third) { return true }
                        if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                    }
                default: break
                }
            }
            return false
        }
    }

    /// Every string inside a JSON value cleaned.
    public static func clean(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(clean(s))
        case .array(let list): return .array(list.map(clean))
        case .object(let object): return .object(object.mapValues(clean))
        default: return value
        }
    }
}

extension ItemContent {
    /// The content with every text field made safe (`SafeText`), and its canonical JSON (encoded
    /// once: clean content, nearly all of it, is only scanned).
    func madeSafe() -> (content: ItemContent, json: String) {
        let json = canonicalJSON()
        guard SafeText.mayHoldUnsafe(json: json),
            let value = try? JSONValue(parsing: json),
            let object = SafeText.clean(value).objectValue,
            let cleaned = try? ItemContent.decode(kind: kind, fields: object)
        else { return (self, json) }
        return (cleaned, cleaned.canonicalJSON())
    }
}
