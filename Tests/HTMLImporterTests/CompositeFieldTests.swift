import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import HTMLImporter

/// A field built from several values (`parts`), JSON kept inside an attribute or a script
/// (`json`), XML pages (`xml`) and file links without an extension (issue 34: titles came out
/// "Agenda", "Minutes" hundreds of times; JSON in a hidden input and `<link>` text in XML were
/// out of reach, silently).
@Suite struct CompositeFieldTests {
    /// A Finalsite meeting-materials archive: a heading per meeting, then its files, each a
    /// link to the resource manager without an extension.
    static let materials = """
        <div class="fsElement fsContent"><div class="fsElementContent">
        <h2>Board of Education</h2>
        <h3>MARCH 10, 2026 | REGULAR MEETING</h3>
        <p><a href="/fs/resource-manager/view/3f2a9c1e-7d4b-4e2a-9b1c-1a2b3c4d5e6f" target="_blank">Agenda</a><br>
        <a href="/fs/resource-manager/view/8c7b6a5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d" target="_blank">Minutes</a><br>
        <a href="https://spps.eduvision.tv/Default.aspx?q=board&amp;t=120" target="_blank">Video</a></p>
        <h3>FEBRUARY 4, 2026 (Wednesday)</h3>
        <p><a href="/fs/resource-manager/view/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" target="_blank">Agenda</a></p>
        </div></div>
        """

    static func definition(_ text: String) throws -> SourceDefinition {
        try SourceDefinition.parse(try JSONValue(parsing: text).objectValue ?? [:], file: "test.json")
    }

