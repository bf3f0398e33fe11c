import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackReview
import TimeTrackStore

/// The engines the store suite runs on: what the console and imports ask of a store beside the
/// lifecycle (operators, runs and source state, places, courses, the page memo, the HTTP cache,
/// listing and the review queue) must answer the same on each.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty store of this engine: a real SQLite file, or a fresh
    /// database on a real PostgreSQL server this test process started.
    func with(_ body: (any ImportStore) throws -> Void) throws {
        try withLocation { store, _ in try body(store) }
    }

    /// The same, with the store's location (a file path or an address), which `Engine.open` and
    /// `Binaries.sql` take.
    func withLocation(_ body: (any ImportStore, String) throws -> Void) throws {
        switch self {
        case .sqlite:
            let dir = try TemporaryDirectory("store-suite")
            defer { dir.remove() }
            let path = dir.path("t.sqlite")
            let store = try SQLiteStore(path: path)
            defer { store.close() }
            try body(store, path)
        case .postgres:
            try PostgresServer.requireOrSkip()
            guard PostgresServer.unavailable == nil else { return }
            let address = try PostgresServer.shared().database()
            let store = try PostgresStore(address: address)
            defer { store.close() }
            try body(store, address)
        }
    }

    /// Opens the store at `location` again (a new connection: nothing cached).
    static func open(_ location: String) throws -> any ImportStore {
        PostgresConnection.isAddress(location) ? try PostgresStore(address: location, create: false) : try SQLiteStore(path: location, create: false)
    }
}

@Suite struct StoreSuiteTests {
    @Test(arguments: Engine.allCases)
    func operatorsKeepAnAdminAndOneOperatorPerLogin(_ engine: Engine) throws {
        try engine.with { store in
            #expect(try store.claimFirstAdmin("ana", login: "ana") != nil)
            #expect(try store.claimFirstAdmin("bob", login: "bob") == nil)
            #expect(try store.addOperator("sam", role: .staff, login: "sam", schools: ["hillcrest"], by: "ana").schools == ["hillcrest"])
            #expect(throws: TimeTrackError.self) { try store.addOperator("lee", role: .viewer, login: "sam", schools: [], by: "ana") }
            #expect(throws: TimeTrackError.self) { try store.setRole("ana", .staff, by: "ana") }
            #expect(throws: TimeTrackError.self) { try store.removeOperator("ana", by: "ana") }
            #expect(try store.setRole("sam", .admin, by: "ana").role == .admin)
            #expect(try store.removeOperator("ana", by: "sam").active == false)
            #expect(try store.operatorWithLogin("ana") == nil)
            #expect(try store.operatorWithLogin("sam")?.name == "sam")
            #expect(try store.operators().map(\.name) == ["ana", "sam"])
            let actions = try store.audit(itemID: nil, limit: 10).map(\.action)
            #expect(actions == ["operator-remove", "operator-role", "operator-add", "operator-add"], "\(actions)")
            #expect(try store.verifyAudit().holds)
        }
    }

