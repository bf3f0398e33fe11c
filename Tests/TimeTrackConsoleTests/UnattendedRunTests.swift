import Foundation
import TestSupport
import Testing

/// Cron-style runs against a real HTTP server on 127.0.0.1 started by the test.
@Suite struct UnattendedRunTests {
    /// An imports folder with fast network settings, sources pointing at the test server, and a store.
    struct Setup {
        let dir: TemporaryDirectory
        let server: TestHTTPServer
        var store: String { dir.path("s.sqlite") }
        var imports: String { dir.path("imports") }

        init(settings: String = #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 2, "totalTimeout": 2, "connectTimeout": 2}"#) throws {
            dir = try TemporaryDirectory("cron")
            server = try TestHTTPServer()
            try dir.write("imports/_settings.json", settings)
            server.route("/robots.txt", .init(status: 404))
        }

        /// A news source at `path` on the test server (127.0.0.1 allowed explicitly).
        func source(_ id: String, path: String, schedule: String = "1h", extra: String = "") throws {
            try dir.write(
                "imports/\(id).json",
                """
                { "id": "\(id)", "importer": "html", "kind": "announcement", "url": "\(server.base)\(path)", "timeZone": "America/Denver",
                  "schedule": "\(schedule)", "allowPrivateNetwork": ["127.0.0.1"] \(extra),
                  "options": { "item": "article", "fields": { "title": "h2", "link": "a@href", "date": "time@datetime" } } }
                """)
        }

        func run(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", store, "--imports", imports, "--as", "cron"] + arguments)
        }

