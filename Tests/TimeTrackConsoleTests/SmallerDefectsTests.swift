import Foundation
import TestSupport
import Testing

/// Issue 37's smaller defects, each through the real binary: what a person reads instead of a
/// raw system error, and a name recorded as the store spells it.
@Suite struct SmallerDefectsTests {
    static func run(_ dir: TemporaryDirectory, _ words: [String]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words)
    }

    /// `--as SAM` on a store whose names ignore case acts as sam, and the log says sam.
    @Test func actingAsIsRecordedWithTheStoresSpelling() throws {
        let dir = try TemporaryDirectory("as-spelling")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports"), withIntermediateDirectories: true)
        #expect(try Self.run(dir, ["operator", "add", "sam", "--role", "admin"]).status == 0)
        #expect(try Self.run(dir, ["--as", "SAM", "course", "add", "CHEM-AP", "--name", "AP Chemistry", "--reminders", "1d"]).status == 0)
        let audit = try Self.run(dir, ["--json", "audit"]).stdout
        #expect(audit.contains("\"sam (by ") && !audit.contains("SAM"), "\(audit)")
    }

    /// An export folder that cannot be made says so in words, not `NSCocoaErrorDomain Code=513`.
    @Test func anUnwritableExportFolderIsNamedPlainly() throws {
        let dir = try TemporaryDirectory("export-denied")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports"), withIntermediateDirectories: true)
        #expect(try Self.run(dir, ["operator", "add", "ana", "--role", "admin"]).status == 0)
        // /sys refuses new folders even to root; a file in the way refuses everyone.
        try dir.write("file", "x")
        for (out, words) in [("/sys/timetrack-export-test", "permission denied"), (dir.path("file/sub"), "cannot use")] {
            let result = try Self.run(dir, ["export", "--format", "json", "--out", out])
            #expect(result.status != 0)
            #expect(result.stderr.contains(words) && !result.stderr.contains("NSCocoaErrorDomain Code"), "\(out): \(result.stderr)")
        }
    }

    /// `allowPrivateNetwork` with a port or a URL never matched a host; it is refused, naming the field.
    @Test func anAllowanceWithAPortIsRefused() throws {
        let dir = try TemporaryDirectory("allow-port")
        defer { dir.remove() }
        for (index, entry) in ["127.0.0.1:8080", "http://intranet.local", "[::1]:80"].enumerated() {
            try dir.write(
                "imports/s\(index).json",
                #"{ "id": "s\#(index)", "importer": "html", "kind": "announcement", "url": "http://127.0.0.1/x.html", "allowPrivateNetwork":"#
                    + #" ["\#(entry)"], "options": { "item": "a", "fields": { "title": "h2" } } }"#
            )
        }
        try dir.write(
            "imports/ok.json",
            #"{ "id": "ok", "importer": "html", "kind": "announcement", "url": "http://127.0.0.1/x.html", "allowPrivateNetwork": ["127.0.0.1", "::1","#
                + #" "[::1]"], "options": { "item": "a", "fields": { "title": "h2" } } }"#
        )
        let listed = try Self.run(dir, ["sources"])
        for index in 0..<3 {
            #expect(
                listed.stderr.contains("s\(index).json, field 'allowPrivateNetwork'") && listed.stderr.contains("a port or a URL never matches"),
                "\(listed.stderr)")
        }
        #expect(!listed.stderr.contains("ok.json"), "\(listed.stderr)")
    }

    /// A source at an IPv6 literal gets a message that says what to do, not NSURLErrorDomain -1000.
    @Test func anIPv6LiteralSourceIsExplained() throws {
        let dir = try TemporaryDirectory("ipv6")
        defer { dir.remove() }
        try dir.write(
            "imports/v6.json",
            #"{ "id": "v6", "importer": "html", "kind": "announcement", "url": "http://[::1]:9/page.html", "allowPrivateNetwork": ["::1"], "options":"#
                + #" { "item": "a", "fields": { "title": "h2" } } }"#
        )
        let result = try Self.run(dir, ["extract", "v6"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("IPv6 address written into the URL") && !result.stderr.contains("-1000"), "\(result.stderr)")
    }

    /// A store in a folder this account cannot enter is not "no store here yet".
    @Test func aFolderThatCannotBeEnteredIsNotAnEmptyStore() throws {
        guard Binaries.canRunAsNobody else {
            try Skip.because("needs root and setpriv to run as another account")
            return
        }
        let dir = try TemporaryDirectory("no-entry")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("closed"), withIntermediateDirectories: true)
        chmod(dir.path("closed"), 0o700)
        let result = try Binaries.runAsNobody(in: dir, ["--store", dir.path("closed/t.sqlite"), "status"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot reach the store: Permission denied") && !result.stderr.contains("no store here yet"), "\(result.stderr)")
    }
}

/// Definitions the tool writes for a person (`try … save`, `plugin new`) are saved disabled, so
/// the next cron run does not import a source still being written; `sources enable ID` turns one
/// on, keeping the file as written (issue 34).
@Suite struct DisabledUntilEnabledTests {
    @Test func savedDefinitionsWaitForSourcesEnable() throws {
        let dir = try TemporaryDirectory("disabled-until")
        defer { dir.remove() }
        try dir.write(
            "downloads/news.html", #"<article class="news"><h2><a href="/n/1">Bus routes</a></h2><time datetime="2026-09-14">Sept 14</time></article>"#)
        try FileManager.default.createDirectory(atPath: dir.path("imports"), withIntermediateDirectories: true)
        func run(_ words: [String], stdin: String? = nil) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words, stdin: stdin)
        }
        let saved = try run(
            ["try", dir.path("downloads/news.html"), "--kind", "announcement", "--base", "https://school.example/news/"],
            stdin: "item article.news\nfield title=h2 a\nfield link=h2 a@href\nfield date=time@datetime\nsave lincoln-news\n")
        #expect(saved.stdout.contains("disabled"), "\(saved.stdout)\(saved.stderr)")
        let definition = try String(contentsOfFile: dir.path("imports/lincoln-news.json"), encoding: .utf8)
        #expect(definition.contains("\"enabled\" : false") || definition.contains("\"enabled\": false"), "\(definition)")
        // cron's import leaves it alone; a person naming it reads it.
        let all = try run(["import", "--all"])
        #expect(!(all.stdout + all.stderr).contains("lincoln-news: ok"), "\(all.stderr)")
        #expect(try run(["sources"]).stdout.contains("lincoln-news (disabled)"))
        let enabled = try run(["sources", "enable", "lincoln-news"])
        #expect(enabled.status == 0, "\(enabled.stderr)")
        #expect(try run(["sources"]).stdout.contains("lincoln-news ") && !(try run(["sources"]).stdout.contains("(disabled)")))
        let again = try run(["import", "--all"])
        #expect((again.stdout + again.stderr).contains("lincoln-news: ok · 1 found · 1 new"), "\(again.stderr)")
        #expect(try run(["sources", "disable", "lincoln-news"]).status == 0)
        #expect(try run(["sources"]).stdout.contains("lincoln-news (disabled)"))
        #expect(try run(["sources", "enable", "nope"]).status != 0)
    }
}

