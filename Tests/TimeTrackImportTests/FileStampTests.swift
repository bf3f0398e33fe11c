import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport
@testable import TimeTrackStore

/// Local pages known unchanged by their file's stamp are not read again; anything that could
/// have changed the bytes (a write, even one that keeps the size and sets the modification time
/// back; a file replaced; a file changed just before it was read) has them read.
@Suite struct FileStampTests {
    static func listing(_ titles: [String]) -> String {
        var html = "<html><body><ul class='news'>"
        for (index, title) in titles.enumerated() {
            html += "<li><a href='/news/\(index + 1).html'>\(title)</a><time>2026-10-0\(index + 1)</time></li>"
        }
        return html + "</ul></body></html>"
    }

    static func article(_ body: String) -> String {
        "<html><body><article><h1>Title</h1><div class='body'><p>\(body)</p></div></article></body></html>"
    }

    /// Sets a file's access and modification times (the status-change time moves to now, as it
    /// always does).
    static func setModified(_ path: String, to time: timespec) {
        var times = [time, time]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// A listing of three articles, each with a page of its own, and the source's definition in
    /// `dir/imports`: the source, and a pipeline on a fixed date.
    static func newsSite(in dir: TemporaryDirectory) throws -> (SourceDefinition, ImportPipeline) {
        try dir.write("imports/news.html", listing(["Board meeting", "Picture day", "Bus routes"]))
        for number in 1...3 { try dir.write("imports/news/\(number).html", article("Article \(number) text")) }
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://school.example/", "timeZone": "America/Denver",
              "options": { "item": "ul.news li", "fields": { "title": "a", "link": "a@href", "date": "time" },
                           "detail": { "link": "link", "fields": { "body": "div.body" } } } }
            """)
        var pipeline = ImportPipeline(importsRoot: dir.url.appendingPathComponent("imports"))
        pipeline.now = { ISO8601DateFormatter().date(from: "2026-10-10T12:00:00Z") ?? Date() }
        return (try SourceDefinition.load(file: dir.path("imports/news.json")), pipeline)
    }

    @Test func unchangedFilesAreNotReadAndChangedOnesAlwaysAre() throws {
        let dir = try TemporaryDirectory("file-stamps")
        defer { dir.remove() }
        let (source, pipeline) = try Self.newsSite(in: dir)
        let store = try SQLiteStore(path: dir.path("s.sqlite"))
        defer { store.close() }
        func run() throws -> SourceRunSummary { try pipeline.importSource(source, into: store, by: "test") }
        func stamps() throws -> Int { try store.db.row("SELECT count(stamp) FROM page_memo") { $0.int(0) } ?? -1 }

        // Files written a moment ago may still be changing: read, remembered without a stamp.
        let first = try run()
        #expect(first.run?.new == 3)
        #expect(try stamps() == 0)
        // Once they have settled, a run that reads them (and finds them the same) stamps them.
        Thread.sleep(forTimeInterval: FileStamp.settle + 0.2)
        let second = try run()
        #expect(second.run?.unchanged == 3 && second.run?.changed == 0)
        #expect(try stamps() == 4)

        // Now the reading knows them unchanged without reading any of them.
        let memo = try #require(store as PageMemo?)
        func context() -> ImportContext {
            let fetcher = Fetcher(source: source, confinedTo: dir.url.appendingPathComponent("imports"))
            let context = ImportContext(source: source, fetcher: fetcher)
            context.memo = memo
            context.rememberedPages = memo.rememberedPages(sourceID: source.id)
            return context
        }
        let signature = try #require(try store.db.row("SELECT signature FROM page_memo WHERE url = 'https://school.example/news/2.html'") { $0.text(0) })
        let pages = (1...3).map { URL(string: "https://school.example/news/\($0).html")! }
        let known = try context().fetchAllRemembered(pages, signature: signature).map { try $0.get() }
        #expect(known.allSatisfy { $0.page.unread && $0.page.data.isEmpty && $0.payload != nil })
        // Read when asked (a memo that does not serve): the same bytes the hash was taken of.
        let read = try context().read(known[1].page)
        #expect(!read.unread && read.hash == known[1].page.hash && !read.data.isEmpty)
        // Another signature (options or importer version changed): read.
        #expect(try context().fetchRemembered(pages[0], signature: "other").page.unread == false)

        // Rewritten with the same size and its modification time set back, and another replaced
        // by a new file (a new inode) with the same bytes; both left to settle.
        let path = dir.path("imports/news/2.html")
        var before = stat()
        _ = stat(path, &before)
        try dir.write("imports/news/2.html", Self.article("Article 9 text"))
        Self.setModified(path, to: before.st_mtim)
        var after = stat()
        _ = stat(path, &after)
        #expect(
            after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec
                && after.st_ino == before.st_ino)
        try dir.write("imports/news/3.tmp", Self.article("Article 3 text"))
        #expect(rename(dir.path("imports/news/3.tmp"), dir.path("imports/news/3.html")) == 0)
        Thread.sleep(forTimeInterval: FileStamp.settle + 0.2)
        // The rewritten one is read (its status-change time moved), and the memo does not serve.
        let rewritten = try context().fetchRemembered(pages[1], signature: signature)
        #expect(!rewritten.page.unread && rewritten.payload == nil, "a changed file passed as unchanged")
        // The replaced one is read, the memo serves (same bytes), and its new stamp is remembered.
        let replacedContext = context()
        let replaced = try replacedContext.fetchRemembered(pages[2], signature: signature)
        #expect(!replaced.page.unread && replaced.payload != nil)
        #expect(replaced.page.stamp != nil && replacedContext.memoEntries.map(\.stamp) == [replaced.page.stamp])

        // End to end: the import sees the rewritten article and only it.
        let third = try run()
        #expect(third.run?.changed == 1 && third.run?.unchanged == 2, "\(String(describing: third.run))")
        let body = try store.db.row(
            "SELECT json_extract(r.content, '$.body') FROM items i JOIN revisions r ON r.item_seq = i.seq AND r.number = i.pending_revision WHERE"
                + " i.source_key = ?",
            [.text("https://school.example/news/2.html")]
        ) { $0.text(0) }
        #expect(body?.contains("Article 9 text") == true, "\(body ?? "nil")")
    }

    @Test func aStampNamesTheFileAndItsChangeTimes() throws {
        let dir = try TemporaryDirectory("file-stamp")
        defer { dir.remove() }
        try dir.write("a.html", "<p>a</p>")
        var info = stat()
        #expect(stat(dir.path("a.html"), &info) == 0)
        // Just written: not to be trusted yet.
        #expect(FileStamp.of(info) == nil)
        let later = Date().addingTimeInterval(FileStamp.settle + 1)
        let stamp = try #require(FileStamp.of(info, now: later))
        #expect(stamp.hasPrefix("\(info.st_dev):\(info.st_ino):\(info.st_size):"))
        // A folder has none.
        var folder = stat()
        #expect(stat(dir.path(""), &folder) == 0)
        #expect(FileStamp.of(folder, now: later) == nil)
        // Standardizing: only paths with dot components or doubled slashes.
        #expect(!Fetcher.needsStandardizing("/srv/imports/news/1.html") && !Fetcher.needsStandardizing("/srv/a.b/..c/.d"))
        for path in ["/srv//a", "/srv/./a", "/srv/../a", "/srv/a/.", "/srv/a/.."] { #expect(Fetcher.needsStandardizing(path), "\(path)") }
    }

    /// The confinement folder is compared byte by byte: a sibling folder whose name is the
    /// root's in another Unicode spelling (the file system keeps them apart) is outside it.
    @Test func aRootSpelledAnotherWayIsOutside() throws {
        let dir = try TemporaryDirectory("confined")
        defer { dir.remove() }
        let composed = "imports-\u{E9}", decomposed = "imports-e\u{301}"
        try dir.write("\(composed)/a.json", #"{ "id": "a", "importer": "html", "kind": "announcement", "url": "a.html", "options": { "item": "li" } }"#)
        try dir.write("\(composed)/a.html", "<li>inside</li>")
        let outside = try dir.write("\(decomposed)/b.html", "<li>outside</li>")
        // Two folders, as the file system sees them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).count == 2)
        let source = try SourceDefinition.load(file: dir.path("\(composed)/a.json"))
        let fetcher = Fetcher(source: source, confinedTo: dir.url.appendingPathComponent(composed))
        #expect(try fetcher.fetch(source.url).data == Data("<li>inside</li>".utf8))
        #expect(throws: TimeTrackError.self) { try fetcher.fetch(URL(fileURLWithPath: outside)) }
        #expect(fetcher.stamp(of: URL(fileURLWithPath: outside)) == nil)
        #expect(fetcher.confined(dir.path(composed)) && !fetcher.confined(dir.path(decomposed)) && !fetcher.confined(dir.path(composed) + "x/b.html"))
    }
}

/// The stamp's text, written in place, against the same numbers interpolated: every field at
/// its extremes (unsigned device and inode numbers past `Int64.max`, times before 1970).
@Suite struct FileStampTextTests {
    @Test func stampsReadAsTheirNumbersInterpolated() throws {
        var random = SystemRandomNumberGenerator()
        let edges: [UInt64] = [0, 1, 9, 10, 99, 100, 1_000_000_007, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max]
        let times: [Int] = [0, 1, 59, 1_700_000_000, -1, -86_400]
        for _ in 0..<2_000 {
            var info = stat()
            info.st_mode = S_IFREG | 0o644
            info.st_dev = UInt(edges.randomElement(using: &random)! &+ UInt64.random(in: 0...3, using: &random))
            info.st_ino = UInt(Bool.random(using: &random) ? edges.randomElement(using: &random)! : UInt64.random(in: 0...UInt64.max, using: &random))
            info.st_size = Int.random(in: 0...Int.max, using: &random) >> Int.random(in: 0...62, using: &random)
            info.st_mtim = timespec(tv_sec: times.randomElement(using: &random)!, tv_nsec: Int.random(in: 0..<1_000_000_000, using: &random))
            info.st_ctim = timespec(tv_sec: times.randomElement(using: &random)!, tv_nsec: Int.random(in: 0..<1_000_000_000, using: &random))
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            let expected = "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified):\(changed)"
            #expect(FileStamp.of(info, now: Date(timeIntervalSince1970: 1_800_000_000)) == expected)
        }
        var directory = stat()
        directory.st_mode = S_IFDIR | 0o755
        #expect(FileStamp.of(directory, now: Date(timeIntervalSince1970: 1_800_000_000)) == nil)
    }
}
