import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import HTMLImporter

/// Field specs every field-mapping importer shares (`value`, `when`/`then`/`else`, `group`),
/// `split` items and per-field headings, on pages written in the shapes districts publish.
@Suite struct FieldSpecTests {
    @Test func proseScheduleSplitByPatternWithConditionalValues() throws {
        let result = try ImporterFixtures.extract("prose-schedule")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let events = result.events
        let zone = "America/New_York"
        let rows = events.map { [$0.title, isoString($0.start, zone) ?? "-", $0.allDay ? "all day" : "timed", $0.locationName ?? "-"] }
        #expect(
            rows == [
                ["First Day of School", "2025-08-18T00:00:00-04:00", "all day", "-"],
                ["BOE Regular Meeting", "2025-08-21T18:30:00-04:00", "timed", "Central Office, Room 100"],
                ["Back to School Night", "2025-08-28T18:00:00-04:00", "timed", "-"],
                ["Labor Day, No School", "2025-09-01T00:00:00-04:00", "all day", "-"],
                ["BOE Work Session", "2025-09-18T18:30:00-04:00", "timed", "Central Office, Room 100"],
                ["Picture Day", "2025-09-26T00:00:00-04:00", "all day", "-"],
                ["Classes Resume", "2026-01-05T00:00:00-05:00", "all day", "-"],
                ["BOE Regular Meeting", "2026-01-15T18:30:00-05:00", "timed", "Central Office, Room 100"],
            ])
        #expect(events.allSatisfy { $0.link == "https://www.pinevalley.example.org/important-dates" })
        #expect(events.map(\.category) == [.other, .board, .community, .noSchool, .board, .other, .other, .board])
        #expect(result.items.map(\.key).first == "Aug. 18|First Day of School")
        #expect(result.items.allSatisfy { $0.guesses.isEmpty }, "the year came from the heading, not a guess")
    }

    @Test func meetingsTableWithTheYearInTheHeader() throws {
        let result = try ImporterFixtures.extract("board-table")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let zone = "America/Chicago"
        let rows = result.events.map { [$0.title, isoString($0.start, zone) ?? "-", $0.locationName ?? "-", $0.category.rawValue] }
        #expect(
            rows == [
                ["Board of Education Regular Meeting", "2026-01-13T18:30:00-06:00", "Board Room", "board"],
                ["Board of Education Work Session", "2026-02-10T17:00:00-06:00", "Library, Lincoln Elementary", "board"],
                ["Board of Education Regular Meeting", "2026-03-10T18:30:00-05:00", "Board Room", "board"],
                ["Board of Education Budget Hearing", "2026-04-14T18:30:00-05:00", "Board Room", "board"],
            ])
        #expect(result.items.allSatisfy { $0.guesses.isEmpty })
    }

    @Test func splitByLinesAndByBreaks() throws {
        let folder = try TemporaryDirectory("split")
        defer { folder.remove() }
        try folder.write(
            "page.html",
            """
            <html><body><div class="notes"><p>Oct 3: <b>Open House</b><br>Oct 10: <b>Picture Day</b></p><ul><li>Oct 17: <b>Book Fair</b></li></ul>\
            </div></body></html>
            """)
        for (mode, expected) in [("lines", ["Open House", "Picture Day", "Book Fair"]), ("br", ["Open House", "Picture Day Book Fair"])] {
            try folder.write(
                "s.json",
                #"{ "id": "s", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://x.example/", "timeZone": "UTC","#
                    + #" "options": { "year": 2026, "item": {"select": "div.notes", "split": "\#(mode)"}, "fields": { "title": "b", "start":"#
                    + #" {"select": ".", "pattern": "^(\\w+ \\d+)"} } } }"#
            )
            let result = try ImporterFixtures.extract("s", folder: folder.url)
            if mode == "lines" {
                #expect(result.events.map(\.title) == expected)
                #expect(result.events.map { isoString($0.start, "UTC") } == ["2026-10-03T00:00:00Z", "2026-10-10T00:00:00Z", "2026-10-17T00:00:00Z"])
            } else {
                // At <br> only: the list item stays with the piece before it (one item, two bold titles: the first).
                #expect(result.events.map(\.title) == ["Open House", "Picture Day"])
            }
        }
    }

    @Test func eachHeadingSpecKeepsItsOwnSelector() throws {
        let folder = try TemporaryDirectory("headings")
        defer { folder.remove() }
        try folder.write(
            "page.html",
            """
            <html><body>
            <h2 id="enroll">Enrollment</h2><h4 data-group="Forms">Kindergarten</h4>
            <a class="doc" href="k-form.pdf">K Registration Form</a>
            <h4 data-group="Handbooks">Middle</h4>
            <a class="doc" href="ms-handbook.pdf">Middle School Handbook</a>
            <h2 id="health">Health</h2>
            <a class="doc" href="immunization.pdf">Immunization Requirements</a>
            </body></html>
            """)
        try folder.write(
            "h.json",
            #"{ "id": "h", "importer": "html", "kind": "school-info", "url": "page.html", "baseURL": "https://x.example/info/", "timeZone": "UTC","#
                + #" "options": { "item": "a.doc", "fields": { "title": ".", "url": "@href", "section": {"heading": "h2"}, "group": {"heading":"#
                + #" "h4@data-group"}, "type": {"heading": "h2@id", "when": {"field": "section", "equals": "never"}, "then": "pdf"} } } }"#
        )
        let result = try ImporterFixtures.extract("h", folder: folder.url)
        let infos = result.infos
        #expect(infos.map(\.title) == ["K Registration Form", "Middle School Handbook", "Immunization Requirements"])
        #expect(infos.map(\.section) == [.programs, .programs, .resources])
        #expect(infos.map(\.group) == ["Forms", "Handbooks", "Handbooks"])
        #expect(infos.map(\.url) == ["https://x.example/info/k-form.pdf", "https://x.example/info/ms-handbook.pdf", "https://x.example/info/immunization.pdf"])
    }

    @Test func conditionsOnTextFieldsAndNegation() throws {
        let folder = try TemporaryDirectory("when")
        defer { folder.remove() }
        try folder.write(
            "page.html",
            """
            <html><body>
            <div class="ev"><h3>BOE Meeting</h3><span class="d">March 3, 2026</span></div>
            <div class="ev"><h3>Spring Concert</h3><span class="d">March 5, 2026</span><em>Cancelled</em></div>
            <div class="ev"><h3>Track Meet</h3><span class="d">March 7, 2026</span></div>
            </body></html>
            """)
        try folder.write(
            "w.json",
            #"{ "id": "w", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://x.example/", "timeZone": "UTC", "options": {"#
                + #" "item": "div.ev", "fields": { "title": "h3", "start": ".d", "state": {"when": {"contains": "cancelled"}, "then": "cancelled","#
                + #" "else": "scheduled"}, "location": [{"when": {"field": "title", "matches": "^BOE\\b"}, "then": "Room 100"}, {"when":"#
                + #" {"field": "title", "contains": "concert", "not": true}, "then": "Field House"}], "description": {"when": {"field":"#
                + #" "location", "present": true}, "then": "Has a place"} } } }"#
        )
        let events = try ImporterFixtures.extract("w", folder: folder.url).events
        #expect(events.map(\.state) == [.scheduled, .cancelled, .scheduled])
        #expect(events.map(\.locationName) == ["Room 100", nil, "Field House"])
        #expect(events.map(\.description) == ["Has a place", nil, "Has a place"])
    }
}