        func json(_ arguments: [String]) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(try run(["--json"] + arguments).stdout.utf8))
        }

        func sql(_ query: String) throws -> String {
            try Binaries.sql(store, query).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func remove() {
            server.stop()
            dir.remove()
        }
    }

    static func page(_ count: Int, prefix: String = "Item") -> String {
        "<html><body>"
            + (1...max(1, count)).map { i in
                "<article><h2>\(prefix) \(i)</h2><a href=\"/news/\(i).html\">more</a><time"
                    + " datetime=\"2026-09-\(String(format: "%02d", i % 28 + 1))\">x</time></article>"
            }.prefix(count).joined() + "</body></html>"
    }

    @Test func etagAndLastModifiedMakeTheSecondRunA304WithNoNewRevisions() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let body = Self.page(5)
        setup.server.handle { request in
            guard request.path == "/news.html" else { return nil }
            if request.headers["if-none-match"] == "\"v1\"" { return .init(status: 304, headers: ["ETag": "\"v1\""]) }
            return .html(body, headers: ["ETag": "\"v1\""])
        }
        setup.server.route("/other.html", .html(Self.page(4, prefix: "Other"), headers: ["Last-Modified": "Tue, 01 Sep 2026 10:00:00 GMT"]))
        try setup.source("news", path: "/news.html")
        try setup.source("other", path: "/other.html")
        #expect(try setup.run(["import", "--all"]).status == 0)
        let revisionsBefore = try setup.sql("SELECT count(*) FROM revisions")
        setup.server.handle { request in
            switch request.path {
            case "/news.html":
                if request.headers["if-none-match"] == "\"v1\"" { return .init(status: 304, headers: ["ETag": "\"v1\""]) }
                return .html(body, headers: ["ETag": "\"v1\""])
            case "/other.html":
                if request.headers["if-modified-since"] == "Tue, 01 Sep 2026 10:00:00 GMT" { return .init(status: 304) }
                return nil
            default: return nil
            }
        }
        let second = try setup.json(["import", "--all"]) as? [[String: Any]] ?? []
        #expect(second.count == 2)
        #expect(second.allSatisfy { ($0["new"] as? [Any])?.isEmpty == true && ($0["changed"] as? [Any])?.isEmpty == true })
        let pageRequests = setup.server.requests.filter { $0.path == "/news.html" }
        #expect(pageRequests.count == 2)
        #expect(pageRequests.last?.headers["if-none-match"] == "\"v1\"")
        #expect(setup.server.requests.filter { $0.path == "/other.html" }.last?.headers["if-modified-since"] == "Tue, 01 Sep 2026 10:00:00 GMT")
        #expect(try setup.sql("SELECT count(*) FROM revisions") == revisionsBefore)
        #expect(pageRequests.first?.headers["user-agent"]?.hasPrefix("timetrack-admin/") == true)
        // The per-source line tells cron what the run cost.
        let third = try setup.run(["import", "news"])
        #expect(third.stderr.contains("1 not modified"), "\(third.stderr)")
    }

    @Test func serverErrorIsRetriedAndSlowSourceFailsAlone() throws {
        let setup = try Setup(settings: #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 1, "totalTimeout": 1, "connectTimeout": 1}"#)
        defer { setup.remove() }
        setup.server.route("/flaky.html", .init(status: 500), .html(Self.page(3)))
        setup.server.route("/slow.html", TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: Data(Self.page(3).utf8), delay: 3))
        try setup.source("flaky", path: "/flaky.html")
        try setup.source("slow", path: "/slow.html")
        let result = try setup.run(["import", "--all"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("flaky: ok · 3 found · 3 new"))
        #expect(result.stderr.contains("slow"))
        // The message says what happened and how long each attempt waited, and counts the attempts.
        #expect(result.stderr.contains("127.0.0.1 sent nothing for 1 s") || result.stderr.contains("within 1 s"), "\(result.stderr)")
        #expect(result.stderr.contains("(2 attempts over"), "\(result.stderr)")
        #expect(setup.server.requests.filter { $0.path == "/flaky.html" }.count == 2)
    }

    @Test func dangerousRedirectsAndPrivateAddressesAreRefused() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/to-file.html", .init(status: 302, headers: ["Location": "file:///etc/passwd"]))
        setup.server.route("/to-private.html", .init(status: 301, headers: ["Location": "http://10.20.30.40/admin"]))
        setup.server.route("/ok.html", .html(Self.page(2)))
        try setup.source("tofile", path: "/to-file.html")
        try setup.source("toprivate", path: "/to-private.html")
        try setup.dir.write(
            "imports/unallowed.json",
            """
            { "id": "unallowed", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/ok.html",
              "options": { "item": "article", "fields": { "title": "h2" } } }
            """)
        let toFile = try setup.run(["import", "tofile"])
        #expect(toFile.status == 1)
        #expect(toFile.stderr.contains("refused a redirect to file:///etc/passwd"))
        let toPrivate = try setup.run(["import", "toprivate"])
        #expect(toPrivate.status == 1)
        #expect(toPrivate.stderr.contains("10.20.30.40 is a private address"))
        let unallowed = try setup.run(["import", "unallowed"])
        #expect(unallowed.status == 1)
        #expect(unallowed.stderr.contains("127.0.0.1 is a loopback address"))
        #expect(unallowed.stderr.contains("allowPrivateNetwork"))
        #expect(!setup.server.requests.contains { $0.path == "/ok.html" })
    }

    @Test func hugeBodyIsCutOffAtTheCap() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/huge.html", TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], streamedBytes: 60 * 1024 * 1024))
        try setup.source("huge", path: "/huge.html")
        let result = try setup.run(["import", "huge"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cut off: the page is larger than the 25.0 MB limit"))
    }

    @Test func windows1252FromTheHeaderIsDecoded() throws {
        let setup = try Setup()
        defer { setup.remove() }
        var bytes = Array("<html><body><article><h2>".utf8)
        bytes += [0x93, 0x43, 0x61, 0x66, 0xE9, 0x20, 0x4E, 0x69, 0x67, 0x68, 0x74, 0x94, 0x20, 0x96, 0x20, 0x50, 0x54, 0x53, 0x41]  // “Café Night” – PTSA
        bytes += Array("</h2><a href=\"/cafe\">x</a></article></body></html>".utf8)
        setup.server.route(
            "/cp1252.html", TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html; charset=windows-1252"], body: Data(bytes)))
        try setup.source("cp", path: "/cp1252.html")
        let result = try setup.run(["--json", "extract", "cp"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("“Café Night” – PTSA"))
    }

    @Test func robotsTxtIsHonored() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/robots.txt", .init(status: 200, body: Data("User-agent: *\nDisallow: /private/\n".utf8)))
        setup.server.route("/private/news.html", .html(Self.page(2)))
        try setup.source("blocked", path: "/private/news.html")
        let result = try setup.run(["import", "blocked"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("robots.txt of 127.0.0.1 does not allow fetching /private/news.html"))
        #expect(!setup.server.requests.contains { $0.path == "/private/news.html" })
    }

    @Test func twoDueRunsAtOnceExactlyOneRuns() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route(
            "/slow.html", TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: Data(Self.page(3).utf8), delay: 1.5))
        try setup.source("slow", path: "/slow.html", schedule: "1h")
        let first = Process()
        first.executableURL = URL(fileURLWithPath: Binaries.path("timetrack-admin"))
        first.arguments = ["--store", setup.store, "--imports", setup.imports, "--as", "cron", "import", "--due"]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Wait until the first run is fetching, then start the second.
        let deadline = Date().addingTimeInterval(10)
        while !setup.server.requests.contains(where: { $0.path == "/slow.html" }) && Date() < deadline { usleep(20_000) }
        let second = try setup.run(["import", "--due"])
        let quiet = try setup.run(["import", "--due", "--quiet"])
        let named = try setup.run(["import", "slow"])
        // It did not wait for the lock: the first run is still fetching its slow page. Cron's
        // overlap is no failure (exit 0, a note, and with --quiet not a word); a person naming
        // a source is told it failed.
        #expect(first.isRunning)
        #expect(second.status == 0 && second.stderr.contains("skipped: another import is running on this store"), "\(second.stderr)")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(named.status == 1 && named.stderr.contains("another import is running on this store"))
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(setup.server.requests.filter { $0.path == "/slow.html" }.count == 1)
        // Not due again within the hour.
        let third = try setup.run(["import", "--due"])
        #expect(third.status == 0)
        #expect(setup.server.requests.filter { $0.path == "/slow.html" }.count == 1)
    }

    /// Runs that end at once (nothing due, or one quick source) exit cleanly every time: a thread
    /// still setting OpenSSL up when the process exited crashed one run in seven in its exit
    /// handlers (status 11).
    @Test func quickRunsExitCleanlyEveryTime() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(Self.page(2)))
        try setup.source("news", path: "/news.html", schedule: "1h")
        for round in 0..<16 {
            let result = try setup.run(round == 0 || round % 4 == 1 ? ["import", "news"] : ["import", "--due"])
            #expect(result.status == 0, "round \(round): status \(result.status), \(result.stderr.suffix(300))")
        }
    }

    @Test func aKilledRunIsMarkedInterruptedAndTheNextCarriesOn() throws {
        let setup = try Setup()
        defer { setup.remove() }
        // A listing of 30 items, each with a slow detail page.
        setup.server.route("/list.html", .html(Self.page(30)))
        setup.server.handle { request in
            request.path.hasPrefix("/news/")
                ? TestHTTPServer.Response(
                    status: 200, headers: ["Content-Type": "text/html"], body: Data("<div class='body'><p>Detail</p></div>".utf8), delay: 0.1) : nil
        }
        try setup.dir.write(
            "imports/slowdetail.json",
            """
            { "id": "slowdetail", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/list.html", "timeZone": "America/Denver",
              "schedule": "1h", "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "article", "fields": { "title": "h2", "link": "a@href" }, "detail": { "link": "link", "fields": { "body":\
             ".body@html" } } } }
            """)
        let victim = Process()
        victim.executableURL = URL(fileURLWithPath: Binaries.path("timetrack-admin"))
        victim.arguments = ["--store", setup.store, "--imports", setup.imports, "--as", "cron", "import", "--due"]
        victim.standardOutput = FileHandle.nullDevice
        victim.standardError = FileHandle.nullDevice
        try victim.run()
        let deadline = Date().addingTimeInterval(10)
        while setup.server.requests.filter({ $0.path.hasPrefix("/news/") }).count < 5 && Date() < deadline { usleep(20_000) }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        #expect(try setup.sql("SELECT status FROM import_runs") == "running")

        let next = try setup.run(["import", "--due"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("1 earlier run(s) had been interrupted"))
        #expect(try setup.sql("PRAGMA integrity_check") == "ok")
        #expect(try setup.sql("SELECT count(*) FROM items") == "30")
        #expect(try setup.sql("SELECT count(*) FROM (SELECT source_key FROM items GROUP BY source_key HAVING count(*) > 1)") == "0")
        let runs = try setup.json(["runs"]) as? [[String: Any]] ?? []
        #expect(runs.compactMap { $0["status"] as? String } == ["ok", "interrupted"])
    }

    @Test func aCollapsedPageIsHeldUntilAccepted() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(Self.page(40)), .html(Self.page(2)))
        try setup.source("news", path: "/news.html")
        #expect(try setup.run(["import", "news"]).status == 0)
        let held = try setup.run(["import", "news"])
        #expect(held.status == 1)
        #expect(held.stderr.contains("held"))
        #expect(held.stderr.contains("found 2 items, the last good run found 40 (under 50%)"))
        #expect(try setup.sql("SELECT count(*) FROM items WHERE missing_runs > 0") == "0")
        let sources = try setup.run(["sources"])
        #expect(sources.stdout.contains("news is held: found 2 items"))
        let runs = try setup.json(["runs"]) as? [[String: Any]] ?? []
        #expect(runs.first?["status"] as? String == "held")
        let accepted = try setup.run(["import", "news", "--accept"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stderr.contains("38 missing"))
        #expect(try setup.sql("SELECT count(*) FROM items WHERE missing_runs = 1") == "38")
        #expect(try setup.sql("SELECT count(*) FROM items") == "40")
        #expect(!(try setup.run(["sources"])).stdout.contains("is held"))
    }

    @Test func anItemGoneForThreeRunsIsProposedForArchivingInReview() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(Self.page(6)), .html(Self.page(5)))
        try setup.source("news", path: "/news.html")
        for _ in 0..<4 { #expect(try setup.run(["import", "news"]).status == 0) }
        let ids = ((try setup.json(["list", "announcements"])) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        for id in ids { #expect(try setup.run(["--as", "cron", "approve", id]).status == 0) }
        let queue = try setup.json(["review"]) as? [[String: Any]] ?? []
        #expect(queue.count == 1)
        #expect(queue.first?["review"] as? String == "MISSING")
        #expect(queue.first?["missingRuns"] as? Int == 3)
        let missingID = try #require(queue.first?["id"] as? String)
        let text = try setup.run(["review"])
        #expect(text.stdout.contains("MISSING"))
        #expect(text.stdout.contains("archive ID"))
        // On a terminal the review offers [a]rchive.
        let pty = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", setup.store, "--imports", setup.imports, "--as", "cron", "review"])
        #expect(pty.expect("MISSING") != nil, "\(pty.transcript)")
        #expect(pty.expect("[a]rchive [k]eep [s]kip [q]uit [?]") != nil)
        pty.send("a\r")
        #expect(pty.expect("archived") != nil)
        #expect(pty.waitForExit() == 0)
        let shown = try setup.json(["show", missingID]) as? [String: Any]
        #expect(shown?["status"] as? String == "archived")
    }

    @Test func autoReviewPublishesAsCronWithRevisionsAndAudit() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(Self.page(3)))
        try setup.source("trusted", path: "/news.html", extra: #", "review": "auto""#)
        let result = try setup.run(["--as", "ana", "import", "trusted"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE status = 'published' AND approved_by = 'cron'") == "3")
        #expect(try setup.sql("SELECT count(*) FROM audit WHERE action = 'approve' AND operator = 'cron'") == "3")
        #expect(try setup.sql("SELECT count(*) FROM revisions WHERE state = 'live'") == "3")
    }

    @Test func quietIsSilentWhenNothingChanged() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(Self.page(3)))
        try setup.source("news", path: "/news.html")
        let first = try setup.run(["import", "--all", "--quiet"])
        #expect(first.stderr.contains("news: ok · 3 found · 3 new"))
        let second = try setup.run(["import", "--all", "--quiet"])
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.isEmpty, "\(second.stderr)")
    }

    @Test func ctrlCAtTheConsoleStopsALongImportAndStays() throws {
        let setup = try Setup()
        defer { setup.remove() }
        setup.server.route("/list.html", .html(Self.page(20)))
        setup.server.handle { request in
            request.path.hasPrefix("/news/")
                ? TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<div class='body'>x</div>".utf8), delay: 0.3) : nil
        }
        try setup.dir.write(
            "imports/long.json",
            """
            { "id": "long", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/list.html", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "article", "fields": { "title": "h2", "link": "a@href" }, "detail": { "link": "link", "fields": { "body":\
             ".body@html" } } } }
            """)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", setup.store, "--imports", setup.imports, "--as", "ana"],
            environment: ["TIMETRACK_HISTORY": setup.dir.path("h")])
        #expect(pty.expect("(ana)> ") != nil)
        pty.send("import long\r")
        let deadline = Date().addingTimeInterval(10)
        while !setup.server.requests.contains(where: { $0.path.hasPrefix("/news/") }) && Date() < deadline { usleep(20_000) }
        pty.send("\u{3}")
        #expect(pty.expect("interrupted (Ctrl-C)", timeout: 5) != nil, "\(pty.transcript)")
        #expect(pty.expect("(ana)> ") != nil)
        #expect(pty.process.isRunning)
        #expect(setup.server.requests.filter { $0.path.hasPrefix("/news/") }.count < 20)
        pty.send("quit\r")
        #expect(pty.waitForExit() == 0)
        #expect(try setup.sql("SELECT count(*) FROM items") == "0")
        // Stopped by a person, not failed: the run says so.
        #expect(try setup.sql("SELECT status FROM import_runs") == "interrupted")
    }
}
