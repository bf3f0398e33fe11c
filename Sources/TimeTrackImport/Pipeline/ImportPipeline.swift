import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

/// A source that was read and not yet applied.
public struct SourceReading: Sendable {
    public var source: SourceDefinition
    /// What the importer found, every valid item validated and encoded.
    public var result: ImportResult
    var memoEntries: [MemoEntry]

    init(source: SourceDefinition, result: ImportResult, memoEntries: [MemoEntry]) {
        self.source = source
        self.result = result
        self.memoEntries = memoEntries
        // Items the importer did not prepare are prepared here, on all cores, as part of
        // reading: applying then only writes.
        if result.items.contains(where: { $0.prepared == nil }) {
            self.result.items = Parallel.map(result.items, minimumPerWorker: 16) { item in
                var item = item
                item.prepare()
                return item
            }
        }
    }
}

/// What one source's import did.
public struct SourceRunSummary: Sendable {
    public var source: String
    public var run: ImportRun?
    public var result: ImportResult
    /// Ids of new items and changed items.
    public var newIDs: [String] = []
    public var changedIDs: [String] = []
    public var missingIDs: [String] = []
    /// Of those, the alerts withdrawn from the app (the district took them down).
    public var withdrawnIDs: [String] = []
    /// Items the store refused (validation), with their location.
    public var failures: [ImportProblem] = []
    /// CPU time the applying thread spent writing this source to the store (the benchmark's
    /// store cost per item).
    public var applyCPUSeconds = 0.0

}

/// Choices for one import run.
public struct ImportOptions: Sendable {
    /// Apply even a run the shrink guard would hold (`import SOURCE --accept`).
    public var accept = false
    /// A run that finds fewer than this share of the last good run's items is held.
    public var shrinkRatio = 0.5
    /// The shrink guard needs at least this many items in the last good run to judge.
    public var shrinkMinimum = 4
    /// The operator auto-published items are approved as.
    public var autoOperator = "cron"
    /// Imported items written per transaction.
    public var batchSize = 100

    public init() {}
}

/// Fetch → importer → normalize → reconcile with the store, for one source at a time.
public struct ImportPipeline {
    /// The imports folder: local pages must stay inside it (unless given with --file).
    public var importsRoot: URL
    public var now: () -> Date = { Date() }
    public var http: HTTPClient?
    /// Called with (pages, items) as a source is read.
    public var progress: ((_ pages: Int, _ items: Int) -> Void)?
    /// Asked before every page is fetched; true stops the source (Ctrl-C at the console).
    public var shouldStop: (() -> Bool)?

    public init(importsRoot: URL, http: HTTPClient? = nil) {
        self.importsRoot = importsRoot
        self.http = http
    }

    /// Reads a source and returns its items and problems; writes nothing.
    ///
    /// - Parameter file: read this local file instead of the source's url (not confined).
    public func extract(_ source: SourceDefinition, file: String? = nil) throws -> ImportResult {
        var result = try extract(source, file: file, memo: nil).0
        try result.loadSpilled()
        return result
    }

    /// Reads a source, reusing what `memo` remembers of unchanged pages; returns the result and
    /// the payloads to remember.
    func extract(_ source: SourceDefinition, file: String?, memo: (any PageMemoReader)?) throws -> (ImportResult, [MemoEntry]) {
        let effective = file.map { source.readingFile($0) } ?? source
        let importer = try ImporterRegistry.make(for: effective)
        let fetcher = Fetcher(source: effective, definition: source, confinedTo: file == nil ? importsRoot : nil, http: http)
        fetcher.shouldStop = shouldStop
        let budget = http?.sourceSeconds ?? FetchSettings().sourceSeconds
        fetcher.deadline = (Date().addingTimeInterval(budget), budget)  // the real clock, not the run's date
        if let file {
            // The given file and its siblings (detail pages, next pages) may be read.
            fetcher.confinedTo = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
        }
        let context = ImportContext(source: effective, fetcher: fetcher, now: now())
        context.shouldStop = shouldStop
        context.progress = progress
        context.memo = memo
        if let memo {
            // What is remembered of the source's pages in one query (a query per page was a read
            // transaction per page), when first needed; of its items in another.
            let id = effective.id
            context.loadRememberedPages = { memo.rememberedPages(sourceID: id) }
            let info = type(of: importer).info
            context.items = ItemMemo(source: effective, importer: "\(info.name)/\(info.version)", memo: memo)
        }
        var result = try importer.run(context)
        result.capProblems()
        var memoEntries = context.memoEntries
        if source.checkPDFs {
            var linked = LinkedPDFs(fetcher: fetcher)
            linked.check(&result, memoEntries: &memoEntries)
        }
        return (result, memoEntries)
    }

    /// Imports a source into the store as pending items, with a run record: `read` then `apply`.
    public func importSource(
        _ source: SourceDefinition, into store: any ImportStore, by operatorName: String, file: String? = nil, options: ImportOptions = ImportOptions()
    ) throws -> SourceRunSummary {
        let run = try store.beginRun(sourceID: source.id, by: operatorName)
        let reading: SourceReading
        do {
            reading = try read(source, using: store, file: file)
        } catch let error as TimeTrackError {
            try recordFailedRead(run, error, into: store)
            throw error
        }
        return try apply(reading, run: run, into: store, by: operatorName, options: options)
    }

