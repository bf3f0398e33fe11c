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

/// Issue 46 on real captures: Smart Sites' pop-up alert API (Belgrade SD 44 on 2026-08-14 with
/// two alerts and on 2026-09-27 with one; Orange County's empty answer), read by the json
/// importer as alerts, served on 127.0.0.1 at the platform's path, `/api/popup-alerts`.
@Suite struct RealAlertCaptureTests {
    static let captures = DiscoverGivenAddressTests.shared.appendingPathComponent("platforms/pages/smartsites")

    @Test func aTakenDownSmartSitesAlertIsWithdrawnAndAnEmptyAnswerIsHealthy() throws {
        let august = Self.captures.appendingPathComponent("belgrade_popup_alerts_20260814.json")
        guard FileManager.default.fileExists(atPath: august.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld)")
            return
        }
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        let box = PageBox(try String(contentsOf: august, encoding: .utf8))
        setup.server.handle { request in
            request.path == "/api/popup-alerts" ? .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(box.get().utf8)) : nil
        }
        try setup.dir.write(
            "imports/popup-alerts.json",
            """
            { "id": "popup-alerts", "importer": "json", "kind": "alert", "url": "\(setup.server.base)/api/popup-alerts", "timeZone": "America/Denver",
              "schedule": "15m", "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "items": "alerts", "key": "id", "fields": { "title": "title", "message": "message", "link": "link" } } }
            """)
        let first = try setup.run(["import", "popup-alerts"])
        #expect(first.status == 0 && first.stderr.contains("2 new"), "\(first.stderr)")
        let titles = try setup.sql("SELECT title FROM alerts ORDER BY item_seq")
        #expect(titles == "Attention: Parents/Guardians of Special Education Students Born in 1999 & 2000\nFingerprinting Appointments", "\(titles)")
        #expect(try setup.sql("SELECT count(*) FROM alerts WHERE expires_at IS NOT NULL") == "2", "no times in the answer: an expiry all the same")
        #expect(try setup.run(["approve", "w1", "w2", "--anyway"]).status == 0)  // the message gives a phone number
        // September: 10473 is gone from the answer, 10611 still there.
        box.set(try String(contentsOf: Self.captures.appendingPathComponent("belgrade_popup_alerts_20260927.json"), encoding: .utf8))
        let september = try setup.run(["import", "popup-alerts"])
        #expect(september.status == 0 && september.stderr.contains("1 missing"), "\(september.stderr)")
        #expect(try setup.sql("SELECT id || ' ' || status FROM items ORDER BY seq") == "w1 published\nw2 withdrawn")
        // An empty answer (Orange County's): a healthy run, and the last one withdrawn.
        box.set(try String(contentsOf: Self.captures.appendingPathComponent("orange_ocps_popup_alerts_empty.json"), encoding: .utf8))
        let empty = try setup.run(["import", "popup-alerts"])
        #expect(empty.status == 0 && !empty.stderr.contains("problem:"), "\(empty.stderr)")
        #expect(try setup.sql("SELECT id || ' ' || status FROM items ORDER BY seq") == "w1 withdrawn\nw2 withdrawn")
        let runs = try setup.run(["runs"]).stdout
        #expect(try setup.sql("SELECT count(*) FROM import_runs WHERE problems > 0") == "0", "\(runs)")
    }
}
