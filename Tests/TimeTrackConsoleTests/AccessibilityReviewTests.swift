import Foundation
import TestSupport
import Testing

/// The accessibility check where people decide (issue 38): findings in `review`, `show` and
/// `list --flag a11y`; a source on `"accessibility": "hold"` keeps flagged items pending even
/// when trusted to publish at once; `a11y report` lists what is published with findings; `l`
/// in the review walk describes a picture.
@Suite struct AccessibilityReviewTests {
    static let page = """
        <html><body><main>
        <article class="news"><h2><a href="/news/1">Picture Day Is Friday</a></h2><img class="photo" src="/img/IMG_2231.jpg"><p class="summary">Smile!</p></article>
        <article class="news"><h2><a href="/news/2">Supply Lists Posted</a></h2><div class="body"><p>The lists are ready: <a href="/supplies.pdf">click here</a>.</p></div></article>
        <article class="news"><h2><a href="/news/3">Library Hours</a></h2><img class="photo" src="/img/library.jpg" alt="Students reading in the library"><p class="summary">Open until 5.</p></article>
        </main></body></html>
        """

    static func definition(_ id: String, extra: String) -> String {
        #"{"id": "\#(id)", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://www.district.example/news", "timeZone": "America/Chicago"\#(extra), "options": {"item": "article.news", "fields": {"title": "h2 a", "link": "h2 a@href", "image": "img.photo@src", "imageAlt": "img.photo@alt", "summary": "p.summary", "body": ".body@html"}}}"#
    }

    @Test func findingsInReviewShowListAndReport() throws {
        let dir = try TemporaryDirectory("a11y-review")
        defer { dir.remove() }
        try dir.write("imports/news.html", Self.page)
        try dir.write("imports/news.json", Self.definition("news", extra: ""))
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words)
        }
        #expect(try run(["import", "news", "--no-review"]).status == 0)
        let review = try run(["review"]).stdout
        #expect((review.split(separator: "\n").first { $0.contains("Picture Day") } ?? "").contains("♿ 1.1.1"), "\(review)")
        #expect((review.split(separator: "\n").first { $0.contains("Supply Lists") } ?? "").contains("♿ 2.4.4"), "\(review)")
        #expect(!(review.split(separator: "\n").first { $0.contains("Library Hours") } ?? "").contains("♿"), "\(review)")
        let shown = try run(["show", "a1"]).stdout
        #expect(shown.contains("♿ WCAG 1.1.1 Non-text Content: imageAlt: the picture") && shown.contains("describe what the picture shows"), "\(shown)")
        let flagged = try run(["list", "announcements", "--flag", "a11y"]).stdout
        #expect(flagged.contains("a1") && flagged.contains("a2") && !flagged.contains("a3 "), "\(flagged)")
        #expect(try run(["approve", "a1", "a2", "a3"]).status == 0)
        let report = try run(["--format", "csv", "a11y", "report"]).stdout
        #expect(report.hasPrefix("id,kind,school,criterion,field,problem,fix") && report.contains("a1,announcement,,WCAG 1.1.1 Non-text Content,imageAlt"), "\(report)")
        #expect(report.contains("a2,announcement,,WCAG 2.4.4 Link Purpose,body") && !report.contains("a3,"), "\(report)")
    }

    @Test func aHeldSourceKeepsFlaggedItemsPendingThroughAutoPublishing() throws {
        let dir = try TemporaryDirectory("a11y-hold")
        defer { dir.remove() }
        try dir.write("imports/news.html", Self.page)
        try dir.write("imports/news.json", Self.definition("news", extra: #", "review": "auto", "accessibility": "hold""#))
        let imported = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "news"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let statuses = try Binaries.sql(dir.path("s.sqlite"), "SELECT id || ' ' || status FROM items ORDER BY seq").split(separator: "\n").map(String.init)
        #expect(statuses == ["a1 pending", "a2 pending", "a3 published"], "\(statuses)")
        try dir.write("imports/bad.json", Self.definition("bad", extra: #", "accessibility": "strict""#))
        let sources = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "sources"])
        #expect(sources.stderr.contains("accessibility") && sources.stderr.contains("\"warn\" or \"hold\""), "\(sources.stderr)")
    }

    @Test func describingAPictureInTheReviewWalk() throws {
        let dir = try TemporaryDirectory("a11y-describe")
        defer { dir.remove() }
        try dir.write("imports/news.html", Self.page)
        try dir.write("imports/news.json", Self.definition("news", extra: ""))
        #expect(try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "news", "--no-review"]).status == 0)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "review", "--kind", "announcements"], rows: 24,
            columns: 80)
        #expect(pty.expect("l: describe the picture") != nil, "\(pty.transcript)")
        #expect(pty.expect("[A]ll announcements [l] [q]uit [?]") != nil, "the keys fit 80 columns: \(pty.transcript)")
        pty.send("l\r")
        #expect(pty.expect("what it shows [Picture Day Is Friday]: ") != nil, "\(pty.transcript)")
        pty.send("Third graders lined up for their class photo\r")
        #expect(pty.expect("described") != nil, "\(pty.transcript)")
        pty.send("q\r")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
        let shown = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "show", "a1"]).stdout
        #expect(shown.contains("imageAlt:    Third graders lined up for their class photo") && !shown.contains("♿"), "\(shown)")
    }
}
