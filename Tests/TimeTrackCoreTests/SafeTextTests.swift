import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

@Suite struct SafeTextTests {
    @Test func preparedContentIsClean() throws {
        let content = Samples.announcement("x\u{1B}[2J\u{202E}y")
        let json = content.canonicalJSON()
        #expect(SafeText.mayHoldUnsafe(json: json), "\(json)")
        let made = content.madeSafe()
        #expect(made.content.title == "x[2Jy", "\(made.json)")
        let prepared = try PreparedContent(content)
        #expect(prepared.content.title == "x[2Jy")
    }

    /// The scan before it was made fast (byte by byte, remembering the two bytes before):
    /// the reference the fast one must agree with.
    static func referenceMayHoldUnsafe(_ json: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        var backslashes = 0
        for byte in json.utf8 {
            switch byte {
            case 0x7F: return true
            case 0x80...0x9F where previous == 0xC2: return true
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return true
            case UInt8(ascii: "u"), UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"):
                if previous == UInt8(ascii: "\\") && backslashes % 2 == 1 { return true }
            default: break
            }
            backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    @Test func theQuickScanAgreesWithTheByteByByteOne() throws {
        var random = SplitMix64(state: 77)
        let pieces: [String] = [
            "a", "u", "r", "b", "f", "n", " ", "\\", "\\\\", "\"", "é", "\u{80}", "\u{9F}", "\u{A0}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2066}",
            "\u{2069}", "\u{206A}", "\u{7F}", "\u{1B}", "日", "😀", "\u{2028}",
        ]
        var unsafe = 0
        for _ in 0..<5_000 {
            let text = (0..<random.int(0...10)).map { _ in pieces[random.int(0...(pieces.count - 1))] }.joined()
            // As canonical JSON, and as raw text (escapes and all).
            for json in [ItemContent.announcement(Announcement(title: text)).canonicalJSON(), text] {
                let expected = Self.referenceMayHoldUnsafe(json)
                #expect(SafeText.mayHoldUnsafe(json: json) == expected, "\(json.debugDescription)")
                if expected { unsafe += 1 }
            }
        }
        #expect(unsafe > 1_000)
    }
}
