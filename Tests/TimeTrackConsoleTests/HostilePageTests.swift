import Foundation
import TestSupport
import Testing

/// Hostile pages through the real binary: a clear message, never a trap, never "success" on nothing.
@Suite struct HostilePageTests {
    let definition = """
        { "id": "news", "importer": "html", "kind": "announcement", "url": "page.html", "baseURL": "https://school.example/news/",
          "timeZone": "America/Denver", "options": { "item": "article", "fields": { "title": "h2", "link": "a@href", "date": "time@datetime" } } }
        """

    func run(page: Data, _ extra: [String] = []) throws -> (Binaries.Result, TemporaryDirectory) {
        let dir = try TemporaryDirectory("hostile")
        try dir.write("news.json", definition)
        try page.write(to: dir.url.appendingPathComponent("page.html"))
        let result = try Binaries.run("timetrack-admin", ["--imports", dir.url.path, "--store", dir.path("s.sqlite")] + extra + ["extract", "news"])
        return (result, dir)
    }

    func expectNoTrap(_ result: Binaries.Result) {
        #expect(result.status != 0 || !result.stdout.isEmpty)
        for word in ["Fatal error", "Illegal instruction", "Segmentation", "stack overflow", "HTML parser error", "parser error"] {
            #expect(!result.stderr.contains(word), "stderr: \(result.stderr)")
        }
    }

    @Test func emptyFileIsZeroItemsNotSuccess() throws {
        let (result, dir) = try run(page: Data())
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr.contains("0 items"))
    }

    @Test func binaryGarbage() throws {
        var generator = SystemRandomNumberGenerator()
        let (result, dir) = try run(page: Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr.contains("0 items"))
    }

    @Test func fiftyMegabytePageIsRefusedWithAClearMessage() throws {
        var page = Data("<html><body>".utf8)
        let article = Data("<article><h2>Item</h2><a href='/x'>x</a><p>\(String(repeating: "filler ", count: 140))</p></article>\n".utf8)
        while page.count < 50 * 1024 * 1024 { page.append(article) }
        let (result, dir) = try run(page: page)
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr.contains("MB limit"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func deeplyNestedTags() throws {
        let deep =
            String(repeating: "<div><span>", count: 50_000) + "<article><h2>Deep</h2><a href='/deep'>x</a></article>"
            + String(repeating: "</span></div>", count: 50_000)
        let (result, dir) = try run(page: Data(("<html><body><article><h2>Shallow</h2><a href='/s'>s</a></article>" + deep + "</body></html>").utf8))
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.stdout.contains("Shallow"))
    }

    @Test func wrongCharsetStillReadsTheText() throws {
        var bytes = Array("<html><head><meta charset=\"utf-8\"></head><body><article><h2>Caf".utf8)
        bytes += [0xE9, 0x20, 0x93, 0x4E, 0x69, 0x67, 0x68, 0x74, 0x94]  // é “Night” in Windows-1252
        bytes += Array("</h2><a href=\"/cafe\">more</a></article></body></html>".utf8)
        let (result, dir) = try run(page: Data(bytes), ["--json"])
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Café “Night”"))
    }

    @Test func aUTF16DeclarationOnAnASCIIPageIsIgnoredWithANote() throws {
        let page = "<html><head><meta charset=\"utf-16\"></head><body><article><h2>Caf\u{E9} news</h2><a href='/n'>n</a></article></body></html>"
        let (result, dir) = try run(page: Data(page.utf8), ["--json"])
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Café news"))
        #expect(result.stdout.contains("is not UTF-16"))
    }

    @Test func selectorMatchingNothingWarnsAndFails() throws {
        let (result, dir) = try run(page: Data("<html><body><div class='post'><h2>Not an article</h2></div></body></html>".utf8))
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr.contains("0 items: the item selector 'article' matched nothing"))
    }

    @Test func itemsThatFailValidationAreReportedWithTheirPlace() throws {
        let page = """
            <html><body>
            <article><h2>Good</h2><a href="/good">x</a><time datetime="2026-09-01">x</time></article>
            <article><h2></h2><a href="/untitled">x</a></article>
            <article><h2>Bad date</h2><a href="/bad"></a><time datetime="soon">x</time></article>
            <article><h2>Script link</h2><a href="javascript:alert(1)">x</a></article>
            </body></html>
            """
        let (result, dir) = try run(page: Data(page.utf8), ["--json"])
        defer { dir.remove() }
        expectNoTrap(result)
        #expect(result.status == 3)  // partly done: some items failed
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let items = json?["items"] as? [[String: Any]] ?? []
        let problems = json?["problems"] as? [[String: Any]] ?? []
        #expect(items.count == 1)
        #expect(problems.count == 3)
        let locations = problems.compactMap { $0["location"] as? String }
        #expect(locations == ["page 1 item 2", "page 1 item 3", "page 1 item 4"])
        let messages = problems.compactMap { $0["message"] as? String }.joined(separator: "\n")
        #expect(messages.contains("no title found"))
        #expect(messages.contains("'soon' is not a date"))
        #expect(messages.contains("javascript"))
    }

    @Test func badDefinitionsNameFileAndField() throws {
        let dir = try TemporaryDirectory("baddef")
        defer { dir.remove() }
        let cases: [(String, String)] = [
            (
                #"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html", "timeZone": "Mars/Base", "options": {"item": "a","#
                    + #" "fields": {"title": "a"}}}"#,
                "field 'timeZone'"
            ),
            (#"{"id": "x", "importer": "html", "kind": "memo", "url": "p.html", "options": {}}"#, "field 'kind'"),
            (
                #"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html", "options": {"item": "li[", "fields": {"title": "a"}}}"#,
                "field 'options.item'"
            ),
            (
                #"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html", "options": {"item": "li", "fields": {"headline": "a"}}}"#,
                "field 'options.fields.headline'"
            ),
            (#"{"id": "x", "importer": "rss", "kind": "announcement", "url": "p.html"}"#, "field 'importer'"),
            (
                #"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html", "schedule": "sometimes", "options": {"item": "li","#
                    + #" "fields": {"title": "a"}}}"#,
                "field 'schedule'"
            ),
            (#"{"id": "x", "importer": "html", "kind": "announcement", "url": "ftp://x/p.html"}"#, "field 'url'"),
            (
                #"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html", "options": {"item": "li", "fields": {"title": "a"},"#
                    + #" "maxPages": 0}}"#,
                "field 'options.maxPages'"
            ),
            (#"{"id": "x", "importer": "html", "kind": "announcement", "url": "p.html" "#, "not valid JSON"),
        ]
        for (index, (json, expected)) in cases.enumerated() {
            let file = try dir.write("def\(index).json", json)
            let result = try Binaries.run("timetrack-admin", ["extract", file])
            #expect(result.status == 2, "\(json)")
            #expect(result.stderr.contains(file), "\(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    @Test func pagesOutsideTheImportsFolderAreRefused() throws {
        let dir = try TemporaryDirectory("confine")
        defer { dir.remove() }
        try dir.write(
            "imports/escape.json",
            #"{"id": "escape", "importer": "html", "kind": "announcement", "url": "../secret.html", "options": {"item": "p", "fields": {"title": "p"}}}"#)
        try dir.write("secret.html", "<p>secret</p>")
        let result = try Binaries.run("timetrack-admin", ["--imports", dir.path("imports"), "extract", "escape"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("outside the imports folder"))
        #expect(!result.stdout.contains("secret"))
    }
}
