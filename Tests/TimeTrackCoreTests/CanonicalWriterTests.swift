import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// The hand-written canonical JSON of an announcement is, byte for byte, what the encoder
/// writes: stored revisions and their hashes do not change.
@Suite struct CanonicalWriterTests {
    @Test func announcementsAreWrittenAsTheEncoderWritesThem() throws {
        var random = SplitMix64(state: 2026)
        let alphabet: [String] =
            ["a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "é", "😀", "\u{2028}", "\u{2029}", "\u{7F}", "\u{FEFF}", "\u{0}", "\t", "\n", "\r"]
            + (1..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        func text() -> String { (0..<random.int(0...12)).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }.joined() }
        func maybe<T>(_ make: () -> T) -> T? { random.chance(50) ? make() : nil }
        func date() -> Date { Date(timeIntervalSince1970: TimeInterval(random.int(-2_000_000_000...4_000_000_000)) + (random.chance(50) ? 0.75 : 0)) }
        var written = 0
        for _ in 0..<3_000 {
            let announcement = Announcement(
                title: text(), summary: maybe(text), body: maybe(text), imageURL: maybe(text), imageAlt: maybe(text), link: maybe(text), publishedAt: maybe(date),
                priority: random.chance(50) ? .normal : .urgent, expiresAt: maybe(date))
            let byEncoder = try JSONCoding.compactString(announcement)
            if let byHand = announcement.handWrittenJSON() {
                written += 1
                #expect(byHand == byEncoder, "\(byHand.debugDescription) vs \(byEncoder.debugDescription)")
            }
            #expect(ItemContent.announcement(announcement).canonicalJSON() == byEncoder)
        }
        #expect(written > 2_500)
        // Before 1900 (where calendars may differ) the encoder writes it.
        #expect(Announcement(title: "Old", publishedAt: Date(timeIntervalSince1970: -9_000_000_000)).handWrittenJSON() == nil)
    }
}
