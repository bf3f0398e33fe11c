import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

@testable import TimeTrackDiscover

/// Issue 36: what discover infers from a JSON answer, on its own and then read by the real
/// json importer: the list of items, the title, date and link keys, events told from news,
/// and the endpoints a page names.
@Suite struct JSONInferenceTests {
    static let dates = DateParser(timeZone: TimeZone(identifier: "America/Denver") ?? .current, reference: Date(timeIntervalSince1970: 1_790_000_000))

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    static let events = """
        {"meta": {"count": 3}, "data": {"events": [
          {"name": "Board Meeting", "start_date": "2026-10-06T18:00:00-06:00", "end_date": "2026-10-06T20:00:00-06:00",
           "venue": {"name": "District Office"}, "permalink": "https://d.example/events/1"},
          {"name": "Fall Concert", "start_date": "2026-10-09T19:00:00-06:00", "venue": {"name": "Auditorium"}, "permalink": "https://d.example/events/2"},
          {"name": "Picture Day", "start_date": "2026-10-14", "venue": {"name": "Gym"}, "permalink": "https://d.example/events/3"}],
         "tags": ["a", "b"]}}
        """

    @Test func eventsAreFoundWithTheirKeys() throws {
        let endpoint = try #require(URL(string: "https://d.example/api/v1/calendar"))
        let (kind, options) = try #require(JSONInference.infer(try Self.json(Self.events), endpoint: endpoint, dates: Self.dates))
        #expect(kind == .event)
        #expect(options["items"] == .string("data.events"))
        let fields = try #require(options["fields"]?.objectValue)
        #expect(
            fields == [
                "title": .string("name"), "start": .string("start_date"), "end": .string("end_date"), "link": .string("permalink"),
                "location": .string("venue.name"),
            ])
    }

    @Test func newsIsAnnouncementsDatedByTheirPublishedKey() throws {
        let news = """
            [{"headline": "Bond results", "Published At": "Nov 4, 2026", "url": "/news/bond"},
             {"headline": "Snow day", "Published At": "Nov 2, 2026", "url": "/news/snow"}]
            """
        let endpoint = try #require(URL(string: "https://d.example/news.json"))
        let (kind, options) = try #require(JSONInference.infer(try Self.json(news), endpoint: endpoint, dates: Self.dates))
        #expect(kind == .announcement && options["items"] == nil)
        #expect(options["fields"]?.objectValue?["date"] == .string("['Published At']"))
        #expect(options["fields"]?.objectValue?["title"] == .string("headline"))
    }

    @Test(arguments: [
        #"[1, 2, 3]"#, #"[{"id": 1, "date": "2026-10-01"}, {"id": 2, "date": "2026-10-02"}]"#,
        #"[{"title": "A", "date": "soon"}, {"title": "B", "date": "later"}]"#, #"{"title": "not a list"}"#,
        #"[{"title": "A", "date": "2026-10-01"}, "x", "y", "z", {"title": "B", "date": "2026-10-02"}]"#,
    ])
    func answersThatAreNoListOfItems(_ text: String) throws {
        #expect(JSONInference.infer(try Self.json(text), endpoint: try #require(URL(string: "https://d.example/a.json")), dates: Self.dates) == nil, "\(text)")
    }

    /// Issue 45: a list of one is a list (this week's one meeting), and an answer that is one
    /// dated object (a meeting's own API answer) is one item, read at `$`.
    @Test func oneItemListsAndOneObjectAnswersAreRead() throws {
        let endpoint = try #require(URL(string: "https://d.example/a.json"))
        let list = try #require(
            JSONInference.infer(try Self.json(#"{"items": [{"title": "Only one", "date": "2026-10-01"}]}"#), endpoint: endpoint, dates: Self.dates))
        #expect(list.options["items"] == .string("items"))
        let meeting = #"{"Id": 826, "Name": "Public Hearing Agenda and Notice  - May 28 2026", "Time": "05:30 PM", "Location": "Governance Room"}"#
        let one = try #require(JSONInference.infer(try Self.json(meeting), endpoint: endpoint, dates: Self.dates))
        #expect(one.kind == .event && one.options["items"] == .string("$"), "meeting words make an event: \(one)")
        let fields = try #require(one.options["fields"]?.objectValue)
        #expect(fields["start"] == .object(["parts": .array([.string("Name"), .string("Time")]), "join": .string(" ")]), "\(fields)")
    }

    /// Issue 45: keys named with a prefix (Simbli's `MM_MeetingTitle`, `MM_DateTime`), the title
    /// whose values differ most among them; a BoardDocs list's `numberdate`; meeting titles make events.
    @Test func prefixedKeysAndMeetingListsAreRead() throws {
        let simbli = """
            [{"MM_MeetingTitle": "Audit Committee Meeting", "MM_TemplateTitle": "Standard", "ML_TypeTitle": "Committee", "MM_DateTime": "2024-07-11T13:00:00",
              "MM_PublishedDate": "2024-07-01T09:00:00", "MM_Address1": "1701 Mountain Industrial Blvd"},
             {"MM_MeetingTitle": "Work Session", "MM_TemplateTitle": "Standard", "ML_TypeTitle": "Committee", "MM_DateTime": "2024-07-08T12:30:00",
              "MM_PublishedDate": "2024-07-01T09:00:00", "MM_Address1": "1701 Mountain Industrial Blvd"}]
            """
        let endpoint = try #require(URL(string: "https://simbli.example/Services/api/GetMeetingListing"))
        let found = try #require(JSONInference.infer(try Self.json(simbli), endpoint: endpoint, dates: Self.dates))
        let fields = try #require(found.options["fields"]?.objectValue)
        #expect(found.kind == .event && fields["title"] == .string("MM_MeetingTitle") && fields["start"] == .string("MM_DateTime"), "\(fields)")
        #expect(fields["location"] == .string("MM_Address1"))
        let boarddocs =
            #"[{"unique": "CT23380490B4", "name": "Regular Meeting", "numberdate": "20240219"}, {"unique": "X2", "name": "BOE Special Meeting", "numberdate": "20240205"}, {}]"#
        let listing = try #require(URL(string: "https://go.boarddocs.example/ks/x/Board.nsf/BD-GetMeetingsList?open"))
        let list = try #require(JSONInference.infer(try Self.json(boarddocs), endpoint: listing, dates: Self.dates))
        #expect(list.kind == .event && list.options["fields"]?.objectValue?["start"] == .string("numberdate"), "\(list)")
    }

    /// Issue 45: an alert list needs no date; an empty one is still an alert source; a
    /// `visible` flag keeps the hidden ones out (Miami-Dade's shape).
    @Test func alertListsAreReadEmptyOrHidden() throws {
        let endpoint = try #require(URL(string: "https://www.district.example/api/popup-alerts"))
        let empty = try #require(JSONInference.infer(try Self.json(#"{"alerts": [], "districtUrl": null}"#), endpoint: endpoint, dates: Self.dates))
        #expect(empty.kind == .alert && empty.options["items"] == .string("alerts"))
        let hidden =
            #"{"items": [{"id": 3, "type": "danger", "visible": false, "title": "Hurricane Elsa", "body": "Monitoring."}, {"id": 4, "type": "info", "visible": true, "title": "Meals", "body": "Sites."}]}"#
        let api = try #require(URL(string: "https://mainapi.district.example/api/v1/alerts/"))
        let found = try #require(JSONInference.infer(try Self.json(hidden), endpoint: api, dates: Self.dates))
        #expect(found.kind == .alert && found.options["where"] == .object(["field": .string("visible"), "equals": .bool(true)]), "\(found)")
        #expect(found.options["fields"]?.objectValue?["severity"] == .string("type"))
    }

    @Test func theLargestListWinsWhereverItIs() throws {
        let value = try Self.json(#"{"a": [1, 2], "b": {"c": {"items x": [1, 2, 3, 4]}}, "d": [1, 2, 3]}"#)
        let found = try #require(JSONInference.largestList(value, path: "", depth: 0))
        #expect(found.0 == "b.c.['items x']" && found.1.count == 4)
    }

    @Test func anInferredDefinitionReadsTheItemsWithTheRealImporter() throws {
        let folder = try TemporaryDirectory("json-inference")
        defer { folder.remove() }
        try folder.write("imports/events.json", Self.events)
        let endpoint = try #require(URL(string: "https://d.example/api/v1/calendar"))
        let (kind, options) = try #require(JSONInference.infer(try Self.json(Self.events), endpoint: endpoint, dates: Self.dates))
        let object: [String: JSONValue] = [
            "id": .string("calendar"), "importer": .string("json"), "kind": .string(kind.rawValue), "url": .string("events.json"),
            "timeZone": .string("America/Denver"), "options": .object(options),
        ]
        let source = try SourceDefinition.parse(object, file: folder.path("imports/calendar.json"))
        let result = try ImportPipeline(importsRoot: folder.url.appendingPathComponent("imports")).extract(source)
        #expect(result.items.count == 3, "\(result.problems)")
        let titles = result.items.compactMap { item -> String? in
            if case .event(let e) = item.content { return e.title + " @ " + (e.locationName ?? "") } else { return nil }
        }
        #expect(titles.sorted() == ["Board Meeting @ District Office", "Fall Concert @ Auditorium", "Picture Day @ Gym"])
    }

    @Test func endpointsAPageNames() throws {
        let page = try #require(URL(string: "https://d.example/calendar/"))
        let document = try HTMLDocument(
            html: """
                <div id="cal" data-events-url="/api/events.json?month=10"></div><div data-src="feed.json"></div>
                <div data-url="javascript:alert(1).json"></div><div data-feed="not a url with spaces.json"></div>
                <script>var config = {"endpoint": "https://cdn.d.example/api/news", 'other': 'x.json'};</script>
                <script src="/app.json"></script>
                """, url: page)
        let found = JSONInference.endpoints(in: document, page: page).map(\.absoluteString)
        #expect(
            found == ["https://d.example/api/events.json?month=10", "https://d.example/calendar/feed.json", "https://d.example/calendar/x.json"])
    }

    /// Issue 45: the five-address cap counts the site's own addresses: six off-site `/api/`
    /// strings before the site's own API (an Apptegy page's vendor scripts) no longer hide it.
    @Test func theCapCountsTheSitesOwnAddressesOnly() throws {
        let page = try #require(URL(string: "https://www.d.example/"))
        let vendors = (1...6).map { "\"https://cdn\($0).vendor.example/api/v\($0)\"" }.joined(separator: ", ")
        let document = try HTMLDocument(
            html: "<script>var a = [\(vendors)]; var site = \"https://www.d.example/api/v4/events\";</script>", url: page)
        let found = JSONInference.endpoints(in: document, page: page).map(\.absoluteString)
        #expect(found == ["https://www.d.example/api/v4/events"], "\(found)")
    }
}
