import Foundation
import TestSupport
import Testing

/// Issue 38: link text that says nothing ("click here", "read more") named from where it goes,
/// shown first and applied as an edit only when asked.
@Suite struct LinkNamingTests {
    @Test func vagueLinksAreNamedFromThePageTitleAndThePDFTitle() throws {
        let dir = try TemporaryDirectory("link-names")
        defer { dir.remove() }
        let server = try TestHTTPServer()
        defer { server.stop() }
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
}
