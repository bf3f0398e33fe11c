import Foundation
import TestSupport
import Testing

/// Unchanged pages are not parsed again, and a changed page is always noticed.
@Suite struct PageMemoTests {
    @Test func aChangedDetailPageIsNoticedAndUnchangedPagesWriteNothing() throws {
        let dir = try TemporaryDirectory("memo")
        defer { dir.remove() }
        func article(_ n: Int, _ text: String) -> String {
            "<html><body><article class='post'><time datetime='2026-09-0\(n)T08:00:00-06:00'>x</time><div class='body'><p>\(text)</p></div></article></body></html>"
        }
        try dir.write("imports/site/list.html", "<html><body>" + (1...3).map { "<div class='item'><h2><a href='/a\($0).html'>Item \($0)</a></h2></div>" }.joined() + "</body></html>")
        for n in 1...3 { try dir.write("imports/site/a\(n).html", article(n, "First version \(n)")) }
        try dir.write("imports/memo.json", """
            { "id": "memo", "importer": "html", "kind": "announcement", "url": "site/list.html", "baseURL": "https://memo.example/list.html", "timeZone": "America/Denver",
              "options": { "item": ".item", "fields": { "title": "h2 a", "link": "h2 a@href" }, "detail": { "link": "link", "fields": { "date": "time@datetime", "body": ".body@html" } } } }
            """)
        func run(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + arguments)
        }
        #expect(try run(["import", "memo"]).status == 0)
        let ids = ((try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "announcements"]).stdout.utf8))) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
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
        try dir.write("imports/memo.json", """
            { "id": "memo", "importer": "html", "kind": "announcement", "url": "site/list.html", "baseURL": "https://memo.example/list.html", "timeZone": "America/Denver",
              "options": { "item": ".item", "fields": { "title": { "select": "h2 a", "template": "News: {value}" }, "link": "h2 a@href" }, "detail": { "link": "link", "fields": { "date": "time@datetime", "body": ".body@html" } } } }
            """)
        let reconfigured = try run(["--json", "import", "memo"])
        let again = (try JSONSerialization.jsonObject(with: Data(reconfigured.stdout.utf8)) as? [[String: Any]])?.first
        #expect((again?["changed"] as? [String])?.count == 3)
    }
}
