import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// A healthy store is never refused: a checkpoint cut short, a read-only file, an empty file, two
/// processes making a new store at once.
///
/// A damaged one is refused before anything is written.
@Suite struct StoreRecoveryTests {
    /// A store whose newest pages are only in its write-ahead log (no checkpoint yet).
    func storeWithPagesInTheLog(_ dir: TemporaryDirectory, items: Int = 300) throws -> (path: String, keeper: Database) {
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        // A connection that stays open keeps the log from being checkpointed on close.
        let keeper = try Database(path: path, create: false)
        try keeper.execute("PRAGMA wal_autocheckpoint = 0; SELECT count(*) FROM sqlite_master")
        let writer = try SQLiteStore(path: path)
        try writer.db.execute("PRAGMA wal_autocheckpoint = 0")
        for i in 0..<items {
            _ = try Lifecycle(writer).submit(Samples.announcement("Logged \(i) " + String(repeating: "z", count: 400)), school: nil, by: "ana", note: nil)
        }
        writer.close()
        return (path, keeper)
    }

    /// Copies the newest copy of page 1 from the log into the main file: what SQLite's checkpoint
    /// writes first, so what a kill or a full disk right after that write leaves behind.
    func applyPageOneFromTheLog(_ path: String) throws {
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let pageSize = Int(wal[8]) << 24 | Int(wal[9]) << 16 | Int(wal[10]) << 8 | Int(wal[11])
        var offset = 32
        var newest: Data?
        while offset + 24 + pageSize <= wal.count {
            let page = Int(wal[offset]) << 24 | Int(wal[offset + 1]) << 16 | Int(wal[offset + 2]) << 8 | Int(wal[offset + 3])
            if page == 1 { newest = wal.subdata(in: (offset + 24)..<(offset + 24 + pageSize)) }
            offset += 24 + pageSize
        }
        let pageOne = try #require(newest)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 0)
        handle.write(pageOne)
        try handle.close()
    }