@Suite struct YearFromURLTests {
    @Test func theYearInThePagesAddress() throws {
        let folder = try TemporaryDirectory("year-url")
        defer { folder.remove() }
        try folder.write("page.html", "<ul><li>March 3 – Budget Hearing</li><li>April 7 – Regular Meeting</li></ul>")
        try folder.write(
            "y.json",
            #"{ "id": "y", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://x.example/board/2024-meeting-materials","#
                + #" "timeZone": "UTC", "options": { "item": "li", "yearFrom": "url", "fields": { "title": {"select": ".", "pattern": "– (.+)$"},"#
                + #" "start": {"select": ".", "pattern": "^(\\w+ \\d+)"} } } }"#
        )
        let result = try ImporterFixtures.extract("y", folder: folder.url)
        #expect(result.events.map { isoString($0.start, "UTC") } == ["2024-03-03T00:00:00Z", "2024-04-07T00:00:00Z"])
        #expect(result.items.allSatisfy { $0.guesses.isEmpty })
    }
}

/// How a field's text splits into a selector and what to take: the last `@` outside brackets
/// (brackets are counted, quotes are not), spaces of any kind around the whole and around the
/// selector, the name after `@` as written (lowercased).
@Suite struct FieldChoiceTextTests {
    static func describe(_ text: String) -> String {
        do {
            let source = try SourceDefinition.parse(
                ["id": .string("s"), "importer": .string("html"), "kind": .string("announcement"), "url": .string("p.html")], file: "/imports/s.json")
            let choice = try FieldSpec.choice(text, field: "f", source: source)
            let take: String
            switch choice.take {
            case .text: take = "text"
            case .lines: take = "lines"
            case .html: take = "html"
            case .exists: take = "exists"
            case .attribute(let name): take = "@" + name
            case .article: take = "article"
            }
            return (choice.selector?.source ?? "-") + " " + take
        } catch {
            return "error"
        }
    }

