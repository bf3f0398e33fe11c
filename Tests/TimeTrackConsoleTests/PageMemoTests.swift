import Foundation
import TestSupport
import Testing

/// Unchanged pages are not parsed again, and a changed page is always noticed.
@Suite struct PageMemoTests {
    @Test func aChangedDetailPageIsNoticedAndUnchangedPagesWriteNothing() throws {
        let dir = try TemporaryDirectory("memo")
        defer { dir.remove() }
        func article(_ n: Int, _ text: String) -> String {
            "<html><body><article class='post'><time datetime='2026-09-0\(n)T08:00:00-06:00'>x</time><div"
                + " class='body'><p>\(text)</p></div></article></body></html>"
        }
        try dir.write(
            "imports/site/list.html",
            "<html><body>" + (1...3).map { "<div class='item'><h2><a href='/a\($0).html'>Item \($0)</a></h2></div>" }.joined() + "</body></html>")
        for n in 1...3 { try dir.write("imports/site/a\(n).html", article(n, "First version \(n)")) }
        try dir.write(
            "imports/memo.json",
            """
            { "id": "memo", "importer": "html", "kind": "announcement", "url": "site/list.html", "baseURL": "https://memo.example/list.html",\
             "timeZone": "America/Denver",
              "options": { "item": ".item", "fields": { "title": "h2 a", "link": "h2 a@href" }, "detail": { "link": "link", "fields": { "date":\
             "time@datetime", "body": ".body@html" } } } }
            """)
        func run(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + arguments)
        }
        #expect(try run(["import", "memo"]).status == 0)
        let ids = ((try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "announcements"]).stdout.utf8))) as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }
        #expect(try run(["approve"] + ids).status == 0)

        let unchanged = try run(["import", "memo"])
        #expect(unchanged.stderr.contains("3 found · 0 new · 0 changed · 3 unchanged"), "\(unchanged.stderr)")

        try dir.write("imports/site/a2.html", article(2, "Second version, with a correction"))
        let changed = try run(["--json", "import", "memo"])
        let summary = (try JSONSerialization.jsonObject(with: Data(changed.stdout.utf8)) as? [[String: Any]])?.first
        #expect((summary?["changed"] as? [String])?.count == 1)
        let changedID = try #require((summary?["changed"] as? [String])?.first)
        let shown = try JSONSerialization.jsonObject(with: Data(try run(["--json", "show", changedID]).stdout.utf8)) as? [String: Any]
        #expect(((shown?["pending"] as? [String: Any])?["body"] as? String)?.contains("Second version") == true)

        // A change of the source's options reads every page again (the memo is keyed by them).
        try dir.write(
            "imports/memo.json",
            """
            { "id": "memo", "importer": "html", "kind": "announcement", "url": "site/list.html", "baseURL": "https://memo.example/list.html",\
             "timeZone": "America/Denver",
              "options": { "item": ".item", "fields": { "title": { "select": "h2 a", "template": "News: {value}" }, "link": "h2 a@href" }, "detail":\
             { "link": "link", "fields": { "date": "time@datetime", "body": ".body@html" } } } }
            """)
        let reconfigured = try run(["--json", "import", "memo"])
        let again = (try JSONSerialization.jsonObject(with: Data(reconfigured.stdout.utf8)) as? [[String: Any]])?.first
        #expect((again?["changed"] as? [String])?.count == 3)
    }
}

