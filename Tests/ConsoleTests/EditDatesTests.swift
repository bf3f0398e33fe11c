import Foundation
import TestSupport
import Testing

/// `edit` of an event's start and end through the real binary: typed in the event's zone,
/// stored as that instant, exported to iCalendar as the same wall-clock time.
@Suite struct EditDatesTests {
    @Test func editedTimesRoundTripToTheCalendarExport() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let events = (try fixture.json(["list", "events", "--limit", "100"])) as? [[String: Any]] ?? []
        let id = try #require(events.first?["id"] as? String)
        let edit = try fixture.run(["--as", "ana", "edit", id, "start=2026-09-15 18:30", "end=2026-09-15T20:00", "allDay=false"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let shown = try fixture.json(["show", id]) as? [String: Any]
        let fields = shown?["fields"] as? [String: Any]
        #expect(fields?["start"] as? String == "2026-09-16T00:30:00Z", "\(fields ?? [:])")
        #expect(fields?["end"] as? String == "2026-09-16T02:00:00Z")
        // Moving the start alone keeps the 90 minutes.
        #expect(try fixture.run(["--as", "ana", "edit", id, "start=19:00"]).status == 0)
        let moved = (try fixture.json(["show", id]) as? [String: Any])?["fields"] as? [String: Any]
        #expect(moved?["start"] as? String == "2026-09-16T01:00:00Z")
        #expect(moved?["end"] as? String == "2026-09-16T02:30:00Z")
        // `show` reads in the item's zone, with the tz database's abbreviation.
        let text = try fixture.run(["show", id]).stdout
        #expect(text.contains("start:") && text.contains("2026-09-15 19:00 MDT"), "\(text)")
        #expect(!text.contains("GMT-"), "\(text)")
        // So do its history and the times of its decisions.
        let history = try fixture.run(["history", id]).stdout
        #expect(history.contains(" MDT") || history.contains(" MST"), "\(history)")
        #expect(!history.contains(" UTC"), "\(history)")
        let announcement = try #require(try fixture.ids("announcements").first)
        let news = try fixture.run(["show", announcement]).stdout
        #expect(news.contains(" MDT") || news.contains(" MST"), "announcements show in their source's zone: \(news)")
        // A partly read value is a usage error that changes nothing.
        let partial = try fixture.run(["--as", "ana", "edit", id, "start=2026-09-15T18"])
        #expect(partial.status == 2)
        #expect(partial.stderr.contains("America/Denver"), "\(partial.stderr)")

        // `list` shows the local day (18:30 in Denver on the 15th is the 16th in UTC).
        let listed = try fixture.run(["list", "events", "--limit", "100"])
        #expect(listed.stdout.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains("2026-09-15") }, "\(listed.stdout)")
        #expect(try fixture.run(["--as", "ana", "approve", id]).status == 0)
        let out = fixture.dir.path("events.ics")
        #expect(try fixture.run(["export", "--format", "ics", "--out", out]).status == 0)
        let ics = try String(contentsOfFile: out, encoding: .utf8)
        let block = ics.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("DTSTART") && ($0.contains("T190000") || $0.contains("T010000Z")) }
        #expect(block != nil, "\(ics)")
        #expect(block?.contains("DTSTART;TZID=America/Denver:20260915T190000") == true || block?.contains("DTSTART:20260916T010000Z") == true, "\(block ?? "")")
        #expect(block?.contains("DTEND;TZID=America/Denver:20260915T203000") == true || block?.contains("DTEND:20260916T023000Z") == true, "\(block ?? "")")
    }
}
