import Foundation
import TestSupport
import Testing

/// What a web source may reach and how network failures read, through the real binary against a
/// real server on 127.0.0.1.
@Suite struct NetworkSafetyTests {
    typealias Setup = UnattendedRunTests.Setup

    @Test func aWebPageCannotLeadToALocalFile() throws {
        let setup = try Setup()
        defer { setup.remove() }
        // A file in the imports folder that a hostile page points at.
        let secret = try setup.dir.write("imports/secret.html", "<article><h2>Secret local item</h2></article>")
        setup.server.route("/news.html", .html("<article><h2>Public item</h2></article><a class='next' href='file://\(secret)'>next</a>"))
        try setup.dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/news.html", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"], "options": { "item": "article", "fields": { "title": "h2" }, "next": "a.next@href" } }
            """)
        let result = try setup.run(["--json", "import", "news"])
        #expect(!result.stdout.contains("Secret"), "\(result.stdout)")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE title LIKE 'Secret%'") == "0")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE title = 'Public item'") == "1")
        #expect(result.stdout.contains("never reads local files") || result.stderr.contains("never reads local files"), "\(result.stdout) \(result.stderr)")
    }

    @Test func aLocalSourceDoesNotReachTheWebUnlessItsDefinitionSaysSo() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/remote.html", .html("<article><h2>Remote item</h2></article>"))
        try setup.dir.write("imports/local.html", "<article><h2>Local item</h2></article><a class='next' href='\(setup.server.base)/remote.html'>next</a>")
        func define(_ extra: String) throws {
            try setup.dir.write(
                "imports/local.json",
                """
                { "id": "local", "importer": "html", "kind": "announcement", "url": "local.html", "timeZone": "America/Denver",
                  "allowPrivateNetwork": ["127.0.0.1"] \(extra), "options": { "item": "article", "fields": { "title": "h2" }, "next": "a.next@href" } }
                """)
        }
        try define("")
        let refused = try setup.run(["--json", "extract", "local"])
        #expect(!refused.stdout.contains("Remote item"))
        #expect(refused.stdout.contains("followRemoteLinks") || refused.stderr.contains("followRemoteLinks"), "\(refused.stdout) \(refused.stderr)")
        #expect(setup.server.requests.filter { $0.path == "/remote.html" }.isEmpty)
        try define(#", "followRemoteLinks": true"#)
        let allowed = try setup.run(["--json", "extract", "local"])
        #expect(allowed.stdout.contains("Remote item"), "\(allowed.stdout) \(allowed.stderr)")
    }

    @Test func anUnreachableServerIsNotCalledARobotsRefusal() throws {
        let setup = try Setup(settings: #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 0, "totalTimeout": 2, "connectTimeout": 2}"#)
        defer { setup.remove() }
        // A port with nobody listening.
        let closed = try TestHTTPServer()
        let port = closed.port
        closed.stop()
        try setup.dir.write(
            "imports/down.json",
            """
            { "id": "down", "importer": "html", "kind": "announcement", "url": "http://127.0.0.1:\(port)/news.html", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"], "options": { "item": "article", "fields": { "title": "h2" } } }
            """)
        let down = try setup.run(["import", "down"])
        #expect(down.status != 0)
        #expect(down.stderr.contains("robots.txt of 127.0.0.1 could not be read"), "\(down.stderr)")
        #expect(down.stderr.contains("refused the connection"), "\(down.stderr)")
        #expect(!down.stderr.contains("does not allow"))

        // robots.txt answering 503: unavailable, not a refusal.
        setup.server.route("/robots.txt", .init(status: 503))
        setup.server.route("/news.html", .html("<article><h2>One</h2></article>"))
        try setup.source("flaky", path: "/news.html")
        let flaky = try setup.run(["import", "flaky"])
        #expect(flaky.stderr.contains("could not be read (the server answered HTTP 503)"), "\(flaky.stderr)")
        #expect(!flaky.stderr.contains("does not allow"))
        #expect(setup.server.requests.filter { $0.path == "/news.html" }.isEmpty)
    }

    /// The pinned http request (`WebClient.pinned`: the address in the URL, unit-tested in
    /// NetworkPolicyTests) still tells the server which site it wants.
    @Test func thePinnedRequestKeepsTheNameInTheHostHeader() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html("<article><h2>Pinned</h2></article>"))
        try setup.dir.write(
            "imports/named.json",
            """
            { "id": "named", "importer": "html", "kind": "announcement", "url": "http://localhost:\(setup.server.port)/news.html", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["localhost"], "options": { "item": "article", "fields": { "title": "h2" } } }
            """)
        let result = try setup.run(["import", "named"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(setup.server.requests.first { $0.path == "/news.html" })
        #expect(page.headers["host"] == "localhost:\(setup.server.port)")
    }

    @Test func aTricklingServerStopsItsSourceWithinTheBudget() throws {
        let setup = try Setup(settings: #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 2, "totalTimeout": 30, "connectTimeout": 10, "sourceSeconds": 3}"#)
        defer { setup.remove() }
        var slow = TestHTTPServer.Response.html(UnattendedRunTests.page(40))
        slow.trickle = 0.05
        setup.server.route("/slow.html", slow)
        setup.server.route("/fine.html", .html(UnattendedRunTests.page(2)))
        try setup.source("slow", path: "/slow.html")
        try setup.source("fine", path: "/fine.html")
        let result = try setup.run(["import", "--all"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("fine: ok"), "\(result.stderr)")
        #expect(result.stderr.contains("sourceSeconds") || result.stderr.contains("within 3 s"), "\(result.stderr)")
    }

    @Test func sourcesReadAheadStillKeepTheirETags() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.handle { request in
            guard let name = ["one", "two", "three"].first(where: { request.path == "/\($0).html" }) else { return nil }
            if request.headers["if-none-match"] == "\"\(name)-v1\"" { return .init(status: 304, headers: ["ETag": "\"\(name)-v1\""]) }
            return .html(UnattendedRunTests.page(2, prefix: name), headers: ["ETag": "\"\(name)-v1\""])
        }
        for name in ["one", "two", "three"] { try setup.source(name, path: "/\(name).html") }
        // Several sources in a pipe: read ahead on reading connections, which never write.
        let first = try setup.run(["import", "--all"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try setup.run(["import", "--all"])
        #expect(second.status == 0, "\(second.stderr)")
        for name in ["one", "two", "three"] {
            let pages = setup.server.requests.filter { $0.path == "/\(name).html" }
            #expect(pages.count == 2)
            #expect(pages.last?.headers["if-none-match"] == "\"\(name)-v1\"", "\(name)")
        }
        #expect(second.stderr.components(separatedBy: "1 not modified").count - 1 == 3, "\(second.stderr)")
    }
}

/// A page after the first that fails for a moment (a 500) never makes its items missing, in
/// every importer that reads more than one page.
@Suite struct UnreadPageTests {
    typealias Setup = UnattendedRunTests.Setup

    static func wordpressPost(_ id: Int, _ title: String) -> String {
        #"{"id": \#(id), "date": "2026-09-\#(String(format: "%02d", id))T10:00:00", "link": "https://district.example/\#(id)", "title": {"rendered":"#
            + #" "\#(title)"}, "excerpt": {"rendered": "<p>\#(title)</p>"}}"#
    }

    static func metadataPage(_ title: String) -> String {
        "<html><head><title>\(title)</title><meta property='og:title' content='\(title)'><meta property='article:published_time'"
            + " content='2026-09-01T10:00:00Z'></head><body><h1>\(title)</h1></body></html>"
    }

    @Test(arguments: ["html", "wordpress", "metadata"])
    func aFailingSecondPageCountsNothingMissing(_ importer: String) throws {
        let setup = try Setup(settings: #"{"requestDelay": 0, "retryDelay": 0.01, "retries": 1, "totalTimeout": 2, "connectTimeout": 2}"#)
        defer { setup.remove() }
        let base = setup.server.base
        let (firstPath, secondPath): (String, String)
        let (firstBody, secondBody): (String, String)
        var options = "{}"
        switch importer {
        case "html":
            (firstPath, secondPath) = ("/list.html", "/list-2.html")
            firstBody = "<article><h2>First page item</h2></article><a class='next' href='/list-2.html'>next</a>"
            secondBody = "<article><h2>Second page item</h2></article>"
            options = #"{ "item": "article", "fields": { "title": "h2" }, "next": "a.next@href" }"#
        case "wordpress":
            (firstPath, secondPath) = ("/wp/posts", "/wp/posts?page=2")
            // Ten posts: a full page, so the importer asks for the next one.
            firstBody = "[" + (1...10).map { Self.wordpressPost($0, "First page item \($0)") }.joined(separator: ",") + "]"
            secondBody = "[" + Self.wordpressPost(11, "Second page item") + "]"
            setup.server.route("/wp/posts?page=3", .init(status: 400, body: Data(#"{"code":"rest_post_invalid_page_number"}"#.utf8)))
            options = #"{ "maxPages": 5 }"#
        default:
            (firstPath, secondPath) = ("/one.html", "/two.html")
            firstBody = Self.metadataPage("First page item")
            secondBody = Self.metadataPage("Second page item")
            options = #"{ "pages": ["\#(base)/two.html"] }"#
        }
        let type = importer == "wordpress" ? "application/json" : "text/html"
        setup.server.route(firstPath, .init(status: 200, headers: ["Content-Type": type], body: Data(firstBody.utf8)))
        // Fine the first time; then the server fails on it for a while.
        setup.server.route(secondPath, .init(status: 200, headers: ["Content-Type": type], body: Data(secondBody.utf8)), .init(status: 500))
        try setup.dir.write(
            "imports/src.json",
            """
            { "id": "src", "importer": "\(importer)", "kind": "announcement", "url": "\(base)\(firstPath)", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"], "options": \(options) }
            """)
        let first = try setup.run(["import", "src"])
        #expect(first.stderr.contains(importer == "wordpress" ? "11 found" : "2 found"), "\(first.stderr)")
        for round in 1...3 {
            let again = try setup.run(["import", "src"])
            #expect(again.stderr.contains("0 missing"), "round \(round): \(again.stderr)")
        }
        #expect(try setup.sql("SELECT max(missing_runs) FROM items") == "0")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE title = 'Second page item' AND status = 'pending'") == "1")
        // The unread page's problem carries the answer's status as a field.
        let json = try setup.run(["--json", "import", "src"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        let problems = rows.first?["problems"] as? [[String: Any]] ?? []
        #expect(problems.contains { $0["httpStatus"] as? Int == 500 }, "\(json.stdout)")
    }
}
