import Foundation
import TestSupport
import Testing

/// Exports through the real binary: only published items, documented JSON, valid ICS and RSS
/// that our own importers read back to the same items.
@Suite struct ExportTests {
    struct Setup {
        let dir: TemporaryDirectory
        init() throws { dir = try TemporaryDirectory("export") }

        func run(_ store: String, _ arguments: [String], imports: String? = nil) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path(store), "--as", "ana", "--imports", imports ?? dir.path("imports")] + arguments)
        }

        func json(_ store: String, _ arguments: [String], imports: String? = nil) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(try run(store, ["--json"] + arguments, imports: imports).stdout.utf8))
        }

        /// Imports a source into a store and approves everything it found.
        func importAndPublish(_ store: String, source: String, imports: String? = nil) throws {
            let result = try run(store, ["import", source], imports: imports)
            #expect(result.status == 0, "\(result.stderr)")
            let pending = try json(store, ["list", "--status", "pending", "--limit", "1000"], imports: imports) as? [[String: Any]] ?? []
            let ids = pending.compactMap { $0["id"] as? String }
            if !ids.isEmpty { #expect(try run(store, ["approve"] + ids, imports: imports).status == 0) }
        }
    }

    static func copyFixture(_ name: String, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = (folder as NSString).appendingPathComponent(name)
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: ImporterFixtures.fixtures.appendingPathComponent(name).path, toPath: target)
    }

    func eventsOf(_ setup: Setup, store: String) throws -> [[String: String]] {
        let list = try setup.json(store, ["list", "events", "--status", "published", "--limit", "1000"]) as? [[String: Any]] ?? []
        return try list.compactMap { $0["id"] as? String }.map { id in
            let shown = try setup.json(store, ["show", id]) as? [String: Any]
            let fields = shown?["fields"] as? [String: Any] ?? [:]
            var row: [String: String] = [:]
            for key in ["title", "start", "end", "allDay", "timeZone", "state", "locationName"] { row[key] = fields[key].map { "\($0)" } ?? "-" }
            return row
        }.sorted { ($0["start"] ?? "", $0["title"] ?? "") < ($1["start"] ?? "", $1["title"] ?? "") }
    }

    @Test func icsRoundTripKeepsTimesZonesAllDayAndCancelled() throws {
        let setup = try Setup()
        defer { setup.dir.remove() }
        try Self.copyFixture("district.ics", to: setup.dir.path("imports"))
        try setup.dir.write(
            "imports/district.json",
            #"{ "id": "district", "importer": "ical", "kind": "event", "url": "district.ics", "timeZone": "America/Denver", "options": { "pastDays": 3650 } }"#)
        try setup.importAndPublish("a.sqlite", source: "district")
        let original = try eventsOf(setup, store: "a.sqlite")
        #expect(original.count >= 8)
        #expect(original.contains { $0["allDay"] == "1" || $0["allDay"] == "true" })
        #expect(original.contains { $0["state"] == "cancelled" })

        let exported = setup.dir.path("roundtrip/district-export.ics")
        try FileManager.default.createDirectory(atPath: setup.dir.path("roundtrip"), withIntermediateDirectories: true)
        let export = try setup.run("a.sqlite", ["export", "--format", "ics", "--out", exported])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:America/Denver"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })

        try setup.dir.write(
            "roundtrip/again.json",
            #"{ "id": "again", "importer": "ical", "kind": "event", "url": "district-export.ics", "timeZone": "UTC", "options": { "pastDays": 3650 } }"#)
        try setup.importAndPublish("b.sqlite", source: "again", imports: setup.dir.path("roundtrip"))
        let roundTripped = try eventsOf(setup, store: "b.sqlite")
        #expect(roundTripped == original)
    }

    @Test func jsonAndRSSHoldOnlyPublishedItems() throws {
        let setup = try Setup()
        defer { setup.dir.remove() }
        try Self.copyFixture("news.rss", to: setup.dir.path("imports"))
        try setup.dir.write(
            "imports/news.json",
            #"{ "id": "news", "importer": "feed", "kind": "announcement", "url": "news.rss", "baseURL": "https://lakeside.example/news/feed/","#
                + #" "timeZone": "America/Denver" }"#
        )
        #expect(try setup.run("s.sqlite", ["import", "news"]).status == 0)
        let ids = (try setup.json("s.sqlite", ["list", "announcements"]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count == 2)
        #expect(try setup.run("s.sqlite", ["approve", ids[0]]).status == 0)

        let out = setup.dir.path("app")
        let export = try setup.run("s.sqlite", ["export", "--format", "json", "--out", out])
        #expect(export.status == 0, "\(export.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/announcements.json"))) as? [String: Any]
        #expect(document?["schema"] as? String == "timetrack-export/1")
        let items = document?["items"] as? [[String: Any]] ?? []
        #expect(items.count == 1)
        #expect(items.first?["id"] as? String == ids[0])
        for file in ["events.json", "school-info.json", "posts.json"] { #expect(FileManager.default.fileExists(atPath: out + "/" + file)) }
        #expect(!FileManager.default.fileExists(atPath: out + "/absences.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.contains(".tmp-") })

        // RSS, read back by the feed importer.
        let rss = setup.dir.path("again/feed.rss")
        try FileManager.default.createDirectory(atPath: setup.dir.path("again"), withIntermediateDirectories: true)
        #expect(try setup.run("s.sqlite", ["export", "--format", "rss", "--out", rss]).status == 0)
        try setup.dir.write(
            "again/feed.json", #"{ "id": "feed", "importer": "feed", "kind": "announcement", "url": "feed.rss", "timeZone": "America/Denver" }"#)
        let back =
            try JSONSerialization.jsonObject(
                with: Data(try setup.run("x.sqlite", ["--json", "extract", "feed"], imports: setup.dir.path("again")).stdout.utf8)) as? [String: Any]
        let backItems = (back?["items"] as? [[String: Any]] ?? []).compactMap { $0["fields"] as? [String: Any] }
        #expect(backItems.count == 1)
        let shown = try setup.json("s.sqlite", ["show", ids[0]]) as? [String: Any]
        let fields = shown?["fields"] as? [String: Any] ?? [:]
        #expect(backItems.first?["title"] as? String == fields["title"] as? String)
        #expect(backItems.first?["link"] as? String == fields["link"] as? String)
        #expect(backItems.first?["imageURL"] as? String == fields["imageURL"] as? String)
    }

    @Test func badExportArguments() throws {
        let setup = try Setup()
        defer { setup.dir.remove() }
        try setup.dir.write("imports/.keep", "")
        #expect(try setup.run("s.sqlite", ["operator", "add", "ana", "--role", "admin"]).status == 0)  // creates the store
        let noFormat = try setup.run("s.sqlite", ["export", "--out", "x"])
        #expect(noFormat.status == 2)
        let badFormat = try setup.run("s.sqlite", ["export", "--format", "pdf", "--out", "x"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("'pdf' is not a format"))
        let noFolder = try setup.run("s.sqlite", ["export", "--format", "ics", "--out", setup.dir.path("missing/folder/cal.ics")])
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.contains("does not exist"))
    }

    @Test(arguments: [
        ("district", "event"), ("news-rss", "announcement"), ("news-atom", "announcement"), ("wp", "announcement"),
        ("article-jsonld", "announcement"), ("info-docs", "school-info"),
    ])
    func extractWorksForEveryImporterWithFileAndJSON(_ id: String, _ kind: String) throws {
        let definition = ImporterFixtures.fixtures.appendingPathComponent("\(id).json").path
        let data = try Data(contentsOf: URL(fileURLWithPath: definition))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let file = ImporterFixtures.fixtures.appendingPathComponent(object?["url"] as? String ?? "").path
        let result = try Binaries.run("timetrack-admin", ["--json", "extract", definition, "--file", file])
        #expect(result.status == 0, "\(id): \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let items = json?["items"] as? [[String: Any]] ?? []
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0["kind"] as? String == kind })
        let text = try Binaries.run("timetrack-admin", ["extract", definition, "--file", file])
        #expect(text.stdout.contains("\(items.count) items"))
    }
}
