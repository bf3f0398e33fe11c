import Foundation
import TestSupport
import Testing

/// What users of psql, git and kubectl expect at first contact: help flags, did-you-mean,
/// psql's backslash commands, `--out -`, and a review that starts with what an admin came for.
@Suite struct ConsoleMannersTests {
    @Test(arguments: [["import", "--help"], ["import", "-h"], ["help", "import"], ["list", "announcements", "--help"]])
    func commandHelpIsNotAnError(_ words: [String]) throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run(words)
        #expect(result.status == 0, "\(words): \(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: \(words[0] == "help" ? words[1] : words[0])"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.store))
    }

    @Test func importHelpOnATerminal() throws {
        let pty = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", "/nonexistent/t.sqlite", "import", "--help"])
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
        #expect(pty.transcript.contains("usage: import SOURCE..."), "\(pty.transcript)")
    }

    @Test(arguments: [80, 120])
    func helpFitsTheTerminal(_ columns: Int) throws {
        let help = try Binaries.run("timetrack-admin", ["help"], environment: ["COLUMNS": String(columns)])
        let long = help.stdout.split(separator: "\n").filter { $0.count > columns }
        #expect(long.isEmpty, "\(long)")
        #expect(help.stdout.contains("preview") && help.stdout.contains("--no-pager"))
    }

    @Test func showFullReadsAWholeBodyAsText() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let announcement = try #require(try fixture.ids("announcements").first { try fixture.run(["show", $0]).stdout.contains("body:        <p>") })
        let cut = try fixture.run(["show", announcement]).stdout
        let full = try fixture.run(["show", announcement, "--full"]).stdout
        #expect(cut.contains("body:") && cut.contains("<"), "\(cut)")
        let body = full.split(separator: "\n").drop { !$0.hasPrefix("  body:") }.prefix { !$0.hasPrefix("  imageAlt") && !$0.hasPrefix("  link") }
        #expect(body.count > 1 && !body.joined().contains("<p>"), "\(full)")
    }

    @Test func shortFlagsForHelpAndVersion() throws {
        #expect(try Binaries.run("timetrack-admin", ["-V"]).stdout.hasPrefix("timetrack-admin "))
        let help = try Binaries.run("timetrack-admin", ["-h"])
        #expect(help.status == 0 && help.stdout.contains("global options:"))
    }

    @Test(arguments: [
        (["list", "--stauts", "pending"], "did you mean `--status`?"),
        (["list", "anouncements"], "did you mean `announcements`?"),
        (["review", "--kind", "evnts"], "did you mean `events`?"),
        (["hepl"], "did you mean `help`?"),
        (["help", "imprt"], "did you mean `import`?"),
    ])
    func nearMissesAreNamed(_ words: [String], _ hint: String) throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run(words)
        #expect(result.status == 2)
        #expect(result.stderr.contains(hint), "\(words): \(result.stderr)")
    }

    @Test func psqlBackslashCommandsInAScript() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run([], stdin: "\\?\n\\h list\n\\q\nstatus\n")
        #expect(result.stdout.contains("global options:"))
        #expect(result.stdout.contains("usage: list [KIND]"))
        #expect(!result.stderr.contains("no store"), "\\q stops before status: \(result.stderr)")
        #expect(result.status == 0)
    }

    @Test func exportToStdoutAndAnEmptyExportSaysSo() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let empty = try fixture.run(["export", "--format", "json", "--out", fixture.dir.path("out")])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("announcements.json: 0 published items"), "\(empty.stdout)")
        #expect(empty.stderr.contains("warning: nothing was published"), "\(empty.stderr)")
        let events = try fixture.ids("events")
        #expect(try fixture.run(["approve"] + events).status == 0)
        let ics = try fixture.run(["export", "--format", "ics", "--out", "-"])
        #expect(ics.status == 0)
        #expect(ics.stdout.hasPrefix("BEGIN:VCALENDAR") && ics.stdout.contains("END:VCALENDAR"), "\(ics.stdout.prefix(200))")
        #expect(!FileManager.default.fileExists(atPath: ConsoleFixture.root.appendingPathComponent("-").path))
        #expect(try fixture.run(["export", "--format", "json", "--out", "-"]).status == 2)
    }

    @Test func anAdminsReviewStartsWithDistrictNewsNotAbsenceReports() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let queue = try fixture.run(["review", "--limit", "1000"]).stdout.split(separator: "\n").dropFirst()
        let kinds = queue.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) }
        #expect(kinds.first == "announcement", "\(queue.prefix(3))")
        let order = ["announcement", "event", "school-info", "post", "absence", "ticket"]
        let positions = kinds.compactMap { order.firstIndex(of: $0) }
        #expect(positions == positions.sorted(), "\(kinds)")
        // Paged across kinds: the second page starts where the first stopped.
        let first = try fixture.run(["review", "--limit", "5"]).stdout
        let second = try fixture.run(["review", "--limit", "5", "--offset", "5"]).stdout
        #expect(first.contains("more wait: review --offset 5"))
        let ids = { (text: String) in text.split(separator: "\n").dropFirst().prefix(5).compactMap { $0.split(separator: " ").first.map(String.init) } }
        #expect(Set(ids(first)).isDisjoint(with: ids(second)) && ids(second).count == 5, "\(first)\n\(second)")
    }
}

