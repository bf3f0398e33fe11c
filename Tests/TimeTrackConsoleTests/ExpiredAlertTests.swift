import Foundation
import TestSupport
import Testing

/// Issue 46: an expired alert is not published quietly, nor exported.
///
/// A pop-up whose expiry had passed two months earlier was approved without a word and
/// exported. Approving content past its expiry now needs `--anyway`, and exports and the preview
/// of what is published leave expired announcements out.
@Suite struct ExpiredAlertTests {
    /// The real Lewistown pop-up's markup (a Finalsite page-pops answer), its expiry long past,
    /// and its source.
    static func writePopups(_ dir: TemporaryDirectory) throws {
        try dir.write(
            "imports/popups.html",
            """
            <div id="fsPagePopCollection" hidden><article class="fsPagePop" data-id="18" data-visible-at="2026-08-10T08:00:00-06:00"
             data-hidden-at="2026-09-29T20:00:00-06:00"><h2 id="fsPagePopTitle_18" class="fsPagePopTitle fsDialogTitle">FHS Bond Information -\
             Election Day, September 29, 2026</h2><div id="fsPagePopMessage_18" class="fsPagePopMessage"><p>Polls close at 8 p.m.</p></div>\
            </article></div>
            """)
        try dir.write(
            "imports/popups.json",
            """
            { "id": "popups", "importer": "html", "kind": "announcement", "url": "popups.html", "baseURL": "https://www.lewistown.k12.mt.us/",
              "timeZone": "America/Denver", "mayBeEmpty": true,
              "options": { "item": "article.fsPagePop", "key": "@data-id", "fields": { "title": ".fsPagePopTitle", "summary": ".fsPagePopMessage",
                "date": "@data-visible-at", "expires": "@data-hidden-at", "priority": {"value": "urgent"} } } }
            """)
    }

    /// In the review walk, `a` on an expired alert asks first, and a no leaves it pending.
    @Test func theReviewWalkAsksBeforePublishingAnExpiredAlert() throws {
        let dir = try TemporaryDirectory("expired-review")
        defer { dir.remove() }
        try Self.writePopups(dir)
        let store = dir.path("t.sqlite")
        #expect(
            try Binaries.run("timetrack-admin", ["--store", store, "--imports", dir.path("imports"), "--as", "ana", "import", "popups", "--no-review"]).status
                == 0)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", store, "--imports", dir.path("imports"), "--as", "ana", "review"], rows: 24, columns: 80)
        #expect(pty.expect("[a]pprove", timeout: 20) != nil, "\(pty.transcript)")
        pty.send("a\r")
        #expect(pty.expect("approve anyway? [y/N]", timeout: 10) != nil, "\(pty.transcript.suffix(600))")
        pty.send("n\r")
        #expect(pty.expect("not approved: it expired on 2026-09-29 20:00 MDT", timeout: 10) != nil, "\(pty.transcript.suffix(600))")
        pty.send("q\r")
        _ = pty.waitForExit(timeout: 10)
        #expect(try Binaries.sql(store, "SELECT status FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "pending")
    }

    @Test func anExpiredAlertIsNotPublishedQuietlyNorExported() throws {
        let dir = try TemporaryDirectory("expired-alert")
        defer { dir.remove() }
        try Self.writePopups(dir)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words)
        }
        #expect(try run(["import", "popups", "--no-review"]).status == 0)
        let refused = try run(["approve", "a1"])
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("expired on 2026-09-29 20:00 MDT") && refused.stderr.contains("--anyway"), "\(refused.stderr)")
        let anyway = try run(["approve", "a1", "--anyway"])
        #expect(anyway.status == 0 && anyway.stdout.contains("a1: published"), "\(anyway.stderr)")
        let exported = try run(["export", "--format", "json", "--out", dir.path("out.json")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = (try? String(contentsOfFile: dir.path("out.json"), encoding: .utf8)) ?? ""
        #expect(!json.contains("FHS Bond"), "\(json)")
        #expect((exported.stdout + exported.stderr).contains("expired"), "\(exported.stdout) \(exported.stderr)")
        #expect(try run(["preview", "--out", dir.path("preview")]).status == 0)
        let page = (try? String(contentsOfFile: dir.path("preview/index.html"), encoding: .utf8)) ?? ""
        #expect(!page.contains("FHS Bond"), "the preview shows an expired alert")
    }
}
