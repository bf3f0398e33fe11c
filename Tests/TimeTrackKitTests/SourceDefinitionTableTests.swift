import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: a source definition read field by field: schedules both ways, private-network
/// allowances, every mistake named by its field (with what was written quoted short), where
/// `url` points, turning a source on and off without touching the rest of its file, and a
/// folder of definitions with an id used twice.
@Suite struct SourceDefinitionTableTests {
    static func parse(_ fields: [String: JSONValue], file: String = "/imports/news.json") throws -> SourceDefinition {
        var object: [String: JSONValue] = ["id": .string("news"), "importer": .string("html"), "kind": .string("announcement"), "url": .string("news.html")]
        for (key, value) in fields { object[key] = value }
        return try SourceDefinition.parse(object, file: file)
    }

    // MARK: Schedules

    @Test(arguments: [
        ("6h", Schedule.every(21_600), "6h"), ("30m", .every(1_800), "30m"), ("1d", .every(86_400), "1d"), ("hourly", .every(3_600), "1h"),
        ("daily", .daily(hour: 0, minute: 0), "daily 00:00"), ("Daily 05:30", .daily(hour: 5, minute: 30), "daily 05:30"),
        (" 1.5h ", .every(5_400), "90m"), ("0.5d", .every(43_200), "12h"), ("5m", .every(300), "5m"), ("366d", .every(366 * 86_400), "366d"),
    ])
    func schedules(_ text: String, _ expected: Schedule, _ written: String) {
        #expect(Schedule(text) == expected, "\(text)")
        #expect(Schedule(text)?.description == written)
        #expect(Schedule(written) == expected, "\(written) reads back")
    }

    @Test(arguments: [
        "", "4m", "367d", "0h", "-1h", "inf", "nanh", "1e300d", "6", "6x", "daily 24:00", "daily 5:60", "daily 5", "daily noon", "weekly", "h",
    ])
    func notSchedules(_ text: String) {
        #expect(Schedule(text) == nil, "\(text)")
    }

    // MARK: Private networks

    @Test func privateNetworkAllowances() throws {
        #expect(try Self.parse([:]).allowPrivateNetwork == .none)
        #expect(try Self.parse(["allowPrivateNetwork": .bool(true)]).allowPrivateNetwork == .all)
        #expect(try Self.parse(["allowPrivateNetwork": .bool(false)]).allowPrivateNetwork == .none)
        let listed = try Self.parse(["allowPrivateNetwork": .array([.string("127.0.0.1"), .string("[::1]"), .string("Intranet.District.LOCAL")])])
        #expect(listed.allowPrivateNetwork == .only(["127.0.0.1", "::1", "intranet.district.local"]))
        #expect(listed.allowPrivateNetwork.allows(host: "INTRANET.district.local", address: "10.0.0.5"))
        #expect(listed.allowPrivateNetwork.allows(host: "localhost", address: "::1"))
        #expect(!listed.allowPrivateNetwork.allows(host: "router.local", address: "192.168.1.1"))
        #expect(!PrivateNetworkAllowance.none.allows(host: "127.0.0.1", address: "127.0.0.1"))
    }

    @Test(arguments: [
        JSONValue.array([]), .array([.string("127.0.0.1:8080")]), .array([.string("http://intranet/")]), .array([.string("")]),
        .array([.number(1)]), .string("yes"), .array([.string("10.0.0.0/8")]),
    ])
    func allowancesThatNeverMatchAreRefused(_ value: JSONValue) throws {
        let error = try #require(throws: TimeTrackError.self) { try Self.parse(["allowPrivateNetwork": value]) }
        #expect(error.context["field"] == "allowPrivateNetwork")
    }

    // MARK: Mistakes

    static let mistakes: [(String, JSONValue?, String)] = [
        ("id", nil, "is required"), ("id", .string("my news"), "must be letters"), ("id", .string(String(repeating: "a", count: 65)), "at most 64"),
        ("id", .string("nëws"), "must be letters"), ("importer", nil, "is required"), ("importer", .number(3), "non-empty string"),
        ("kind", .string("memo"), "is not a kind"), ("kind", nil, "is required"), ("url", nil, "is required"), ("url", .string("   "), "non-empty string"),
        ("url", .string("ftp://d.example/news"), "only http, https and file"), ("url", .string("javascript:alert(1)"), "only http, https and file"),
        ("baseURL", .string("/news"), "absolute http(s) URL"), ("baseURL", .string("file:///x"), "absolute http(s) URL"),
        ("timeZone", .string("Mountain"), "is not a known time zone"), ("schedule", .string("often"), "is not a schedule"),
        ("review", .string("maybe"), "must be \"required\" or \"auto\""), ("enabled", .string("yes"), "true or false"),
        ("followRemoteLinks", .number(1), "true or false"), ("checkPDFs", .string("true"), "true or false"),
        ("accessibility", .string("block"), "\"warn\" or \"hold\""), ("options", .array([]), "must be a JSON object"),
        ("colour", .string("red"), "is not a source definition field"),
    ]