    @Test func aTitleFromTheMeetingHeadingAndTheLinkText() throws {
        let folder = try TemporaryDirectory("parts")
        defer { folder.remove() }
        try folder.write("materials.html", Self.materials)
        try folder.write(
            "materials-def.json",
            #"""
            { "id": "materials-def", "importer": "html", "kind": "school-info", "url": "materials.html",
              "baseURL": "https://www.district.example/board/meeting-materials", "timeZone": "America/Chicago",
              "options": { "item": ".fsElementContent p a", "section": "policies",
                "fields": { "title": { "parts": { "meeting": { "heading": "h3" }, "text": "." }, "template": "{meeting} — {text}" },
                            "url": "@href", "group": { "heading": "h2" } } } }
            """#)
        let result = try ImporterFixtures.extract("materials-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let rows = result.infos.map { [$0.title, $0.url, $0.documentType.rawValue, $0.group ?? "-"] }
        #expect(
            rows == [
                [
                    "MARCH 10, 2026 | REGULAR MEETING — Agenda", "https://www.district.example/fs/resource-manager/view/3f2a9c1e-7d4b-4e2a-9b1c-1a2b3c4d5e6f",
                    "document", "Board of Education",
                ],
                [
                    "MARCH 10, 2026 | REGULAR MEETING — Minutes", "https://www.district.example/fs/resource-manager/view/8c7b6a5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                    "document", "Board of Education",
                ],
                ["MARCH 10, 2026 | REGULAR MEETING — Video", "https://spps.eduvision.tv/Default.aspx?q=board&t=120", "video", "Board of Education"],
                [
                    "FEBRUARY 4, 2026 (Wednesday) — Agenda", "https://www.district.example/fs/resource-manager/view/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                    "document", "Board of Education",
                ],
            ])
    }

    @Test func aListOfPartsJoinedAndAMissingPartLeftOutWithItsSeparator() throws {
        let folder = try TemporaryDirectory("parts-join")
        defer { folder.remove() }
        // A district's "school status" list: a school's name and, when there is one, its status.
        try folder.write(
            "status.html",
            """
            <ul class="school-status">
              <li><a href="/lincoln"><span class="name">Lincoln Elementary</span></a> <span class="status">Two-hour delay</span></li>
              <li><a href="/roosevelt"><span class="name">Roosevelt Middle</span></a></li>
              <li><a href="/central"><span class="name">Central High</span></a> <span class="status">Closed</span> <em class="note">buses on snow\
             routes</em></li>
            </ul>
            """)
        try folder.write(
            "status-def.json",
            #"""
            { "id": "status-def", "importer": "html", "kind": "announcement", "url": "status.html",
              "baseURL": "https://www.district.example/status", "timeZone": "America/Chicago",
              "options": { "item": "ul.school-status li",
                "fields": { "title": { "parts": [".name", ".status"], "join": " — " }, "link": "a@href",
                            "summary": { "parts": { "status": ".status", "note": ".note" }, "template": "{status} ({note})" } } } }
            """#)
        let result = try ImporterFixtures.extract("status-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.announcements.map(\.title) == ["Lincoln Elementary — Two-hour delay", "Roosevelt Middle", "Central High — Closed"])
        #expect(result.announcements.map { $0.summary ?? "-" } == ["Two-hour delay", "-", "Closed (buses on snow routes)"])
    }

    @Test func composeLeavesOutWhatAMissingPartLeaves() throws {
        let source = try Self.definition(#"{"id": "x", "importer": "html", "kind": "announcement", "url": "https://d.example/"}"#)
        func compose(_ template: String, _ values: [String: String]) throws -> String? {
            let object: [String: JSONValue] = ["parts": .object(["a": .string("x"), "b": .string("y")]), "template": .string(template)]
            return try FieldShape(object, field: "f", source: source).compose(values, value: nil, page: "", groups: [])
        }
        #expect(try compose("{a} — {b}", ["a": "Agenda"]) == "Agenda")
        #expect(try compose("{a} — {b}", ["b": "Minutes"]) == "Minutes")
        #expect(try compose("{a} ({b})", ["a": "Lincoln"]) == "Lincoln")
        #expect(try compose("[{a}] {b}", ["b": "Minutes"]) == "Minutes")
        #expect(try compose("{a}: {b}!", ["a": "Note", "b": "Closed"]) == "Note: Closed!")
        #expect(try compose("{a} — {b}", [:]) == nil)
    }

    @Test func jsonKeptInAHiddenInputOrAScript() throws {
        let folder = try TemporaryDirectory("json-attr")
        defer { folder.remove() }
        // Calendar plugins that render a card per event and keep its data as JSON beside it.
        try folder.write(
            "events.html",
            """
            <div class="event-card"><h3>Fall Choir Concert</h3>
              <input type="hidden" class="event-data" value="{&quot;start&quot;:&quot;2026-10-14T19:00:00&quot;,&quot;location&quot;:{&quot;\
            name&quot;:&quot;Auditorium&quot;}}"></div>
            <div class="event-card"><h3>Picture Day</h3>
              <script type="application/ld+json">{"@type": "Event", "startDate": "2026-10-20", "location": {"name": "Gym"}}</script></div>
            """)
        try folder.write(
            "events-def.json",
            #"""
            { "id": "events-def", "importer": "html", "kind": "event", "url": "events.html",
              "baseURL": "https://www.district.example/events", "timeZone": "America/New_York",
              "options": { "item": ".event-card",
                "fields": { "title": "h3",
                            "start": [{ "select": "input.event-data@value", "json": "start" }, { "select": "script", "json": "startDate" }],
                            "location": [{ "select": "input.event-data@value", "json": "location.name" }, { "select": "script", "json": "location.name" }] } } }
            """#)
        let result = try ImporterFixtures.extract("events-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let zone = "America/New_York"
        #expect(
            result.events.map { [$0.title, isoString($0.start, zone) ?? "-", $0.locationName ?? "-"] } == [
                ["Fall Choir Concert", "2026-10-14T19:00:00-04:00", "Auditorium"], ["Picture Day", "2026-10-20T00:00:00-04:00", "Gym"],
            ])
    }

    /// A CMS's own XML export (not RSS or Atom): `<link>` holds the address as text.
    static let xmlExport = """
        <?xml version="1.0" encoding="UTF-8"?>
        <calendar>
          <event><title>Board Work Session</title><link>https://www.district.example/events/412</link><date>2026-10-08</date><time>5:30 PM</time></event>
          <event><title>Homecoming Parade</title><link>https://www.district.example/events/415</link><date>2026-10-16</date></event>
        </calendar>
        """

    @Test func anXMLExportReadWithXMLKeepsItsLinks() throws {
        let folder = try TemporaryDirectory("xml-mode")
        defer { folder.remove() }
        try folder.write("export.xml", Self.xmlExport)
        let definition = #"""
            { "id": "NAME", "importer": "html", "kind": "event", "url": "export.xml", "baseURL": "https://www.district.example/", "timeZone": "America/Denver",
              "options": { "item": "event", "fields": { "title": "title", "link": "link", "start": "date", "time": "time" }XML } }
            """#
        try folder.write("as-xml.json", definition.replacingOccurrences(of: "NAME", with: "as-xml").replacingOccurrences(of: "XML", with: #", "xml": true"#))
        try folder.write("as-html.json", definition.replacingOccurrences(of: "NAME", with: "as-html").replacingOccurrences(of: "XML", with: ""))
        let xml = try ImporterFixtures.extract("as-xml", folder: folder.url)
        #expect(xml.problems.isEmpty, "\(xml.problems)")
        #expect(xml.events.map(\.link) == ["https://www.district.example/events/412", "https://www.district.example/events/415"])
        #expect(xml.events.map { isoString($0.start, "America/Denver") } == ["2026-10-08T17:30:00-06:00", "2026-10-16T00:00:00-06:00"])
        // Read as HTML, the links are lost, and the run says why and what to add.
        let html = try ImporterFixtures.extract("as-html", folder: folder.url)
        #expect(html.events.map(\.link) == [nil, nil])
        #expect(html.problems.map(\.message).contains { $0.contains("the page is XML") && $0.contains("\"xml\": true") }, "\(html.problems)")
    }

    @Test func definitionMistakesAreNamed() throws {
        func refusal(_ options: String) -> String {
            let text = #"{"id": "bad", "importer": "html", "kind": "announcement", "url": "https://d.example/", "options": "# + options + "}"
            do {
                _ = try HTMLImporter(source: try Self.definition(text))
                return "accepted"
            } catch let error as TimeTrackError { return error.description } catch { return "\(error)" }
        }
        let unknown = refusal(#"{"item": "li", "fields": {"title": {"parts": {"a": "b", "c": "i"}, "template": "{a} {d}"}}}"#)
        #expect(unknown.contains("options.fields.title.template") && unknown.contains("{d}"), "\(unknown)")
        let noTemplate = refusal(#"{"item": "li", "fields": {"title": {"parts": {"a": "b", "c": "i"}}}}"#)
        #expect(noTemplate.contains("options.fields.title.parts") && noTemplate.contains("template"), "\(noTemplate)")
        let joinAlone = refusal(#"{"item": "li", "fields": {"title": {"select": "b", "join": ", "}}}"#)
        #expect(joinAlone.contains("options.fields.title.join"), "\(joinAlone)")
        let jsonAlone = refusal(#"{"item": "li", "fields": {"title": {"value": "x", "json": "a"}}}"#)
        #expect(jsonAlone.contains("options.fields.title.json"), "\(jsonAlone)")
        let attributeItem = refusal(#"{"item": "input#events@value", "fields": {"title": "b"}}"#)
        #expect(attributeItem.contains("options.item") && attributeItem.contains("\"from\": \"input#events@value\""), "\(attributeItem)")
    }
}

/// What a first definition gets wrong is named where it is written (issue 34: a split pattern
/// that matched nothing, and a field selector that matched nothing, were silent).
@Suite struct SilentMissesTests {
    @Test func aSplitPatternThatMatchesNothingSaysWhatItRead() throws {
        let folder = try TemporaryDirectory("split-nothing")
        defer { folder.remove() }
        try folder.write("dates.html", "<div class='fsElementContent'><p>Sept. 8 – First Day of School<br>Sept. 15 – Picture Day</p></div>")
        try folder.write(
            "dates-def.json",
            #"{ "id": "dates-def", "importer": "html", "kind": "event", "url": "dates.html", "timeZone": "UTC", "options": { "year": 2026, "item":"#
                + #" {"select": "div.fsElementContent p", "split": {"pattern": "(\\d{1,2}/\\d{1,2}) - (.+)"}}, "fields": { "start": {"group": 1},"#
                + #" "title": {"group": 2} } } }"#
        )
        let result = try ImporterFixtures.extract("dates-def", folder: folder.url)
        #expect(result.items.isEmpty)
        let messages = result.problems.map(\.message)
        #expect(
            messages.contains { $0.contains("options.item.split.pattern") && $0.contains("matched nothing") && $0.contains("Sept. 8 – First Day of School") },
            "\(messages)")
    }

    @Test func aFieldThatReadsNothingInAnyItemIsNamed() throws {
        let folder = try TemporaryDirectory("field-nothing")
        defer { folder.remove() }
        try folder.write(
            "news.html",
            "<section class='news'><div class='card'><h3><a href='/a'>Book Fair</a></h3><p class='teaser'>Books!</p></div><div class='card'><h3><a"
                + " href='/b'>Picture Day</a></h3></div></section>"
        )
        try folder.write(
            "news-def.json",
            #"{ "id": "news-def", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://s.example/news", "timeZone":"#
                + #" "UTC", "options": { "item": "div.card", "fields": { "title": "h3 a", "link": "h3 a@href", "summary": "p.teaser", "image": "img@src" } } }"#
        )
        let result = try ImporterFixtures.extract("news-def", folder: folder.url)
        #expect(result.fieldsNeverRead == ["options.fields.image"])
        #expect(result.problems.isEmpty, "a field empty today is no problem of the run")
        let shown = try Binaries.run("timetrack-admin", ["--store", folder.path("s.sqlite"), "--imports", folder.url.path, "extract", "news-def"])
        #expect(shown.stderr.contains("note: options.fields.image gave no value for any of the 2 items"), "\(shown.stdout)\(shown.stderr)")
    }
}