    @Test func aCheckpointCutShortLeavesAStoreThatOpens() throws {
        let dir = try TemporaryDirectory("recover")
        defer { dir.remove() }
        let (path, keeper) = try storeWithPagesInTheLog(dir)
        try applyPageOneFromTheLog(path)
        // Copy main file and log elsewhere, as a killed process leaves them.
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        keeper.close()
        // The main file alone is shorter than its header says.
        #expect(try SQLiteStore.checkHeader(path: copy) != nil)

        let result = try Binaries.run("timetrack-admin", ["--store", copy, "--json", "status"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("truncated"))
        let store = try SQLiteStore(path: copy, create: false)
        defer { store.close() }
        #expect(try store.counts()[.announcement]?[.pending] == 300)
        #expect(try store.quickCheck() == "ok")
    }

    @Test func emptyFileIsNotWrittenByReadingCommands() throws {
        let dir = try TemporaryDirectory("recover")
        defer { dir.remove() }
        let path = try dir.write("empty.sqlite", "")
        let result = try Binaries.run("timetrack-admin", ["--store", path, "status"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("empty"))
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        #expect(size == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aNewStoreIsMadeWithOwnerOnlyPermissions() throws {
        let dir = try TemporaryDirectory("recover")
        defer { dir.remove() }
        let path = dir.path("new.sqlite")
        try SQLiteStore(path: path).close()
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        // Nothing is left of the temporary file it was built in.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func twoProcessesMakingANewStoreAtOnceGetOneAdmin() throws {
        let dir = try TemporaryDirectory("race")
        defer { dir.remove() }
        for trial in 0..<12 {
            let path = dir.path("race-\(trial).sqlite")
            let results = ResultsBox()
            let group = DispatchGroup()
            for name in ["alice", "bob"] {
                group.enter()
                Thread.detachNewThread {
                    results.append(
                        Result { try Binaries.run("timetrack-admin", ["--store", path, "--as", name, "operator", "add", "\(name)-helper", "--role", "staff"]) })
                    group.leave()
                }
            }
            group.wait()
            let runs = try results.all.map { try $0.get() }
            for run in runs {
                #expect(!run.stderr.contains("busy"), "trial \(trial): \(run.stderr)")
                #expect(!run.stderr.contains("Fatal error"))
            }
            #expect(runs.filter { $0.status == 0 }.count == 1, "trial \(trial): \(runs.map(\.stderr))")
            let store = try SQLiteStore(path: path, create: false)
            let admins = try store.operators().filter { $0.role == .admin }
            store.close()
            #expect(admins.count == 1, "trial \(trial): \(admins.map(\.name))")
        }
    }

    @Test func theLastAdminCannotBeDemoted() throws {
        let dir = try TemporaryDirectory("admin")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        func admin(_ args: [String]) throws -> Binaries.Result { try Binaries.run("timetrack-admin", ["--store", path, "--as", "root"] + args) }
        #expect(try admin(["operator", "add", "sam", "--role", "staff"]).status == 0)
        let demote = try admin(["operator", "add", "root", "--role", "staff"])
        #expect(demote.status != 0)
        #expect(demote.stderr.contains("last admin"))
        let store = try SQLiteStore(path: path, create: false)
        #expect(try store.operatorNamed("root")?.role == .admin)
        store.close()
        // With a second admin, the first may step down.
        #expect(try admin(["operator", "add", "ada", "--role", "admin"]).status == 0)
        #expect(try admin(["operator", "add", "root", "--role", "staff"]).status == 0)
        let after = try SQLiteStore(path: path, create: false)
        defer { after.close() }
        #expect(try after.operatorNamed("root")?.role == .staff)
    }

    @Test func aStoreThisAccountCannotWriteCanStillBeRead() throws {
        let dir = try TemporaryDirectory("readonly")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try Lifecycle(store).submit(Samples.announcement(), school: nil, by: "ana", note: nil)
        // The reading account is an operator (reading is a permission too): a viewer.
        _ = try store.claimFirstAdmin("ana", login: nil)
        _ = try store.addOperator("reader", role: .viewer, login: getuid() == 0 ? "nobody" : Account.current, schools: [], by: "ana")
        store.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result: Binaries.Result
        if getuid() == 0 {
            // root writes anything: read it as an account that may only read (setpriv from util-linux).
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                Issue.record("setpriv is missing: install util-linux")
                return
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            let binary = try copyReachableBinary(into: dir)
            result = try Binaries.runPath(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "--store", path, "--json", "status"])
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            result = try Binaries.run("timetrack-admin", ["--store", path, "--json", "status"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"pending\" : 1") || result.stdout.contains("\"pending\":1"), "\(result.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// The binary copied where an unprivileged account can run it (the build folder may not be).
    func copyReachableBinary(into dir: TemporaryDirectory) throws -> String {
        let target = dir.path("timetrack-admin")
        try FileManager.default.copyItem(atPath: Binaries.path("timetrack-admin"), toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        return target
    }

    @Test func aCorruptStoreIsRefusedBeforeAnImportWritesToIt() throws {
        let dir = try TemporaryDirectory("corrupt")
        defer { dir.remove() }
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "timeZone": "America/Denver",
              "options": { "item": "article", "fields": { "title": "h2" } } }
            """)
        try dir.write("imports/news.html", "<article><h2>One</h2></article><article><h2>Two</h2></article>")
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try store.claimFirstAdmin("root", login: Account.current)
        for i in 0..<300 {
            _ = try Lifecycle(store).submit(Samples.announcement("Item \(i) " + String(repeating: "y", count: 200)), school: nil, by: "root", note: nil)
        }
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        // Damage pages in the middle of the file, leaving the header and the first pages intact.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let size = try handle.seekToEnd()
        for offset in stride(from: size / 2, to: size, by: 4096) {
            try handle.seek(toOffset: offset)
            handle.write(Data(repeating: 0xA5, count: 512))
        }
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try Binaries.run("timetrack-admin", ["--store", path, "--imports", dir.path("imports"), "--as", "root", "import", "news"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("damaged") || result.stderr.contains("corrupt"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        #expect(wal == 0)
    }
}

/// A store written by another program (or an older build) may hold raw escapes: the console
/// shows them as visible stand-ins, never as bytes a terminal acts on.
@Suite struct DisplayEscapingTests {
    @Test func storedEscapesAreShownNotExecuted() throws {
        let dir = try TemporaryDirectory("display")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try store.claimFirstAdmin("root", login: Account.current)
        let item = try Lifecycle(store).submit(Samples.announcement("Clean title"), school: nil, by: "root", note: nil)
        // Written behind the tool's back, as sqlite3 could.
        let hostile = "'Fake ' || char(27) || '[2J' || char(155) || '31m' || char(8238) || ' approved (published)'"
        try store.db.execute(
            """
            UPDATE items SET title = \(hostile), source_id = 'src' || char(27) || '[1A';
            UPDATE revisions SET content = json_set(content, '$.title', \(hostile), '$.summary', 'S' || char(7) || char(27) || ']0;owned' || char(7));
            """)
        store.close()
        for arguments in [["list", "announcements"], ["show", item.id], ["history", item.id], ["review"], ["list", "announcements", "--json"]] {
            let result = try Binaries.run("timetrack-admin", ["--store", path, "--as", "root", "--no-input"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let unsafe = result.stdout.unicodeScalars.first { SafeText.isUnsafe($0.value) }
            #expect(unsafe == nil, "\(arguments) printed U+\(String(unsafe?.value ?? 0, radix: 16))")
            if !arguments.contains("--json") && arguments != ["history", item.id] {
                #expect(result.stdout.contains("Fake ␛[2J"), "\(arguments): \(result.stdout)")
            }
        }
    }
}