/// `import --dry-run` exits as `extract` does (issue 34: it said 0 where extract said 1).
@Suite struct DryRunExitTests {
    @Test func aDryRunExitsAsExtractDoes() throws {
        let dir = try TemporaryDirectory("dry-run-exit")
        defer { dir.remove() }
        try dir.write("imports/site/empty.html", "<p>No news yet.</p>")
        try dir.write(
            "imports/site/news.html",
            #"<article class="news"><h2><a href="/n/1">Bus routes</a></h2><time datetime="2026-09-14">Sept 14</time></article><article"#
                + #" class="news"><h2>No link or date</h2><time>someday</time></article>"#
        )
        for (id, page) in [("empty", "empty"), ("news", "news")] {
            try dir.write(
                "imports/\(id).json",
                #"{ "id": "\#(id)", "importer": "html", "kind": "announcement", "url": "site/\#(page).html", "baseURL":"#
                    + #" "https://school.example/news/", "timeZone": "UTC", "options": { "item": "article.news", "fields": { "title": "h2", "link":"#
                    + #" "h2 a@href", "date": "time@datetime" } } }"#
            )
        }
        func run(_ words: [String]) throws -> Int32 {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words).status
        }
        for id in ["empty", "news"] {
            let extracted = try run(["extract", id])
            #expect(try run(["import", id, "--dry-run"]) == extracted, "\(id): extract exits \(extracted)")
        }
        #expect(try run(["extract", "empty"]) == 1)
        #expect(try run(["import", "--all", "--dry-run"]) == 3)
    }
}

