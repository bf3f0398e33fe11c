import Foundation
import TestSupport
import Testing

/// Issue 46 on a granted PostgreSQL store, each role a real database role: cron (the importer
/// group) withdraws and expires alerts through the server's decision guard; a staff member
/// approves an alert only with the alerts right, and only through the tool.
///
/// In `PostgresRolesTests`' serialized suite: `store grant` makes the server's group roles, one
/// granted store at a time.
extension PostgresRolesTests {
    static func alertPopup(_ titles: [(String, String?)]) -> String {
        "<html><body>" + titles.map { "<div class=\"alert\"><h2>\($0.0)</h2>\($0.1.map { "<time>\($0)</time>" } ?? "")</div>" }.joined() + "</body></html>"
    }

    @Test func alertsCronWithdrawsAndExpiresAndOnlyTheAlertsRightApproves() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        let store = try Granted()
        defer { store.remove() }
        let (ana, sam, cron) = (store.role("ana"), store.role("sam"), store.role("cron"))
        try store.dir.write(
            "imports/hillcrest-alerts.json",
            """
            { "id": "hillcrest-alerts", "importer": "html", "kind": "alert", "url": "alerts.html", "school": "hillcrest", "timeZone": "America/Denver",
              "options": { "item": "div.alert", "fields": { "title": "h2", "expires": "time" } } }
            """)
        try store.dir.write("imports/alerts.html", Self.alertPopup([("Hillcrest closed today: water main", nil), ("Old closure", "2026-01-05 16:00")]))
        let imported = try store.run(as: cron, ["import", "hillcrest-alerts"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let ids = try Binaries.sql(store.owner, "SELECT id FROM items WHERE kind = 'alert' ORDER BY seq").split(separator: "\n").map(String.init)
        try #require(ids.count == 2)
        let (closure, old) = (ids[0], ids[1])

        // Staff without the right: the rows are not even theirs to see, so not to approve.
        let refused = try store.run(as: sam, ["approve", closure])
        #expect(refused.status != 0 && refused.stderr.contains("no item \(closure)"), "\(refused.stdout) \(refused.stderr)")
        #expect(try store.sql(as: sam, "SELECT count(*) FROM items WHERE kind = 'alert'").text.hasPrefix("0"))
        // Given the right by an admin: approves the school's alert through the tool.
        #expect(try store.run(as: ana, ["operator", "add", "sam", "--role", "staff", "--school", "hillcrest", "--alerts"]).status == 0)
        let approved = try store.run(as: sam, ["approve", closure])
        #expect(approved.status == 0, "\(approved.stderr)")
        // ...and still not by plain SQL, which writes no audit entry.
        let bypass = try store.sql(as: sam, "UPDATE items SET status = 'archived' WHERE id = '\(closure)'")
        #expect(bypass.status != 0 && bypass.text.contains("goes through timetrack-admin"), "\(bypass.text)")

        // An expired alert approved anyway: cron's `import --due` expires it, as the importer.
        #expect(try store.run(as: ana, ["approve", old, "--anyway"]).status == 0)
        let due = try store.run(as: cron, ["import", "--due"])
        #expect(due.status == 0 && due.stderr.contains("\(old) expired"), "\(due.stderr)")
        #expect(try Binaries.sql(store.owner, "SELECT status FROM items WHERE id = '\(old)'").hasPrefix("expired"))
        #expect(try store.sql(as: ana, "SELECT count(*) FROM published_alerts").text.hasPrefix("1"), "only the live closure is served")

        // Taken down: cron withdraws it at its next run.
        try store.dir.write("imports/alerts.html", Self.alertPopup([]))
        let gone = try store.run(as: cron, ["import", "hillcrest-alerts"])
        #expect(gone.status == 0, "\(gone.stdout) \(gone.stderr)")
        #expect(try Binaries.sql(store.owner, "SELECT status FROM items WHERE id = '\(closure)'").hasPrefix("withdrawn"))
        #expect(try store.sql(as: ana, "SELECT count(*) FROM published_alerts").text.hasPrefix("0"))
        let audit = try store.run(as: ana, ["audit", "verify"])
        #expect(audit.status == 0, "\(audit.stdout) \(audit.stderr)")
    }
}
