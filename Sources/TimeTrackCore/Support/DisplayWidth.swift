/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji
/// take two, combining marks and zero-width characters none, everything else one (what
/// `wcwidth` says for the characters school pages hold).
public enum DisplayWidth {
    /// The columns of a whole text.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns of one character as a terminal shows it (a grapheme cluster: an emoji
    /// sequence or a letter with its accents is one).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }  // ASCII, the common case
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && scalars.contains(where: { $0.properties.isEmoji }) { return 2 }
        return width(of: first)
    }

    /// The columns of a scalar that starts a character.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || (0x200B...0x200F).contains(value) { return 0 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// The longest start of `text` that fits in `columns`.
    public static func prefix(_ text: String, columns: Int) -> String {
        var used = 0
        var out = ""
        for character in text {
            let width = of(character)
            guard used + width <= columns else { break }
            used += width
            out.append(character)
        }
        return out
    }
}
