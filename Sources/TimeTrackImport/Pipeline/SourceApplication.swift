import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

/// Applying one source's reading to the store, step by step: its items in batches (each item
/// its own decision), the run's outcome with the last batch, then what a trusted source
/// publishes at once.
struct SourceApplication {
    let pipeline: ImportPipeline
    let store: any ImportStore
    let source: SourceDefinition
    let result: ImportResult
    let operatorName: String
    let options: ImportOptions
    let importerInfo: ImporterInfo?
    var run: ImportRun
    var summary: SourceRunSummary
    /// The source's keys, read once when the reading is applied (not for a held run): a key not
    /// among them is a new item, written without a lookup.
    var keys: Set<String> = []
    /// The keys found this run (a key not among them is missing upstream).
    var seen: Set<String> = []

    init(pipeline: ImportPipeline, reading: SourceReading, run: ImportRun, store: any ImportStore, operatorName: String, options: ImportOptions) {
        self.pipeline = pipeline
        self.store = store
        source = reading.source
        result = reading.result
        self.operatorName = operatorName
        self.options = options
        importerInfo = ImporterRegistry.info(named: source.importer)
        self.run = run
        summary = SourceRunSummary(source: source.id, run: run, result: reading.result)
    }

    /// Items with a date (stored or settled): the shrink guard's second count.
    var dated: Int {
        result.items.filter { $0.content.sortDate != nil }.count + result.settled.filter(\.dated).count + (result.spilled?.dated ?? 0)
    }

    /// Applies the reading: the batches, the outcome, the trusted source's publishing.
    mutating func apply(memoEntries: [MemoEntry]) throws -> SourceRunSummary {
        if !result.items.isEmpty || result.spilled != nil { keys = try store.sourceKeys(sourceID: source.id) }
        // Settled items (`ItemMemo`): unchanged, as reconciling them would find; nothing to write.
        for item in result.settled {
            seen.insert(item.key)
            run.unchanged += 1
        }
        // Batches of items per transaction: each item is still its own decision (savepoint,
        // revision, audit entry); a batch commits whole, so a killed run leaves whole batches.
        // Every batch but the last commits alone; the last commits with the run's outcome
        // (one commit fewer per source: each rewrites the index pages the batch touched).
        let size = max(1, options.batchSize)
        // Spilled items (a long external importer's run) are read back a batch at a time.
        if let spilled = result.spilled {
            for batch in try spilled.batches(of: size) {
                try Lifecycle(store).batch {
                    try record(batch.items[...])
                    try store.remember(sourceID: source.id, entries: batch.memo)
                }
            }
        }
        let chunks = stride(from: 0, to: result.items.count, by: size).map { $0..<min($0 + size, result.items.count) }
        for chunk in chunks.dropLast() {
            try Lifecycle(store).batch { try record(result.items[chunk]) }
        }
        var autoPublishing = false
        try store.transaction {
            if let last = chunks.last { try record(result.items[last]) }
            autoPublishing = try recordOutcome(memoEntries: memoEntries)
        }
        if autoPublishing {
            publishAtOnce()
            run.finishedAt = pipeline.now()
            try store.finishRun(run)
        }
        summary.run = run
        return summary
    }

    /// Records the items of one batch: each new or changed item a pending revision.
    mutating func record(_ chunk: ArraySlice<ExtractedItem>) throws {
        for item in chunk {
            let provenance = Provenance(
                sourceID: source.id, sourceURL: item.pageURL, fetchedAt: item.fetchedAt, pageHash: item.pageHash,
                importer: importerInfo?.name ?? source.importer, importerVersion: importerInfo?.version ?? "?", guessed: item.guesses.map(\.note))
            let record =
                item.prepared.map { ImportedRecord(key: item.key, prepared: $0, school: source.school, provenance: provenance) }
                ?? ImportedRecord(key: item.key, content: item.content, school: source.school, provenance: provenance)
            do {
                try pipeline.adoptFormerKey(of: item, source: source.id, keys: &keys, in: store)
                let outcome = try Lifecycle(store).recordImported(record, runID: run.id, by: operatorName, new: !keys.contains(item.key))
                keys.insert(item.key)
                seen.insert(item.key)
                switch outcome {
                case .new(let id):
                    run.new += 1
                    summary.newIDs.append(id)
                case .changed(let id, _, _):
                    run.changed += 1
                    summary.changedIDs.append(id)
                case .unchanged, .skipped:
                    run.unchanged += 1
                }
            } catch let error as TimeTrackError where error.code == .validation {
                summary.failures.append(ImportProblem(.error, error.message, location: item.location))
                seen.insert(item.key)  // it is still there upstream
            }
        }
    }

