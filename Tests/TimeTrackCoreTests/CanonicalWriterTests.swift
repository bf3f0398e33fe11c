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
                title: text(), summary: maybe(text), body: maybe(text), imageURL: maybe(text), imageAlt: maybe(text), link: maybe(text),
                publishedAt: maybe(date),
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

    @Test func eventsAndSchoolInfoAreWrittenAsTheEncoderWritesThem() throws {
        var random = SplitMix64(state: 2027)
        let alphabet: [String] =
            ["a", "Z", " ", "\"", "\\", "/", "<", "é", "😀", "\u{2028}", "\u{7F}", "\u{0}", "\t", "\n", "\r", "\u{1B}"]
        func text() -> String { (0..<random.int(0...12)).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }.joined() }
        func maybe<T>(_ make: () -> T) -> T? { random.chance(50) ? make() : nil }
        func date() -> Date { Date(timeIntervalSince1970: TimeInterval(random.int(-2_000_000_000...4_000_000_000)) + (random.chance(50) ? 0.75 : 0)) }
        var written = 0
        for _ in 0..<2_000 {
            let placed = random.chance(20)
            let event = Event(
                title: text(), category: Event.Category.allCases[random.int(0...(Event.Category.allCases.count - 1))], start: date(), end: maybe(date),
                allDay: random.chance(50), timeZone: random.chance(50) ? "America/Denver" : text(), locationName: maybe(text), address: maybe(text),
                latitude: placed ? 39.7392 : nil, longitude: placed ? -104.9903 : nil, description: maybe(text), link: maybe(text),
                state: Event.State.allCases[random.int(0...(Event.State.allCases.count - 1))])
            let byEncoder = try JSONCoding.compactString(event)
            if let byHand = event.handWrittenJSON() {
                written += 1
                #expect(byHand == byEncoder, "\(byHand.debugDescription) vs \(byEncoder.debugDescription)")
            } else {
                #expect(placed || !CanonicalWriter.writable(event.start) || !CanonicalWriter.writable(event.end))
            }
            #expect(ItemContent.event(event).canonicalJSON() == byEncoder)

            let info = SchoolInfoItem(
                section: SchoolInfoItem.Section.allCases[random.int(0...(SchoolInfoItem.Section.allCases.count - 1))], title: text(), url: text(),
                documentType: SchoolInfoItem.DocumentType.allCases[random.int(0...(SchoolInfoItem.DocumentType.allCases.count - 1))],
                fingerprint: maybe(text), group: maybe(text),
                documentProblems: random.int(0...2) == 0 ? nil : SchoolInfoItem.DocumentProblem.allCases.filter { _ in random.int(0...1) == 0 },
                accessibleCopy: maybe(text))
            #expect(info.handWrittenJSON() == (try JSONCoding.compactString(info)))
            #expect(ItemContent.schoolInfo(info).canonicalJSON() == (try JSONCoding.compactString(info)))
        }
        #expect(written > 1_400)
    }
}