    @Test(arguments: Engine.allCases)
    func runsSourceStateAndInterruptedRuns(_ engine: Engine) throws {
        try engine.with { store in
            var first = try store.beginRun(sourceID: "news", by: "cron")
            let second = try store.beginRun(sourceID: "events", by: "cron")
            #expect(second.id > first.id)
            first.status = .ok
            (first.found, first.new, first.message) = (3, 2, "fine")
            try store.finishRun(first)
            try store.recordGoodRun(sourceID: "news", runID: first.id, count: 3, dated: 2)
            #expect(try store.markInterruptedRuns() == 1)
            let runs = try store.runs(sourceID: nil, limit: 5)
            #expect(runs.map(\.status) == [.interrupted, .ok])
            #expect(runs.last?.found == 3 && runs.last?.message == "fine")
            #expect(try store.runs(sourceID: "news", limit: 5).count == 1)
            var state = try #require(try store.sourceState("news"))
            #expect(state.lastGoodCount == 3 && state.lastGoodDated == 2 && state.lastRunAt != nil && state.heldReason == nil)
            try store.holdSource(sourceID: "news", runID: second.id, reason: "found 0 of 3")
            state = try #require(try store.sourceState("news"))
            #expect(state.heldReason == "found 0 of 3" && state.heldRun == second.id && state.lastGoodRun == first.id)
            #expect(try store.sourceState("nowhere") == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func placesAndCoursesAreAudited(_ engine: Engine) throws {
        try engine.with { store in
            let gym = try store.addPlace(
                Place(school: "hillcrest", name: "Main Gym", address: "7350 S 900 E", latitude: 40.61843887, longitude: -111.8685602, aliases: ["Gym"]),
                by: "ana")
            _ = try store.addPlace(Place(school: nil, name: "District Office", address: "9361 S 300 E", isDefault: true), by: "ana")
            #expect(throws: TimeTrackError.self) {
                try store.addPlace(Place(school: "hillcrest", name: "Field House", address: nil, aliases: ["gym"]), by: "ana")
            }
            // The same name in another case replaces the place, keeping its id.
            #expect(try store.addPlace(Place(school: "hillcrest", name: "MAIN GYM", address: "7350 S 900 E, Midvale"), by: "ana").id == gym.id)
            let places = try store.places()
            #expect(places.map(\.name) == ["District Office", "MAIN GYM"], "\(places)")
            #expect(places.first?.isDefault == true && places.last?.latitude == nil)
            #expect(try store.removePlace(gym.id, by: "ana") && !(try store.removePlace(gym.id, by: "ana")))

            let chemistry = Course(code: "CHEM-AP", name: "AP Chemistry", teacher: "Ms. Patel", reminders: [4320, 60], weights: ["test": 40])
            #expect(try store.saveCourse(chemistry, by: "ana", onlyIfMissing: false))
            #expect(!(try store.saveCourse(Course(code: "CHEM-AP", name: "Other"), by: "cron", onlyIfMissing: true)))
            #expect(!(try store.saveCourse(chemistry, by: "ana", onlyIfMissing: false)))
            _ = try store.saveCourse(Course(code: "alg-1", name: "Algebra"), by: "ana", onlyIfMissing: false)
            let courses = try store.courses()
            #expect(courses.map(\.code) == ["alg-1", "CHEM-AP"] && courses.last?.weights == ["test": 40] && courses.last?.reminders == [4320, 60])
            #expect(try store.removeCourse("alg-1", by: "ana"))
            let actions = try store.audit(itemID: nil, limit: 20).map(\.action)
            #expect(actions == ["course-remove", "course-add", "course-add", "place-remove", "place-change", "place-add", "place-add"], "\(actions)")
        }
    }

