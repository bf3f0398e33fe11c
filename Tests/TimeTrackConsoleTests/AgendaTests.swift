import Foundation
import TestSupport
import Testing

/// Issue 46 at the console: `agenda` lists what goes live, expires and is due for review next,
/// soonest first, in each item's zone; `list` marks a published item already past its expiry;
/// only admins and staff with the alerts right approve alerts.
@Suite struct AgendaTests {
    /// An instant `hours` from now as `edit` takes it (with its offset).
    static func at(_ hours: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "America/Denver")
        return formatter.string(from: Date().addingTimeInterval(hours * 3_600))
    }

    @Test func agendaListsTheTimesToComeInTheItemsZone() throws {
        let dir = try AlertHookTests.district("exit 0")
        defer { dir.remove() }
        let run = { (words: [String]) in try AlertHookTests.run(dir, words) }
        #expect(try run(["import", "alerts"]).status == 0)
        #expect(try run(["edit", "w1", "expiresAt=\(Self.at(30))", "publishAt=\(Self.at(5))", "reviewBy=\(Self.at(50))"]).status == 0)
        #expect(try run(["approve", "w1"]).stdout.contains("scheduled"), "approved now, live at its publishAt")
        let agenda = try run(["agenda", "--days", "3"])
        #expect(agenda.status == 0, "\(agenda.stderr)")
        let lines = agenda.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("when") == true && lines.count == 3, "goes live, expires; a scheduled item is not reviewed yet: \(agenda.stdout)")
        #expect(lines[1].contains("goes live") && lines[1].contains("w1") && lines[1].contains("MST"), "\(agenda.stdout)")
        #expect(lines[2].contains("expires") && lines[2].contains("Lockdown at Hillcrest"), "\(agenda.stdout)")
        #expect(try run(["agenda", "--days", "1"]).stdout.split(separator: "\n").count == 2, "30 hours is past one day")
        let json = try JSONSerialization.jsonObject(with: Data(try run(["--json", "agenda"]).stdout.utf8)) as? [[String: Any]] ?? []
        #expect(json.map { $0["what"] as? String } == ["goes live", "expires"] && json.allSatisfy { $0["id"] as? String == "w1" }, "\(json)")
        // Nothing ahead: said in words.
        #expect(try run(["archive", "w1"]).status == 0)
        let none = try run(["agenda"])
        #expect(none.stdout.contains("nothing goes live, expires or is due for review in the next 7 days"), "\(none.stdout) \(none.stderr)")
    }

    @Test func aPublishedItemPastItsExpiryIsMarkedInTheList() throws {
        let dir = try AlertHookTests.district("exit 0")
        defer { dir.remove() }
        let run = { (words: [String]) in try AlertHookTests.run(dir, words) }
        #expect(try run(["import", "alerts"]).status == 0)
        #expect(try run(["edit", "w1", "expiresAt=\(Self.at(-1))"]).status == 0)
        let refused = try run(["approve", "w1"])
        #expect(refused.status != 0 && refused.stderr.contains("--anyway"), "approving what expired warns: \(refused.stderr)")
        #expect(try run(["approve", "w1", "--anyway"]).status == 0)
        #expect(try run(["list", "alerts"]).stdout.contains("published (expired)"))
        let due = try run(["import", "--due"])
        #expect(due.stderr.contains("w1 expired"), "\(due.stderr)")
        #expect(try run(["list", "alerts"]).stdout.contains("expired"))
        #expect(try run(["list", "alerts", "--status", "published"]).stdout.contains("w1") == false)
    }

    @Test func onlyTheAlertsRightApprovesAnAlert() throws {
        let dir = try AlertHookTests.district("exit 0")
        defer { dir.remove() }
        let run = { (words: [String]) in try AlertHookTests.run(dir, words) }
        #expect(try run(["import", "alerts"]).status == 0)
        #expect(try run(["operator", "add", "pat", "--role", "staff", "--school", "hillcrest"]).status == 0)
        let refused = try run(["--as", "pat", "approve", "w1"])
        #expect(refused.status != 0 && refused.stderr.contains("alerts right"), "\(refused.stderr)")
        let given = try run(["operator", "add", "pat", "--role", "staff", "--school", "hillcrest", "--alerts"])
        #expect(given.stdout.contains("may approve alerts"), "\(given.stdout)")
        #expect(try run(["operator", "list"]).stdout.contains("alerts"))
        let approved = try run(["--as", "pat", "approve", "w1"])
        #expect(approved.status == 0, "\(approved.stderr)")
        // The definition cannot hand alerts to automatic approval.
        try dir.write(
            "imports/alerts.json",
            #"{ "id": "alerts", "importer": "html", "kind": "alert", "url": "popup.html", "timeZone": "America/Denver", "review": "auto","#
                + #" "options": { "item": "div.alert", "fields": { "title": "h2" } } }"#)
        let auto = try run(["import", "alerts"])
        #expect(auto.status == 2 && auto.stderr.contains("never automatically"), "\(auto.stderr)")
    }

    @Test func anItemWhoseReviewDateCameWaitsInReviewUntilKept() throws {
        let dir = try AlertHookTests.district("exit 0")
        defer { dir.remove() }
        let run = { (words: [String]) in try AlertHookTests.run(dir, words) }
        #expect(try run(["import", "alerts"]).status == 0)
        #expect(try run(["edit", "w1", "expiresAt=\(Self.at(48))"]).status == 0)
        #expect(try run(["approve", "w1"]).status == 0)
        #expect(try run(["edit", "w1", "reviewBy=\(Self.at(-1))"]).status == 0)
        #expect(!(try run(["review"]).stdout.contains("w1")), "not before cron put it in review")
        let due = try run(["import", "--due"])
        #expect(due.stderr.contains("w1 is due for review"), "\(due.stderr)")
        #expect(!(try run(["import", "--due"]).stderr.contains("w1")), "once")
        let queue = try run(["review"]).stdout
        #expect(queue.contains("w1") && queue.contains("REVIEW DUE"), "\(queue)")
        #expect(try run(["list", "alerts"]).stdout.contains("published"), "still shown")
        #expect(try run(["keep", "w1"]).status == 0)
        #expect(!(try run(["review"]).stdout.contains("w1")), "kept: out of review")
        #expect(try Binaries.sql(dir.path("s.sqlite"), "SELECT count(*) FROM audit WHERE action = 'review-due'") == "1\n")
    }

    @Test func aPendingAlertTakenDownWaitsInReviewAsTakenDown() throws {
        let dir = try AlertHookTests.district("exit 0")
        defer { dir.remove() }
        let run = { (words: [String]) in try AlertHookTests.run(dir, words) }
        #expect(try run(["import", "alerts"]).status == 0)
        try dir.write("imports/popup.html", "<html><body></body></html>")
        #expect(try run(["import", "alerts"]).status == 0)
        let queue = try run(["review"]).stdout
        #expect(queue.contains("w1") && queue.contains("TAKEN DOWN by the district"), "never approved, still said: \(queue)")
        #expect(try run(["archive", "w1"]).status == 0)
        #expect(!(try run(["review"]).stdout.contains("w1")))
    }
}
