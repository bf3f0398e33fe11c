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
        <article class="news"><h2><a href="/news/1">Picture Day Is Friday</a></h2><img class="photo" src="/img/IMG_2231.jpg"><p class="summary">\
        Smile!</p></article>
        <article class="news"><h2><a href="/news/2">Supply Lists Posted</a></h2><div class="body"><p>The lists are ready: <a href="/supplies.pdf">\
        click here</a>.</p></div></article>
        <article class="news"><h2><a href="/news/3">Library Hours</a></h2><img class="photo" src="/img/library.jpg" alt="Students reading in the\
         library"><p class="summary">Open until 5.</p></article>
        </main></body></html>
        """

    static func definition(_ id: String, extra: String) -> String {
        #"{"id": "\#(id)", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://www.district.example/news","#
            + #" "timeZone": "America/Chicago"\#(extra), "options": {"item": "article.news", "fields": {"title": "h2 a", "link": "h2 a@href","#
            + #" "image": "img.photo@src", "imageAlt": "img.photo@alt", "summary": "p.summary", "body": ".body@html"}}}"#
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
        #expect(
            report.hasPrefix("id,kind,school,criterion,field,problem,fix") && report.contains("a1,announcement,,WCAG 1.1.1 Non-text Content,imageAlt"),
            "\(report)")
        #expect(report.contains("a2,announcement,,WCAG 2.4.4 Link Purpose,body") && !report.contains("a3,"), "\(report)")
        // Issue 48: on an 80-column terminal each finding reads whole, wrapped between words.
        let readable = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "a11y", "report"],
            environment: ["COLUMNS": "80"]
        ).stdout
        for line in readable.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        #expect(readable.contains("make the link's words say where it goes") && readable.contains("(alt=\"\" only for decoration)"), "\(readable)")
        #expect(readable.contains("WCAG 1.1.1 Non-text Content (imageAlt)") && readable.contains("fix: "), "\(readable)")
        #expect(readable.contains("2 published item(s) with 2 finding(s);"), "\(readable)")
    }

    @Test func aHeldSourceKeepsFlaggedItemsPendingThroughAutoPublishing() throws {
        let dir = try TemporaryDirectory("a11y-hold")
        defer { dir.remove() }
        try dir.write("imports/news.html", Self.page)
        try dir.write("imports/news.json", Self.definition("news", extra: #", "review": "auto", "accessibility": "hold""#))
        let imported = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "news"])
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
        #expect(
            try Binaries.run(
                "timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "news", "--no-review"]
            ).status == 0)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "review", "--kind", "announcements"], rows: 24,
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

    @Test func theDescriptionSuggestedForAFlyerCarriesItsText() throws {
        guard let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/tesseract")
        else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("ImageMagick or tesseract is missing (.ci/run installs them)") }
            return
        }
        let dir = try TemporaryDirectory("a11y-flyer")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports/img"), withIntermediateDirectories: true)
        let drawn = try Binaries.runPath(
            convert,
            [
                "-size", "1000x500", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black", "-annotate", "+60+160",
                "Fall Festival\nSaturday in the Park", dir.path("imports/img/flyer.png"),
            ])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        // The flyer is on the district's site, fetched with the source's settings.
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/robots.txt", .init(status: 404))
        server.route(
            "/uploads/flyer.png",
            .init(headers: ["Content-Type": "image/png"], body: try Data(contentsOf: URL(fileURLWithPath: dir.path("imports/img/flyer.png")))))
        server.route(
            "/news/",
            .html(
                #"<html><body><main><article class="news"><h2><a href="/news/9">Come to the festival</a></h2><img class="photo""#
                    + #" src="/uploads/flyer.png"></article></main></body></html>"#
            ))
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 1}"#)
        try dir.write(
            "imports/news.json",
            #"{"id": "news", "importer": "html", "kind": "announcement", "url": "\#(server.base)/news/", "allowPrivateNetwork": ["127.0.0.1"],"#
                + #" "timeZone": "America/Chicago", "options": {"item": "article.news", "fields": {"title": "h2 a", "link": "h2 a@href", "image":"#
                + #" "img.photo@src", "imageAlt": "img.photo@alt"}}}"#
        )
        let imported = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "news", "--no-review"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "review"], rows: 24,
            columns: 80)
        #expect(pty.expect("l: describe the picture") != nil, "\(pty.transcript)")
        pty.send("l\r")
        #expect(pty.expect("text in the picture: \"Fall Festival Saturday in the Park\"", timeout: 30) != nil, "\(pty.transcript)")
        #expect(pty.expect("what it shows [Come to the festival: Fall Festival") != nil, "\(pty.transcript)")
        pty.send("\r")
        #expect(pty.expect("described") != nil, "\(pty.transcript)")
        pty.send("q\r")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
        let shown = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "show", "a1"]).stdout
        #expect(shown.contains("Come to the festival: Fall Festival Saturday in the Park"), "\(shown)")
    }
}
