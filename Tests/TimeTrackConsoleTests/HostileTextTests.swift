import Foundation
import TestSupport
import Testing
import TimeTrackCore

/// Terminal escapes, C1 controls and bidi overrides in titles and texts, through the inbox, the
/// html and feed importers and `edit`: nothing that could move a cursor or reorder a line is
/// stored, shown, listed or exported; ordinary Unicode is untouched.
@Suite struct HostileTextTests {
    static let hostile: [String] = [
        "\u{1B}[2J", "\u{1B}[1A\u{1B}[2K", "\u{1B}]0;owned\u{07}", "\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",
        "\u{9B}2J", "\u{9B}31m", "\u{85}", "\u{90}q\u{9C}", "\u{9D}0;x\u{9C}", "\u{1B}P1;2|x\u{1B}\\", "\u{1B}c", "\u{1B}[31mred\u{1B}[0m",
        "\u{1B}7\u{1B}8", "\u{1B}[?25l", "\u{1B}[6n", "\u{202E}", "\u{202D}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{2066}", "\u{2067}",
        "\u{2068}", "\u{2069}", "\u{0}", "\u{07}", "\u{08}\u{08}\u{08}", "\u{7F}", "\u{0B}", "\u{0C}", "\u{1A}", "\u{0E}\u{0F}",
        "\r\u{1B}[2Kapproved (published)",
    ]
    static let friendly = "Café naïve 日本語 مرحبا 🏈🎉"

