import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackStore

/// `ReadAhead` hands readings out in order, runs at most `depth` at once with no lane shared,
/// opens each on the caller's thread, and passes a reading's error on without stopping the rest.
@Suite struct ReadAheadUnitTests {
    /// What the readings did, from their own threads.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var busyLanes: Set<Int> = []
        private(set) var calls: [Int] = []
        private(set) var laneClashes = 0
        private(set) var mostAtOnce = 0

        func begin(_ index: Int, lane: Int) {
            lock.lock()
            defer { lock.unlock() }
            calls.append(index)
            if !busyLanes.insert(lane).inserted { laneClashes += 1 }
            mostAtOnce = max(mostAtOnce, busyLanes.count)
        }

        func end(lane: Int) {
            lock.lock()
            busyLanes.remove(lane)
            lock.unlock()
        }
    }

    @Test func readingsInOrderAtMostDepthAtOnceErrorsPassedOn() throws {
        let log = Log()
        let caller = pthread_self()
        var preparedOnCaller: [Int] = []
        var batches = 0
        let ahead = ReadAhead<Int>(count: 12, depth: 3, window: 6) { indexes in
            if pthread_equal(pthread_self(), caller) != 0 { preparedOnCaller += indexes }
            batches += 1
        } _: { index, lane in
            log.begin(index, lane: lane)
            defer { log.end(lane: lane) }
            // Later readings finish first, so order comes from the hand-out, not from timing.
            usleep(UInt32((12 - index) * 2_000))
            if index == 5 { throw TimeTrackError(.fetch, "page 5 is gone") }
            return index * 10
        }
        var values: [Int] = []
        for index in 0..<12 {
            do {
                values.append(try ahead.value(index))
            } catch let error as TimeTrackError {
                #expect(index == 5 && error.message == "page 5 is gone")
            }
        }
        ahead.finish()
        #expect(values == [0, 10, 20, 30, 40, 60, 70, 80, 90, 100, 110])
        #expect(log.calls.sorted() == Array(0..<12))
        #expect(log.laneClashes == 0)
        #expect(log.mostAtOnce > 1 && log.mostAtOnce <= 3)
        // Each reading opened once, in order, on the caller's thread, half a window at a time
        // after the first window: 0..<6, then 6..<9, 9..<12.
        #expect(preparedOnCaller == Array(0..<12))
        #expect(batches == 3)
        #expect(throws: TimeTrackError.self) { try ahead.value(3) }  // handed out already
    }

    /// Opening a batch of readings fails (their run records could not be written): each of them
    /// gives that error even though its reading succeeded, and the other batches are unharmed.
    @Test func aFailedPrepareIsTheOutcomeOfItsWholeBatch() throws {
        var batches: [Range<Int>] = []
        let ahead = ReadAhead<Int>(count: 12, depth: 3, window: 6) { indexes in
            batches.append(indexes)
            if indexes.contains(7) { throw TimeTrackError(.database, "the store is full") }
        } _: { index, _ in
            index * 10
        }
        var outcomes: [String] = []
        for index in 0..<12 {
            do { outcomes.append("\(try ahead.value(index))") } catch let error as TimeTrackError { outcomes.append(error.message) }
        }
        ahead.finish()
        #expect(batches == [0..<6, 6..<9, 9..<12])
        #expect(outcomes == ["0", "10", "20", "30", "40", "50", "the store is full", "the store is full", "the store is full", "90", "100", "110"])
    }

    @Test func stoppingEarlyWaitsForWhatIsUnderWay() throws {
        let log = Log()
        let ended = Log()
        let ahead = ReadAhead<Int>(count: 40, depth: 4) { index, lane in
            log.begin(index, lane: lane)
            usleep(20_000)
            log.end(lane: lane)
            ended.begin(index, lane: index)
            return index
        }
        #expect(try ahead.value(0) == 0)
        ahead.finish()
        // Every reading that had started finished before `finish` returned, and none starts after.
        let started = log.calls.sorted()
        #expect(ended.calls.sorted() == started)
        #expect(started.first == 0 && started.count >= 4 && started.count < 40)
        usleep(60_000)
        #expect(log.calls.sorted() == started)
        #expect(log.mostAtOnce <= 4 && log.laneClashes == 0)
    }

    /// A district's sources come in families (calendar, info, news per school): one reading in
    /// three is heavy.
    ///
    /// The heavy ones must not queue behind each other while lanes are free.
    @Test func heavyReadingsOneInThreeRunSideBySide() throws {
        let log = Log()
        let heavy = Log()
        let ahead = ReadAhead<Int>(count: 12, depth: 3) { index, lane in
            log.begin(index, lane: lane)
            defer { log.end(lane: lane) }
            if index % 3 == 2 {
                heavy.begin(index, lane: lane)
                defer { heavy.end(lane: lane) }
                usleep(30_000)
            }
            return index
        }
        for index in 0..<12 { #expect(try ahead.value(index) == index) }
        ahead.finish()
        #expect(log.laneClashes == 0 && log.mostAtOnce <= 3)
        #expect(heavy.mostAtOnce >= 2, "the heavy readings ran one at a time")
    }
}