    @Test func selectorsAndWhatToTakeSplitAtTheLastAtOutsideBrackets() {
        let cases: [(String, String)] = [
            ("h2 a", "h2 a text"), ("a@href", "a @href"), ("img@SRC", "img @src"), ("@href", "- @href"), (".", "- text"), (" . ", "- text"),
            ("a[title='x@y']@href", "a[title='x@y'] @href"), ("a[title='x@y']", "a[title='x@y'] text"), (".fsBody@html", ".fsBody html"),
            ("  h2 a @ href ", "h2 a @ href"), ("h2 a @lines", "h2 a lines"), ("\u{00A0}h2\u{2003}", "h2 text"),
            ("h2\u{00A0}@\u{00A0}text", "h2 @\u{00A0}text"),
            ("x@", "error"), ("div@data-x@href", "error"), ("p[a='[']@id", "error"), ("p[a=']']@id", "error"),
        ]
        for (text, expected) in cases { #expect(Self.describe(text) == expected, "\(text)") }
    }
}

/// A heading inside a listing's item is that item's title: it is no year context for the items after it.
@Suite struct HeadingsInsideItemsTests {
    @Test func aPreviousItemsTitleIsNoSectionHeading() throws {
        let folder = try TemporaryDirectory("headings-inside")
        defer { folder.remove() }
        try folder.write(
            "page.html",
            """
            <h2>Spring 2027</h2>
            <div class="item"><h3>Class of 2019 reunion</h3><span class="date">March 3</span></div>
            <div class="item"><h3>Budget hearing</h3><span class="date">April 7</span></div>
            <div class="item"><h3>Board of 2015 honored</h3><span class="date">May 5</span></div>
            <div class="item"><h3>Picnic</h3><span class="date">June 9</span></div>
            """)
        try folder.write(
            "h.json",
            #"{ "id": "h", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://x.example/events/", "timeZone": "UTC","#
                + #" "options": { "item": "div.item", "fields": { "title": "h3", "start": ".date" } } }"#
        )
        let result = try ImporterFixtures.extract("h", folder: folder.url)
        // Each year is guessed, and the note names the section heading, never the title of
        // the item before (it said "the page's heading says 2019" for the budget hearing).
        #expect(result.items.count == 4)
        for item in result.items {
            let note = item.guesses.map(\.note).joined()
            #expect(note.contains("year guessed") && note.contains("2027") && !note.contains("2019") && !note.contains("2015"), "\(item.key): \(note)")
        }
    }
}

/// A listing long enough to be read on all cores gives every item, in page order, with the
/// fields and keys the one-core reading gives a short one.
@Suite struct ParallelListingTests {
    @Test func aLongListingReadsInOrderOnAllCores() throws {
        let folder = try TemporaryDirectory("parallel-listing")
        defer { folder.remove() }
        let count = 1_500
        let items = (0..<count).map {
            "<article class='news'><h2><a href='/n/\($0)'>Item \($0)</a></h2><span class='date'>September \($0 % 28 + 1), 2026</span></article>"
        }
        try folder.write("long.html", "<h1>News</h1>" + items.joined())
        try folder.write("short.html", "<h1>News</h1>" + items.prefix(5).joined())
        for name in ["long", "short"] {
            try folder.write(
                "\(name).json",
                #"{ "id": "\#(name)", "importer": "html", "kind": "announcement", "url": "\#(name).html", "baseURL": "https://x.example/news/","#
                    + #" "timeZone": "UTC", "options": { "item": "article.news", "fields": { "title": "h2 a", "link": "h2 a@href", "date": ".date" } } }"#
            )
        }
        let long = try ImporterFixtures.extract("long", folder: folder.url)
        let short = try ImporterFixtures.extract("short", folder: folder.url)
        #expect(long.items.count == count)
        #expect(long.items.map(\.content.title) == (0..<count).map { "Item \($0)" })
        #expect(long.items.map(\.key) == (0..<count).map { "https://x.example/n/\($0)" })
        // The first five read on all cores are the five read on one.
        #expect(Array(long.items.prefix(5).map(\.content)) == short.items.map(\.content))
    }
}

/// Cancellation and postponement read where districts write them (issue 34): at the end of a
/// title, or in a status or time cell, not only as a title's first word.
@Suite struct EventStateTests {
    @Test func aStateWordAtTheEndOfATitleOrInACellCounts() throws {
        let folder = try TemporaryDirectory("event-state")
        defer { folder.remove() }
        try folder.write(
            "meetings.html",
            """
            <table class="meetings"><tr><th>Meeting</th><th>Date</th><th>Status</th></tr>
            <tr><td>Board Meeting - CANCELLED</td><td>September 14, 2026 6:00 PM</td><td></td></tr>
            <tr><td>Regular Meeting</td><td>September 21, 2026 6:00 PM (Canceled)</td><td></td></tr>
            <tr><td>Budget Hearing</td><td>September 28, 2026 7:00 PM</td><td>Postponed</td></tr>
            <tr><td>Cancellation Policy Review</td><td>October 5, 2026 6:00 PM</td><td>Scheduled</td></tr>
            <tr><td>CANCELED: Work Session</td><td>October 12, 2026 5:00 PM</td><td></td></tr>
            </table>
            """)
        try folder.write(
            "meetings-def.json",
            #"{ "id": "meetings-def", "importer": "html", "kind": "event", "url": "meetings.html", "baseURL": "https://d.example/board/", "timeZone":"#
                + #" "America/Denver", "options": { "item": "table.meetings tr:has(td)", "fields": { "title": "td:nth-child(1)", "start":"#
                + #" "td:nth-child(2)", "state": "td:nth-child(3)" } } }"#
        )
        let result = try ImporterFixtures.extract("meetings-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.events.map(\.state) == [.cancelled, .cancelled, .postponed, .scheduled, .cancelled], "\(result.events.map(\.title))")
        #expect(
            result.events.map { isoString($0.start, "America/Denver") } == [
                "2026-09-14T18:00:00-06:00", "2026-09-21T18:00:00-06:00", "2026-09-28T19:00:00-06:00", "2026-10-05T18:00:00-06:00", "2026-10-12T17:00:00-06:00",
            ])
    }
}

/// A `<br>` inside `<b>`, `<strong>` or `<span>` cuts as one outside them does (issue 34: the
/// entries merged).
@Suite struct SplitInsideInlineTests {
    @Test func aBreakInsideAnInlineElementCuts() throws {
        let folder = try TemporaryDirectory("split-inline")
        defer { folder.remove() }
        try folder.write(
            "page.html",
            """
            <div class="dates"><p><strong>Oct 3 Open House<br>Oct 10 Picture Day</strong><br><span>Oct 17 Book Fair<br/>Oct 24 Fun Run</span></p></div>
            """)
        for mode in ["br", "lines"] {
            try folder.write(
                "s.json",
                #"{ "id": "s", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://x.example/", "timeZone": "UTC","#
                    + #" "options": { "year": 2026, "item": {"select": "div.dates", "split": "\#(mode)"}, "fields": { "title": {"select": ".","#
                    + #" "pattern": "^\\w+ \\d+ (.+)$"}, "start": {"select": ".", "pattern": "^(\\w+ \\d+)"} } } }"#
            )
            let result = try ImporterFixtures.extract("s", folder: folder.url)
            #expect(result.events.map(\.title) == ["Open House", "Picture Day", "Book Fair", "Fun Run"], "\(mode): \(result.problems)")
            #expect(
                result.events.map { isoString($0.start, "UTC") } == [
                    "2026-10-03T00:00:00Z", "2026-10-10T00:00:00Z", "2026-10-17T00:00:00Z", "2026-10-24T00:00:00Z",
                ])
        }
    }
}

