import Foundation
import TestSupport
import Testing

/// A store on a small tmpfs that fills up mid-import: a clear message, a store that still opens,
/// and once space is freed the next import completes with nothing lost.
///
/// Needs root (to mount); elsewhere it says why it did not run.
@Suite struct DiskFullTests {
    @Test func anImportThatFillsTheDiskResumesOnceSpaceIsFree() throws {
        guard getuid() == 0 else {
            try Skip.because("mounting a tmpfs needs root (CI runs as root)")
            return
        }
        let dir = try TemporaryDirectory("diskfull")
        defer { dir.remove() }
        let mountPoint = dir.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try Binaries.runPath("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint])
        guard mount.status == 0 else {
            try Skip.because("this machine does not allow mounting a tmpfs (\(mount.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
            return
        }
        defer { _ = try? Binaries.runPath("/bin/umount", [mountPoint]) }

        // 300 articles with bodies: several megabytes of store.
        let articles = (1...300).map { i in
            "<article><h2>Article \(i)</h2><div"
                + " class='body'><p>\(String(repeating: "Paragraph \(i) of a long district announcement. ", count: 40))</p></div></article>"
        }.joined()
        try dir.write("imports/news.html", "<html><body>\(articles)</body></html>")
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "timeZone": "America/Denver",
              "options": { "item": "article", "fields": { "title": "h2", "body": ".body@html" } } }
            """)
        // Most of the small disk taken by something else.
        let filler = mountPoint + "/filler"
        try Data(count: 14 * 1024 * 1024).write(to: URL(fileURLWithPath: filler))
        let store = mountPoint + "/s.sqlite"
        let arguments = ["--store", store, "--imports", dir.path("imports"), "--as", "root", "import", "news"]

        let full = try Binaries.run("timetrack-admin", arguments)
        #expect(full.status != 0, "the import fitted: \(full.stderr)")
        #expect(full.stderr.contains("disk is full") || full.stderr.contains("full"), "\(full.stderr)")
        // An import is no decision: the message says what was kept and that it resumes (issue 44).
        #expect(!full.stderr.contains("nothing of this decision was written") && full.stderr.contains("resumes"), "\(full.stderr)")
        #expect(!full.stderr.contains("Fatal error"))
        // The store still opens (it is not called truncated or corrupt).
        let status = try Binaries.run("timetrack-admin", ["--store", store, "status"])
        #expect(status.status == 0, "\(status.stderr)")

        try FileManager.default.removeItem(atPath: filler)
        let resumed = try Binaries.run("timetrack-admin", arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Binaries.sql(store, "SELECT count(*) FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "300")
        #expect(try Binaries.sql(store, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}