/// Global options after the command word are taken, as git takes them (issue 34:
/// `plugins --imports DIR` was refused); a command's own option of the same name stays its own.
@Suite struct GlobalOptionsAnywhereTests {
    @Test func globalOptionsMayFollowTheCommand() throws {
        let dir = try TemporaryDirectory("globals-after")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("empty"), withIntermediateDirectories: true)
        let before = try Binaries.run("timetrack-admin", ["--imports", dir.path("empty"), "sources"])
        let after = try Binaries.run("timetrack-admin", ["sources", "--imports", dir.path("empty")])
        #expect(after.status == before.status && after.stdout == before.stdout, "\(after.stderr)")
        #expect(after.stdout.contains("no sources in \(dir.path("empty"))"), "\(after.stdout)")
        let json = try Binaries.run("timetrack-admin", ["plugins", "--json", "--imports=\(dir.path("empty"))"])
        #expect(json.status == 0 && (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout.prefix(200)) \(json.stderr)")
        // export's own --format is export's: json here is the document's format, not the output's.
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let export = try fixture.run(["export", "--format", "json", "--out", fixture.dir.path("out")])
        #expect(export.status == 0 && FileManager.default.fileExists(atPath: fixture.dir.path("out/announcements.json")), "\(export.stderr)")
        #expect(try fixture.run(["list", "--help"]).stdout.contains("usage: list [KIND]"))
    }
}

/// `sources` refuses, naming the file and the option, what used to run silently wrong (issue 34):
/// a JSON path with no root it knows, a template with groups and no split pattern, a `when` on
/// a field the definition does not have.
@Suite struct DefinitionReferencesTests {
    @Test func sourcesNamesTheFileAndTheOption() throws {
        let dir = try TemporaryDirectory("definition-references")
        defer { dir.remove() }
        let cases: [(id: String, definition: String, field: String, words: String)] = [
            (
                "bad-root",
                ##"{ "id": "bad-root", "importer": "json", "kind": "announcement", "url": "x.json", "options": { "items":"##
                    + ##" "#.data", "fields": { "title": "headline" } } }"##,
                "options.items", "which is no root"
            ),
            (
                "bad-template",
                #"{ "id": "bad-template", "importer": "html", "kind": "event", "url": "x.html", "options": { "item": "li", "fields": { "title": "b","#
                    + #" "start": { "select": "time", "template": "{1}-{2}-{3}" } } } }"#,
                "options.fields.start", "groups of a split pattern"
            ),
            (
                "bad-when",
                #"{ "id": "bad-when", "importer": "json", "kind": "announcement", "url": "x.json", "options": { "items": "data", "fields": "#
                    + #"{ "title": "headline", "summary": { "value": "Cancelled", "when": { "field": "data.status", "equals": "x" } } } } }"#,
                "options.fields.summary.when.field", "'data.status' is not a field of this definition"
            ),
            (
                "good",
                #"{ "id": "good", "importer": "json", "kind": "announcement", "url": "x.json", "options": { "items": "$.data", "fields": "#
                    + #"{ "title": "headline", "summary": { "value": "Closed", "when": { "field": "title", "contains": "Snow" } } } } }"#,
                "", ""
            ),
        ]
        for c in cases { try dir.write("imports/\(c.id).json", c.definition) }
        let listed = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "sources"])
        #expect(listed.status == 2)
        for c in cases where !c.field.isEmpty {
            #expect(listed.stderr.contains("\(c.id).json, field '\(c.field)'") && listed.stderr.contains(c.words), "\(c.id): \(listed.stderr)")
        }
        #expect(listed.stdout.contains("good") && !listed.stderr.contains("good.json"), "\(listed.stdout)\(listed.stderr)")
    }
}

/// A table's header rows are no items (issue 34: each was an error, and every run ended
/// `partial`, exit 3); a page of header rows only is 0 items, as a page with none.
@Suite struct HeaderRowsTests {
    @Test func headerRowsAreNoItems() throws {
        let dir = try TemporaryDirectory("header-rows")
        defer { dir.remove() }
        try dir.write(
            "imports/site/meetings.html",
            """
            <table class="meetings"><tr><th>Meeting</th><th>Date</th></tr>
            <tr><td>Regular Meeting</td><td>September 14, 2026 6:00 PM</td></tr>
            <tr><th colspan="2">Work Sessions</th></tr>
            <tr><td>Budget Work Session</td><td>September 21, 2026 5:00 PM</td></tr></table>
            """)
        try dir.write(
            "imports/meetings.json",
            #"{ "id": "meetings", "importer": "html", "kind": "event", "url": "site/meetings.html", "baseURL": "https://d.example/board/","#
                + #" "timeZone": "America/Denver", "options": { "item": "table.meetings tr", "fields": { "title": "td:nth-child(1)", "start":"#
                + #" "td:nth-child(2)" } } }"#
        )
        let result = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "--json", "import", "meetings"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let run = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first ?? [:]
        #expect(run["status"] as? String == "ok" && (run["new"] as? [Any])?.count == 2 && (run["problems"] as? [Any])?.isEmpty == true, "\(run)")
    }
}