    /// Reads the source; writes nothing.
    ///
    /// `store` is only read, for the page memo (and, through `http`, the HTTP cache), so a
    /// reading may run on another thread with its own connection to the same file while the
    /// previous source is applied (see `SourceImports`). The run record is opened before, and
    /// everything is written by `apply`, on the applying connection.
    public func read(_ source: SourceDefinition, using store: (any PageMemoReader)?, file: String? = nil) throws -> SourceReading {
        let (result, memoEntries) = try extract(source, file: file, memo: store)
        return SourceReading(source: source, result: result, memoEntries: memoEntries)
    }

    /// An item under a key an older importer gave it (`ExtractedItem.formerKey`) takes its new
    /// key, once: it stays one item, with its decisions, instead of a new item and a missing one.
    func adoptFormerKey(of item: ExtractedItem, source: String, keys: inout Set<String>, in store: any ImportStore) throws {
        guard !keys.contains(item.key), let former = item.formerKey, keys.contains(former), var row = try store.row(sourceID: source, key: former) else {
            return
        }
        row.sourceKey = item.key
        try store.updateRow(row)
        keys.remove(former)
        keys.insert(item.key)
    }

    /// Finishes the run of a source that could not be read as failed.
    public func recordFailedRead(_ run: ImportRun, _ error: TimeTrackError, into store: any ItemStore) throws {
        var run = run
        run.status = error.code == .interrupted ? .interrupted : .failed
        run.message = error.description
        run.finishedAt = now()
        try store.finishRun(run)
    }

    /// Reconciles what `read` found with the store, under the run opened for it: new and
    /// changed items as pending revisions (batches of items per transaction, one savepoint
    /// each), missing items counted, the run finished.
    ///
    /// Held without applying anything when the shrink guard says so.
    public func apply(_ reading: SourceReading, run: ImportRun, into store: any ImportStore, by operatorName: String, options: ImportOptions = ImportOptions())
        throws -> SourceRunSummary
    {
        let source = reading.source
        var application = SourceApplication(pipeline: self, reading: reading, run: run, store: store, operatorName: operatorName, options: options)
        application.run.found = reading.result.found
        application.run.problems = reading.result.problemCount
        if !options.accept,
            let reason = try shrinkReason(source: source, store: store, found: reading.result.found, dated: application.dated, options: options)
                ?? Self.guessedYearsReason(reading.result.items, spilled: reading.result.spilled)
        {
            // Held: nothing is applied, nothing is counted missing; a person looks first.
            var held = application.run
            held.status = .held
            held.message = reason + "; nothing applied. After a look: import \(source.id) --accept"
            held.finishedAt = now()
            try store.finishRun(held)
            try store.holdSource(sourceID: source.id, runID: held.id, reason: reason)
            var summary = application.summary
            summary.run = held
            return summary
        }
        return try application.apply(memoEntries: reading.memoEntries)
    }

    /// Why a run should be held for its dates: every dated item's year was guessed, and each
    /// guess disagrees with the year the page's heading names (an old calendar read as this
    /// year's).
    ///
    /// nil when any date stated its year, or the page named none.
    static func guessedYearsReason(_ items: [ExtractedItem], spilled: SpilledItems? = nil) -> String? {
        if let spilled, spilled.datedContradictingHeadings < spilled.dated { return nil }
        let dated = items.filter { $0.content.sortDate != nil }
        guard !dated.isEmpty, dated.allSatisfy({ item in item.guesses.contains(where: \.contradictsHeading) }) else { return nil }
        let example = dated[0].guesses.first(where: \.contradictsHeading)?.note ?? ""
        return
            "every one of the \(dated.count) dated items has a guessed year that the page's headings contradict (\(example)): set \"yearFrom\" (or"
            + " \"year\") in the source's options"
    }

    /// Why a run should be held: far fewer items (or dated items) than the last good run.
    func shrinkReason(source: SourceDefinition, store: any ItemStore, found: Int, dated: Int, options: ImportOptions) throws -> String? {
        // A source that may be empty (an alert page) and is empty today is a healthy run.
        if (source.mayBeEmpty && found == 0) || source.kind == .alert { return nil }  // alerts come and go: no shrink guard
        guard let state = try store.sourceState(source.id), let lastCount = state.lastGoodCount, lastCount >= options.shrinkMinimum else { return nil }
        let percent = Int((options.shrinkRatio * 100).rounded())
        if Double(found) < Double(lastCount) * options.shrinkRatio {
            return "found \(found) items, the last good run found \(lastCount) (under \(percent)%): the page may be broken or redesigned"
        }
        if let lastDated = state.lastGoodDated, lastDated >= options.shrinkMinimum, Double(dated) < Double(lastDated) * options.shrinkRatio {
            return "only \(dated) items have a date, the last good run had \(lastDated) (under \(percent)%): the date selector may no longer match"
        }
        return nil
    }
}

/// CPU time of the calling thread so far, in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
