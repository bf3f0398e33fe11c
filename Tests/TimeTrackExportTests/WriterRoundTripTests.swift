import Foundation
import TestSupport
import Testing
import TimeTrackKit

@testable import ICalImporter
@testable import TimeTrackExport

/// Issue 36: the export's small writers checked against our own readers, value by value, on
/// generated input: iCalendar text escaping and line folding against the calendar importer's
/// parser, time zones written as VTIMEZONE against its observance reader and Foundation's zone
/// database, reminder triggers against its duration reader, RSS dates against the date parser.
@Suite struct WriterRoundTripTests {
    static let pieces = ["a", "Board", " ", ",", ";", "\\", "\n", "\r\n", ":", "é", "—", "👩‍👩‍👧", "\"", "x\\n", "日本"]

    static func text(_ random: inout SplitMix64, most: Int = 12) -> String {
        (0..<random.int(0...most)).map { _ in pieces[random.int(0...(pieces.count - 1))] }.joined()
    }

    @Test func escapedTextReadsBackAsWritten() {
        var random = SplitMix64(state: 5_545)
        for _ in 0..<3_000 {
            let original = Self.text(&random)
            let escaped = ICSWriter.escape(original)
            // Checked by scalar: "\r\n" is one Character, and String.contains("\n") misses it.
            #expect(!escaped.unicodeScalars.contains("\n") && !escaped.unicodeScalars.contains("\r"), "\(original.debugDescription)")
            let withoutReturns = String(String.UnicodeScalarView(original.unicodeScalars.filter { $0 != "\r" }))
            #expect(ICSParser.unescape(escaped) == withoutReturns, "\(original.debugDescription)")
        }
    }

    @Test func foldedLinesAreShortAndUnfoldToTheLine() {
        var random = SplitMix64(state: 75)
        for _ in 0..<2_000 {
            let line = "DESCRIPTION:" + ICSWriter.escape(Self.text(&random, most: 60))
            let folded = ICSWriter.fold(line)
            let physical = folded.components(separatedBy: "\r\n")
            #expect(physical.allSatisfy { $0.utf8.count <= 75 }, "\(physical.map(\.utf8.count))")
            #expect(physical.dropFirst().allSatisfy { $0.unicodeScalars.first == " " && $0.first == " " }, "a fold inside a character: \(physical)")
            // Each physical line is whole UTF-8: no scalar was cut.
            #expect(physical.joined().unicodeScalars.count >= line.unicodeScalars.count)
            let parsed = ICSParser.parse("BEGIN:VCALENDAR\r\n" + folded + "\r\nEND:VCALENDAR\r\n")
            #expect(parsed.root.first?.first("DESCRIPTION")?.value == String(line.dropFirst("DESCRIPTION:".count)))
        }
    }

