import Foundation
import TestSupport
import Testing

/// Issue 38, acceptance 2: a scanned PDF on a School Info page is flagged at import, `ocr` makes
/// a copy whose text pdftotext reads, and the export serves the copy (the original kept).
@Suite struct ScannedPDFTests {
    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func aScanIsFlaggedOCRdAndTheExportServesTheCopy() throws {
        guard Self.tool("ocrmypdf") != nil, Self.tool("pdftotext") != nil, let pdftotext = Self.tool("pdftotext") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("ocrmypdf or poppler-utils is missing (.ci/run installs them)") }
            return
        }
        let dir = try TemporaryDirectory("scanned-pdf")
        defer { dir.remove() }
        guard let scan = try TestPDF.scanned(["Bell Schedule 2026-27", "First period 8:05 - 8:55", "Lunch 11:40 - 12:10"], in: dir) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("ImageMagick is missing") }
            return
        }
        let clean = TestPDF.text(["Supply list 2026-27", "Two pencils, one notebook"], title: "Supply List", language: "en-US", tagged: true)
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/robots.txt", .init(status: 404))
        server.route("/fs/bell-schedule.pdf", .init(headers: ["Content-Type": "application/pdf"], body: scan))
        server.route("/fs/supply-list.pdf", .init(headers: ["Content-Type": "application/pdf"], body: clean))
        server.route(
            "/school-info",
            .html(
                """
                <html><body><main><h2>Schedules</h2><ul>
                <li><a href="/fs/bell-schedule.pdf">Bell Schedule (PDF)</a></li>
                <li><a href="/fs/supply-list.pdf">Supply List (PDF)</a></li></ul></main></body></html>
                """))
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 1}"#)
        try dir.write(
            "imports/info.json",
            """
            { "id": "info", "importer": "documents", "kind": "schoolInfo", "url": "\(server.base)/school-info", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"], "checkPDFs": true, "options": { "section": "schedules" } }
            """)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--no-input"] + words)
        }
        let imported = try run(["import", "info"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let listed = try run(["list", "school-info", "--flag", "a11y", "--status", "pending"])
        #expect(listed.stdout.contains("Bell Schedule"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("Supply List"), "the clean twin is not flagged: \(listed.stdout)")
        let ids = try run(["--json", "list", "school-info", "--status", "pending"])
        let rows = try JSONSerialization.jsonObject(with: Data(ids.stdout.utf8)) as? [[String: Any]] ?? []
        let bell = try #require(rows.first { ($0["title"] as? String)?.contains("Bell") == true }?["id"] as? String)
        let shown = try run(["show", bell])
        #expect(shown.stdout.contains("WCAG 1.1.1"), "\(shown.stdout)")
        #expect(shown.stdout.contains("a scan with no text layer"), "\(shown.stdout)")

        let ocr = try run(["ocr", bell])
        #expect(ocr.status == 0, "\(ocr.stdout)\(ocr.stderr)")
        #expect(ocr.stdout.contains("made a searchable copy"), "\(ocr.stdout)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: dir.path("imports/_accessible"))
        #expect(copies.count == 1)
        let copyPath = dir.path("imports/_accessible/\(copies.first ?? "")")
        let text = try Binaries.runPath(pdftotext, [copyPath, "-"])
        #expect(text.stdout.contains("Bell Schedule"), "pdftotext reads the copy: \(text.stdout)")
        #expect(try run(["show", bell]).stdout.contains("1.1.1") == false, "the copy has a text layer")

        #expect(try run(["approve", bell, try #require(rows.first { $0["id"] as? String != bell }?["id"] as? String)]).status == 0)
        let exported = try run(["export", "--format", "json", "--out", dir.path("out")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/school-info.json")))) as? [String: Any]
        let items = document?["items"] as? [[String: Any]] ?? []
        let served = try #require(items.first { $0["id"] as? String == bell })
        let url = try #require(served["url"] as? String)
        #expect(url.hasPrefix("documents/") && url.hasSuffix(".pdf"), "\(served)")
        #expect(served["originalUrl"] as? String == "\(server.base)/fs/bell-schedule.pdf")
        #expect(FileManager.default.contents(atPath: dir.path("out/\(url)")) == FileManager.default.contents(atPath: copyPath))
        let other = try #require(items.first { $0["id"] as? String != bell })
        #expect(other["url"] as? String == "\(server.base)/fs/supply-list.pdf", "a document without a copy is linked where it is")

        // A copy changed on disk is not served: the original is linked, with a note.
        try Data("%PDF-1.4 changed".utf8).write(to: URL(fileURLWithPath: copyPath))
        let again = try run(["export", "--format", "json", "--out", dir.path("out2")])
        #expect(again.stderr.contains("was changed"), "\(again.stderr)")
        let second = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out2/school-info.json")))) as? [String: Any]
        #expect((second?["items"] as? [[String: Any]] ?? []).first { $0["id"] as? String == bell }?["url"] as? String == "\(server.base)/fs/bell-schedule.pdf")
    }

    @Test func aScanLinkedFromANewsBodyIsFlaggedAndItsCleanTwinIsNot() throws {
        guard Self.tool("pdfinfo") != nil else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("poppler-utils is missing (.ci/run installs it)") }
            return
        }
        let dir = try TemporaryDirectory("linked-pdf")
        defer { dir.remove() }
        guard let scan = try TestPDF.scanned(["Lunch Menu - October", "Monday: Chicken tacos"], in: dir) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("ImageMagick is missing") }
            return
        }
        let clean = TestPDF.text(["Supply list 2026-27", "Two pencils, one notebook"], title: "Supply List", language: "en-US", tagged: true)
        let server = try TestHTTPServer()
        defer { server.stop() }
        let pdfRequests = RequestCount()
        server.handle { request in
            switch request.path {
            case "/wp-content/uploads/2026/10/lunch-menu-october.pdf":
                pdfRequests.add()
                return .init(headers: ["Content-Type": "application/pdf"], body: scan)
            case "/wp-content/uploads/2026/10/supply-list.pdf":
                pdfRequests.add()
                return .init(headers: ["Content-Type": "application/pdf"], body: clean)
            default: return nil
            }
        }
        server.route("/robots.txt", .init(status: 404))
        server.route(
            "/news/",
            .html(
                """
                <html><body><main>
                <article class="post"><h2 class="entry-title">October lunch menu</h2><time datetime="2026-10-01">October 1, 2026</time>
                <div class="entry-content"><p>The <a href="/wp-content/uploads/2026/10/lunch-menu-october.pdf">October lunch menu</a> is out.</p>\
                </div></article>
                <article class="post"><h2 class="entry-title">Supply list</h2><time datetime="2026-08-01">August 1, 2026</time>
                <div class="entry-content"><p>The <a href="/wp-content/uploads/2026/10/supply-list.pdf">2026-27 supply list</a> is ready.</p></div></article>
                </main></body></html>
                """))
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retryDelay": 0.05, "retries": 1}"#)
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "\(server.base)/news/", "timeZone": "America/Denver",
              "allowPrivateNetwork": ["127.0.0.1"], "checkPDFs": true,
              "options": { "item": "article.post", "fields": { "title": "h2", "date": "time@datetime", "body": "div.entry-content@html" } } }
            """)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--no-input"] + words)
        }
        let imported = try run(["import", "news"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(pdfRequests.value == 2)
        let flagged = try run(["list", "announcements", "--flag", "a11y", "--status", "pending"])
        #expect(flagged.stdout.contains("October lunch menu"), "\(flagged.stdout)")
        #expect(!flagged.stdout.contains("Supply list"), "the clean twin is not flagged: \(flagged.stdout)")
        let rows = try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "announcements"]).stdout.utf8)) as? [[String: Any]] ?? []
        let menu = try #require(rows.first { $0["title"] as? String == "October lunch menu" }?["id"] as? String)
        let shown = try run(["show", menu]).stdout
        #expect(shown.contains("WCAG 1.1.1") && shown.contains("the linked PDF") && shown.contains("lunch-menu-october.pdf"), "\(shown)")
        // The next import reads nothing new: the memo settles both items, no PDF is fetched again.
        let again = try run(["import", "news"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(pdfRequests.value == 2, "an unchanged body's PDFs are not fetched again")
    }
}

/// A count shared with the test server's thread.
final class RequestCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
