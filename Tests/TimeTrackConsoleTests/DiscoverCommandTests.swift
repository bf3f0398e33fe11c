import Foundation
import TestSupport
import Testing

/// `discover` as an administrator runs it: on a terminal, from a site's home page (a Drupal
/// site on 127.0.0.1), saving what it proposes; the saved sources import, and their items wait
/// for review.
@Suite struct DiscoverCommandTests {
    static func site() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let head = #"<meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><link rel="stylesheet" href="/sites/default/files/css/css_a1b2.css">"#
        func page(_ title: String, _ body: String) -> String {
            "<!DOCTYPE html><html><head><title>\(title) | Lakeside Public Schools</title>\(head)</head><body><nav><a href=\"/news\">News</a> <a"
                + " href=\"/about\">About</a></nav><main>\(body)</main></body></html>"
        }
        server.route("/", .html(page("Home", "<h1>Lakeside Public Schools</h1>")))
        server.route("/about", .html(page("About", "<p>Founded in 1921.</p>")))
        let rows = [
            ("Board Approves Budget", "2026-10-14", "board-approves-budget"), ("Fall Conferences", "2026-10-09", "fall-conferences"),
            ("Science Olympiad", "2026-10-02", "science-olympiad"),
        ]
        .map { title, day, slug in
            #"<div class="views-row"><div class="views-field views-field-title"><span class="field-content"><a"#
                + #" href="/news/\#(slug)">\#(title)</a></span></div><div class="views-field views-field-created"><time"#
                + #" datetime="\#(day)T14:00:00Z">\#(day)</time></div></div>"#
        }.joined()
        server.route("/news", .html(page("News", #"<div class="view view-news view-id-news"><div class="view-content">"# + rows + "</div></div>")))
        return server
    }

    @Test func discoverWriteImportAndReview() throws {
        let server = try Self.site()
        defer { server.stop() }
        let dir = try TemporaryDirectory("discover-cli")
        defer { dir.remove() }
        let imports = dir.path("imports")
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
        let store = dir.path("s.sqlite")
        // Without --allow-private the test server's address is refused, and the way to allow it named.
        let refused = try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "discover", server.base + "/"])
        #expect(refused.status != 0 && refused.stderr.contains("--allow-private"), "\(refused.stdout)\(refused.stderr)")

        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", store, "--imports", imports, "discover", server.base + "/", "--allow-private", "--write", "--zone", "America/Chicago"], rows: 24,
            columns: 80)
        #expect(pty.expect("platform: Drupal") != nil, "\(pty.transcript)")
        #expect(pty.expect("127-news") != nil, "\(pty.transcript)")
        #expect(pty.expect("3 items, 0 problems") != nil, "\(pty.transcript)")
        #expect(pty.expect("definitions written") != nil, "\(pty.transcript)")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")

        let definition = try String(contentsOfFile: imports + "/127-news.json", encoding: .utf8)
        #expect(definition.contains("\"enabled\" : false") && definition.contains("\"allowPrivateNetwork\" : true"), "\(definition)")
        // Written again: a new file beside it, the first one kept.
        let again = try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "discover", server.base + "/", "--allow-private", "--write"])
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: imports + "/127-news-2.json"), "\(again.stdout)\(again.stderr)")
        #expect(try String(contentsOfFile: imports + "/127-news.json", encoding: .utf8) == definition)

        let imported = try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "--as", "ana", "import", "127-news", "--no-review"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let pending = try Binaries.run("timetrack-admin", ["--store", store, "--json", "list", "announcements", "--status", "pending"])
        let items = (try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(items.compactMap { $0["title"] as? String }.sorted() == ["Board Approves Budget", "Fall Conferences", "Science Olympiad"], "\(pending.stdout)")
    }
}

/// Ctrl-C during a crawl stops it with what it found so far (a slow site: every page takes a
/// second), after a progress line on the terminal.
@Suite struct DiscoverInterruptTests {
    @Test func ctrlCStopsTheCrawlAndShowsWhatWasFound() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let links = (1...12).map { "<a href=\"/news/page-\($0)\">News \($0)</a>" }.joined(separator: " ")
        let feed = #"<link rel="alternate" type="application/rss+xml" title="District News" href="/news.rss">"#
        server.route("/", .html("<html><head><title>Home</title>\(feed)</head><body><main>\(links)</main></body></html>"))
        for number in 1...12 {
            var slow = TestHTTPServer.Response.html("<html><head><title>News \(number)</title></head><body><main><p>Page \(number)</p></main></body></html>")
            slow.delay = 1
            server.route("/news/page-\(number)", slow)
        }
        let dir = try TemporaryDirectory("discover-interrupt")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "discover", server.base + "/", "--allow-private"], rows: 24, columns: 80)
        #expect(pty.expect("discover: ") != nil, "a progress line: \(pty.transcript)")
        Thread.sleep(forTimeInterval: 1.5)
        pty.send("\u{03}")
        #expect(pty.expect("stopped early", timeout: 15) != nil, "\(pty.transcript)")
        #expect(pty.expect("news.rss") != nil, "what was found so far is shown: \(pty.transcript)")
        #expect(pty.waitForExit(timeout: 15) == 0, "\(pty.transcript)")
        #expect(server.requests.filter { $0.path.hasPrefix("/news/page-") }.count < 12, "the crawl stopped")
    }
}
