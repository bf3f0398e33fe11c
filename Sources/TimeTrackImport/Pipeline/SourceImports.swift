import Foundation
import TimeTrackCore
import TimeTrackKit

/// Imports several sources into one store, in order, reading the next ones on other threads
/// while the current one is applied: the engine under `ImportRunner`, which owns the lanes'
/// connections, the web clients and the run lock.
///
/// Every write happens on the caller's thread through `store`; a reading uses only its lane's
/// own connection (memo, HTTP cache), so the store sees one writer of items at a time and the
/// outcome is the same as importing the sources one after another.
public enum SourceImports {
    /// How many sources may be read at once by default: one per core, plus one so that a
    /// reading's serial parts (listing pages, fetching) overlap the others' parsing.
    ///
    /// `TIMETRACK_READ_AHEAD=N` sets it (0: one source at a time, no read-ahead).
    public static var defaultLanes: Int {
        if let text = Environment.value("TIMETRACK_READ_AHEAD"), let lanes = Int(text), lanes >= 0 { return min(lanes, 16) }
        return Parallel.workers + 1
    }

    /// - Parameters:
    ///   - readers: one store connection per lane; empty reads each source on the caller's
    ///     thread through `store`, when it is its turn (no read-ahead).
    ///   - file: read this local file instead of the source's url (a single source).
    ///   - pipeline: the pipeline for source `i`, whose web client uses `cache` (the HTTP cache:
    ///     read through its lane's read-only connection, written through `store` when the
    ///     source is applied); called on the caller's thread before any reading starts. A
    ///     source whose pipeline cannot be made fails alone (no run is recorded for it).
    ///   - each: called on the caller's thread, in order, with each source's pipeline (nil if
    ///     it could not be made) and outcome; return false to stop (readings under way are
    ///     waited for, and not applied).
    public static func run(
        _ sources: [SourceDefinition], file: String? = nil, into store: any ImportStore, readers: [any ReadingLane], by operatorName: String,
        options: ImportOptions = ImportOptions(), pipeline makePipeline: (_ index: Int, _ cache: FetchCache?) throws -> ImportPipeline,
        each: (_ index: Int, _ pipeline: ImportPipeline?, _ outcome: Result<SourceRunSummary, TimeTrackError>) throws -> Bool
    ) throws {
        let lanes = max(1, readers.count)
        func connection(_ lane: Int) -> any ReadingLane { readers.isEmpty ? store : readers[lane % lanes] }
        // Without read-ahead the importing connection is the cache; with it, each source's cache
        // writes wait for its turn to be applied.
        // Each reads through the connection of the lane that reads its source (set then).
        let caches: [DeferredFetchCache?] = sources.indices.map { _ in
            readers.isEmpty ? nil : DeferredFetchCache()
        }
        let pipelines: [Result<ImportPipeline, TimeTrackError>] = sources.indices.map { index in
            do { return .success(try makePipeline(index, caches[index] ?? store)) } catch let error as TimeTrackError {
                return .failure(error)
            } catch {
                return .failure(TimeTrackError(.system, "\(error)"))
            }
        }
        // Each source's run record is opened on `store` (the caller's thread) as its reading
        // starts on a lane (the reading only reads, so it does not wait for that write), so
        // `runs` shows it running, and a killed import leaves it to be marked interrupted. The
        // records of the sources opened together (half a read-ahead window) are written in one
        // transaction; if that fails, it is each of their outcomes and none of them is applied.
        var runs: [Int: ImportRun] = [:]
        let began = ReadingStarts()
        let ahead = ReadAhead(count: sources.count, enabled: !readers.isEmpty, depth: lanes) { indexes in
            let opened = try store.transaction {
                try indexes.compactMap { index -> (Int, ImportRun)? in
                    guard case .success = pipelines[index] else { return nil }
                    return (index, try store.beginRun(sourceID: sources[index].id, by: operatorName))
                }
            }
            for (index, run) in opened { runs[index] = run }
        } _: { index, lane -> SourceReading? in
            guard case .success(let pipeline) = pipelines[index] else { return nil }
            began.set(index, pipeline.now())
            let reader = connection(lane)
            caches[index]?.read(through: reader)
            return try pipeline.read(sources[index], using: reader, file: file)
        }
        defer { ahead.finish() }
        var stoppedAt = sources.count
        for index in sources.indices {
            // Asked for every index, in order, even a source without a pipeline (its reading is nil).
            let reading = Result { try ahead.value(index) }
            // A run opened ahead started when its reading did, not when it was queued.
            if let date = began.take(index) { runs[index]?.startedAt = date }
            let outcome: Result<SourceRunSummary, TimeTrackError>
            switch pipelines[index] {
            case .failure(let error):
                outcome = .failure(error)
            case .success(let pipeline):
                outcome = try apply(
                    reading, of: sources[index], run: runs[index], pipeline: pipeline, cache: caches[index], into: store, by: operatorName, options: options)
            }
            runs[index] = nil
            guard try each(index, try? pipelines[index].get(), outcome) else {
                stoppedAt = index + 1
                break
            }
        }
        // Stopped early (Ctrl-C): sources already being read are not applied; their runs say so.
        ahead.finish()
        for (index, run) in runs.sorted(by: { $0.key < $1.key }) where index >= stoppedAt {
            var run = run
            run.status = .interrupted
            run.message = "stopped before this source was applied; nothing of it was written"
            run.finishedAt = Date()
            try? store.finishRun(run)
        }
    }

    /// Applies one source's reading under its run (a reading that failed finishes the run as
    /// failed), then writes its HTTP cache; the outcome, for `each`.
    static func apply(
        _ reading: Result<SourceReading?, any Error>, of source: SourceDefinition, run: ImportRun?, pipeline: ImportPipeline, cache: DeferredFetchCache?,
        into store: any ImportStore, by operatorName: String, options: ImportOptions
    ) throws -> Result<SourceRunSummary, TimeTrackError> {
        do {
            let read: SourceReading?
            do {
                read = try reading.get()
            } catch let error as TimeTrackError {
                if let run { try pipeline.recordFailedRead(run, error, into: store) }
                throw error
            }
            guard let read, let run else { throw TimeTrackError(.system, "source \(source.id) was not read") }
            let cpuBefore = threadCPUSeconds()
            var summary = try pipeline.apply(read, run: run, into: store, by: operatorName, options: options)
            summary.applyCPUSeconds = threadCPUSeconds() - cpuBefore
            do {
                try cache?.flush(into: store)
            } catch let error as TimeTrackError {
                // The items are applied; only the next run's validators are lost.
                summary.failures.append(ImportProblem(.warning, "the HTTP cache was not saved: \(error.message)", location: "cache"))
            }
            return .success(summary)
        } catch let error as TimeTrackError {
            return .failure(error)
        }
    }
}

/// When each reading began, set on its lane and taken on the caller's thread.
private final class ReadingStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var dates: [Int: Date] = [:]

    func set(_ index: Int, _ date: Date) {
        lock.lock()
        dates[index] = date
        lock.unlock()
    }

    func take(_ index: Int) -> Date? {
        lock.lock()
        defer { lock.unlock() }
        return dates.removeValue(forKey: index)
    }
}
