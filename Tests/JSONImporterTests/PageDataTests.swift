import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// Issue 45, point 2: data inside pages, read without running JavaScript, in the forms the
/// frameworks really write: Nuxt 2's `window.__NUXT__` function literal, Nuxt 3's devalue
/// table in `__NUXT_DATA__`, Next.js's `self.__next_f.push` strings.
@Suite struct PageDataTests {
    /// Nuxt 2 as it serves a page: the state returned by a function whose parameters are bound
    /// to the values repeated in it, `!0` for true, `void 0`, escaped slashes.
    static let nuxt2 = #"""
        window.__NUXT__=(function(a,b,c,d,e){return {layout:"default",data:[{events:[{title:"Board Meeting",start_date:"2026-10-06T18:00:00-06:00",
        location:b,url:"\u002Fevents\u002F1",featured:!0},{title:c,start_date:d,location:b,url:'\u002Fevents\u002F2',featured:!1},
        {title:"Picture Day",start_date:"2026-10-14",location:e,url:"\u002Fevents\u002F3",featured:a}]}],fetch:{},error:null,
        state:{alerts:[],settings:{tz:"America\u002FDenver"}},serverRendered:!0,routePath:"\u002Fcalendar",config:{_app:{basePath:"\u002F"}}}}
        (void 0,"District Office","Fall Concert","2026-10-09T19:00:00-06:00","Gym"));
        """#

    /// Nuxt 3: devalue's flat table; numbers in objects and arrays are indexes into it.
    static let nuxt3 = #"""
        [["ShallowReactive",1],{"data":2,"state":11,"once":13,"_errors":14,"serverRendered":15},["ShallowReactive",3],{"events":4},[5,9],
        {"title":6,"start":7,"location":8},"Board Meeting","2026-10-06T18:00:00-06:00","District Office",{"title":10,"start":7,"location":8},
        "Fall Concert",["Reactive",12],{},["Set"],["ShallowReactive",12],true]
        """#

    /// Next.js app router: the state in pushed strings, a line per record (`5:[…]`), JSON
    /// escaped inside a JavaScript string (a SchoolBlocks site's alerts, as Grace SD's page had one).
    static let next = #"""
        self.__next_f.push([1,"1:HL[\"/_next/static/css/app.css\",\"style\"]\n"])
        self.__next_f.push([1,"5:[\"$\",\"div\",null,{\"organization\":{\"name\":\"Grace School District\"},\"alerts\":[{\"id\":28295,\"message\":\"\u003cp\u003eGrace School District will be closed from September 11-October 4 for potato harvest break.\u003c/p\u003e\",\"type\":\"overlay\"}]}]\n"])
        """#

    @Test func nuxt2FunctionLiteralIsReadWithItsArguments() throws {
        let value = try #require(PageData.decode(Self.nuxt2))
        let events = try #require(try JSONPath("data[0].events").evaluate(value).first?.arrayValue)
        #expect(events.count == 3)
        #expect(events[1].objectValue?["title"] == .string("Fall Concert") && events[1].objectValue?["location"] == .string("District Office"))
        #expect(events[0].objectValue?["url"] == .string("/events/1") && events[0].objectValue?["featured"] == .bool(true))
        #expect(events[2].objectValue?["featured"] == .null && events[1].objectValue?["featured"] == .bool(false))
        #expect(try JSONPath("state.settings.tz").evaluate(value).first == .string("America/Denver"))
    }

    @Test func nuxt3DevalueTableIsResolved() throws {
        let value = try #require(PageData.decode(Self.nuxt3, nuxtData: true))
        let events = try #require(try JSONPath("data.events").evaluate(value).first?.arrayValue)
        #expect(events.map { $0.objectValue?["title"] } == [.string("Board Meeting"), .string("Fall Concert")])
        #expect(events[1].objectValue?["start"] == .string("2026-10-06T18:00:00-06:00"))
        #expect(try JSONPath("serverRendered").evaluate(value).first == .bool(true))
    }

    @Test func nextPushesAreJoinedAndReadLineByLine() throws {
        let value = try #require(PageData.decode(Self.next))
        let alerts = try JSONPath("$..alerts[*]").evaluate(value)
        #expect(alerts.count == 1)
        #expect((alerts.first?.objectValue?["message"]?.stringValue ?? "").hasPrefix("<p>Grace School District will be closed"))
    }

    /// Hostile input cannot trap or hang: a devalue table that points at itself, nesting far
    /// past the limit, and truncated literals all give a bounded answer or nil.
    @Test func hostileDataIsBounded() throws {
        // A table that points at itself resolves to a bounded value, not an endless one.
        #expect(PageData.decode("[[0,0],[1,1]]", nuxtData: true)?.arrayValue?.count == 2)
        #expect(PageData.decode("[{\"a\":0}]", nuxtData: true)?.objectValue?["a"] != nil)
        let deep = "window.__NUXT__=" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(PageData.decode(deep) == nil)
        for broken in ["window.__NUXT__=(function(a){return {x:a", "window.__NUXT__={a:'unclosed", "self.__next_f.push([1,\"abc", "window.__NUXT__=(function("]
        {
            #expect(PageData.decode(broken) == nil, "\(broken)")
        }
    }

    /// The json importer's `from` reads each form on a page, with the real importer.
    @Test(arguments: [
        ("nuxt2", #"<html><body><div id="__nuxt"></div><script>"# + nuxt2 + "</script></body></html>", "body > script:nth-of-type(1)", "data[0].events"),
        (
            "nuxt3", #"<html><body><script type="application/json" id="__NUXT_DATA__" data-ssr="true">"# + nuxt3 + "</script></body></html>",
            "script#__NUXT_DATA__", "data.events"
        ),
    ])
    func theJSONImporterReadsThemWithFrom(_ name: String, _ page: String, _ from: String, _ items: String) throws {
        let folder = try TemporaryDirectory("page-data-\(name)")
        defer { folder.remove() }
        try folder.write("imports/page.html", page)
        let object: [String: JSONValue] = [
            "id": .string(name), "importer": .string("json"), "kind": .string("event"), "url": .string("page.html"), "timeZone": .string("America/Denver"),
            "options": .object([
                "from": .string(from), "items": .string(items),
                "fields": .object(["title": .string("title"), "start": .array([.string("start_date"), .string("start")])]),
            ]),
        ]
        let source = try SourceDefinition.parse(object, file: folder.path("imports/\(name).json"))
        let result = try ImportPipeline(importsRoot: folder.url.appendingPathComponent("imports")).extract(source)
        #expect(result.items.count >= 2, "\(result.problems)")
        #expect(result.items.first?.content.title == "Board Meeting")
    }
}