/// An all-day event's end given as a day is its last day (issue 34: a two-day break came out
/// one day long); an end given as an instant stays as it is.
@Suite struct InclusiveAllDayEndTests {
    @Test func anEndDayIsTheLastDay() throws {
        let folder = try TemporaryDirectory("inclusive-end")
        defer { folder.remove() }
        try folder.write(
            "days.html",
            """
            <table class="days"><tr><th>What</th><th>From</th><th>To</th></tr>
            <tr><td>Fall Break - No School</td><td>October 10, 2026</td><td>October 11, 2026</td></tr>
            <tr><td>Staff Day</td><td>October 20, 2026</td><td>October 20, 2026</td></tr>
            <tr><td>Winter Recess</td><td>2026-12-21</td><td>2027-01-01T00:00:00</td></tr>
            </table>
            """)
        try folder.write(
            "days-def.json",
            #"{ "id": "days-def", "importer": "html", "kind": "event", "url": "days.html", "baseURL": "https://d.example/calendar/", "timeZone":"#
                + #" "America/Denver", "options": { "item": "table.days tr:has(td)", "fields": { "title": "td:nth-child(1)", "start":"#
                + #" "td:nth-child(2)", "end": "td:nth-child(3)" } } }"#
        )
        let events = try ImporterFixtures.extract("days-def", folder: folder.url).events
        #expect(events.allSatisfy { $0.allDay })
        #expect(events.map { isoString($0.end, "America/Denver") } == ["2026-10-12T00:00:00-06:00", "2026-10-21T00:00:00-06:00", "2027-01-01T00:00:00-07:00"])
    }
}