/// Exit codes of `import` on bad configuration, with nothing left behind; `--dry-run` as a plan.
@Suite struct ImportConfigurationTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory("importcfg")
        try writePage(["One", "Two", "Three"])
        try dir.write(
            "imports/news.json",
            #"{ "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://s.example/news.html", "timeZone":"#
                + #" "America/Denver", "options": { "item": "article", "fields": { "title": "h2", "link": "a@href" } } }"#
        )
    }

    func writePage(_ titles: [String]) throws {
        let articles = titles.map { "<article><h2>\($0)</h2><a href='/\($0.lowercased()).html'>more</a></article>" }.joined()
        try dir.write("imports/news.html", "<html><body>\(articles)</body></html>")
    }

    func run(_ words: [String], imports: String = "imports") throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path(imports)] + words)
    }

    var storeExists: Bool { FileManager.default.fileExists(atPath: dir.path("t.sqlite")) }

    @Test func aBadDefinitionIsAConfigurationErrorAndMakesNoStore() throws {
        defer { dir.remove() }
        try dir.write(
            "imports/bad.json",
            #"{ "id": "bad", "importer": "html", "kind": "announcement", "url": "news.html", "options": { "item": "article", "fields": { "title":"#
                + #" "h2" }, "bogus": 1 } }"#
        )
        let named = try run(["import", "bad"])
        #expect(named.status == 2, "\(named.stderr)")
        #expect(named.stderr.contains("'options.bogus'"))
        #expect(!storeExists)
        let nowhere = try run(["import", "--all"], imports: "no-such-folder")
        #expect(nowhere.status == 2, "\(nowhere.stderr)")
        #expect(!storeExists)
        // Among good ones: that source fails, the others run: partly done.
        let all = try run(["import", "--all"])
        #expect(all.status == 3, "\(all.stderr)")
        #expect(all.stderr.contains("news: ok"), "\(all.stderr)")
    }

    @Test func aDryRunSaysWhatWouldBeNewChangedAndMissing() throws {
        defer { dir.remove() }
        let first = try run(["--json", "import", "news", "--dry-run"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!storeExists)
        let plan = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [[String: Any]]
        #expect((plan?.first?["new"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["One", "Two", "Three"])
        #expect(try run(["import", "news"]).status == 0)
        // Items are keyed by their link: Two keeps its link with a new title (changed), Three
        // is gone (missing), Four is new.
        try dir.write(
            "imports/news.html",
            "<article><h2>One</h2><a href='/one.html'>more</a></article><article><h2>Two, revised</h2><a"
                + " href='/two.html'>more</a></article><article><h2>Four</h2><a href='/four.html'>more</a></article>"
        )
        let text = try run(["import", "news", "--dry-run"])
        #expect(text.status == 0)
        #expect(
            text.stdout.contains("news: 3 found, 0 problems: would add 1, change 1, leave 1 unchanged, count 1 missing (dry run, nothing written)"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains("  + Four") && text.stdout.contains("  ~ a2  Two, revised") && text.stdout.contains("  - a3  Three (missing from the source)"),
            "\(text.stdout)")
        // Nothing was written: the store still has the three first items, unchanged.
        let pending = try JSONSerialization.jsonObject(with: Data(try run(["--json", "list"]).stdout.utf8)) as? [[String: Any]]
        #expect(pending?.compactMap { $0["title"] as? String }.sorted() == ["One", "Three", "Two"])
    }
}

