import Foundation
import TestSupport
import Testing

/// Messages that said something other than what happened (issue 44, finding 5), each through
/// the real binary.
@Suite struct HonestMessagesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ dir: TemporaryDirectory, _ words: [String]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words)
    }

    /// A local news page of one article and its source, `news`.
    static func writeNewsSource(_ dir: TemporaryDirectory) throws {
        try dir.write("imports/news.html", "<article><h2>Bus routes</h2></article>")
        try dir.write(
            "imports/news.json",
            #"{ "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "options": { "item": "article", "fields": { "title": "h2" } } }"#)
    }

    /// A bad `_settings.json` is a configuration error (exit 2) for `import` as for `extract`,
    /// and nothing is imported.
    @Test func aBadSettingsFileIsAConfigurationErrorForEveryCommand() throws {
        let dir = try TemporaryDirectory("bad-settings")
        defer { dir.remove() }
        try Self.writeNewsSource(dir)
        try dir.write("imports/_settings.json", #"{"requestDelay": "fast"}"#)
        for words in [["import", "news"], ["import", "--all"], ["extract", "news"]] {
            let result = try Self.run(dir, words)
            #expect(result.status == 2, "\(words): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("_settings.json") && result.stderr.contains("requestDelay"), "\(result.stderr)")
        }
        #expect((try? Binaries.sql(dir.path("t.sqlite"), "SELECT count(*) FROM items").trimmingCharacters(in: .whitespacesAndNewlines)) ?? "0" == "0")
    }

    /// `grades` given a named pipe says so (it used to say there was no file).
    @Test func gradesOnAPipeSaysItIsAPipe() throws {
        let dir = try TemporaryDirectory("grades-fifo")
        defer { dir.remove() }
        #expect(mkfifo(dir.path("book.json"), 0o600) == 0)
        let result = try Self.run(dir, ["grades", dir.path("book.json"), "--target", "A"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("named pipe") && !result.stderr.contains("no file"), "\(result.stderr)")
    }

    /// A well-formed feed refused for its entity declarations is called that, not broken XML.
    @Test func aFeedRefusedForItsEntitiesSaysSo() throws {
        let dir = try TemporaryDirectory("feed-entities")
        defer { dir.remove() }
        try dir.write(
            "imports/feed.xml",
            "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]><rss><channel><item><title>&b;</title>"
                + "<link>https://x.example/1</link></item></channel></rss>")
        try dir.write("imports/feed.json", #"{ "id": "feed", "importer": "feed", "kind": "announcement", "url": "feed.xml" }"#)
        let result = try Self.run(dir, ["extract", "feed"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("declares entities") && !result.stderr.contains("not well-formed"), "\(result.stderr)")
    }

    /// A store whose file this account may write, in a folder it may not, is blamed on the
    /// folder (SQLite writes its journal beside the store), not on the file's permissions.
    @Test func aStoreInAReadOnlyFolderBlamesTheFolder() throws {
        guard Binaries.canRunAsNobody else {
            try Skip.because("needs root and setpriv to run as another account")
            return
        }
        let dir = try TemporaryDirectory("ro-folder")
        defer { dir.remove() }
        try Self.writeNewsSource(dir)
        try FileManager.default.createDirectory(atPath: dir.path("ro"), withIntermediateDirectories: true)
        let store = dir.path("ro/t.sqlite")
        // This account makes the store and imports; nobody (uid 65534) is an admin of it.
        for words in [["import", "news"], ["operator", "add", "nobody", "--role", "admin", "--login", "nobody"]] {
            let made = try Binaries.run("timetrack-admin", ["--store", store, "--imports", dir.path("imports")] + words)
            #expect(made.status == 0, "\(words): \(made.stderr)")
        }
        chmod(dir.path("ro"), 0o755)
        chown(store, 65534, 65534)
        chmod(store, 0o600)
        let result = try Binaries.runAsNobody(in: dir, ["--store", store, "--imports", dir.path("imports"), "approve", "a1"])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("folder") && result.stderr.contains("journal") && !result.stderr.contains("check the file's permissions"), "\(result.stderr)"
        )
    }

    /// docs/running-from-cron.md says what the tool does with an IPv6 literal host: refuses it
    /// with a message (it used to promise the host worked).
    @Test func theCronDocsSayWhatHappensToAnIPv6Literal() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/running-from-cron.md"), encoding: .utf8)
        #expect(!text.contains("get their robots.txt too"))
        #expect(text.contains("IPv6 literal") && text.contains("is refused before"))
        let dir = try TemporaryDirectory("ipv6-docs")
        defer { dir.remove() }
        try dir.write(
            "imports/v6.json",
            #"{ "id": "v6", "importer": "html", "kind": "announcement", "url": "http://[2001:db8::1]/page.html", "options": { "item": "a", "fields": { "title": "h2" } } }"#
        )
        let result = try Self.run(dir, ["extract", "v6"])
        #expect(result.status != 0 && result.stderr.contains("IPv6 address written into the URL"), "\(result.stderr)")
    }
}
