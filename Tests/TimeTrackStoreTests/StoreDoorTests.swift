import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview
import TimeTrackStore

/// Issue 36: one door to a store.
///
/// A location becomes an open store with its engine's run lock and read-only lanes, on SQLite and
/// on a real PostgreSQL server alike; nothing else picks an
/// engine (the import module does not import the store module).
@Suite struct StoreDoorTests {
    /// The store, the lock (a second one refused while the first lives) and a read-only lane.
    static func exercise(_ location: String) throws -> StoreLocation.Engine {
        let opened = try StoreLocation.open(location, create: true)
        defer { opened.store.close() }
        let item = try Lifecycle(opened.store).submit(Samples.announcement("Through the door"), school: nil, by: "ana", note: nil)
        do {
            let lock = try opened.runLock()
            let second = #expect(throws: TimeTrackError.self) { _ = try opened.runLock() }
            #expect(second?.code == .busy, "\(String(describing: second))")
            withExtendedLifetime(lock) {}
        }
        // Released with the lock object: the next run takes it.
        _ = try opened.runLock()
        let lane = try opened.reader()
        defer { lane.close() }
        // A lane reads what a reading needs: the page memo and the HTTP cache.
        let entry = MemoEntry(url: "https://d.example/news", pageHash: "h1", signature: "sig", payload: Data("remembered".utf8))
        try opened.store.remember(sourceID: "news", entries: [entry])
        #expect(lane.recall(sourceID: "news", url: entry.url, pageHash: "h1", signature: "sig") == Data("remembered".utf8))
        #expect(lane.rememberedPages(sourceID: "news")[entry.url]?.pageHash == "h1")
        #expect(try lane.cachedResponse(for: "https://nowhere.example/") == nil)
        // Its type has none of the store's writing calls, and the connection under it refuses them.
        let writable = try #require(lane as? any ImportStore)
        #expect(try writable.item(item.id).content.title == "Through the door")
        #expect(throws: (any Error).self, "a lane is read-only") {
            _ = try Lifecycle(writable).submit(Samples.announcement("No"), school: nil, by: "ana", note: nil)
        }
        return opened.engine
    }

    @Test func aSQLiteFileOpensThroughTheDoor() throws {
        let dir = try TemporaryDirectory("door")
        defer { dir.remove() }
        #expect(try Self.exercise(dir.path("s.sqlite")) == .sqlite)
    }

    @Test func aPostgreSQLDatabaseOpensThroughTheDoor() throws {
        try PostgresServer.requireOrSkip()
        guard PostgresServer.unavailable == nil else { return }
        #expect(try Self.exercise(try PostgresServer.shared().database()) == .postgres)
    }

    @Test func anotherServersAddressIsRefusedWithAMessage() {
        let error = #expect(throws: TimeTrackError.self) { _ = try StoreLocation.engine(of: "mysql://ana@db.example/timetrack") }
        #expect(error?.message.contains("keeps to SQLite files and PostgreSQL") == true)
    }

    @Test func theImportModuleNamesNoEngine() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/TimeTrackImport")
        var files = 0
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? FileManager.DirectoryEnumerator()
        where url.pathExtension == "swift" {
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(!text.contains("import TimeTrackStore"), "\(url.lastPathComponent) imports the store module")
            for name in ["SQLiteStore", "PostgresStore", "FileRunLock", "PostgresRunLock"] {
                #expect(!text.contains(name), "\(url.lastPathComponent) names \(name)")
            }
        }
        #expect(files > 10)
    }
}