/// Ctrl-C during a slow fetch at the terminal: the request is cancelled at once, the run is
/// recorded as interrupted, nothing of the source is written.
@Suite struct CancelTests {
    @Test func ctrlCCancelsARequestInFlight() throws {
        let setup = try UnattendedRunTests.Setup(
            settings: #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 0, "totalTimeout": 100, "connectTimeout": 100}"#)
        defer { setup.remove() }
        setup.server.route(
            "/slow.html",
            TestHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<article><h2>Late</h2></article>".utf8), delay: 100))
        try setup.source("slow", path: "/slow.html")
        let pty = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", setup.store, "--imports", setup.imports, "import", "slow"])
        // Once the request is at the server, Ctrl-C.
        let asked = Date().addingTimeInterval(20)
        while !setup.server.requests.contains(where: { $0.path == "/slow.html" }) && Date() < asked { usleep(20_000) }
        #expect(setup.server.requests.contains { $0.path == "/slow.html" })
        // The progress line is there from the first request: the host, what arrived, how long.
        #expect(pty.expect("slow: fetching from 127.0.0.1 · 0 KB · ", timeout: 5) != nil, "\(pty.transcript)")
        pty.send("\u{3}")
        // It ends long before the server would answer (100 s).
        #expect(pty.waitForExit(timeout: 30) == 1, "\(pty.transcript)")
        #expect(pty.transcript.contains("interrupted (Ctrl-C) while fetching"), "\(pty.transcript)")
        #expect(try setup.sql("SELECT status FROM import_runs WHERE source_id = 'slow'") == "interrupted")
        #expect(try setup.sql("SELECT count(*) FROM items") == "0")
    }
}

/// Long output on a terminal goes through the pager, as git's does; never in a pipe or with --no-pager.
@Suite struct PagerTests {
    static let stub = "sed 's/^/PAGED: /'"

    @Test func aLongListIsPagedOnATerminalOnly() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let environment = ["PAGER": Self.stub, "LINES": "10"]
        let paged = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", fixture.store, "list", "--limit", "1000"], environment: environment)
        #expect(paged.waitForExit() == 0)
        #expect(paged.transcript.contains("PAGED: id "), "\(paged.transcript.prefix(300))")
        #expect(paged.transcript.components(separatedBy: "PAGED: ").count > 30, "every line through the pager")
        // Short output is not paged.
        let short = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", fixture.store, "list", "--limit", "3"], environment: environment)
        #expect(short.waitForExit() == 0)
        #expect(!short.transcript.contains("PAGED:") && short.transcript.contains("id "), "\(short.transcript)")
        // A page says there is more, and how to get it.
        let total =
            try fixture.ids("announcements").count + fixture.ids("events").count + fixture.ids("school-info").count + fixture.ids("posts").count
            + fixture.ids("absences").count + fixture.ids("tickets").count
        #expect(short.transcript.contains("1–3 of \(total) shown; more: `--offset 3`"), "\(short.transcript)")
        let off = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", fixture.store, "--no-pager", "list", "--limit", "1000"], environment: environment)
        #expect(off.waitForExit() == 0)
        #expect(!off.transcript.contains("PAGED:"))
        let piped = try Binaries.run("timetrack-admin", ["--store", fixture.store, "list", "--limit", "1000"], environment: environment)
        #expect(piped.status == 0 && !piped.stdout.contains("PAGED:") && piped.stdout.split(separator: "\n").count > 30)
    }
}

/// Every documented exit code (0 done, 1 failed, 2 usage or configuration, 3 partly done), per
/// command family, through the binary; what fails on its usage or configuration makes no file.
@Suite struct ExitCodeTests {
    @Test func everyFamilyExitsAsDocumented() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let announcement = try #require(try fixture.ids("announcements").first)
        let absences = try fixture.ids("absences")
        let cases: [(family: String, words: [String], code: Int32)] = [
            ("reading", ["list", "events"], 0), ("reading", ["show", announcement, "--full"], 0), ("reading", ["show", "a9999"], 1),
            ("reading", ["list", "--limit", "x"], 2), ("reading", ["history"], 2),
            ("decisions", ["approve", absences[0]], 0), ("decisions", ["approve", absences[0]], 1), ("decisions", ["reject", absences[1]], 2),
            ("decisions", ["approve", absences[2], "a9999"], 3), ("decisions", ["edit", announcement, "nosuchfield=1"], 2),
            ("imports", ["import", "hillcrest-news"], 0), ("imports", ["import", "nowhere"], 2), ("imports", ["extract", "hillcrest-news"], 0),
            ("imports", ["import", "--all", "--due"], 2),
            ("exports", ["export", "--format", "ics", "--out", fixture.dir.path("e.ics")], 0), ("exports", ["export", "--format", "pdf", "--out", "x"], 2),
            ("exports", ["export", "--format", "json", "--kind", "tickets", "--out", fixture.dir.path("t.json")], 2),
            ("exports", ["preview", "--out", fixture.dir.path("p"), "--no-open"], 0),
            ("store", ["status"], 0), ("store", ["audit", "verify"], 0), ("store", ["operator", "frob"], 2), ("store", ["undo", "extra"], 2),
            ("console", ["help"], 0), ("console", ["completions", "tcsh"], 2), ("console", ["nosuchcommand"], 2),
        ]
        for (family, words, code) in cases {
            let result = try fixture.run(words)
            #expect(result.status == code, "\(family): \(words) exited \(result.status): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.path("t.json")))
        #expect(!FileManager.default.fileExists(atPath: ConsoleFixture.root.appendingPathComponent("x").path))
    }

