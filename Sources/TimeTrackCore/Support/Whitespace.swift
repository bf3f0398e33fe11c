import Foundation

/// `CharacterSet.whitespaces` and `.whitespacesAndNewlines` tests without Foundation's bridging
/// (`trimmingCharacters(in:)` made an `NSString` of every field it trimmed).
public enum Whitespace {
    /// In `CharacterSet.whitespaces`: a space separator (Zs), a tab, or U+200B (zero width
    /// space, which Foundation counts though Unicode does not).
    @inline(__always)
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || value == 0x09 }
        return value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }

    /// In `CharacterSet.whitespacesAndNewlines`: a separator (Zs, Zl, Zp), a tab, U+000A–U+000D,
    /// U+0085 or U+200B.
    @inline(__always)
    public static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        if value == 0x85 || value == 0x200B { return true }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`, natively.
    public func trimmingSpaces() -> String { trimming(Whitespace.isSpace) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, natively.
    public func trimmingSpacesAndNewlines() -> String { trimming(Whitespace.isSpaceOrNewline) }

    /// Whether the text is empty or only whitespace and line breaks.
    public var isBlank: Bool { unicodeScalars.allSatisfy(Whitespace.isSpaceOrNewline) }

    private func trimming(_ test: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !test($0) }) else { return "" }
        guard let last = scalars.lastIndex(where: { !test($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return String(self) }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }
}