    @Test(arguments: mistakes)
    func mistakesNameTheirField(_ field: String, _ value: JSONValue?, _ message: String) throws {
        var object: [String: JSONValue] = ["id": .string("news"), "importer": .string("html"), "kind": .string("announcement"), "url": .string("news.html")]
        object[field] = value
        let error = try #require(throws: TimeTrackError.self) { try SourceDefinition.parse(object, file: "/imports/news.json") }
        #expect(error.context["field"] == field, "\(error.message)")
        #expect(error.context["file"] == "/imports/news.json")
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test(arguments: ["id", "kind", "url", "timeZone", "schedule", "review", "accessibility", "baseURL"])
    func aLongWrongValueIsQuotedShort(_ field: String) throws {
        var object: [String: JSONValue] = ["id": .string("news"), "importer": .string("html"), "kind": .string("announcement"), "url": .string("news.html")]
        object[field] = .string("ftp:" + String(repeating: "x", count: 100_000))
        let error = try #require(throws: TimeTrackError.self) { try SourceDefinition.parse(object, file: "/imports/news.json") }
        #expect(error.message.count < 400, "\(field): \(error.message.count) characters")
    }

    @Test func defaultsAndAliases() throws {
        let plain = try Self.parse([:])
        #expect(plain.name == "news" && plain.review == .required && plain.enabled && plain.timeZone == TimeZone(identifier: "UTC"))
        #expect(plain.accessibility == .warn && !plain.checkPDFs && !plain.followsRemoteLinks && plain.schedule == nil && plain.options.isEmpty)
        #expect(try Self.parse(["kind": .string("news")]).kind == .announcement)
        #expect(try Self.parse(["kind": .string("Calendar")]).kind == .event)
        #expect(try Self.parse(["kind": .string("documents")]).kind == .schoolInfo)
        #expect(try Self.parse(["name": .null, "school": .null, "options": .null]).name == "news")
        #expect(try Self.parse(["$comment": .string("why this source"), "description": .string("x")]).id == "news")
    }

    // MARK: Where url points

    @Test func aRelativeURLIsAFileBesideTheDefinition() throws {
        let local = try Self.parse(["url": .string("pages/news.html")], file: "/srv/imports/news.json")
        #expect(local.url.isFileURL && local.url.path == "/srv/imports/pages/news.html")
        #expect(try Self.parse(["url": .string("../shared/news.html")], file: "/srv/imports/news.json").url.path == "/srv/shared/news.html")
        #expect(try Self.parse(["url": .string("/var/www/news.html")]).url.path == "/var/www/news.html")
        let web = try Self.parse(["url": .string("https://www.district.k12.us/news?page=1")])
        #expect(web.url.absoluteString == "https://www.district.k12.us/news?page=1" && web.publicURL == web.url)
        let based = try Self.parse(["baseURL": .string("https://www.district.k12.us/news/")])
        #expect(based.publicURL.absoluteString == "https://www.district.k12.us/news/")
    }

    @Test func readingAFileKeepsTheWebAddressForLinks() throws {
        let web = try Self.parse(["url": .string("https://www.district.k12.us/news")])
        let copy = web.readingFile("/tmp/saved-news.html")
        #expect(copy.url.path == "/tmp/saved-news.html" && copy.url.isFileURL)
        #expect(copy.publicURL.absoluteString == "https://www.district.k12.us/news")
        let based = try Self.parse(["url": .string("https://www.district.k12.us/news"), "baseURL": .string("https://cdn.district.k12.us/")])
        #expect(based.readingFile("/tmp/x.html").publicURL.absoluteString == "https://cdn.district.k12.us/")
    }

    // MARK: Turning a source on and off

    @Test(arguments: [
        (#"{"id": "news", "enabled": true, "url": "x"}"#, false, #"{"id": "news", "enabled": false, "url": "x"}"#),
        (#"{"id": "news","enabled"  :  false}"#, true, #"{"id": "news","enabled": true}"#),
        ("{\n  \"id\": \"news\"\n}", false, "{\n  \"enabled\": false,\n  \"id\": \"news\"\n}"),
        (
            #"{"id": "news", "options": {"enabled": true, "note": "\"enabled\": true"}, "enabled": true}"#, false,
            #"{"id": "news", "options": {"enabled": true, "note": "\"enabled\": true"}, "enabled": false}"#
        ),
        (
            #"{"id": "news", "options": {"enabled": false}}"#, true,
            "{\n  \"enabled\": true," + #""id": "news", "options": {"enabled": false}}"#
        ),
        (#"{"name": "enabled", "enabled": true}"#, false, #"{"name": "enabled", "enabled": false}"#),
    ])
    func onlyTheTopLevelSwitchChanges(_ text: String, _ enabled: Bool, _ expected: String) throws {
        let changed = SourceDefinition.settingEnabled(enabled, in: text)
        #expect(changed == expected)
        let object = try #require(try JSONValue(parsing: changed).objectValue)
        #expect(object["enabled"]?.boolValue == enabled)
    }

    // MARK: A folder of definitions

    @Test func aFolderKeepsOneSourcePerIdAndNamesTheRest() throws {
        let folder = try TemporaryDirectory("definitions")
        defer { folder.remove() }
        func definition(_ id: String) -> String { #"{"id": "\#(id)", "importer": "html", "kind": "event", "url": "x.html"}"# }
        try folder.write("a-calendar.json", definition("calendar"))
        try folder.write("b-calendar-copy.json", definition("calendar"))
        try folder.write("c-news.json", definition("news"))
        try folder.write("d-broken.json", "{ not json")
        try folder.write("e-list.json", "[]")
        try folder.write("_draft.json", definition("draft"))
        try folder.write(".hidden.json", definition("hidden"))
        try folder.write("notes.txt", "not a definition")
        let (sources, errors) = SourceDefinition.loadAll(folder: folder.url.path)
        #expect(sources.map(\.id) == ["calendar", "news"])
        #expect(sources.first?.file == folder.path("a-calendar.json"))
        #expect(errors.count == 3)
        #expect(errors.map { ($0.context["file"] as NSString?)?.lastPathComponent ?? "" } == ["b-calendar-copy.json", "d-broken.json", "e-list.json"])
        #expect(errors.first?.message.contains("already used by") == true)
        let missing = SourceDefinition.loadAll(folder: folder.path("nowhere"))
        #expect(missing.sources.isEmpty && missing.errors.first?.message == "cannot read the imports folder")
    }
}
