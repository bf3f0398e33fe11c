import Foundation
import Testing
import TimeTrackCore

/// `Whitespace` and the trims built on it say what Foundation's character sets say.
@Suite struct WhitespaceTests {
    @Test func everyScalarIsClassedAsFoundationClassesIt() {
        // Mismatches collected and expected once: an expectation per scalar cost most of the
        // test's time (1.1 million of them).
        var checked = 0
        var mismatches: [String] = []
        let spaces = CharacterSet.whitespaces, spacesAndNewlines = CharacterSet.whitespacesAndNewlines
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Whitespace.isSpace(scalar) != spaces.contains(scalar) || Whitespace.isSpaceOrNewline(scalar) != spacesAndNewlines.contains(scalar) {
                mismatches.append("U+" + String(value, radix: 16))
            }
            checked += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        #expect(checked > 1_100_000)
    }

    @Test func trimsAsFoundationTrims() {
        let samples = [
            "", " ", "\t\n", "plain", "  two  words \t", "\u{A0}nbsp\u{2007}", "\u{2028}line\u{2029}", "\u{85}next\r\n", " \u{301}combining ", "é ", " 😀 ",
            "\u{3000}ideographic\u{3000}", "\n\nkeep\ninner\n\n",
        ]
        for text in samples {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingSpacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(text.isBlank == text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(text.debugDescription)")
            #expect(text[...].trimmingSpaces() == text.trimmingSpaces())
        }
    }
}
