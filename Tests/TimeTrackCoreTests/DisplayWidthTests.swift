import Foundation
import Testing

@testable import TimeTrackCore

/// Terminal columns of the text the console prints in tables: wide East Asian characters and
/// emoji take two, accents and joiners none.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Board meeting", 13), ("", 0), ("café", 4), ("cafe\u{301}", 4), ("Nguyễn Văn An", 13), ("日本語", 6), ("한국어 수업", 11), ("中文 Chinese", 12),
        ("👩‍👩‍👧", 2), ("🇺🇸", 2), ("☕", 2), ("✓", 1), ("❤️", 2), ("ＡＢＣ", 6), ("a\u{200B}b", 2), ("tab\there", 7), ("Ελληνικά", 8), ("עברית", 5),
    ])
    func columns(_ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.debugDescription)")
    }

    @Test(arguments: [("日本語のテキスト", 5, "日本"), ("abc", 10, "abc"), ("a日b", 2, "a"), ("👩‍👩‍👧x", 1, ""), ("Zoë Smith", 3, "Zoë")])
    func prefixes(_ text: String, _ columns: Int, _ expected: String) {
        #expect(DisplayWidth.prefix(text, columns: columns) == expected)
        #expect(DisplayWidth.of(DisplayWidth.prefix(text, columns: columns)) <= columns)
    }
}
