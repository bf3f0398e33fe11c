import Foundation
import TestSupport
import Testing

/// Issue 46's event states: an upcoming event that vanishes from its source is "possibly
/// cancelled" in review and in `list` (never deleted, never left silently scheduled); a
/// passed event says so in `show`.
@Suite struct EventStateTests {
    /// A board-meetings page in a district CMS's table shape, with the meetings given.
    static func meetings(_ rows: [(String, String)]) -> String {
        "<html><body><table class=\"meetings\"><tbody>"
            + rows.map { "<tr><td class=\"date\">\($0.1)</td><td class=\"title\">\($0.0)</td></tr>" }.joined() + "</tbody></table></body></html>"
    }

    static func day(_ offset: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/Denver")
        formatter.dateFormat = "MMMM d, yyyy 'at' h:mm a"
        return formatter.string(from: Date().addingTimeInterval(offset))
    }

    @Test func anUpcomingMeetingGoneFromItsSourceIsPossiblyCancelledAndAPassedOneSaysSo() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        let box = PageBox(Self.meetings([("Regular Board Meeting", Self.day(10 * 86_400)), ("Work Session", Self.day(-3 * 86_400))]))
        setup.server.handle { request in request.path == "/board/meetings" ? .html(box.get()) : nil }
        try setup.dir.write(
            "imports/board.json",
            """
            { "id": "board", "importer": "html", "kind": "event", "url": "\(setup.server.base)/board/meetings", "timeZone": "America/Denver",
              "schedule": "1d", "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "table.meetings tr", "fields": { "title": "td.title", "start": "td.date" } } }
            """)
        #expect(try setup.run(["import", "board"]).status == 0)
        let ids = try setup.sql("SELECT id FROM items ORDER BY seq").split(separator: "\n").map(String.init)
        #expect(ids.count == 2)
        #expect(try setup.run(["approve"] + ids).status == 0)
        #expect(try setup.run(["show", ids[1]]).stdout.contains("published (passed)"))
        #expect(!(try setup.run(["show", ids[0]]).stdout.contains("(passed)")))
        box.set(Self.meetings([("Work Session", Self.day(-3 * 86_400))]))
        #expect(try setup.run(["import", "board"]).status == 0)
        #expect(try setup.sql("SELECT status FROM items WHERE id = '\(ids[0])'") == "published", "never deleted, never unpublished by an import")
        let list = try setup.run(["list", "events"]).stdout
        #expect(list.contains("published (possibly cancelled)"), "\(list)")
        let review = try setup.run(["review"]).stdout
        #expect(review.contains(ids[0]) && review.contains("POSSIBLY CANCELLED"), "in review after one run, not three: \(review)")
    }
}