/// `extract --json` carries what the importer guessed (issue 34: the year-guessed mark was
/// missing), and a skipped item's message says what each of title, link and key found.
@Suite struct ExtractSaysWhatItGuessedTests {
    @Test func guessesAndFindingsAreShown() throws {
        let dir = try TemporaryDirectory("extract-guesses")
        defer { dir.remove() }
        try dir.write(
            "imports/site/news.html",
            #"<article class="news"><h2><a href="/n/1">Bus routes</a></h2><span class="date">Sept 14</span></article><article class="news"><p>No"#
                + #" title here</p></article>"#
                + #"<article class="news"><h2><a href="">Picture day</a></h2><span class="date">Sept 15</span></article>"#)
        try dir.write(
            "imports/news.json",
            #"{ "id": "news", "importer": "html", "kind": "announcement", "url": "site/news.html", "baseURL": "https://school.example/news/","#
                + #" "timeZone": "UTC", "options": { "item": "article.news", "fields": { "title": "h2", "link": "h2 a@href", "date": ".date" } } }"#
        )
        let result = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--json", "extract", "news"])
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let items = document["items"] as? [[String: Any]] ?? []
        #expect((items.first?["guesses"] as? [String])?.first?.hasPrefix("year guessed:") == true, "\(items)")
        // A link that is empty is no key: the title stands in.
        #expect(items.compactMap { ($0["fields"] as? [String: Any])?["title"] as? String } == ["Bus routes", "Picture day"], "\(items)")
        let problems = (document["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(
            problems.contains { $0.contains("options.fields.title h2 matched nothing") && $0.contains("options.fields.link h2 a@href matched nothing") },
            "\(problems)")
    }
}

/// When every item is skipped, the 0-items warning names what skipped them, not the item
/// selector that found them (issue 34).
@Suite struct ZeroItemsBlameTests {
    @Test func theWarningNamesTheRuleThatFailed() throws {
        let dir = try TemporaryDirectory("zero-blame")
        defer { dir.remove() }
        try dir.write("imports/site/events.html", #"<ul class="events"><li><b>Concert</b> <i>sometime soon</i></li><li><b>Game</b> <i>whenever</i></li></ul>"#)
        try dir.write(
            "imports/events.json",
            #"{ "id": "events", "importer": "html", "kind": "event", "url": "site/events.html", "baseURL": "https://school.example/events/","#
                + #" "timeZone": "UTC", "options": { "item": "ul.events li", "fields": { "title": "b", "start": "i" } } }"#
        )
        let result = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "extract", "events"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("warning: 0 items from events: every item was skipped; the first: page 1 item 1") && result.stderr.contains("sometime soon"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("check options.item"), "\(result.stderr)")
    }
}

/// The selector shell shows an all-day item as its day, not at 00:00, and what was guessed
/// (issue 34).
@Suite struct TryShowsDaysAndGuessesTests {
    @Test func allDayAndGuessedYearAreShown() throws {
        let dir = try TemporaryDirectory("try-days")
        defer { dir.remove() }
        try dir.write("page/ev.html", #"<ul class="ev"><li><b>Game</b> <i>Sept 14</i></li><li><b>Concert</b> <i>October 3, 2026 7:00 PM</i></li></ul>"#)
        let result = try Binaries.run(
            "timetrack-admin",
            [
                "--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "try", dir.path("page/ev.html"), "--kind", "event", "--zone",
                "America/Denver",
            ],
            stdin: "item ul.ev li\nfield title=b\nfield start=i\nitems\n")
        #expect(result.stdout.contains("Game  │ 2026-09-14 (all day)") && result.stdout.contains("⚠ year guessed: 2026 (start)"), "\(result.stdout)")
        #expect(result.stdout.contains("Concert  │ 2026-10-03 19:00 MDT") && !result.stdout.contains("00:00"), "\(result.stdout)")
    }
}