/// A date with a letter for a digit is read, and the reviewer is told what was read (issue 34).
@Suite struct MisreadDigitsTests {
    @Test func aLetterForADigitIsReadAndMarked() throws {
        let folder = try TemporaryDirectory("misread-digits")
        defer { folder.remove() }
        try folder.write("list.html", "<ul class='days'><li><b>Picture Day</b> <i>Sept l4, 2026</i></li><li><b>Open House</b> <i>Sept 21, 2026</i></li></ul>")
        try folder.write(
            "list-def.json",
            #"{ "id": "list-def", "importer": "html", "kind": "event", "url": "list.html", "baseURL": "https://d.example/", "timeZone": "UTC","#
                + #" "options": { "item": "ul.days li", "fields": { "title": "b", "start": "i" } } }"#
        )
        let result = try ImporterFixtures.extract("list-def", folder: folder.url)
        #expect(result.events.map { isoString($0.start, "UTC") } == ["2026-09-14T00:00:00Z", "2026-09-21T00:00:00Z"], "\(result.problems)")
        #expect(result.items[0].guesses == ["digits guessed: start read 'l4' as 14"])
        #expect(result.items[1].guesses.isEmpty)
    }
}

/// "Rescheduled to DATE": the new date wins, the old one goes into the notes (issue 34: the old
/// date was kept).
@Suite struct RescheduledEventTests {
    @Test func theNewDateWinsAndTheOldOneIsNoted() throws {
        let folder = try TemporaryDirectory("rescheduled")
        defer { folder.remove() }
        try folder.write(
            "moved.html",
            """
            <table class="moved"><tr><th>Event</th><th>When</th><th>Status</th></tr>
            <tr><td>Board Meeting - Rescheduled to October 5, 2026</td><td>September 28, 2026 6:00 PM</td><td></td></tr>
            <tr><td>Science Fair</td><td>October 8, 2026</td><td>Postponed until October 15, 2026</td></tr>
            <tr><td>Band Concert</td><td>November 2, 2026 7:00 PM, moved to November 9, 2026 at 6:30 PM</td><td></td></tr>
            <tr><td>Open House</td><td>November 12, 2026 5:00 PM</td><td></td></tr>
            </table>
            """)
        try folder.write(
            "moved-def.json",
            #"{ "id": "moved-def", "importer": "html", "kind": "event", "url": "moved.html", "baseURL": "https://d.example/events/", "timeZone":"#
                + #" "America/Denver", "options": { "item": "table.moved tr:has(td)", "fields": { "title": "td:nth-child(1)", "start":"#
                + #" "td:nth-child(2)", "state": "td:nth-child(3)" } } }"#
        )
        let events = try ImporterFixtures.extract("moved-def", folder: folder.url).events
        #expect(
            events.map { isoString($0.start, "America/Denver") } == [
                "2026-10-05T18:00:00-06:00", "2026-10-15T00:00:00-06:00", "2026-11-09T18:30:00-07:00", "2026-11-12T17:00:00-07:00",
            ])
        #expect(events.map(\.state) == [.scheduled, .scheduled, .scheduled, .scheduled])
        #expect(events[0].description == "Rescheduled from September 28, 2026 at 6:00 PM.")
        #expect(events[1].description == "Rescheduled from October 8, 2026." && events[1].allDay)
        #expect(events[2].description == "Rescheduled from November 2, 2026 at 7:00 PM.")
        #expect(events[3].description == nil)
    }
}