    @Test(arguments: Engine.allCases)
    func memosAndTheHTTPCacheKeepEveryByte(_ engine: Engine) throws {
        try engine.with { store in
            let bytes = Data((0...255).map(UInt8.init) + [0, 0, 92, 120])
            try store.saveResponse(
                CachedResponse(etag: "\"v1\"", lastModified: nil, contentType: "text/html; charset=utf-8", body: bytes), for: "https://x.example/a?b=1")
            try store.saveResponse(
                CachedResponse(etag: "\"v2\"", lastModified: "Tue, 01 Sep 2026 00:00:00 GMT", contentType: nil, body: bytes + bytes),
                for: "https://x.example/a?b=1")
            let cached = try #require(try store.cachedResponse(for: "https://x.example/a?b=1"))
            #expect(cached.body == bytes + bytes && cached.etag == "\"v2\"" && cached.lastModified != nil && cached.contentType == nil)
            #expect(try store.cachedResponse(for: "https://x.example/other") == nil)

            let pages = ["https://x.example/news/1", "https://x.example/news/ü-2", "https://x.example/newsletter", "https://y.example/news/3"]
            try store.remember(
                sourceID: "news", entries: pages.enumerated().map { MemoEntry(url: $1, pageHash: "h\($0)", signature: "s", payload: bytes + Data([UInt8($0)])) }
            )
            try store.remember(sourceID: "news", entries: [MemoEntry(url: pages[0], pageHash: "h9", signature: "s2", payload: Data("new".utf8))])
            #expect(store.recall(sourceID: "news", url: pages[0], pageHash: "h9", signature: "s2") == Data("new".utf8))
            #expect(store.recall(sourceID: "news", url: pages[0], pageHash: "h0", signature: "s") == nil)
            // Pages and items in one call: each goes to its table, stamps kept.
            let life = Lifecycle(store)
            var stored: [String: String] = [:]
            for (key, title) in [("ü-k", "One"), ("k2", "Two"), ("k3", "Three")] {
                stored[key] = try life.recordImported(
                    ImportedRecord(key: key, content: Samples.announcement(title), school: nil, provenance: Samples.provenance("news")), runID: nil, by: "cron"
                ).id
            }
            try store.remember(
                sourceID: "news",
                entries: [
                    MemoEntry(
                        url: pages[1], pageHash: "h1", signature: "s", payload: bytes + Data([1]), stamp: "2049:77:5120:1790000000000000001:1790000000000000002"
                    ),
                    MemoEntry(url: "item:ü-k", pageHash: "d1", signature: "sig", payload: Data("c1 dated".utf8)),
                    MemoEntry(url: "item:k2", pageHash: "d2", signature: "sig", payload: Data("c2".utf8)),
                    MemoEntry(url: "item:k3", pageHash: "d3", signature: "older", payload: Data("c3".utf8)),
                    // No such item in the store: nothing to settle, not kept.
                    MemoEntry(url: "item:gone", pageHash: "d4", signature: "sig", payload: Data("c4".utf8)),
                ])
            let remembered = store.rememberedPages(sourceID: "news")
            #expect(Set(remembered.keys) == Set(pages), "\(remembered.keys)")
            #expect(remembered[pages[1]]?.payload == bytes + Data([1]) && remembered[pages[1]]?.stamp == "2049:77:5120:1790000000000000001:1790000000000000002")
            #expect(remembered[pages[2]]?.stamp == nil)
            #expect(store.rememberedPages(sourceID: "events").isEmpty)
            // Items: only those of this signature; the stored hash only for an item that is
            // neither locked nor missing.
            var items = store.rememberedItems(sourceID: "news", signature: "sig")
            #expect(Set(items.keys) == ["ü-k", "k2"], "\(items.keys)")
            #expect(items["ü-k"]?.digest == "d1" && items["ü-k"]?.payload == Data("c1 dated".utf8))
            #expect(items["ü-k"]?.storedHash == (try store.row(id: stored["ü-k"] ?? ""))?.baseHash && items["ü-k"]?.storedHash != nil)
            _ = try life.edit(stored["k2"] ?? "", changes: ["title": .string("Two (edited)")], by: "ana", reason: nil)
            items = store.rememberedItems(sourceID: "news", signature: "sig")
            #expect(items["k2"] != nil && items["k2"]?.storedHash == nil, "a locked item is not to be settled")
            // Remembered again under another signature: replaced.
            try store.remember(sourceID: "news", entries: [MemoEntry(url: "item:k2", pageHash: "d2b", signature: "older", payload: Data("c2b".utf8))])
            #expect(store.rememberedItems(sourceID: "news", signature: "sig").keys.sorted() == ["ü-k"])
            #expect(store.rememberedItems(sourceID: "news", signature: "older")["k2"]?.digest == "d2b")
            #expect(store.rememberedItems(sourceID: "news", signature: "older").keys.sorted() == ["k2", "k3"])
        }
    }

