import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var importCommand: CommandSpec { ImportCommand.spec }

    struct ImportCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("import", summary: "fetch sources and store their items as pending (new, changed, unchanged, missing)")
        @Positional("SOURCE...", count: 0...100, completes: [.sources]) var words: [String]
        @Flag("all", help: "every enabled source in the imports folder") var all: Bool
        @Flag("due", help: "the enabled sources whose schedule says they are due (for cron)") var due: Bool
        @Option("file", value: "PATH", completes: .path, help: "read this local file instead of the source's url (one source)") var file: String?
        @Flag("accept", help: "apply a run the shrink guard would hold (after a look at `extract`)") var accept: Bool
        @Flag("dry-run", help: "read and report, write nothing (like extract)") var dryRun: Bool
        @Flag("quiet", help: "print nothing when nothing changed and nothing failed") var quiet: Bool
        @Flag("no-review", help: "on a terminal, do not walk the review after importing") var noReview: Bool

        func run(_ session: Session) throws -> Int32 {
            var (sources, exit) = try importSources(self, session: session)
            if dryRun {
                let code = try Console.dryRun(sources, file: file, session: session)
                return exit != 0 ? exit : code
            }
            let store = try session.store(create: true)
            try store.requireHealthy()
            try session.requireImport(in: store)
            // Ctrl-C stops the import between steps and cancels a request in flight; what was
            // applied stays, the source being read is recorded as interrupted.
            Interrupt.install()
            let runner: ImportRunner
            do {
                runner = try session.importRunner()
            } catch let error as TimeTrackError where error.code == .busy && due {
                // Cron's overlap: the run that holds the lock imports what is due; this one has
                // nothing to do, and says so only when asked to talk (no mail every quarter hour).
                if !quiet { session.output.note("skipped: \(error.message); what is due is imported by that run or the next") }
                return 0
            }
            defer { withExtendedLifetime(runner) {} }  // the run lock is held until the command ends
            if runner.interruptedEarlier > 0 { session.output.note("\(runner.interruptedEarlier) earlier run(s) had been interrupted; carrying on") }
            if due {
                // The times that came (go-live, expiry, review due) first, each once and audited.
                let timed = try applyDueTimes(store: store, session: session, quiet: quiet)
                sources = try runner.due(sources, at: Date())
                // Cron's quarter-hourly run with nothing to do: said, unless asked to be quiet.
                if sources.isEmpty {
                    if timed > 0 && !session.output.json { return 0 }
                    if session.output.json {
                        // A machine reading --json gets JSON: the (empty) list of sources run, the
                        // shape a run with sources prints.
                        session.output.printJSON(JSONValue.array([]))
                    } else if !quiet {
                        session.output.line("nothing due: every enabled source was read within its schedule (`sources` shows when)")
                    }
                    return 0
                }
            }
            runner.options.accept = accept
            runner.file = file
            runner.shouldStop = { Interrupt.requested }
            let report = ImportReport(sources: sources, session: session, quiet: quiet)
            report.exit = exit
            report.showProgress(on: runner)
            var withdrawals: [SourceRunSummary] = []
            try runner.run(sources) { outcome in
                if case .success(let summary) = outcome.result, !summary.withdrawnIDs.isEmpty { withdrawals.append(summary) }
                return report.record(outcome)
            }
            try tellWithdrawals(withdrawals, store: store, session: session, by: runner.operatorName)
            if session.output.json { report.printJSON() }
            try report.offerReview(store: store, walk: !noReview)
            return report.exitCode
        }
    }

    /// Alerts a run withdrew: the district's `onAlert` command is told of each, and what it did
    /// is said on stderr, audited, and added to the run's message (`runs`).
    static func tellWithdrawals(_ summaries: [SourceRunSummary], store: any ItemStore, session: Session, by who: String) throws {
        guard !summaries.isEmpty, let hook = AlertHook.configured(folder: session.importsPath) else { return }
        for summary in summaries {
            let lines = hook.notify(summary.withdrawnIDs, event: .withdrawn, store: store, by: who)
            for line in lines { session.output.note(line) }
            guard !lines.isEmpty, let runID = summary.run?.id, var run = try store.runs(sourceID: summary.source, limit: 50).first(where: { $0.id == runID })
            else { continue }
            run.message = [run.message, lines.joined(separator: "; ")].compactMap { $0 }.joined(separator: "; ")
            try store.finishRun(run)
        }
    }

    /// `import --due`'s first step: the transitions whose time came (`Lifecycle.applyDue`), each
    /// said on stderr unless `quiet`, alerts that went live told to `onAlert`; returns how many.
    static func applyDueTimes(store: any ItemStore, session: Session, quiet: Bool) throws -> Int {
        let done = try Lifecycle(store).applyDue(by: session.operatorName)
        for transition in done where !quiet {
            let when = Display.date(transition.at, zone: session.zone(of: try store.item(transition.itemID)))
            let what =
                switch transition.kind {
                case .publishAt: "went live (publishAt \(when))"
                case .expiresAt: "expired (expiresAt \(when)): out of the app"
                case .reviewBy: "is due for review (reviewBy \(when))"
                }
            session.output.note("\(transition.itemID) \(what)")
        }
        let live = done.filter { $0.kind == .publishAt }.map(\.itemID)
        if !live.isEmpty, let hook = AlertHook.configured(folder: session.importsPath) {
            for line in hook.notify(live, event: .published, store: store, by: session.operatorName) { session.output.note(line) }
        }
        return done.count
    }

    /// The sources `import` names (ids, `--all` or `--due`), each checked to be one its
    /// importer accepts before any store is opened or made: named sources fail the command
    /// (exit 2); with `--all`/`--due` a broken one is reported, the rest run (exit 3).
    static func importSources(_ command: ImportCommand, session: Session) throws -> ([SourceDefinition], exit: Int32) {
        var exit: Int32 = 0
        let selectors = [command.all, command.due, !command.words.isEmpty].filter { $0 }.count
        guard selectors == 1 else {
            throw TimeTrackError(
                .usage, selectors == 0 ? "import: name at least one source, or --all, or --due" : "import: give source ids, --all or --due, only one of them",
                fix: "usage: import SOURCE... | --all | --due; `sources` lists them")
        }
        var sources: [SourceDefinition]
        if command.words.isEmpty {
            let (all, errors) = session.sources()
            for error in errors { session.output.error(error) }
            if !errors.isEmpty { exit = 3 }
            sources = all.filter(\.enabled)
            if sources.isEmpty && errors.isEmpty {
                throw TimeTrackError(.configuration, "no enabled sources in \(session.importsPath)", fix: "add a definition, or pass --imports DIR")
            }
            if all.isEmpty && !errors.isEmpty {
                // Nothing readable at all (no such folder, only broken definitions): a configuration error, no store made.
                throw TimeTrackError(
                    .configuration, "no source definitions could be read from \(session.importsPath)",
                    fix: "check the folder (`--imports DIR`) and the errors above")
            }
        } else {
            sources = try command.words.map { try session.source($0) }
        }
        if command.file != nil && sources.count != 1 {
            throw TimeTrackError(.usage, "import: --file goes with exactly one source")
        }
        var checked: [SourceDefinition] = []
        for source in sources {
            do {
                _ = try ImporterRegistry.make(for: source)
                checked.append(source)
            } catch let error as TimeTrackError {
                if !command.words.isEmpty { throw error }
                session.output.error(error)
                exit = 3
            }
        }
        if checked.isEmpty && exit != 0 {
            throw TimeTrackError(
                .configuration, "no source could be read: every definition has an error (above)", fix: "fix the definitions; `sources` checks them")
        }
        return (checked, exit)
    }

    /// `import --dry-run`: reads each source and says what an import would add, change and
    /// count missing against the store (all new when there is no store yet), like `terraform
    /// plan`; writes nothing, makes no store.
    ///
    /// Exits as `extract` does: 1 when no source gave an item, 3 when a source failed, gave none,
    /// or skipped items with errors.
    static func dryRun(_ sources: [SourceDefinition], file: String?, session: Session) throws -> Int32 {
        let store: (any ItemStore)?
        do {
            store = session.storeExists ? try session.store() : nil
        } catch let error as TimeTrackError where error.code == .notFound {
            store = nil  // a PostgreSQL database with no store in it yet: everything would be new
        }
        var rows: [JSONValue] = []
        var failed = 0, empty = 0, skippedItems = false
        // With --format csv: a row an item the run would touch.
        var csv = Table(headers: ["source", "would", "id", "title"])
        for source in sources {
            let result: ImportResult
            do {
                var pipeline = session.pipeline(for: source)
                pipeline.http = try session.webClient(for: source, cache: nil)
                result = try pipeline.extract(source, file: file)
            } catch let error as TimeTrackError {
                failed += 1
                session.output.error(
                    error.tagged(source: source.id))
                rows.append(.object(["source": .string(source.id), "error": .object(error.jsonObject)]))
                continue
            }
            // Counted as `extract` counts them: no item at all, or items skipped with an error.
            if result.found == 0 {
                empty += 1
                session.output.note("warning: 0 items from \(source.id)")
            } else if result.hasErrors {
                skippedItems = true
            }
            let items = result.items.compactMap { item -> (key: String, content: PreparedContent)? in
                guard let prepared = item.prepared ?? (try? PreparedContent(item.content)) else { return nil }
                return (item.key, prepared)
            }
            var plan = ImportPlan()
            if let store {
                plan = try Lifecycle(store).plan(sourceID: source.id, items: items, readEveryPage: result.readEveryPage)
            } else {
                plan.new = items.map { .init(id: nil, key: $0.key, title: $0.content.content.title) }
            }
            if session.output.json {
                var object = (try? JSONCoding.value(plan))?.objectValue ?? [:]
                object["source"] = .string(source.id)
                object["found"] = .number(Double(result.items.count))
                object["problems"] = .array(result.problems.map { (try? JSONCoding.value($0)) ?? .null })
                rows.append(.object(object))
                continue
            }
            let out = session.output
            if out.csv {
                csv.rows +=
                    plan.new.map { [source.id, "add", "", $0.title] } + plan.changed.map { [source.id, "change", $0.id ?? "", $0.title] }
                    + plan.missing.map { [source.id, "count missing", $0.id ?? "", $0.title] }
                    + plan.skipped.map { [source.id, "leave alone", $0.id ?? "", $0.title] }
                continue
            }
            out.line(
                "\(source.id): \(result.items.count) found, \(result.problemCount) problems: would add \(plan.new.count), change \(plan.changed.count), "
                    + "leave \(plan.unchanged) unchanged, count \(plan.missing.count) missing (dry run, nothing written)")
            for item in plan.new { out.line(out.paint("  + ", .green) + SafeText.visible(item.title)) }
            for item in plan.changed { out.line(out.paint("  ~ ", .yellow) + "\(item.id ?? "")  " + SafeText.visible(item.title)) }
            for item in plan.missing { out.line(out.paint("  - ", .red) + "\(item.id ?? "")  " + SafeText.visible(item.title) + " (missing from the source)") }
            for item in plan.skipped { out.line("  = \(item.id ?? "")  " + SafeText.visible(item.title) + " (rejected or archived: left alone)") }
        }
        if session.output.json { session.output.printJSON(JSONValue.array(rows)) }
        if session.output.csv && !session.output.json { session.output.printTable(csv, width: terminalWidth()) }
        // The exit code `extract` gives: 1 when nothing was read, 3 when part of it was.
        if !sources.isEmpty && failed + empty == sources.count { return 1 }
        return failed + empty > 0 || skippedItems ? 3 : 0
    }
}
