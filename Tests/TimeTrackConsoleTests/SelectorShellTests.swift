import Foundation
import TestSupport
import Testing

/// The selector shell on a pseudo-terminal: load a page once, find the items and fields by
/// trying selectors, save the definition, and the saved definition works with `extract`.
@Suite struct SelectorShellTests {
    static let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>News | Lincoln Elementary</title></head><body>
        <nav><a href="/">Home</a></nav>
        <section class="news">
          <div class="card"><h3><a href="/news/book-fair">Book Fair Next Week</a></h3><span class="when">October 5, 2026</span><p>Come find a book.</p></div>
          <div class="card"><h3><a href="/news/picture-day">Picture Day</a></h3><span class="when">October 12, 2026</span><p>Smile!</p></div>
          <div class="card"><h3><a href="/news/pta">PTA Meeting Moved</a></h3><span class="when">October 20, 2026</span><p>Now in the library.</p></div>
        </section></body></html>
        """

    @Test func buildsAndSavesAWorkingDefinition() throws {
        let dir = try TemporaryDirectory("try-shell")
        defer { dir.remove() }
        let page = try dir.write("downloads/news.html", Self.page)
        let imports = dir.path("imports")
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("t.sqlite"), "--imports", imports, "try", page, "--zone", "America/Chicago", "--base", "https://lincoln.example.org/news"],
            environment: ["TIMETRACK_HISTORY": dir.path("history")])
        #expect(pty.expect("try> ") != nil, "\(pty.transcript)")
        pty.send("css div.card h3\r")
        #expect(pty.expect("3 matches") != nil, "\(pty.transcript)")
        #expect(pty.expect("try> ") != nil)
        pty.send("xpath //span[@class='when']\r")
        #expect(pty.expect("3 matches") != nil, "\(pty.transcript)")
        pty.send("item div.card\r")
        #expect(pty.expect("the item selector matches 3 elements") != nil, "\(pty.transcript)")
        pty.send("field title=h3 a\r")
        #expect(pty.expect("3 items, 0 problems") != nil, "\(pty.transcript)")
        pty.send("field link=h3 a@href\r")
        #expect(pty.expect("link: https://lincoln.example.org/news/book-fair") != nil, "\(pty.transcript)")
        pty.send("field date=.when\r")
        #expect(pty.expect("date: 2026-10-05") != nil, "\(pty.transcript)")
        pty.send("field summary=nope\r")
        #expect(pty.expect("try> ") != nil)
        pty.send("unfield summary\r")
        pty.send("items\r")
        #expect(pty.expect("PTA Meeting Moved") != nil, "\(pty.transcript)")
        pty.send("bogus\r")
        #expect(pty.expect("unknown command 'bogus'") != nil, "\(pty.transcript)")
        pty.send("save lincoln-news\r")
        #expect(pty.expect("saved ") != nil, "\(pty.transcript)")
        pty.send("done\r")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")

        // The saved definition: the page copied beside it, and the same items through extract.
        #expect(FileManager.default.fileExists(atPath: imports + "/lincoln-news.html"))
        let extracted = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", imports, "--json", "extract", "lincoln-news"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let items = ((try JSONSerialization.jsonObject(with: Data(extracted.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
            $0["fields"] as? [String: Any]
        }
        #expect(items.compactMap { $0["title"] as? String } == ["Book Fair Next Week", "Picture Day", "PTA Meeting Moved"])
        #expect(items.compactMap { $0["link"] as? String }.first == "https://lincoln.example.org/news/book-fair")
        let definition = try String(contentsOfFile: imports + "/lincoln-news.json", encoding: .utf8)
        #expect(definition.contains("\"item\" : \"div.card\"") && definition.contains("\"timeZone\" : \"America/Chicago\""), "\(definition)")
    }

    @Test func extractTriesSpecsFromTheCommandLine() throws {
        let dir = try TemporaryDirectory("try-cli")
        defer { dir.remove() }
        let page = try dir.write("news.html", Self.page)
        let result = try Binaries.run(
            "timetrack-admin",
            [
                "--store", dir.path("t.sqlite"), "--json", "extract", page, "--item", "div.card", "--field", "title=h3 a", "--field",
                #"date={"select": ".when", "pattern": "(October \\d+, \\d{4})"}"#,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let items = ((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
            $0["fields"] as? [String: Any]
        }
        #expect(items.count == 3)
        #expect(items.first?["title"] as? String == "Book Fair Next Week")
        #expect((items.first?["publishedAt"] as? String)?.hasPrefix("2026-10-05") == true, "\(items.first ?? [:])")
    }

    /// A district site on a test server (127.0.0.1): a listing of two pages, each item with a
    /// page of its own.
    static func newsSite() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        func listing(_ items: [(String, String)], next: String?) -> String {
            let cards = items.map { "<article class=\"post\"><h2><a href=\"/news/\($0.0)\">\($0.1)</a></h2></article>" }.joined()
            return "<html><body><main>\(cards)</main>" + (next.map { "<nav class=\"pager\"><a class=\"next\" href=\"\($0)\">Next ›</a></nav>" } ?? "")
                + "</body></html>"
        }
        server.route("/news", .html(listing([("book-fair", "Book Fair"), ("picture-day", "Picture Day")], next: "/news?page=2")))
        server.route("/news?page=2", .html(listing([("pta", "PTA Meeting")], next: nil)))
        for (slug, date) in [("book-fair", "2026-10-05"), ("picture-day", "2026-10-12"), ("pta", "2026-10-20")] {
            server.route(
                "/news/\(slug)",
                .html(
                    "<html><body><article><time datetime=\"\(date)T08:00:00-05:00\">\(date)</time><div class=\"body\"><p>About"
                        + " \(slug).</p></div></article></body></html>"
                ))
        }
        return server
    }

    @Test func aPrivateAddressNextPagesAndDetailPagesFromTheShell() throws {
        let server = try Self.newsSite()
        defer { server.stop() }
        let dir = try TemporaryDirectory("try-web")
        defer { dir.remove() }
        let imports = dir.path("imports")
        let store = dir.path("t.sqlite")
        // The imports folder's settings hold for the shell too (no pause between requests here).
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
        // Refused as any source on a private address is, with the way to allow it named.
        let refused = try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "try", server.base + "/news"], stdin: "done\n")
        #expect(refused.status != 0 && refused.stderr.contains("--allow-private"), "\(refused.stdout)\(refused.stderr)")

        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", store, "--imports", imports, "try", server.base + "/news", "--zone", "America/Chicago", "--allow-private"],
            environment: ["TIMETRACK_HISTORY": dir.path("history")])
        #expect(pty.expect("try> ") != nil, "\(pty.transcript)")
        pty.send("item article.post\r")
        pty.send("field title=h2 a\r")
        #expect(pty.expect("2 items, 0 problems") != nil, "\(pty.transcript)")
        pty.send("field link=h2 a@href\r")
        #expect(pty.expect("try> ") != nil)
        pty.send("field next=a.next@href\r")
        #expect(pty.expect("next is not a field but an option of its own") != nil, "\(pty.transcript)")
        pty.send("next a.next@href\r")
        #expect(pty.expect("next page: \(server.base)/news?page=2") != nil, "\(pty.transcript)")
        pty.send("detail date=time@datetime\r")
        #expect(pty.expect("date: 2026-10-05") != nil, "\(pty.transcript)")
        pty.send("save lincoln-web\r")
        #expect(pty.expect("saved ") != nil, "\(pty.transcript)")
        pty.send("done\r")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")

        let definition = try String(contentsOfFile: imports + "/lincoln-web.json", encoding: .utf8)
        #expect(definition.contains("\"allowPrivateNetwork\" : true") && definition.contains("\"enabled\" : false"), "\(definition)")
        #expect(definition.contains("\"next\" : \"a.next@href\"") && definition.contains("\"detail\""), "\(definition)")
        // The saved definition reads both pages and every item's own page.
        let extracted = try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "--json", "extract", "lincoln-web"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let items = ((try JSONSerialization.jsonObject(with: Data(extracted.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
            $0["fields"] as? [String: Any]
        }
        #expect(items.compactMap { $0["title"] as? String } == ["Book Fair", "Picture Day", "PTA Meeting"])
        #expect(items.compactMap { ($0["publishedAt"] as? String)?.prefix(10) } == ["2026-10-05", "2026-10-12", "2026-10-20"], "\(items)")
    }

    /// `try SOURCE` opens a source's page with its definition, to change a field and save it
    /// under a new id (what `discover` proposed, or any html source).
    @Test func aSourceOpensWithItsDefinition() throws {
        let dir = try TemporaryDirectory("try-source")
        defer { dir.remove() }
        let imports = dir.path("imports")
        try FileManager.default.copyItem(atPath: ConsoleFixture.root.appendingPathComponent("Imports").path, toPath: imports)
        let result = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", imports, "try", "hillcrest-events"],
            stdin: "items\nfield location=.event-title\nsave hillcrest-events-edited\ndone\n")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 items, 0 problems") && result.stdout.contains("location: Back to School Night"), "\(result.stdout)\(result.stderr)")
        let saved = try String(contentsOfFile: imports + "/hillcrest-events-edited.json", encoding: .utf8)
        #expect(saved.contains("\"location\" : \".event-title\"") && saved.contains("\"url\" : \"samples/hillcrest/events.html\""), "\(saved)")
        // Another importer's source is named, with what to use instead.
        let feed = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", imports, "try", "hillcrest-posts"], stdin: "done\n")
        #expect(feed.status != 0 && feed.stderr.contains("try edits html definitions"), "\(feed.stdout)\(feed.stderr)")
    }
}