    @Test func failingOnConfigurationLeavesNoStore() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        for words in [
            ["import", "nowhere"], ["list", "--status", "lost"], ["operator", "add", "x"], ["export", "--format", "ics"], ["status"], ["review"],
            ["--group", "no-such-group", "import", "--all"],
        ] {
            let result = try fixture.run(words)
            #expect(result.status != 0, "\(words)")
            #expect(!FileManager.default.fileExists(atPath: fixture.store), "\(words) left a store behind")
        }
    }
}

/// `--format csv` for spreadsheets: the table alone on stdout, quoted as RFC 4180 says.
@Suite struct CSVTests {
    @Test func listAsCSVQuotesWhatNeedsIt() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let announcement = try #require(try fixture.ids("announcements").first)
        #expect(try fixture.run(["edit", announcement, #"title=Picture day, "retakes" Friday"#]).status == 0)
        for words in [["--format", "csv", "list", "announcements"], ["list", "announcements", "--format", "csv"]] {
            let csv = try fixture.run(words)
            #expect(csv.status == 0)
            let lines = csv.stdout.split(separator: "\n")
            #expect(lines.first == "id,status,date,source,title", "\(csv.stdout)")
            #expect(lines.contains { $0.hasPrefix(announcement + ",") && $0.hasSuffix(#","Picture day, ""retakes"" Friday""#) }, "\(csv.stdout)")
            #expect(lines.allSatisfy { !$0.hasPrefix("the first") && !$0.hasPrefix("*") })
        }
        let status = try fixture.run(["--format", "csv", "status"])
        #expect(status.stdout.hasPrefix("kind,pending,published,rejected,archived,scheduled,expired,withdrawn,total\n"), "\(status.stdout)")
        #expect(try fixture.run(["--format", "json", "list", "events"]).stdout == (try fixture.run(["--json", "list", "events"]).stdout))
        #expect(try fixture.run(["--format", "xml", "list"]).status == 2)
    }
}

/// `sources` checks every definition as an import would, naming the file and the option.
@Suite struct SourcesCheckTests {
    @Test func unknownFieldsBadSelectorsAndBadPatternsAreFlagged() throws {
        let dir = try TemporaryDirectory("sources")
        defer { dir.remove() }
        func definition(_ id: String, _ options: String) throws {
            try dir.write(
                "imports/\(id).json", #"{ "id": "\#(id)", "importer": "html", "kind": "announcement", "url": "news.html", "options": \#(options) }"#)
        }
        try definition("good", #"{ "item": "article", "fields": { "title": "h2" } }"#)
        try definition("unknown", #"{ "item": "article", "fields": { "title": "h2" }, "itme": "x" }"#)
        try definition("selector", #"{ "item": "article[[", "fields": { "title": "h2" } }"#)
        try definition("pattern", #"{ "item": "article", "fields": { "title": { "select": "h2", "pattern": "(unclosed" } } }"#)
        let result = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "sources"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("good") && !result.stdout.contains("unknown ") && !result.stdout.contains("selector "), "\(result.stdout)")
        for (file, option) in [("unknown.json", "options.itme"), ("selector.json", "options.item"), ("pattern.json", "options.fields.title.pattern")] {
            #expect(result.stderr.split(separator: "\n").contains { $0.contains(file) && $0.contains(option) }, "\(file) \(option): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("t.sqlite")))
    }

    @Test func aFieldThatMatchedNothingNamesItsSelector() throws {
        let dir = try TemporaryDirectory("sources")
        defer { dir.remove() }
        try dir.write("imports/news.html", "<article><h2>One</h2></article>")
        try dir.write(
            "imports/news.json",
            #"{ "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "options": { "item": "article", "fields": { "title": {"#
                + #" "select": "h3" } } } }"#
        )
        let result = try Binaries.run("timetrack-admin", ["--imports", dir.path("imports"), "extract", "news"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"options.fields.title {"select":"h3"} matched nothing"#), "\(result.stderr)")
        // The 0-items warning names what skipped the items (the title), not the item selector that found them.
        #expect(result.stderr.contains(#"0 items from news: every item was skipped; the first: page 1 item 1: skipped: no title"#), "\(result.stderr)")
    }
}

@Suite struct SourcesLastResultTests {
    @Test func sourcesShowEachSourcesLastRunResult() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let listed = try fixture.json(["--as", "ana", "sources"]) as? [String: Any]
        let sources = listed?["sources"] as? [[String: Any]] ?? []
        let events = sources.first { $0["id"] as? String == "hillcrest-events" }
        let last = events?["lastResult"] as? [String: Any]
        #expect(last?["status"] as? String == "ok")
        #expect(last?["found"] as? Int == 8 && last?["new"] as? Int == 8, "\(last ?? [:])")
        let table = try fixture.run(["--as", "ana", "--no-pager", "sources"])
        #expect(table.stdout.contains("ok: 8 found, 8 new"), "\(table.stdout)")
    }
}
