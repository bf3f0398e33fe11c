import Foundation
import TestSupport
import Testing

/// The key of an event whose definition names none is its title and normalized start (issue 34):
/// two meetings on one day stay two, next year's meeting is an item of its own, and an event a
/// store keyed the old way (title, date text, link) keeps its id and its decisions.
@Suite struct EventKeyTests {
    /// A board page in the shape many district sites use: a year heading, then rows whose date
    /// cell has no year and whose time is a cell of its own.
    static func page(year: Int, rows: [(String, String, String)]) -> String {
        let body = rows.map { "<tr><td class=\"d\">\($0.0)</td><td class=\"t\">\($0.1)</td><td class=\"n\">\($0.2)</td></tr>" }.joined(separator: "\n")
        return """
            <html><body><h2 class="year">\(year) Board Meetings</h2>
            <table class="meetings"><tr><th>Date</th><th>Time</th><th>Meeting</th></tr>
            \(body)
            </table></body></html>
            """
    }

    static let definition = """
        {"id": "board", "name": "Board", "importer": "html", "kind": "event", "url": "board.html",
         "baseURL": "https://district.example/board/", "timeZone": "America/Chicago",
         "options": {"item": "table.meetings tr:has(td)", "yearFrom": "h2.year",
                     "fields": {"start": ".d", "time": ".t", "title": ".n"}}}
        """

    func importBoard(_ dir: TemporaryDirectory, _ store: String) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "--imports", dir.url.path, "import", "board", "--no-review"])
    }

    func rows(_ store: String) throws -> [String] {
        try Binaries.sql(store, "SELECT id || ' ' || source_key || ' ' || status FROM items ORDER BY seq").split(separator: "\n").map(String.init)
    }

    @Test func twoMeetingsOnOneDayAreTwoEvents() throws {
        let dir = try TemporaryDirectory("event-key")
        defer { dir.remove() }
        try dir.write("board.json", Self.definition)
        try dir.write(
            "board.html",
            Self.page(
                year: 2026, rows: [("Oct 13", "5:00 PM", "Board Meeting"), ("Oct 13", "7:00 PM", "Board Meeting"), ("Nov 10", "6:00 PM", "Board Meeting")]))
        let store = dir.path("s.sqlite")
        let result = try importBoard(dir, store)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("merged"), "\(result.stdout)")
        #expect(
            try rows(store) == [
                "e1 Board Meeting|2026-10-13T17:00 pending", "e2 Board Meeting|2026-10-13T19:00 pending", "e3 Board Meeting|2026-11-10T18:00 pending",
            ])
    }

    @Test func nextYearsMeetingDoesNotOverwriteThisYears() throws {
        let dir = try TemporaryDirectory("event-key-year")
        defer { dir.remove() }
        try dir.write("board.json", Self.definition)
        try dir.write("board.html", Self.page(year: 2026, rows: [("Oct 13", "6:00 PM", "Board Meeting")]))
        let store = dir.path("s.sqlite")
        #expect(try importBoard(dir, store).status == 0)
        #expect(try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "approve", "e1"]).status == 0)
        // The page is rewritten for the next school year: the same words, another year.
        try dir.write("board.html", Self.page(year: 2027, rows: [("Oct 13", "6:00 PM", "Board Meeting")]))
        #expect(try importBoard(dir, store).status == 0)
        let rows = try rows(store)
        #expect(rows.first == "e1 Board Meeting|2026-10-13T18:00 published", "\(rows)")
        #expect(rows.dropFirst().first == "e2 Board Meeting|2027-10-13T18:00 pending", "\(rows)")
        let shown = try Binaries.run("timetrack-admin", ["--store", store, "show", "e1"]).stdout
        #expect(shown.contains("2026-10-13"), "last year's meeting keeps its date: \(shown)")
    }

    @Test func anEventKeyedByItsDateTextKeepsItsIdAndDecision() throws {
        let dir = try TemporaryDirectory("event-key-former")
        defer { dir.remove() }
        try dir.write("board.json", Self.definition)
        try dir.write("board.html", Self.page(year: 2026, rows: [("Oct 13", "6:00 PM", "Board Meeting"), ("Nov 10", "6:00 PM", "Work Session")]))
        let store = dir.path("s.sqlite")
        #expect(try importBoard(dir, store).status == 0)
        #expect(try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "approve", "e1", "e2"]).status == 0)
        // The store as an older version left it: title, date text and (empty) link.
        _ = try Binaries.sql(store, "UPDATE items SET source_key = 'Board Meeting|Oct 13|' WHERE id = 'e1'")
        _ = try Binaries.sql(store, "UPDATE items SET source_key = 'Work Session|Nov 10|' WHERE id = 'e2'")
        _ = try Binaries.sql(store, "DELETE FROM item_memo; DELETE FROM page_memo")
        let again = try importBoard(dir, store)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try rows(store) == ["e1 Board Meeting|2026-10-13T18:00 published", "e2 Work Session|2026-11-10T18:00 published"])
        #expect(
            try Binaries.sql(store, "SELECT new || ' ' || changed || ' ' || unchanged || ' ' || missing FROM import_runs ORDER BY id DESC LIMIT 1")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0 0 2 0")
    }
}
