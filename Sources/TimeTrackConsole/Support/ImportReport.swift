import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

/// What `import` says as its sources finish: a line each (unless quiet and nothing changed),
/// the errors, JSON for scripts, the exit code, and on a terminal the review of what it found.
final class ImportReport {
    let sources: [SourceDefinition]
    let session: Session
    let quiet: Bool
    var summaries: [SourceRunSummary] = []
    var failed = 0, held = 0
    var exit: Int32 = 0
    var errorsBySource: [String: TimeTrackError] = [:]
    let progressBars: [Progress]

    init(sources: [SourceDefinition], session: Session, quiet: Bool) {
        self.sources = sources
        self.session = session
        self.quiet = quiet
        // On a terminal each source shows its progress and is read in its turn; otherwise
        // (cron, pipes) the next sources are read on other threads, each lane with its own
        // connection, while the current one is applied.
        let shown = session.interactive && isatty(2) == 1 && !session.output.json
        progressBars = sources.map { Progress(label: $0.id, enabled: shown) }
    }

    /// Shows each source's progress on the terminal (and reads one source at a time there).
    func showProgress(on runner: ImportRunner) {
        guard session.interactive && isatty(2) == 1 && !session.output.json else { return }
        let bars = progressBars
        runner.lanes = 0
        runner.progress = { index, pages, items in bars[index].update(pages: pages, items: items) }
        runner.transfer = { index, host, bytes, elapsed in bars[index].transfer(host: host, bytes: bytes, elapsed: elapsed) }
    }

    /// Records one source's outcome; returns whether to go on (not after Ctrl-C).
    func record(_ outcome: ImportRunner.Outcome) -> Bool {
        let (index, source) = (outcome.index, outcome.source)
        progressBars[index].finish()
        switch outcome.result {
        case .success(let summary):
            summaries.append(summary)
            let run = summary.run
            let changed = (run?.new ?? 0) + (run?.changed ?? 0) + (run?.missing ?? 0) > 0 || run?.status != .ok
            if !(quiet && !changed) { say(summary, of: source, requests: outcome.requests, notModified: outcome.notModified) }
            switch run?.status {
            case .failed?: failed += 1
            case .held?: held += 1
            case .partial?: exit = 3
            default: break
            }
        case .failure(let error):
            failed += 1
            let tagged = error.tagged(source: source.id)
            errorsBySource[source.id] = tagged
            session.output.error(tagged)
        }
        return !Interrupt.requested
    }

    /// `news: ok · 12 found · 2 new · …`, and the source's errors under it.
    func say(_ summary: SourceRunSummary, of source: SourceDefinition, requests: Int, notModified: Int) {
        let run = summary.run
        var line =
            "\(source.id): \(run?.status.rawValue ?? "?") · \(run?.found ?? 0) found · \(run?.new ?? 0) new · \(run?.changed ?? 0) changed ·"
            + " \(run?.unchanged ?? 0) unchanged · \(run?.missing ?? 0) missing · \(run?.problems ?? 0) problems"
        if let message = run?.message, run?.status != .ok { line += " · " + message }
        if requests > 0 { line += " · \(requests) requests, \(notModified) not modified" }
        session.output.note(line)
        for problem in summary.result.problems + summary.failures where problem.severity == .error {
            session.output.note("  \(source.id): \(problem.location): \(problem.message)")
        }
        if let unlisted = summary.result.unlistedProblems { session.output.note("  \(source.id): \(unlisted)") }
        if source.review == .auto { sayPublishedChanges(summary.changedIDs) }
    }

    /// A source trusted to publish (`"review": "auto"`, a student's own course feeds): what
    /// changed went live without a person, so each change is shown afterwards, old and new
    /// (a due date moved by the teacher), in the item's zone.
    func sayPublishedChanges(_ ids: [String]) {
        guard !ids.isEmpty, let store = try? session.store() else { return }
        for id in ids.prefix(50) {
            guard let item = try? store.item(id), let revisions = try? store.revisions(of: id) else { continue }
            let live = revisions.filter { $0.wentLiveAt != nil }.suffix(2)
            guard live.count == 2, let old = live.first, let new = live.last else { continue }
            let changes = ItemContent.changedFields(from: old.content, to: new.content)
            guard !changes.isEmpty else { continue }
            session.output.note(
                "  \(id) published with a change (the source is trusted; `history \(id)` shows it, `revert \(id)` takes it back):"
                    + " \(SafeText.visible(new.content.title))"
            )
            for line in ItemRendering.diffLines(changes, zone: session.zone(of: item), output: session.output) { session.output.note("  " + line) }
        }
        if ids.count > 50 { session.output.note("  … and \(ids.count - 50) more changed (`runs` and `history ID`)") }
    }

    func printJSON() {
        var rows: [JSONValue] = summaries.map { s in
            .object([
                "source": .string(s.source), "status": .string(s.run?.status.rawValue ?? "failed"), "run": .number(Double(s.run?.id ?? 0)),
                "found": .number(Double(s.run?.found ?? 0)), "new": .array(s.newIDs.map { .string($0) }),
                "changed": .array(s.changedIDs.map { .string($0) }), "missing": .array(s.missingIDs.map { .string($0) }),
                "message": s.run?.message.map { .string($0) } ?? .null,
                "problems": .array((s.result.problems + s.failures).map { (try? JSONCoding.value($0)) ?? .null }),
                "problemsNotRecorded": .number(Double(s.result.problemsNotRecorded)),
            ])
        }
        for (id, error) in errorsBySource.sorted(by: { $0.key < $1.key }) {
            rows.append(.object(["source": .string(id), "status": .string("failed"), "error": .object(error.jsonObject)]))
        }
        session.output.printJSON(JSONValue.array(rows))
    }

    /// On a terminal, goes straight to reviewing what this import found: the district's public
    /// content first (news, events, school info), then posts, absence reports and tickets, as
    /// `review` walks them, not in source order.
    ///
    /// Elsewhere says how many wait.
    func offerReview(store: any ItemStore, walk: Bool) throws {
        let waiting = summaries.filter { ImportSourceReview.required($0, sources) }.flatMap { $0.newIDs + $0.changedIDs }
        guard !waiting.isEmpty, !session.output.json, !quiet else { return }
        guard session.interactive, session.reader != nil, walk, !Interrupt.requested else {
            session.output.line("\(waiting.count) item(s) wait for review: `timetrack-admin review`")
            return
        }
        let order = Dictionary(uniqueKeysWithValues: ItemKind.allCases.enumerated().map { ($0.element, $0.offset) })
        let sorted = waiting.enumerated().sorted { a, b in
            let (ka, kb) = (ItemKind.parseID(a.element)?.0, ItemKind.parseID(b.element)?.0)
            return (ka.flatMap { order[$0] } ?? 99, a.offset) < (kb.flatMap { order[$0] } ?? 99, b.offset)
        }.map(\.element)
        _ = try Console.walkReview(sorted, store: store, session: session)
    }

    /// 1 when every source failed or was held, 3 when some did (or a definition was broken).
    var exitCode: Int32 {
        if sources.isEmpty { return exit }
        if failed + held == sources.count { return 1 }
        return failed + held > 0 ? 3 : exit
    }
}
