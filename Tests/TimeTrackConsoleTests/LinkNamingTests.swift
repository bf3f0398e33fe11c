import Foundation
import TestSupport
import Testing

/// Issue 38: link text that says nothing ("click here", "read more") named from where it goes,
/// shown first and applied as an edit only when asked.
@Suite struct LinkNamingTests {
    /// A news page whose one article links a PDF ("click here"), a page ("read more") and a page
    /// whose title says nothing better ("here"), served on 127.0.0.1, and its source.
    static func site(_ dir: TemporaryDirectory, _ server: TestHTTPServer) throws {
        server.route("/robots.txt", .init(status: 404))
        server.route(
            "/wp-content/uploads/2026/08/supply-list.pdf",
            .init(
                headers: ["Content-Type": "application/pdf"], body: TestPDF.text(["Two pencils"], title: "2026-27 Supply List", language: "en-US", tagged: true)
            ))
        server.route(
            "/events/fall-festival/", .html("<html><head><title>Fall Festival | Hillcrest Elementary</title></head><body><h1>Fall Festival</h1></body></html>"))
        server.route("/untitled/", .html("<html><head><title>Click here</title></head><body><p>no heading</p></body></html>"))
        server.route(
            "/news/",
            .html(
                """
                <html><body><main><article class="post"><h2>Back to school</h2><time datetime="2026-08-10">August 10, 2026</time>
                <div class="entry-content"><p>The supply list is ready: <a href="/wp-content/uploads/2026/08/supply-list.pdf">click here</a>.
                Join us at the festival: <a href="/events/fall-festival/">read more</a>. And <a href="/untitled/">here</a>.</p></div></article>
                </main></body></html>
                """))
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 1}"#)
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "\(server.base)/news/", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "article.post", "fields": { "title": "h2", "date": "time@datetime", "body": "div.entry-content@html" } } }
            """)
    }

    @Test func vagueLinksAreNamedFromThePageTitleAndThePDFTitle() throws {
        let dir = try TemporaryDirectory("link-names")
        defer { dir.remove() }
        let server = try TestHTTPServer()
        defer { server.stop() }
        try Self.site(dir, server)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--no-input"] + words)
        }
        #expect(try run(["import", "news"]).status == 0)
        let before = try run(["show", "a1"]).stdout
        #expect(before.contains("WCAG 2.4.4"), "\(before)")

        // Without --yes and without a terminal: the proposals, and nothing changed.
        let proposed = try run(["a11y", "links", "a1"])
        #expect(proposed.status == 0, "\(proposed.stderr)")
        #expect(proposed.stdout.contains("\"click here\" → \"2026-27 Supply List\""), "\(proposed.stdout)")
        #expect(proposed.stdout.contains("\"read more\" → \"Fall Festival\""), "\(proposed.stdout)")
        #expect(
            proposed.stdout.contains("\"here\":") && proposed.stdout.contains("left as it is"),
            "a page whose title says nothing more is left alone: \(proposed.stdout)")
        #expect(proposed.stdout.contains("nothing changed"), "\(proposed.stdout)")
        #expect(try run(["show", "a1"]).stdout == before)

        let applied = try run(["a11y", "links", "a1", "--yes"])
        #expect(applied.stdout.contains("named 2 link(s)"), "\(applied.stdout)")
        let body = try run(["--json", "show", "a1"]).stdout
        #expect(body.contains("2026-27 Supply List</a>") && body.contains("Fall Festival</a>"), "\(body)")
        #expect(body.contains(">here</a>"), "the link with no better name keeps its text: \(body)")
        let after = try run(["show", "a1"]).stdout
        #expect(after.components(separatedBy: "WCAG 2.4.4").count == 2, "one vague link is left: \(after)")
        // The edit is a person's: the next import does not take it back.
        #expect(try run(["import", "news"]).status == 0)
        #expect(try run(["--json", "show", "a1"]).stdout.contains("2026-27 Supply List</a>"))
    }

    /// `t` in the review walk, typed as a person runs it: the binary under `bash -i` on an 80x24
    /// terminal, the names shown, a yes, the walk left with `q`, back at the shell's prompt.
    @Test func tInTheReviewWalkNamesTheLinksAfterAYes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let dir = try TemporaryDirectory("link-names-walk")
        defer { dir.remove() }
        let server = try TestHTTPServer()
        defer { server.stop() }
        try Self.site(dir, server)
        let words = ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports")]
        #expect(try Binaries.run("timetrack-admin", words + ["--no-input", "import", "news"]).status == 0)
        let pty = try RealPagerTests.shell("/bin/bash", ["--norc", "--noprofile", "-i"])
        pty.send(([Binaries.path("timetrack-admin")] + words + ["review"]).joined(separator: " ") + "\r")
        #expect(pty.expect("t: name the links that say nothing", timeout: 30) != nil, "\(pty.transcript)")
        pty.send("t\r")
        #expect(pty.expect("\"click here\" → \"2026-27 Supply List\"", timeout: 30) != nil, "\(pty.transcript)")
        #expect(pty.expect("name these 2 links so? [y/N] ", timeout: 30) != nil, "\(pty.transcript)")
        pty.send("y\r")
        #expect(pty.expect("named 2 link(s)", timeout: 30) != nil, "\(pty.transcript)")
        pty.send("q\r")
        #expect(pty.expect("READY> ", timeout: 30) != nil, "back at the shell: \(pty.transcript)")
        pty.send("exit\r")
        _ = pty.waitForExit(timeout: 10)
        let body = try Binaries.run("timetrack-admin", words + ["--json", "show", "a1"]).stdout
        #expect(body.contains("2026-27 Supply List</a>") && body.contains("Fall Festival</a>"), "\(body)")
    }
}