/// Detail pages on disk are read on several threads at once; a missing one or one outside the
/// imports folder is a warning for its item alone, which keeps its listing fields.
@Suite struct LocalDetailPageTests {
    @Test func missingAndOutsideDetailPagesAreWarningsForTheirItemsOnly() throws {
        let dir = try TemporaryDirectory("detail")
        defer { dir.remove() }
        let links = (1...40).map { n in n == 7 ? "/missing.html" : "/a\(n).html" }
        try dir.write(
            "imports/site/list.html",
            "<html><body>" + links.enumerated().map { "<div class='item'><h2><a href='\($0.element)'>Item \($0.offset + 1)</a></h2></div>" }.joined()
                + "</body></html>")
        for n in 1...40 {
            try dir.write(
                "imports/site/a\(n).html",
                "<html><body><article><time datetime='2026-09-\(String(format: "%02d", n % 28 + 1))T08:00:00-06:00'>x</time><p class='s'>Detail"
                    + " \(n)</p></article></body></html>"
            )
        }
        // Page 23 is a link to a file outside the imports folder.
        let outside = try dir.write("outside.html", "<html><body><p class='s'>not ours</p></body></html>")
        try FileManager.default.removeItem(atPath: dir.path("imports/site/a23.html"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("imports/site/a23.html"), withDestinationPath: outside)
        try dir.write(
            "imports/detail.json",
            """
            { "id": "detail", "importer": "html", "kind": "announcement", "url": "site/list.html", "baseURL": "https://detail.example/list.html",\
             "timeZone": "America/Denver",
              "options": { "item": ".item", "fields": { "title": "h2 a", "link": "h2 a@href" }, "detail": { "link": "link", "fields": { "date":\
             "time@datetime", "summary": ".s" } } } }
            """)
        let result = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--json", "extract", "detail"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let items = object?["items"] as? [[String: Any]] ?? []
        let problems = object?["problems"] as? [[String: Any]] ?? []
        #expect(items.count == 40)
        // In page order, each with its own page's text, except the two that could not be read.
        for (index, item) in items.enumerated() {
            let fields = item["fields"] as? [String: Any] ?? [:]
            let summary = fields["summary"] as? String
            if index == 6 || index == 22 {
                #expect(summary == nil, "item \(index + 1)")
            } else {
                #expect(summary == "Detail \(index + 1)", "item \(index + 1)")
            }
        }
        let warnings = problems.compactMap { $0["message"] as? String }.filter { $0.hasPrefix("detail page not read") }
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains("no such file") })
        #expect(warnings.contains { $0.contains("outside the imports folder") })
        #expect(Set(problems.compactMap { $0["location"] as? String }).isSuperset(of: ["page 1 item 7", "page 1 item 23"]))
    }
}

/// The documents importer remembers what an unchanged page gave; a changed page is read again.
@Suite struct DocumentsMemoTests {
    @Test func anUnchangedDocumentsPageIsRememberedAndAChangedOneReadAgain() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        func page(_ links: [String]) -> String {
            "<html><body><nav><a href='/menu.pdf'>Menu</a></nav><main><h2>Bell Schedules</h2>" + links.map { "<a href='/\($0).pdf'>\($0) (PDF)</a>" }.joined()
                + "</main></body></html>"
        }
        try setup.dir.write("imports/site/info.html", page(["Weekday", "Friday"]))
        try setup.dir.write(
            "imports/info.json",
            """
            { "id": "info", "importer": "documents", "kind": "school-info", "url": "site/info.html", "baseURL": "https://school.example/info.html",\
             "timeZone": "America/Denver" }
            """)
        let first = try setup.run(["import", "info"])
        #expect(first.stderr.contains("info: ok · 2 found · 2 new"), "\(first.stderr)")
        // The page, and each document's item memo (what settles it on the next run).
        #expect(try setup.sql("SELECT count(*) FROM page_memo WHERE source_id = 'info'") == "1")
        #expect(try setup.sql("SELECT count(*) FROM item_memo m JOIN items i ON i.seq = m.item_seq WHERE i.source_id = 'info'") == "2")
        let again = try setup.run(["import", "info"])
        #expect(again.stderr.contains("2 found · 0 new · 0 changed · 2 unchanged"), "\(again.stderr)")
        try setup.dir.write("imports/site/info.html", page(["Weekday", "Friday", "Late Start"]))
        let changed = try setup.run(["import", "info"])
        #expect(changed.stderr.contains("3 found · 1 new · 0 changed · 2 unchanged"), "\(changed.stderr)")
        #expect(try setup.sql("SELECT title FROM items WHERE source_key = 'https://school.example/Late Start.pdf' OR title = 'Late Start'") == "Late Start")
    }
}