    /// Whether text holds anything a terminal or a bidi-aware view would act on (or its JSON escape).
    static func unsafe(_ text: String) -> String? {
        if let scalar = text.unicodeScalars.first(where: { SafeText.isUnsafe($0.value) }) { return String(format: "U+%04X", scalar.value) }
        if let range = text.range(of: #"\\u00[01][0-9a-fA-F]"#, options: .regularExpression) { return String(text[range]) }
        if text.contains("\\u007f") || text.contains("\\r") { return "escaped control" }
        return nil
    }

    @Test func hostileTextNeverLeavesTheStore() throws {
        #expect(Self.hostile.count >= 30)
        let dir = try TemporaryDirectory("text")
        defer { dir.remove() }
        func jsonString(_ s: String) -> String {
            String(decoding: (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
        // Inbox posts.
        let posts = Self.hostile.enumerated().map { index, text in
            #"{"id": "p\#(index)", "authorName": \#(jsonString("Author" + text)), "authorRole": "student", "text":"#
                + #" \#(jsonString("Post " + text + " " + Self.friendly)), "imageURLs": [], "createdAt": "2026-09-18T21:42:00-06:00"}"#
        }
        try dir.write("imports/data/posts.json", "[" + posts.joined(separator: ",") + "]")
        try dir.write(
            "imports/a-posts.json", #"{ "id": "a-posts", "importer": "inbox", "kind": "post", "url": "data/posts.json", "timeZone": "America/Denver" }"#)
        // An html page: raw characters and numeric entities.
        let articles = Self.hostile.enumerated().map { index, text in
            let entities = text.unicodeScalars.map { "&#\($0.value);" }.joined()
            return
                "<article><h2>News \(index) \(text)\(entities) \(Self.friendly)</h2><time datetime='2026-09-1\(index % 10)'>x</time><a"
                + " href='/n/\(index)'>more</a></article>"
        }
        try dir.write("imports/news.html", "<html><body>" + articles.joined() + "</body></html>")
        try dir.write(
            "imports/b-news.json",
            """
            { "id": "b-news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://district.example/news/",\
             "timeZone": "America/Denver",
              "options": { "item": "article", "fields": { "title": "h2", "date": "time@datetime", "link": "a@href", "summary": "h2" } } }
            """)
        // A feed (as numeric character references: XML forbids most controls as raw bytes).
        let items = Self.hostile.enumerated().map { index, text in
            let entities = text.unicodeScalars.map { "&#\($0.value);" }.joined()
            return
                "<item><title>Feed \(index) \(entities) \(Self.friendly)</title><link>https://district.example/f/\(index)</link><description>Text"
                + " \(entities)</description><pubDate>Mon, 14 Sep 2026 10:00:00 -0600</pubDate></item>"
        }
        try dir.write(
            "imports/feed.xml", "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>F</title>" + items.joined() + "</channel></rss>")
        try dir.write(
            "imports/c-feed.json", #"{ "id": "c-feed", "importer": "feed", "kind": "announcement", "url": "feed.xml", "timeZone": "America/Denver" }"#)

        let store = dir.path("s.sqlite")
        func run(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", store, "--imports", dir.path("imports"), "--as", "root"] + arguments)
        }
        let imported = try run(["import", "--all"])
        #expect(imported.status == 0 || imported.status == 3, "\(imported.stderr)")
        #expect(Self.unsafe(imported.stderr) == nil)
        #expect(!imported.stderr.contains("failed"), "\(imported.stderr)")

        // `edit` takes hostile text too.
        let firstPost = try Binaries.sql(store, "SELECT id FROM items WHERE kind = 'post' ORDER BY seq LIMIT 1").trimmingCharacters(in: .whitespacesAndNewlines)
        let edited = try run(["edit", firstPost, "text=Edited \u{1B}[2J\u{202E} \(Self.friendly)"])
        #expect(edited.status == 0, "\(edited.stderr)")

        // Stored fields: every revision's content and every typed row.
        let revisions = try Binaries.sql(store, "SELECT content FROM revisions")
        #expect(revisions.split(separator: "\n").count >= 3 * Self.hostile.count)
        #expect(Self.unsafe(revisions) == nil, "a revision holds \(Self.unsafe(revisions) ?? "")")
        let titles = try Binaries.sql(store, "SELECT title FROM items")
        #expect(Self.unsafe(titles) == nil)
        #expect(titles.contains(Self.friendly), "ordinary Unicode was changed")
        // The escape character and the override are gone; what they carried is plain text.
        #expect(try run(["--json", "show", firstPost]).stdout.contains("Edited [2J \(Self.friendly)"))

        // What people and the app read.
        let ids = try Binaries.sql(store, "SELECT id FROM items").split(separator: "\n").map(String.init)
        #expect(try run(["approve"] + ids).status == 0)
        for arguments in [
            ["list", "posts", "--limit", "100"], ["list", "announcements", "--limit", "100"], ["--json", "list", "announcements", "--limit", "100"],
            ["show", firstPost], ["--json", "show", firstPost], ["history", firstPost],
        ] {
            let shown = try run(arguments)
            #expect(shown.status == 0, "\(arguments): \(shown.stderr)")
            #expect(Self.unsafe(shown.stdout) == nil, "\(arguments) printed \(Self.unsafe(shown.stdout) ?? "")")
        }
        for format in ["json", "ics", "rss"] {
            let out = dir.path("export-\(format)")
            let exported = try run(["export", "--format", format, "--out", out])
            #expect(exported.status == 0, "\(exported.stderr)")
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: out, isDirectory: &isFolder)
            let files = isFolder.boolValue ? try FileManager.default.contentsOfDirectory(atPath: out).map { out + "/" + $0 } : [out]
            #expect(!files.isEmpty)
            for file in files {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                #expect(Self.unsafe(text.replacingOccurrences(of: "\r\n", with: "\n")) == nil, "\(file) holds \(Self.unsafe(text) ?? "")")
            }
        }
    }

    @Test func cleaningKeepsOrdinaryText() {
        #expect(SafeText.clean(Self.friendly) == Self.friendly)
        #expect(SafeText.clean("line one\nline two\ttabbed") == "line one\nline two\ttabbed")
        #expect(SafeText.clean("a\r\nb\rc") == "a\nb\nc")
        #expect(SafeText.clean("x\u{1B}[2Jy\u{202E}z\u{9B}") == "x[2Jyz")
        #expect(!SafeText.mayHoldUnsafe(json: #"{"title":"Café 日本語 \"quoted\" \\ back\nslash"}"#))
        #expect(SafeText.mayHoldUnsafe(json: #"{"title":"a\u001b[2J"}"#))
        #expect(SafeText.mayHoldUnsafe(json: "{\"title\":\"a\u{202E}b\"}"))
    }
}

extension HostileTextTests {
    /// Escapes in what messages quote (an inbox entry's id, an unparseable calendar line, a
    /// source's failure) reach no terminal: through the import summary, `runs`, `extract`'s
    /// problems, `--json`, and the console's prompt in a pipe.
    @Test func messagesThatQuoteInputAreCleaned() throws {
        let dir = try TemporaryDirectory("messages")
        defer { dir.remove() }
        func jsonString(_ s: String) -> String { String(decoding: (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8), as: UTF8.self) }
        let entries = Self.hostile.enumerated().map { index, text in
            // Each entry lacks its text and image, so each is skipped with its id quoted.
            #"{"id": \#(jsonString("entry\(index)" + text)), "authorName": "A", "authorRole": "student", "createdAt": "2026-09-18T21:42:00-06:00","#
                + #" "imageURLs": []}"#
        }
        try dir.write("imports/data/posts.json", "[" + entries.joined(separator: ",") + "]")
        try dir.write(
            "imports/a-posts.json", #"{ "id": "a-posts", "importer": "inbox", "kind": "post", "url": "data/posts.json", "timeZone": "America/Denver" }"#)
        let lines = Self.hostile.map { "X-BROKEN\($0)LINE-WITHOUT-A-COLON" }.joined(separator: "\r\n")
        try dir.write(
            "imports/data/cal.ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n\(lines)\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20260918T190000Z\r\nSUMMARY:Game\u{1B}[2J\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        )
        try dir.write("imports/b-cal.json", #"{ "id": "b-cal", "importer": "ical", "kind": "event", "url": "data/cal.ics", "timeZone": "America/Denver" }"#)
        func run(_ words: [String], stdin: String? = nil) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words, stdin: stdin)
        }
        var seen = 0
        for words in [
            ["import", "--all"], ["runs"], ["--json", "runs"], ["extract", "a-posts"], ["extract", "b-cal"], ["--json", "extract", "a-posts"],
            ["--json", "import", "--all"],
        ] {
            let result = try run(words)
            seen += result.stdout.count + result.stderr.count
            #expect(Self.unsafe(result.stdout) == nil, "\(words) stdout: \(Self.unsafe(result.stdout) ?? "")")
            #expect(Self.unsafe(result.stderr) == nil, "\(words) stderr: \(Self.unsafe(result.stderr) ?? "")")
        }
        let piped = try run([], stdin: "runs\nimport a-posts\n")
        #expect(Self.unsafe(piped.stdout + piped.stderr) == nil, "\(Self.unsafe(piped.stdout + piped.stderr) ?? "")")
        // The selector shell quotes the page's own text.
        let page = "<article><h2>" + Self.hostile.joined(separator: " ") + "</h2><time>Sept 3" + Self.hostile.joined() + "</time></article>"
        try dir.write("imports/data/page.html", page)
        let shell = try run(
            ["try", dir.path("imports/data/page.html"), "--kind", "announcement"], stdin: "css article\nitem article\nfield title=h2\nfield date=time\nitems\n")
        #expect(shell.stdout.contains("1 match"), "\(shell.stdout)")
        #expect(Self.unsafe(shell.stdout + shell.stderr) == nil, "try: \(Self.unsafe(shell.stdout + shell.stderr) ?? "")")
        // The messages were there, quoting the ids with stand-ins.
        let extracted = try run(["extract", "a-posts"])
        #expect((extracted.stdout + extracted.stderr).contains("entry0␛[2J"), "\(extracted.stdout)\(extracted.stderr)")
        #expect(seen > 1_000)
    }
}