/// `SourceImports` with read-ahead: a source whose pipeline cannot be made fails alone, the
/// sources after it are still read and applied in order, and stopping early leaves no run running.
@Suite struct SourceImportsTests {
    /// Four small html sources in a fresh imports folder, a new store and three reading connections.
    struct Fixture {
        let dir: TemporaryDirectory
        let sources: [SourceDefinition]
        let store: SQLiteStore
        let readers: [SQLiteStore]

        init() throws {
            dir = try TemporaryDirectory("imports")
            sources = try Fixture.fourSources(dir)
            let path = dir.path("s.sqlite")
            store = try SQLiteStore(path: path, create: true)
            readers = try (0..<3).map { _ in try SQLiteStore(path: path, create: false, readOnly: true) }
        }

        func close() {
            for reader in readers { reader.close() }
            store.close()
            dir.remove()
        }

        static func fourSources(_ dir: TemporaryDirectory) throws -> [SourceDefinition] {
            var sources: [SourceDefinition] = []
            for n in 1...4 {
                let page =
                    "<html><body>" + (1...3).map { "<article><h2>S\(n) item \($0)</h2><a href='/s\(n)/\($0).html'>x</a></article>" }.joined() + "</body></html>"
                try dir.write("imports/site/s\(n).html", page)
                let file = try dir.write(
                    "imports/s\(n).json",
                    """
                    { "id": "s\(n)", "importer": "html", "kind": "announcement", "url": "site/s\(n).html", "baseURL": "https://s.example/s\(n).html",
                      "options": { "item": "article", "fields": { "title": "h2", "link": "a@href" } } }
                    """)
                sources.append(try SourceDefinition.load(file: file))
            }
            return sources
        }
    }

