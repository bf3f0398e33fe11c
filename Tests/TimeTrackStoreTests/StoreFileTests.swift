import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// Opening, upgrading and refusing store files; concurrent writers; a writer killed mid-decision.
@Suite struct StoreFileTests {
    static func mode(_ path: String) -> (mode: Int, gid: gid_t)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int(info.st_mode & 0o7777), info.st_gid)
    }

    @Test func aStoreAndItsLockAreForTheirOwnerOnly() throws {
        let dir = try TemporaryDirectory("modes")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let result = try Binaries.run("timetrack-admin", ["--store", path, "--imports", StoreFileTests.sampleImports, "import", "hillcrest-news"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mode(path)?.mode == 0o600)
        #expect(Self.mode(path + ".import-lock")?.mode == 0o600)
        // The log and index SQLite makes while a connection is open take the store's mode.
        let store = try SQLiteStore(path: path, create: false)
        _ = try store.counts()
        for file in [path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) { #expect(Self.mode(file)?.mode == 0o600, "\(file)") }
        store.close()
    }

    @Test func withAGroupTheStaffGroupShares() throws {
        let dir = try TemporaryDirectory("modes")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let gid = getegid()
        let group = try #require(getgrgid(gid).map { String(cString: $0.pointee.gr_name) })
        let result = try Binaries.run(
            "timetrack-admin", ["--store", path, "--group", group, "--imports", StoreFileTests.sampleImports, "import", "hillcrest-news"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mode(path)?.mode == 0o660)
        #expect(Self.mode(path)?.gid == gid)
        #expect(Self.mode(path + ".import-lock")?.mode == 0o660)
        let unknown = try Binaries.run("timetrack-admin", ["--store", path, "--group", "no-such-group-here", "status"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no group no-such-group-here"))
    }

    @Test(arguments: ["", "-wal"])
    func aStoreOthersCanWriteIsRefusedWithTheFix(_ suffix: String) throws {
        let dir = try TemporaryDirectory("modes")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        try SQLiteStore(path: path).close()
        if suffix == "-wal" { FileManager.default.createFile(atPath: path + "-wal", contents: Data()) }
        #expect(chmod(path + suffix, 0o666) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try Binaries.run("timetrack-admin", ["--store", path, "status"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("any account on this machine may write t.sqlite\(suffix) (mode 0666)"), "\(result.stderr)")
        #expect(result.stderr.contains("chmod o-w"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func olderSchemaIsUpgradedAndKeepsItsData() throws {
        let dir = try TemporaryDirectory("store")
        defer { dir.remove() }
        let path = dir.path("old.sqlite")
        try SQLiteStore.createOlderStore(path: path, version: 1)
        // Write a version-1 item with plain SQL, as an old build would have.
        let old = try Database(path: path, create: false)
        try old.execute(
            """
            INSERT INTO items (seq, id, kind, status, title, base_hash, created_at, updated_at, pending_revision)
                VALUES (1, 'a1', 'announcement', 'pending', 'Old', 'h', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1);
            INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by)
                VALUES (1, 1, 'pending', '{"priority":"normal","title":"Old"}', 'h', '2026-01-01T00:00:00Z', 'ana');
            """)
        old.close()

        let store = try SQLiteStore(path: path, create: false)
        defer { store.close() }
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(Schema.currentVersion >= 2)
        #expect(try store.item("a1").content.title == "Old")
        // Version 2's tables exist now.
        #expect(try store.db.row("SELECT count(*) FROM source_state") { $0.int(0) } == 0)
    }

    @Test func newerSchemaIsRefusedWithoutWriting() throws {
        let dir = try TemporaryDirectory("store")
        defer { dir.remove() }
        let path = dir.path("new.sqlite")
        try SQLiteStore(path: path).close()
        let db = try Database(path: path, create: false)
        try db.execute("PRAGMA user_version = 99")
        db.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: TimeTrackError.self) { try SQLiteStore(path: path, create: false) }
        #expect(error.code == .storeUnusable)
        #expect(error.message.contains("schema version 99"))
        #expect(error.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func filesThatAreNotStoresAreRefused() throws {
        let dir = try TemporaryDirectory("store")
        defer { dir.remove() }
        let text = try dir.write("notes.sqlite", "hello, this is not a database\n")
        #expect(throws: TimeTrackError.self) { try SQLiteStore(path: text, create: false) }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "hello, this is not a database\n")

        // Another program's SQLite database.
        let other = dir.path("other.sqlite")
        let db = try Database(path: other, create: true)
        try db.execute("CREATE TABLE t (x)")
        db.close()
        let error = try #require(throws: TimeTrackError.self) { try SQLiteStore(path: other, create: false) }
        #expect(error.message.contains("not a Time Track store"))

        // A truncated store.
        let good = dir.path("good.sqlite")
        let store = try SQLiteStore(path: good)
        for i in 0..<200 {
            _ = try Lifecycle(store).submit(Samples.announcement("Item \(i) " + String(repeating: "x", count: 300)), school: nil, by: "ana", note: nil)
        }
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let truncated = dir.path("truncated.sqlite")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let truncatedError = try #require(throws: TimeTrackError.self) { try SQLiteStore(path: truncated, create: false) }
        #expect(truncatedError.message.contains("truncated"))

        // A missing store is not created by read-only use.
        #expect(throws: TimeTrackError.self) { try SQLiteStore(path: dir.path("absent.sqlite"), create: false) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("absent.sqlite")))
    }

    @Test func statusRefusesBadFilesWithOneLineNamingTheFile() throws {
        let dir = try TemporaryDirectory("status")
        defer { dir.remove() }
        let garbage = dir.path("garbage.sqlite")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: garbage))
        let result = try Binaries.run("timetrack-admin", ["--store", garbage, "status"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(garbage))
        #expect(result.stderr.contains("not a SQLite database"))
        #expect(!result.stderr.contains("Fatal error"))

        // A corrupt page inside a real store.
        let corrupt = dir.path("corrupt.sqlite")
        let store = try SQLiteStore(path: corrupt)
        for i in 0..<300 {
            _ = try Lifecycle(store).submit(Samples.announcement("Item \(i) " + String(repeating: "y", count: 200)), school: nil, by: "ana", note: nil)
        }
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        let handle = try #require(FileHandle(forWritingAtPath: corrupt))
        let size = try handle.seekToEnd()
        for offset in stride(from: UInt64(8192), to: size, by: 4096) {
            try handle.seek(toOffset: offset)
            handle.write(Data(repeating: 0xA5, count: 512))
        }
        try handle.close()
        let corruptResult = try Binaries.run("timetrack-admin", ["--store", corrupt, "status"])
        #expect(corruptResult.status == 1)
        #expect(corruptResult.stderr.contains(corrupt))
        #expect(corruptResult.stderr.contains("corrupt"))
        #expect(corruptResult.stderr.split(separator: "\n").count == 1)
    }

    @Test func statusPrintsCountsAsTextAndJSON() throws {
        let dir = try TemporaryDirectory("status")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        let a = try Lifecycle(store).submit(Samples.announcement(), school: nil, by: "ana", note: nil)
        _ = try Lifecycle(store).approve(a.id, by: "ana")
        _ = try Lifecycle(store).submit(Samples.event(), school: nil, by: "ana", note: nil)
        store.close()
        let text = try Binaries.run("timetrack-admin", ["--store", path, "status"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("schema version: \(Schema.currentVersion)"))
        let json = try Binaries.run("timetrack-admin", ["--json", "status"], environment: ["TIMETRACK_STORE": path])
        #expect(json.status == 0)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        #expect(value.objectValue?["store"] == .string(path))
        let counts = value.objectValue?["counts"]?.objectValue
        #expect(counts?["announcement"]?.objectValue?["published"] == .number(1))
        #expect(counts?["event"]?.objectValue?["pending"] == .number(1))
    }

    @Test func twoProcessesWriteOneStoreAtOnce() throws {
        let dir = try TemporaryDirectory("concurrent")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        try SQLiteStore(path: path).close()
        let group = DispatchGroup()
        let results = ResultsBox()
        for tag in ["left", "right", "third"] {
            group.enter()
            Thread.detachNewThread {
                let result = Result { try Binaries.run("timetrack-torture", ["writer", path, "150", tag]) }
                results.append(result)
                group.leave()
            }
        }
        group.wait()
        for result in results.all {
            let run = try result.get()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("locked"))
        }
        let store = try SQLiteStore(path: path, create: false)
        defer { store.close() }
        #expect(try store.counts()[.announcement]?[.published] == 450)
        #expect(try store.audit(itemID: nil, limit: 10_000).count == 900)
    }

    @Test func aWriterKilledMidDecisionLeavesAllOrNothing() throws {
        let dir = try TemporaryDirectory("kill")
        defer { dir.remove() }
        let path = dir.path("t.sqlite")
        let store = try SQLiteStore(path: path)
        let item = try Lifecycle(store).submit(Samples.announcement("v0"), school: nil, by: "ana", note: nil)
        _ = try Lifecycle(store).approve(item.id, by: "ana")
        store.close()

        for round in 0..<4 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binaries.path("timetrack-torture"))
            process.arguments = ["edit-loop", path, item.id, "1000000"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = out.fileHandleForReading.availableData  // "started": it is inside its loop of decisions
            usleep(useconds_t(50_000 + round * 70_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            let check = try SQLiteStore(path: path, create: false)
            defer { check.close() }
            #expect(try check.db.row("PRAGMA integrity_check") { $0.text(0) } == "ok")
            let revisions = try check.revisions(of: item.id)
            let edits = try check.db.row("SELECT count(*) FROM audit WHERE action = 'edit' AND item_id = ?", [.text(item.id)]) { $0.int(0) } ?? -1
            // Each edit decision wrote exactly one revision and one audit entry, or nothing.
            #expect(revisions.count == 1 + edits)
            #expect(revisions.filter { $0.state == .live }.count == 1)
            let live = try #require(revisions.last)
            #expect(live.state == .live)
            let current = try check.item(item.id)
            #expect(current.content == live.content)
            let projected = try check.db.row("SELECT title FROM announcements WHERE item_seq = ?", [.integer(Int64(item.id.dropFirst()) ?? 0)]) { $0.text(0) }
            #expect(projected == live.content.title)
            #expect(edits > 0)
        }
    }
}

/// Results collected from several threads.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Binaries.Result, any Error>] = []
    func append(_ result: Result<Binaries.Result, any Error>) { lock.lock(); results.append(result); lock.unlock() }
    var all: [Result<Binaries.Result, any Error>] { lock.lock(); defer { lock.unlock() }; return results }
}

extension StoreFileTests {
    /// The repository's sample imports folder.
    static var sampleImports: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Imports")
            .path
    }
}
