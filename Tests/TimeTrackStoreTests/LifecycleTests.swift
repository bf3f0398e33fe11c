import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview

@testable import TimeTrackStore

/// What a store holds, on both engines: content read back through a new connection, the typed
/// rows and views an app backend reads, operators.
///
/// The rules themselves are `LifecycleSuiteTests` (every repository).
@Suite struct LifecycleTests {
    func withStore(_ body: (SQLiteStore, TemporaryDirectory) throws -> Void) throws {
        let dir = try TemporaryDirectory("store")
        defer { dir.remove() }
        let store = try SQLiteStore(path: dir.path("t.sqlite"))
        defer { store.close() }
        try body(store, dir)
    }

    @Test("every model round-trips through the store", arguments: Engine.allCases, Samples.allKinds)
    func roundTrip(_ engine: Engine, _ content: ItemContent) throws {
        try engine.withLocation { store, location in
            let item = try Lifecycle(store).submit(content, school: "hillcrest", by: "ana", note: nil)
            #expect(item.status == .pending)
            #expect(item.id.hasPrefix(content.kind.idPrefix))
            // Read through a new connection: nothing cached.
            let reopened = try Engine.open(location)
            defer { reopened.close() }
            let read = try reopened.item(item.id)
            #expect(read.content == content)
            #expect(read.school == "hillcrest")
            #expect(try reopened.item(item.id.uppercased()).id == item.id)
        }
    }

    /// The typed rows and views an app backend reads follow the live revision only.
    @Test(arguments: Engine.allCases)
    func publishedViewsShowTheLiveRevision(_ engine: Engine) throws {
        try engine.withLocation { store, location in
            let life = Lifecycle(store)
            let record = ImportedRecord(key: "k1", content: Samples.announcement("Old title"), school: nil, provenance: Samples.provenance())
            let id = try life.recordImported(record, runID: nil, by: "cron").id
            func liveTitle() throws -> String? {
                let title = try Binaries.sql(location, "SELECT title FROM published_announcements WHERE id = '\(id)'").trimmingCharacters(
                    in: .whitespacesAndNewlines)
                return title.isEmpty ? nil : title
            }
            #expect(try liveTitle() == nil)
            _ = try life.approve(id, by: "ana")
            #expect(try liveTitle() == "Old title")
            var changed = record
            changed.content = Samples.announcement("New title")
            _ = try life.recordImported(changed, runID: nil, by: "cron")
            #expect(try liveTitle() == "Old title")
            _ = try life.approve(id, by: "ana")
            #expect(try liveTitle() == "New title")
            _ = try life.revert(id, by: "ana")
            #expect(try liveTitle() == "Old title")
            _ = try life.archive(id, by: "ana", reason: nil)
            #expect(try liveTitle() == nil)
        }
    }

    @Test func firstOperatorIsAdmin() throws {
        try withStore { (store, _) throws in
            #expect(try store.addOperator("sam", role: .staff, login: nil, schools: [], by: "sam").role == .admin)
            #expect(try store.addOperator("lee", role: .staff, login: nil, schools: [], by: "sam").role == .staff)
            #expect(throws: TimeTrackError.self) { try store.addOperator("bad name!", role: .staff, login: nil, schools: [], by: "sam") }
            #expect(try store.operators().map(\.name) == ["lee", "sam"])
        }
    }
}
