import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

/// The `json` importer on answers written in the shapes districts' platforms publish: every
/// field of every item compared.
@Suite struct JSONImporterTests {
    @Test func blackboardStyleEventsArray() throws {
        let result = try ImporterFixtures.extract("blackboard-events")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let events = result.events
        try #require(events.count == 3)
        #expect(result.items.map(\.key) == ["Id:4417", "Id:4418", "Id:4419"])

        let board = events[0]
        #expect(board.title == "Board of Education Regular Meeting")
        #expect(isoString(board.start, "America/Chicago") == "2024-04-11T17:30:00-05:00")
        #expect(isoString(board.end, "America/Chicago") == "2024-04-11T19:00:00-05:00")
        #expect(board.allDay == false)
        #expect(board.timeZone == "America/Chicago")
        #expect(board.locationName == "Central Office, Room 100")
        #expect(board.description == "Regular meeting & public hearing on the 2024–25 budget.")
        #expect(board.category == .board)
        #expect(board.link == "https://www.maplecreek.example.k12.us/site/Default.aspx?PageID=52&EventID=4417")
        #expect(board.state == .scheduled)

        let spring = events[1]
        #expect(spring.title == "Spring Break - No School")
        #expect(spring.allDay)
        #expect(isoString(spring.start, "America/Chicago") == "2024-03-25T00:00:00-05:00")
        #expect(isoString(spring.end, "America/Chicago") == "2024-03-30T00:00:00-05:00")
        #expect(spring.locationName == nil)
        #expect(spring.description == nil)
        #expect(spring.category == .noSchool)

        let concert = events[2]
        #expect(concert.title == "Jazz Band Concert")
        // /Date(ms)/ is an instant: 23:30Z is 18:30 in Chicago (daylight time).
        #expect(isoString(concert.start, "America/Chicago") == "2024-04-18T18:30:00-05:00")
        #expect(isoString(concert.end, "America/Chicago") == "2024-04-18T20:00:00-05:00")
        #expect(concert.description == "Tickets at the door.\nFree for students.")
        #expect(concert.category == .arts)
        #expect(concert.locationName == "Maple Creek High School Auditorium")
    }

    @Test func jsonAPIAttributesWithDSTOffsetsAndAllDayPlaceholders() throws {
        let result = try ImporterFixtures.extract("jsonapi-events")
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.pagesFetched == 2)
        let events = result.events
        try #require(events.count == 3)
        #expect(result.items.map(\.key) == ["88121", "88122", "88123"])

        // Before the switch to daylight time (-07:00) and after it (-06:00): both 18:00/16:00 local.
        #expect(events[0].title == "Robotics Club Showcase")
        #expect(isoString(events[0].start, "America/Denver") == "2024-03-09T18:00:00-07:00")
        #expect(isoString(events[0].end, "America/Denver") == "2024-03-09T20:00:00-07:00")
        #expect(events[0].allDay == false)
        #expect(events[0].locationName == "Ridgeview Middle School Gym")
        #expect(events[0].address == "1200 Aspen Dr, Golden, CO 80401")
        #expect(events[0].latitude == 39.7555)
        #expect(events[0].longitude == -105.2211)
        #expect(events[0].description == "Teams demo this year's robots.")
        #expect(events[0].link == "https://www.ridgeview.example.org/events/88121")

        #expect(events[1].title == "Parent-Teacher Conferences")
        #expect(isoString(events[1].start, "America/Denver") == "2024-03-11T16:00:00-06:00")
        #expect(isoString(events[1].end, "America/Denver") == "2024-03-11T19:30:00-06:00")
        #expect(events[1].address == nil)
        #expect(events[1].latitude == nil && events[1].longitude == nil)
        #expect(events[1].description == nil)
        #expect(events[1].category == .academic)

