import Foundation
import TestSupport
import Testing

/// Issue 46's cron test: a real HTTP server serves a Finalsite-style pop-up page to the real
/// binary run as cron does.
///
/// Empty for ten runs (each healthy); then an alert (pending, first in
/// review); approved; the page empty again: the next run withdraws it, `export` and `preview
/// --published` leave it out, and the district's `onAlert` command ran twice (published,
/// withdrawn), each run audited.
@Suite struct AlertCronTests {
    static func popup(_ alert: String?) -> String {
        EmptySourceTests.popup(alert)
    }

    /// The imports folder of a district whose `onAlert` command appends what it is given to a log.
    static func setUp(_ setup: UnattendedRunTests.Setup) throws {
        try setup.dir.write(
            "imports/_settings.json", #"{"requestDelay": 0, "retries": 0, "totalTimeout": 5, "onAlert": "notify.sh", "onAlertSeconds": 5}"#)
        try setup.dir.write("imports/notify.sh", "#!/bin/sh\ncat >> \"$(dirname \"$0\")/../hook.log\"\necho >> \"$(dirname \"$0\")/../hook.log\"\n")
        chmod(setup.dir.path("imports/notify.sh"), 0o755)
        try setup.dir.write(
            "imports/district-alerts.json",
            """
            { "id": "district-alerts", "importer": "html", "kind": "alert", "url": "\(setup.server.base)/fs/pages/2/page-pops",
              "timeZone": "America/Denver", "schedule": "15m", "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "div.fsPopup", "fields": { "title": ".fsTitle", "message": "p" } } }
            """)
        try setup.source("news", path: "/news.html")
    }

    /// The hook's log: one JSON object a line.
    static func hookLog(_ setup: UnattendedRunTests.Setup) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: setup.dir.path("hook.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func anAlertComesIsApprovedAndIsWithdrawnWhenTheDistrictTakesItDown() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        try Self.setUp(setup)
        let box = PageBox(Self.popup(nil))
        setup.server.handle { request in
            switch request.path {
            case "/fs/pages/2/page-pops": return .html(box.get())
            case "/news.html": return .html(UnattendedRunTests.page(3))
            default: return nil
            }
        }
        for run in 1...10 {
            let quiet = try setup.run(["import", "district-alerts", "news"])
            #expect(quiet.status == 0 && !quiet.stderr.contains("problem:") && !quiet.stderr.contains("held"), "run \(run): \(quiet.stderr)")
        }
        #expect(try setup.sql("SELECT count(*) FROM import_runs WHERE source_id = 'district-alerts' AND status = 'ok' AND problems = 0") == "10")
        box.set(Self.popup("All schools closed today: snow"))
        let came = try setup.run(["import", "district-alerts", "news"])
        #expect(came.status == 0 && came.stderr.contains("1 new"), "\(came.stderr)")
        // Pending, and first in review (alerts before the news that waits too).
        let queue = try setup.run(["review"]).stdout.split(separator: "\n").dropFirst()
        #expect(queue.first?.hasPrefix("w") == true, "\(queue)")
        let id = try #require(queue.first?.split(separator: " ").first.map(String.init))
        #expect(try setup.sql("SELECT status FROM items WHERE id = '\(id)'") == "pending")
        #expect(Self.hookLog(setup).isEmpty, "nothing told before a person approved it")
        let approved = try setup.run(["approve", id])
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stderr.contains("\(id) published: onAlert exited 0"), "\(approved.stderr)")
        // Taken down: the next run withdraws it.
        box.set(Self.popup(nil))
        let gone = try setup.run(["import", "district-alerts", "news"])
        #expect(gone.status == 0 && gone.stderr.contains("\(id) withdrawn: onAlert exited 0"), "\(gone.stderr)")
        #expect(try setup.sql("SELECT status FROM items WHERE id = '\(id)'") == "withdrawn")
        let message = try setup.sql("SELECT message FROM import_runs WHERE source_id = 'district-alerts' ORDER BY id DESC LIMIT 1")
        #expect(message.contains("withdrew \(id)") && message.contains("\(id) withdrawn: onAlert exited 0"), "the hook's outcome in `runs`: \(message)")
        let events = Self.hookLog(setup)
        #expect(events.map { $0["event"] as? String } == ["published", "withdrawn"], "the hook ran twice: \(events)")
        #expect(events.allSatisfy { $0["id"] as? String == id && $0["severity"] as? String == "urgent" && $0["expiresAt"] is String })
        #expect(try setup.sql("SELECT count(*) FROM audit WHERE action = 'alert-hook' AND item_id = '\(id)'") == "2")
        let review = try setup.run(["review"]).stdout
        #expect(review.contains(id) && review.contains("TAKEN DOWN by the district"), "\(review)")
        // Out of what the app gets.
        let out = setup.dir.path("out")
        #expect(try setup.run(["export", "--format", "json", "--out", out]).status == 0)
        let alerts = try String(contentsOfFile: out + "/alerts.json", encoding: .utf8)
        #expect(alerts.contains("\"count\" : 0") && !alerts.contains("closed today"), "\(alerts)")
        #expect(try setup.run(["approve", "a1"]).status == 0)
        let page = setup.dir.path("preview")
        #expect(try setup.run(["preview", "--published", "--out", page, "--no-open"]).status == 0)
        let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
        #expect(!html.contains("closed today") && html.contains("Item 1"), "the preview shows the news, not the withdrawn alert")
    }

    @Test func anAlertApprovedIsShownAtTheTopOfThePreviewAndInTheExport() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        try Self.setUp(setup)
        setup.server.handle { request in
            request.path == "/fs/pages/2/page-pops" ? .html(Self.popup("Lockdown at Hillcrest: shelter in place")) : .html(UnattendedRunTests.page(2))
        }
        #expect(try setup.run(["import", "district-alerts"]).status == 0)
        let id = try setup.sql("SELECT id FROM items WHERE kind = 'alert'")
        #expect(try setup.sql("SELECT severity FROM alerts") == "emergency", "shelter in place is an emergency")
        #expect(try setup.run(["approve", id]).status == 0)
        let out = setup.dir.path("out")
        #expect(try setup.run(["export", "--format", "json", "--out", out]).status == 0)
        let alerts = try String(contentsOfFile: out + "/alerts.json", encoding: .utf8)
        #expect(alerts.contains("Lockdown at Hillcrest") && alerts.contains("\"severity\" : \"emergency\"") && alerts.contains("expiresAt"), "\(alerts)")
        let page = setup.dir.path("preview")
        #expect(try setup.run(["preview", "--out", page, "--no-open"]).status == 0)
        let html = try String(contentsOfFile: page + "/index.html", encoding: .utf8)
        #expect(html.contains("<section id=\"alerts\">") && html.contains("EMERGENCY"), "\(html.prefix(2000))")
        #expect(Self.hookLog(setup).map { $0["event"] as? String } == ["published"])
    }
}