    /// Another writer may fold between the scalars of one character (RFC 5545 counts octets):
    /// the importer joins such lines too.
    @Test func aFoldInsideACharacterIsJoined() {
        let family = "👩\u{200D}👩\u{200D}👧"
        let text = "BEGIN:VCALENDAR\r\nSUMMARY:Family night 👩\r\n \u{200D}👩\u{200D}👧\r\nEND:VCALENDAR\r\n"
        let parsed = ICSParser.parse(text)
        #expect(parsed.problems.isEmpty)
        #expect(parsed.root.first?.first("SUMMARY")?.value == "Family night " + family)
        let long = String(repeating: family, count: 10)
        #expect(ICSWriter.fold("X:" + long).components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }

    @Test(arguments: [(0, "+0000"), (-25_200, "-0700"), (19_800, "+0530"), (-12_600, "-0330"), (46_800, "+1300")])
    func offsets(_ seconds: Int, _ expected: String) {
        #expect(ICSWriter.offset(seconds) == expected)
        #expect(VTimeZone.offset(expected) == seconds)
    }

    /// A zone written as VTIMEZONE and read back gives Foundation's offset at every instant in
    /// the range it covers.
    @Test(arguments: ["America/Denver", "America/New_York", "America/Phoenix", "Europe/London", "Australia/Sydney", "Pacific/Honolulu"])
    func zonesReadBackWithTheirOffsets(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let from = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        let to = from.addingTimeInterval(365 * 86_400)
        let lines = ["BEGIN:VCALENDAR"] + ICSWriter.vtimezone(zone, from: from, to: to) + ["END:VCALENDAR"]
        let parsed = ICSParser.parse(lines.joined(separator: "\r\n"))
        #expect(parsed.problems.isEmpty)
        let component = try #require(parsed.root.first?.children.first)
        let written = try #require(VTimeZone(component))
        var random = SplitMix64(state: UInt64(identifier.utf8.count))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0) ?? zone
        for _ in 0..<500 {
            let instant = from.addingTimeInterval(TimeInterval(random.int(0...(365 * 86_400))))
            let offset = zone.secondsFromGMT(for: instant)
            // The local wall-clock time at that instant, as an event's DTSTART would give it.
            let local = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.addingTimeInterval(TimeInterval(offset)))
            let read = written.offset(at: local)
            // In the repeated hour after a change back, both offsets name that wall time.
            let ambiguous =
                zone.secondsFromGMT(for: instant.addingTimeInterval(-3_600)) != offset || zone.secondsFromGMT(for: instant.addingTimeInterval(3_600)) != offset
            #expect(read == offset || ambiguous, "\(identifier) at \(instant): read \(read), Foundation \(offset)")
        }
    }

    @Test(arguments: [(0, "PT0S"), (30, "-PT30M"), (120, "-PT2H"), (1_440, "-P1D"), (2_160, "-P1DT12H"), (1_501, "-P1DT1H1M"), (10_080, "-P7D")])
    func triggers(_ minutes: Int, _ expected: String) {
        #expect(Exporter.trigger(minutes) == expected)
    }

    @Test func everyTriggerReadsBackAsItsMinutes() throws {
        var random = SplitMix64(state: 2_880)
        for _ in 0..<2_000 {
            let minutes = random.int(0...(60 * 1_440))
            let duration = try #require(ICSDuration(Exporter.trigger(minutes)))
            #expect(duration.days * 86_400 + duration.seconds == -minutes * 60, "\(minutes)")
        }
    }

    @Test func rssDatesReadBackToTheSameSecond() {
        let parser = DateParser(timeZone: TimeZone(identifier: "America/Denver") ?? .current)
        var random = SplitMix64(state: 822)
        for _ in 0..<1_000 {
            let date = Date(timeIntervalSince1970: TimeInterval(random.int(946_684_800...4_102_444_800)))
            let written = RSSWriter.rfc822(date)
            #expect(parser.parse(written)?.date == date, "\(written)")
        }
        #expect(RSSWriter.rfc822(Date(timeIntervalSince1970: 1_790_000_000)) == "Mon, 21 Sep 2026 14:13:20 +0000")
    }

    @Test(arguments: [
        ("Fish & chips <b>", "Fish &amp; chips &lt;b&gt;"), ("say \"hi\"", "say &quot;hi&quot;"), ("bell\u{7}ring", "bellring"),
        ("tab\tand\nline", "tab\tand\nline"), ("\u{0}\u{1F}", ""), ("café ✓", "café ✓"),
    ])
    func rssEscaping(_ text: String, _ expected: String) {
        #expect(RSSWriter.escape(text) == expected)
    }

    @Test func rssTextParsesAsXMLWhateverItHolds() throws {
        var random = SplitMix64(state: 1_000)
        let hostile = ["<", ">", "&", "\"", "'", "\u{1}", "\u{B}", "]]>", "<![CDATA[", "&amp;", "é", "text"]
        for _ in 0..<500 {
            let text = (0..<random.int(0...10)).map { _ in hostile[random.int(0...(hostile.count - 1))] }.joined()
            let xml = "<rss><title>\(RSSWriter.escape(text))</title></rss>"
            let document = try HTMLDocument(xml: Data(xml.utf8), url: nil)
            let title = try document.root.select("title").first?.text
            let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 }))
            #expect(title == TextNormalizer.collapse(kept), "\(text.debugDescription)")
        }
    }

    @Test(arguments: [
        ("https://x.example/a.png", "image/png"), ("https://x.example/a.GIF?v=2", "image/gif"), ("https://x.example/a.webp", "image/webp"),
        ("https://x.example/a.svg", "image/svg+xml"), ("https://x.example/a.jpg", "image/jpeg"), ("https://x.example/photo", "image/jpeg"),
    ])
    func imageTypes(_ url: String, _ expected: String) {
        #expect(RSSWriter.imageType(url) == expected)
    }

    @Test(arguments: [
        ("CHEM-AP", "CHEM-AP"), ("chem ap", "chem_ap"), ("../../etc/passwd", "______etc_passwd"), ("", "course"), ("///", "course"),
        ("Química", "Qu_mica"), ("AP_BIO-2", "AP_BIO-2"),
    ])
    func courseFileNames(_ code: String, _ expected: String) {
        let name = Exporter.fileName(code)
        #expect(name == expected)
        #expect(!name.contains("/") && !name.hasPrefix("."))
    }
}
