import Foundation

/// Untrusted text made safe to store and show: C0 and C1 control characters (but newline and
/// tab), DEL, and the bidirectional overrides and isolates that can reorder what a reviewer
/// reads are removed. Letters, accents, CJK and emoji are untouched.
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
    /// by another program holds, can move the cursor or reorder a line. Newlines and tabs stay.
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
        var utf8 = json.utf8.makeIterator()
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        var backslashes = 0
        while let byte = utf8.next() {
            switch byte {
            case 0x7F: return true
            case 0x80...0x9F where previous == 0xC2: return true  // C1
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return true
            case UInt8(ascii: "u") where previous == UInt8(ascii: "\\") && backslashes % 2 == 1: return true  // \u00XX: a control (or an escape we cannot rule out cheaply)
            // JSONEncoder writes \r, \b and \f as short escapes.
            case UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"):
                if previous == UInt8(ascii: "\\") && backslashes % 2 == 1 { return true }
            default: break
            }
            backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0
            beforePrevious = previous
            previous = byte
        }
        return false
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