        // The all-day placeholder (00:00:00 to 23:59:59) is the one day.
        #expect(events[2].title == "No School - Teacher Work Day")
        #expect(events[2].allDay)
        #expect(isoString(events[2].start, "America/Denver") == "2024-03-15T00:00:00-06:00")
        #expect(isoString(events[2].end, "America/Denver") == "2024-03-16T00:00:00-06:00")
        #expect(events[2].locationName == nil)
        #expect(events[2].category == .noSchool)
        #expect(events[2].link == "https://www.ridgeview.example.org/events/88123")
    }

    @Test func rawWordPressRowsKeepOnlyPublishedPosts() throws {
        let result = try ImporterFixtures.extract("wp-rows")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let posts = result.announcements
        try #require(posts.count == 2)
        #expect(result.items.map(\.key) == ["412", "415"])
        #expect(posts[0].title == "Kindergarten Registration Opens April 8")
        #expect(isoString(posts[0].publishedAt, "America/New_York") == "2024-04-02T08:15:00-04:00")
        #expect(posts[0].body == "<p>Kindergarten registration opens <strong>April 8</strong>. Bring proof of residency.</p>")
        #expect(posts[0].summary == "Kindergarten registration opens April 8. Bring proof of residency.")
        #expect(posts[0].link == "https://news.oakhill.example.org/?p=412")
        #expect(posts[1].title == "Two-Hour Delay – Monday")
        #expect(isoString(posts[1].publishedAt, "America/New_York") == "2024-11-04T06:05:00-05:00")
        #expect(posts[1].body == "<p>All schools open two hours late on Monday because of fog.</p>")
        #expect(posts[1].summary == "Two-hour delay today.")
        #expect(posts[1].link == "https://news.oakhill.example.org/?p=415")
    }

    @Test func wordPressRESTThroughPaths() throws {
        // The REST shape the wordpress importer reads, mapped by paths: the same items.
        let folder = try TemporaryDirectory("json-importer")
        defer { folder.remove() }
        try FileManager.default.copyItem(
            at: ImporterFixtures.fixtures.appendingPathComponent("wp-posts.json"), to: folder.url.appendingPathComponent("wp-posts.json"))
        try #"""
        { "id": "wp-paths", "importer": "json", "kind": "announcement", "url": "wp-posts.json", "timeZone": "America/Los_Angeles",
          "options": { "key": "id", "fields": { "title": "title.rendered", "date": "date", "body": "content.rendered", "summary": "excerpt.rendered",\#
         "link": "link",
            "image": ["jetpack_featured_media_url", "yoast_head_json.og_image[0].url"] } } }
        """#.write(to: folder.url.appendingPathComponent("wp-paths.json"), atomically: true, encoding: .utf8)
        let viaPaths = try ImporterFixtures.extract("wp-paths", folder: folder.url)
        let viaPreset = try ImporterFixtures.extract("wp")
        #expect(viaPaths.items.map(\.key) == viaPreset.items.map(\.key))
        #expect(viaPaths.announcements.map(\.title) == viaPreset.announcements.map(\.title))
        #expect(viaPaths.announcements.map(\.publishedAt) == viaPreset.announcements.map(\.publishedAt))
        #expect(viaPaths.announcements.map(\.body) == viaPreset.announcements.map(\.body))
        #expect(viaPaths.announcements.map(\.link) == viaPreset.announcements.map(\.link))
        #expect(viaPaths.announcements[1].imageURL == viaPreset.announcements[1].imageURL)
    }

    @Test func pagesByParameterStopAtAnEmptyPage() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.handle { request in
            let page = URLComponents(string: request.path)?.queryItems?.first { $0.name == "page" }?.value ?? "1"
            let body: String
            switch page {
            case "1": body = #"{"events":[{"id":1,"name":"Open House","when":"2026-10-01T18:00:00"},{"id":2,"name":"Book Fair","when":"2026-10-02"}]}"#
            case "2": body = #"{"events":[{"id":3,"name":"Picture Day","when":"2026-10-05"}]}"#
            default: body = #"{"events":[]}"#
            }
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let folder = try TemporaryDirectory("json-importer")
        defer { folder.remove() }
        try #"""
        { "id": "paged", "importer": "json", "kind": "event", "url": "\#(server.base)/api/events", "timeZone": "America/New_York",\#
         "allowPrivateNetwork": ["127.0.0.1"],
          "options": { "items": "events[*]", "page": {"param": "page", "start": 1}, "fields": { "title": "name", "start": "when" } } }
        """#.write(to: folder.url.appendingPathComponent("paged.json"), atomically: true, encoding: .utf8)
        let result = try ImporterFixtures.extract("paged", folder: folder.url, web: true)
        #expect(result.events.map(\.title) == ["Open House", "Book Fair", "Picture Day"])
        #expect(result.pagesFetched == 3)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(server.requests.map(\.path).filter { $0 != "/robots.txt" } == ["/api/events", "/api/events?page=2", "/api/events?page=3"])
    }

    @Test func badDefinitionsNameTheOption() throws {
        let cases: [(String, String)] = [
            (#""items": "data[?(@.x)]""#, "options.items"),
            (#""items": "data", "fields": {"title": "a..", "start": "b"}"#, "options.fields.title"),
            (#""fields": {"title": "t", "start": "s", "colour": "c"}"#, "options.fields.colour"),
            (#""fields": {"title": {"select": "t", "when": {"contains": "x", "equals": "y"}}, "start": "s"}"#, "options.fields.title.when"),
            (#""where": {"equals": "publish"}, "fields": {"title": "t", "start": "s"}"#, "options.where.field"),
            (#""fields": {"title": {"then": "x"}, "start": "s"}"#, "options.fields.title"),
            (#""fields": {"title": "t"}"#, "options.fields.start"),
        ]
        let folder = try TemporaryDirectory("json-importer")
        defer { folder.remove() }
        for (options, field) in cases {
            let body = options.hasPrefix(#""fields""#) || options.contains(#""fields""#) ? options : options + #", "fields": {"title": "t", "start": "s"}"#
            try #"{ "id": "bad", "importer": "json", "kind": "event", "url": "x.json", "timeZone": "UTC", "options": { \#(body) } }"#
                .write(to: folder.url.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            do {
                _ = try ImporterFixtures.extract("bad", folder: folder.url)
                Issue.record("accepted \(options)")
            } catch let error as TimeTrackError {
                #expect(error.context["field"] == field, "\(options): \(error)")
                #expect(error.context["file"]?.hasSuffix("bad.json") == true)
            }
        }
    }

    @Test func notJSONAndNothingFoundSaySo() throws {
        let folder = try TemporaryDirectory("json-importer")
        defer { folder.remove() }
        try "<!DOCTYPE html><html><body>Events</body></html>".write(to: folder.url.appendingPathComponent("page.json"), atomically: true, encoding: .utf8)
        try #"{"data": {"rows": []}, "meta": {}}"#.write(to: folder.url.appendingPathComponent("empty.json"), atomically: true, encoding: .utf8)
        try #"{ "id": "a", "importer": "json", "kind": "event", "url": "page.json", "timeZone": "UTC", "options": { "fields": {"title": "t", "start": "s"} } }"#
            .write(to: folder.url.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try
            (#"{ "id": "b", "importer": "json", "kind": "event", "url": "empty.json", "timeZone": "UTC", "options": { "items": "events[*]", "fields":"#
            + #" {"title": "t", "start": "s"} } }"#)
            .write(to: folder.url.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        do {
            _ = try ImporterFixtures.extract("a", folder: folder.url)
            Issue.record("an HTML page was read as JSON")
        } catch let error as TimeTrackError {
            #expect(error.message == "this is an HTML page, not JSON")
        }
        let empty = try ImporterFixtures.extract("b", folder: folder.url)
        #expect(empty.items.isEmpty)
        #expect(empty.problems.map(\.message) == ["0 items: options.items 'events[*]' found nothing; the document is an object with data, meta"])
    }

    /// Issue 44: a page of a million entries nothing can be read from costs counts, not a
    /// million recorded problems: entries that are not objects are one problem; objects with
    /// no title or key are listed up to the cap and counted past it.
    @Test func unusableEntriesAreCountedNotRecorded() throws {
        let folder = try TemporaryDirectory("json-unusable")
        defer { folder.remove() }
        try ("{\"items\": [" + Array(repeating: "1", count: 1_000_000).joined(separator: ",") + ", {\"title\": \"Board meeting\"}]}")
            .write(to: folder.url.appendingPathComponent("numbers.json"), atomically: true, encoding: .utf8)
        try ("{\"items\": [" + Array(repeating: "{\"a\": 1}", count: 50_000).joined(separator: ",") + "]}")
            .write(to: folder.url.appendingPathComponent("objects.json"), atomically: true, encoding: .utf8)
        for (id, file) in [("n", "numbers.json"), ("o", "objects.json")] {
            try
                (#"{ "id": "\#(id)", "importer": "json", "kind": "announcement", "url": "\#(file)", "options": { "items": "items","#
                + #" "fields": {"title": "title"} } }"#)
                .write(to: folder.url.appendingPathComponent("\(id).json"), atomically: true, encoding: .utf8)
        }
        let numbers = try ImporterFixtures.extract("n", folder: folder.url)
        #expect(numbers.items.map(\.content.title) == ["Board meeting"])
        #expect(numbers.problems.count == 1 && numbers.problemsNotRecorded == 0, "\(numbers.problems.prefix(3))")
        #expect(numbers.problems.first?.message.contains("skipped 1000000 entries") == true, "\(numbers.problems.prefix(3))")
        let objects = try ImporterFixtures.extract("o", folder: folder.url)
        #expect(objects.items.isEmpty)
        #expect(objects.problems.count == ImportResult.maxProblems)
        #expect(objects.problemCount == 50_000 && objects.hasErrors)
    }
}

@Suite struct JSONPathTests {
    let document: JSONValue = .object([
        "data": .array([
            .object(["id": .string("1"), "attributes": .object(["title": .string("A")])]),
            .object(["id": .string("2"), "attributes": .object(["title": .string("B")]), "events": .array([.string("inner")])]),
        ]),
        "events": .array([.string("top")]),
        "wp:media": .array([.object(["url": .string("u")])]),
    ])

    @Test func paths() throws {
        func run(_ path: String) throws -> [String] { try JSONPath(path).evaluate(document).map(\.description) }
        #expect(try run("data[*].attributes.title") == ["A", "B"])
        #expect(try run("$.data[1].id") == ["2"])
        #expect(try run("data[-1].attributes['title']") == ["B"])
        #expect(try run("$..events[*]") == ["inner", "top"])
        #expect(try run("['wp:media'][0].url") == ["u"])
        #expect(try run("[ \"wp:media\" ][0].url") == ["u"] && (try run("[ 'wp:media' ][0].url")) == ["u"])
        #expect(try run("data[5].id") == [])
        #expect(try run("@.data[0].id") == ["1"])
        #expect(try JSONPath("$.data").fromDocument)
        for bad in ["data[", "data..", "data[?(@.x)]", "data[x]", "a.", "data['x]"] {
            #expect(throws: TimeTrackError.self, "\(bad)") { try JSONPath(bad) }
        }
    }

    @Test func deepDocuments() throws {
        // As deep as the decoder lets a document be: walked without recursion.
        var value = JSONValue.string("bottom")
        for _ in 0..<400 { value = .array([value]) }
        #expect(try JSONPath("$..*").evaluate(value).count == 400)
        // Deeper than that is refused by the decoder with a message, never a crash.
        let folder = try TemporaryDirectory("json-deep")
        defer { folder.remove() }
        try folder.write("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        try folder.write(
            "deep-source.json",
            #"{ "id": "deep-source", "importer": "json", "kind": "event", "url": "deep.json", "timeZone": "UTC", "options": { "fields": {"title":"#
                + #" "t", "start": "s"} } }"#
        )
        #expect(throws: TimeTrackError.self) { try ImporterFixtures.extract("deep-source", folder: folder.url) }
    }
}

/// A path to the list itself (`"items": "data"`) means the list's elements (issue 34: the whole
/// list became one item, and the message blamed the title field).
@Suite struct JSONItemsPathTests {
    @Test func aPathThatEndsAtTheListTakesItsElements() throws {
        let folder = try TemporaryDirectory("json-items-list")
        defer { folder.remove() }
        try folder.write(
            "news.json",
            #"{ "data": [ { "headline": "Bus routes change", "url": "https://d.example/n/1", "posted": "2026-09-14" }, { "headline": "Picture day","#
                + #" "url": "https://d.example/n/2", "posted": "2026-09-15" } ], "meta": { "count": 2 } }"#
        )
        for items in ["data", "$.data", "data[*]"] {
            try folder.write(
                "news-def.json",
                #"{ "id": "news-def", "importer": "json", "kind": "announcement", "url": "news.json", "timeZone": "UTC", "options": { "items":"#
                    + #" "\#(items)", "fields": { "title": "headline", "link": "url", "date": "posted" } } }"#
            )
            let result = try ImporterFixtures.extract("news-def", folder: folder.url)
            #expect(result.problems.isEmpty, "\(items): \(result.problems)")
            #expect(result.items.map(\.content.title) == ["Bus routes change", "Picture day"], "\(items)")
            #expect(result.items.map(\.key) == ["https://d.example/n/1", "https://d.example/n/2"], "\(items)")
        }
    }
}

/// JSON kept inside an HTML page (`from`), and fields built from several values (`parts`)
/// (issue 34: a hidden `<input value=…>` could not be reached; titles came out ambiguous).
@Suite struct EmbeddedJSONTests {
    /// A Next.js site: the page's data in a script, the events under props.pageProps.
    static let nextPage = """
        <!DOCTYPE html><html><head><title>Events | Cedar Ridge Schools</title></head><body>
        <div id="__next"><h1>Events</h1><p>Loading…</p></div>
        <script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"events":[
          {"id":"evt_101","title":"Board Regular Meeting","startsAt":"2026-10-13T18:00:00-05:00","venue":{"name":"Board Room"},"school":"District\
         Office","url":"/events/evt_101"},
          {"id":"evt_102","title":"Band Concert","startsAt":"2026-10-15T19:00:00-05:00","venue":{"name":"Auditorium"},"school":"Cedar Ridge\
         High","url":"/events/evt_102"}
        ]}},"page":"/events","buildId":"a1b2c3"}</script>
        </body></html>
        """

    @Test func itemsFromAScriptAndTitlesFromTwoValues() throws {
        let folder = try TemporaryDirectory("embedded-json")
        defer { folder.remove() }
        try folder.write("events.html", Self.nextPage)
        try folder.write(
            "next-events.json",
            #"""
            { "id": "next-events", "importer": "json", "kind": "event", "url": "events.html", "baseURL": "https://www.cedarridge.example/events",\#
             "timeZone": "America/Chicago",
              "options": { "from": "script#__NEXT_DATA__", "items": "props.pageProps.events",
                "fields": { "title": { "parts": { "school": "school", "what": "title" }, "template": "{school}: {what}" }, "start": "startsAt",
                            "location": "venue.name", "link": "url" } } }
            """#)
        let result = try ImporterFixtures.extract("next-events", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.items.map(\.key) == ["id:evt_101", "id:evt_102"])
        #expect(
            result.events.map { [$0.title, isoString($0.start, "America/Chicago") ?? "-", $0.locationName ?? "-", $0.link ?? "-"] } == [
                ["District Office: Board Regular Meeting", "2026-10-13T18:00:00-05:00", "Board Room", "https://www.cedarridge.example/events/evt_101"],
                ["Cedar Ridge High: Band Concert", "2026-10-15T19:00:00-05:00", "Auditorium", "https://www.cedarridge.example/events/evt_102"],
            ])
    }

    @Test func itemsFromAHiddenInputsValue() throws {
        let folder = try TemporaryDirectory("embedded-input")
        defer { folder.remove() }
        try folder.write(
            "closings.html",
            """
            <form id="closings"><input type="hidden" id="closings-data" name="closings"
              value="[{&quot;name&quot;:&quot;Lincoln Elementary&quot;,&quot;status&quot;:&quot;Two-hour delay&quot;,&quot;posted&quot;:&quot;\
            2026-01-12 06:05&quot;},{&quot;name&quot;:&quot;Central High&quot;,&quot;posted&quot;:&quot;2026-01-12 06:10&quot;}]"></form>
            """)
        try folder.write(
            "closings-def.json",
            #"""
            { "id": "closings-def", "importer": "json", "kind": "announcement", "url": "closings.html", "baseURL":\#
             "https://www.district.example/closings", "timeZone": "America/New_York",
              "options": { "from": "input#closings-data@value",
                "fields": { "title": { "parts": ["name", "status"], "join": " — " }, "date": "posted" } } }
            """#)
        let result = try ImporterFixtures.extract("closings-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.announcements.map(\.title) == ["Lincoln Elementary — Two-hour delay", "Central High"])
        #expect(result.announcements.map { isoString($0.publishedAt, "America/New_York") } == ["2026-01-12T06:05:00-05:00", "2026-01-12T06:10:00-05:00"])
    }

    @Test func aFromThatFindsNothingSaysSo() throws {
        let folder = try TemporaryDirectory("embedded-missing")
        defer { folder.remove() }
        try folder.write("page.html", "<html><body><p>No data here</p></body></html>")
        try folder.write(
            "missing-def.json",
            #"{ "id": "missing-def", "importer": "json", "kind": "announcement", "url": "page.html", "timeZone": "UTC", "options": { "from":"#
                + #" "script#__NEXT_DATA__", "fields": { "title": "title" } } }"#
        )
        #expect {
            _ = try ImporterFixtures.extract("missing-def", folder: folder.url)
        } throws: { error in
            "\(error)".contains("options.from 'script#__NEXT_DATA__' matched nothing")
        }
    }
}
