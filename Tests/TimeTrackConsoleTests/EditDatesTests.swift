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
        // Moving the start with --keep-duration keeps the 90 minutes (and says end is locked).
        let keep = try fixture.run(["--as", "ana", "edit", id, "start=19:00", "--keep-duration"])
        #expect(keep.status == 0 && keep.stdout.contains("end"), "\(keep.stdout)\(keep.stderr)")
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

    /// One DST change each: New York falls back on 2026-11-01 (start and end on both sides of
    /// it), Auckland springs forward at 02:00 on 2026-09-27 (both after it, on a day that is
    /// the 26th in UTC and in Denver, so `list` must read the event's own zone).
    static let zones: [(zone: String, start: String, end: String, startUTC: String, endUTC: String, ics: (String, String))] = [
        ("America/New_York", "2026-10-31 18:30", "2026-11-01T20:00", "2026-10-31T22:30:00Z", "2026-11-02T01:00:00Z", ("20261031T183000", "20261101T200000")),
        ("Pacific/Auckland", "2026-09-27 09:30", "2026-09-27T20:00", "2026-09-26T20:30:00Z", "2026-09-27T07:00:00Z", ("20260927T093000", "20260927T200000")),
    ]

    /// The same edits typed at the console on a pseudo-terminal and sent through a pipe.
    @Test(arguments: [false, true])
    func editsAroundADSTChangeRoundTrip(onTerminal: Bool) throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let events = try fixture.ids("events")
        #expect(events.count >= 2)
        var lines: [String] = []
        for (index, case_) in Self.zones.enumerated() {
            let id = events[index]
            lines += ["edit \(id) timeZone=\(case_.zone) allDay=false", "edit \(id) start=\"\(case_.start)\" end=\(case_.end)", "approve \(id)"]
        }
        // Partly read forms are refused, naming the field and the zone.
        lines.append("edit \(events[0]) start=2026-10-31T18")
        if onTerminal {
            let pty = try PseudoTerminal(
                Binaries.path("timetrack-admin"), ["--store", fixture.store, "--as", "ana"], environment: ["TIMETRACK_HISTORY": fixture.dir.path("h")])
            #expect(pty.expect("(ana)> ") != nil, "\(pty.transcript)")
            for line in lines {
                pty.send(line + "\r")
                #expect(pty.expect("(ana)> ") != nil, "\(pty.transcript)")
            }
            pty.send("quit\r")
            #expect(pty.waitForExit() == 0)
            #expect(
                pty.transcript.contains("America/New_York") && pty.transcript.contains("2026-09-15 18:30"),
                "the refusal shows the accepted forms: \(pty.transcript)")
        } else {
            let piped = try fixture.run(["--as", "ana"], stdin: lines.joined(separator: "\n") + "\n")
            #expect(piped.status != 0, "the partial form must fail the script")
            #expect(piped.stderr.contains("start") && piped.stderr.contains("America/New_York"), "\(piped.stderr)")
            let refused = try fixture.run(["--as", "ana", "edit", events[0], "start=2026-10-31T18"])
            #expect(refused.status == 2)
        }
        let out = fixture.dir.path("events.ics")
        #expect(try fixture.run(["export", "--format", "ics", "--out", out]).status == 0)
        let ics = try String(contentsOfFile: out, encoding: .utf8)
        for (index, case_) in Self.zones.enumerated() {
            let id = events[index]
            let fields = (try fixture.json(["show", id]) as? [String: Any])?["fields"] as? [String: Any]
            #expect(fields?["start"] as? String == case_.startUTC, "\(case_.zone): \(fields ?? [:])")
            #expect(fields?["end"] as? String == case_.endUTC, "\(case_.zone): \(fields ?? [:])")
            let block = ics.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("TZID=\(case_.zone)") }
            #expect(block?.contains("DTSTART;TZID=\(case_.zone):\(case_.ics.0)") == true, "\(block ?? ics)")
            #expect(block?.contains("DTEND;TZID=\(case_.zone):\(case_.ics.1)") == true, "\(block ?? ics)")
            // `list` shows the local day of the event's own zone.
            let listed = try fixture.run(["list", "events", "--limit", "100"]).stdout
            #expect(listed.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains(String(case_.start.prefix(10))) }, "\(listed)")
        }
        let shown = try fixture.run(["show", events[0]]).stdout
        #expect(shown.contains("2026-10-31 18:30 EDT") && shown.contains("2026-11-01 20:00 EST"), "\(shown)")
        let auckland = try fixture.run(["show", events[1]]).stdout
        #expect(auckland.contains("2026-09-27 09:30 NZDT") && auckland.contains("2026-09-27 20:00 NZDT"), "\(auckland)")
    }

    /// Event edits as issue 35 asks: a day alone makes the event all day and says so (what
    /// follows from the day is locked with it: an import must not take half the decision back);
    /// the end moves only with --keep-duration; a start past the end names both ways out.
    @Test func aDayAloneIsAllDayAndWhatFollowsIsLockedWithIt() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let events = (try fixture.json(["list", "events", "--limit", "100"])) as? [[String: Any]] ?? []
        var timed: String?
        for id in events.compactMap({ $0["id"] as? String }) {
            let fields = (try fixture.json(["show", id]) as? [String: Any])?["fields"] as? [String: Any]
            if fields?["allDay"] as? Bool == false, fields?["end"] != nil { timed = id }
        }
        let id = try #require(timed)
        let day = try fixture.run(["--as", "ana", "edit", id, "start=2026-10-05"])
        // allDay and end follow from the day typed: locked with it, and said.
        #expect(
            day.status == 0 && day.stdout.contains("the event is all day") && day.stdout.contains("locked against re-imports: allDay, end, start ("),
            "\(day.stdout)\(day.stderr)")
        #expect(day.stdout.contains("allDay, end followed from what you typed"), "\(day.stdout)")
        let fields = (try fixture.json(["show", id]) as? [String: Any])?["fields"] as? [String: Any]
        #expect(fields?["allDay"] as? Bool == true)
        // Timed again, past its end: refused with both ways out named.
        let late = try fixture.run(["--as", "ana", "edit", id, "start=2026-10-09 18:00", "allDay=false"])
        #expect(late.status != 0 && late.stderr.contains("--keep-duration") && late.stderr.contains("end=…"), "\(late.stderr)")
        let kept = try fixture.run(["--as", "ana", "edit", id, "start=2026-10-09 18:00", "allDay=false", "--keep-duration"])
        #expect(kept.status == 0 && kept.stdout.contains("locked against re-imports: allDay, end, start"), "\(kept.stdout)\(kept.stderr)")
    }
}