    @Test(arguments: Engine.allCases)
    func listingCountsAndTheReviewQueue(_ engine: Engine) throws {
        try engine.with { store in
            let life = Lifecycle(store)
            var ids: [String] = []
            for n in 1...6 {
                let record = ImportedRecord(key: "k\(n)", content: Samples.announcement("News \(n)"), school: "hillcrest", provenance: Samples.provenance())
                ids.append(try life.recordImported(record, runID: nil, by: "cron").id)
            }
            _ = try life.submit(Samples.event(), school: "hillcrest", by: "ana", note: nil)
            _ = try life.approve(ids[0], by: "ana")
            _ = try life.reject(ids[1], reason: "duplicate", by: "ana")
            _ = try life.recordMissing(sourceID: "test-news", seenKeys: ["k1", "k2", "k3", "k4"], runID: nil)
            let counts = try store.counts()
            #expect(
                counts[.announcement]?[.pending] == 4 && counts[.announcement]?[.published] == 1 && counts[.announcement]?[.rejected] == 1
                    && counts[.event]?[.pending] == 1)
            let page = try store.list(ItemQuery(kind: .announcement, status: .pending, limit: 2))
            #expect(page.count == 2 && page.allSatisfy { $0.status == .pending && $0.kind == .announcement })
            #expect(try store.count(ItemQuery(kind: .announcement), cap: 100) == 6)
            #expect(try store.count(ItemQuery(kind: .announcement), cap: 3) == 3)
            #expect(try store.count(ItemQuery(sourceID: "test-news", dated: Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 1)), cap: 100) == 0)
            // The queue: four pending announcements and the event; the missing ones only once
            // they were missing long enough.
            #expect(try store.reviewCount(kind: nil, sourceID: nil, missingThreshold: 3, cap: 100) == 5)
            #expect(try store.reviewCount(kind: .announcement, sourceID: "test-news", missingThreshold: 3, cap: 2) == 2)
            let queue = try store.list(ItemQuery(needsReview: true, missingThreshold: 1, limit: 50))
            #expect(queue.map(\.id).sorted() == ids[2...].sorted() + [queue.first { $0.kind == .event }?.id ?? "?"], "\(queue.map(\.id))")
            #expect(try store.audit(operatorName: "ana", limit: 10).map(\.action) == ["reject", "approve", "submit"])
            #expect(try store.audit(itemID: ids[0], limit: 10).map(\.action) == ["approve", "import-new"])
        }
    }

    /// Appends in one transaction reuse the chain's head; a savepoint rolled back after an
    /// append takes its entry back, and the next append links to the entry before it.
    @Test(arguments: Engine.allCases)
    func theAuditChainHoldsAcrossRolledBackSavepoints(_ engine: Engine) throws {
        try engine.with { store in
            // Each entry says which one it is in its detail.
            func entry(_ name: String) -> NewAuditEntry {
                NewAuditEntry(
                    at: Date(timeIntervalSince1970: 1_790_000_000), operatorName: "ana", action: .placeChange, itemSeq: nil, itemID: nil, reason: nil,
                    detail: name)
            }
            struct Refused: Error {}
            try store.appendAudit(entry("before"))
            try store.transaction {
                try store.appendAudit(entry("one"))
                #expect(throws: Refused.self) {
                    try store.transaction {
                        try store.appendAudit(entry("rolled back"))
                        throw Refused()
                    }
                }
                try store.transaction { try store.appendAudit(entry("two")) }
                try store.appendAudit(entry("three"))
            }
            #expect(throws: Refused.self) {
                try store.transaction {
                    try store.appendAudit(entry("all rolled back"))
                    throw Refused()
                }
            }
            try store.appendAudit(entry("after"))
            #expect(try store.audit(itemID: nil, limit: 10).map(\.detail) == ["after", "three", "two", "one", "before"])
            let verification = try store.verifyAudit()
            #expect(verification.holds && verification.entries == 5, "\(verification)")
        }
    }
}