    @Test func aSourceWithoutAPipelineFailsAloneAndTheRestAreApplied() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let (dir, sources, store, readers) = (fixture.dir, fixture.sources, fixture.store, fixture.readers)
        var outcomes: [String] = []
        try SourceImports.run(sources, into: store, readers: readers, by: "test") { index, _ in
            if index == 1 { throw TimeTrackError(.configuration, "no settings for s2") }
            return ImportPipeline(importsRoot: URL(fileURLWithPath: dir.path("imports")))
        } each: { index, pipeline, outcome in
            switch outcome {
            case .success(let summary): outcomes.append("\(sources[index].id) \(summary.run?.status.rawValue ?? "?") \(summary.newIDs.count)")
            case .failure(let error): outcomes.append("\(sources[index].id) failed: \(error.message) \(pipeline == nil)")
            }
            return true
        }
        #expect(outcomes == ["s1 ok 3", "s2 failed: no settings for s2 true", "s3 ok 3", "s4 ok 3"])
        #expect(try store.runs(sourceID: nil, limit: 10).map(\.sourceID).sorted() == ["s1", "s3", "s4"])
        #expect(try store.runs(sourceID: nil, limit: 10).allSatisfy { $0.status == .ok })
    }

    @Test func stoppingAfterTheFirstSourceLeavesNoRunRunning() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let (dir, sources, store, readers) = (fixture.dir, fixture.sources, fixture.store, fixture.readers)
        var applied: [String] = []
        try SourceImports.run(sources, into: store, readers: readers, by: "test") { _, _ in
            ImportPipeline(importsRoot: URL(fileURLWithPath: dir.path("imports")))
        } each: { index, _, _ in
            applied.append(sources[index].id)
            return false  // as after Ctrl-C
        }
        #expect(applied == ["s1"])
        let runs = try store.runs(sourceID: nil, limit: 10)
        // s1 applied; the sources already being read were stopped and say so; none is left running.
        #expect(runs.first { $0.sourceID == "s1" }?.status == .ok)
        let stopped = runs.filter { $0.sourceID != "s1" }
        #expect(!stopped.isEmpty)
        #expect(stopped.allSatisfy { $0.status == .interrupted && $0.message?.hasPrefix("stopped before this source was applied") == true })
        #expect(try store.counts()[.announcement]?.values.reduce(0, +) == 3)
    }

    /// Runs are opened ahead, several in one transaction, but each says it started when its
    /// reading did (by the pipeline's clock, here far from the store's).
    @Test func aRunStartsWhenItsReadingStartsNotWhenItWasOpened() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let (dir, sources, store, readers) = (fixture.dir, fixture.sources, fixture.store, fixture.readers)
        let reading = Date(timeIntervalSince1970: 1_900_000_000)
        try SourceImports.run(sources, into: store, readers: readers, by: "test") { _, _ in
            var pipeline = ImportPipeline(importsRoot: URL(fileURLWithPath: dir.path("imports")))
            pipeline.now = { reading }
            return pipeline
        } each: { _, _, _ in
            true
        }
        let runs = try store.runs(sourceID: nil, limit: 10)
        #expect(runs.map(\.sourceID).sorted() == ["s1", "s2", "s3", "s4"])
        #expect(runs.allSatisfy { $0.startedAt == reading && $0.finishedAt == reading && $0.status == .ok })
    }

    @Test func theRunnerHoldsTheRunLockAndReadsAheadOnReadOnlyLanes() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let store = fixture.store
        // A run a killed import left running is marked interrupted when the runner is made.
        _ = try store.beginRun(sourceID: "s1", by: "killed")
        let path = store.location
        func makeRunner(_ who: String) throws -> ImportRunner {
            try ImportRunner(
                store: store, lock: try FileRunLock(storePath: path), reader: { try SQLiteStore(path: path, create: false, readOnly: true) }, by: who)
        }
        let runner = try makeRunner("test")
        #expect(runner.interruptedEarlier == 1)
        // A second import on the same store is refused at once, naming the holder.
        #expect {
            _ = try makeRunner("other")
        } throws: { error in
            (error as? TimeTrackError)?.code == .busy && (error as? TimeTrackError)?.message.contains("pid \(getpid())") == true
        }
        runner.lanes = 3
        var seen: [String] = []
        try runner.run(fixture.sources) { outcome in
            seen.append("\(outcome.source.id) \(try outcome.result.get().newIDs.count)")
            return true
        }
        #expect(seen == ["s1 3", "s2 3", "s3 3", "s4 3"])
        #expect(try store.counts()[.announcement]?[.pending] == 12)
        // --file with several sources is a usage error, before anything is read.
        runner.file = "x.html"
        #expect(throws: TimeTrackError.self) { try runner.run(fixture.sources) { _ in true } }
    }
}