    /// Counts the items not seen as missing, and withdraws the alerts among them (said in the
    /// run's message).
    mutating func recordPresence(seen: Set<String>) throws {
        (summary.missingIDs, summary.withdrawnIDs) = try Lifecycle(store).recordPresence(
            sourceID: source.id, seenKeys: seen, runID: run.id, by: operatorName)
        run.missing = summary.missingIDs.count
        if !summary.withdrawnIDs.isEmpty {
            let said = "withdrew \(summary.withdrawnIDs.joined(separator: ", ")) (taken down by the district)"
            run.message = [run.message, said].compactMap { $0 }.joined(separator: "; ")
        }
    }

    /// Records the run's outcome, in the last batch's transaction.
    ///
    /// Memo, missing counts, source state and (unless items are published first) the run
    /// record. True when the source's new and changed items are to be published at once.
    mutating func recordOutcome(memoEntries: [MemoEntry]) throws -> Bool {
        run.problems += summary.failures.count
        let autoPublishing = source.review == .auto && result.found > 0 && !(summary.newIDs.isEmpty && summary.changedIDs.isEmpty)
        try store.remember(sourceID: source.id, entries: memoEntries)
        if result.found == 0 && (options.accept || source.mayBeEmpty || source.kind == .alert) && !result.hasErrors && result.readEveryPage {
            run.status = .ok
            run.message = options.accept ? "0 items found, accepted" : "0 items: the source is empty today (mayBeEmpty)"
            try recordPresence(seen: [])
            try store.recordGoodRun(sourceID: source.id, runID: run.id, count: 0, dated: 0)
        } else if result.found == 0 {
            run.status = .failed
            run.message = "0 items found" + (result.problems.first.map { ": \($0.message)" } ?? "")
        } else {
            // Items not seen are counted missing only on a run that read its pages cleanly.
            if result.readEveryPage {
                try recordPresence(seen: seen)
            }
            let errors = result.errorCount + summary.failures.count
            run.status = errors > 0 ? .partial : .ok
            if errors > 0 { run.message = "\(errors) item(s) skipped; see `extract \(source.id)`" }
            if let note = result.runNote { run.message = [run.message, note].compactMap { $0 }.joined(separator: "; ") }
            try store.recordGoodRun(sourceID: source.id, runID: run.id, count: result.found, dated: dated)
        }
        if !autoPublishing {
            run.finishedAt = pipeline.now()
            try store.finishRun(run)
        }
        return autoPublishing
    }

    /// Publishes a trusted source's new and changed items at once.
    ///
    /// Still one decision (revision + audit) per item, each its own transaction (desks are not
    /// kept waiting for the whole list). With `accessibility: hold`, an item with findings
    /// waits for a person.
    mutating func publishAtOnce() {
        for id in summary.newIDs + summary.changedIDs {
            if source.accessibility == .hold, let item = try? store.item(id) {
                let findings = AccessibilityCheck.findings(item.pendingContent ?? item.content)
                if !findings.isEmpty {
                    summary.failures.append(
                        ImportProblem(.warning, "held for review (accessibility: hold): " + findings.map(\.description).joined(separator: "; "), location: id))
                    continue
                }
            }
            do { _ = try Lifecycle(store).approve(id, by: options.autoOperator) } catch let error as TimeTrackError {
                summary.failures.append(ImportProblem(.error, "not auto-published: \(error.message)", location: id))
            } catch {
                summary.failures.append(ImportProblem(.error, "not auto-published: \(error)", location: id))
            }
        }
    }
}
