import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var pluginsCommand: CommandSpec {
        CommandSpec("plugins", summary: "list the importers, built-in and external (the plugins folder), their kinds and options") { _, session in
            let infos = ImporterRegistry.infos
            if session.output.json {
                session.output.printJSON(
                    JSONValue.array(
                        infos.map { info -> JSONValue in
                            .object([
                                "name": .string(info.name), "version": .string(info.version), "kinds": .array(info.kinds.map { .string($0.rawValue) }),
                                "summary": .string(info.summary),
                                "options": .array(info.options.map { .object(["name": .string($0.name), "type": .string($0.type), "required": .bool($0.required), "help": .string($0.help)]) }),
                            ])
                        }))
                return 0
            }
            for info in infos {
                session.output.line("\(info.name) \(info.version): \(info.summary)")
                session.output.line("  kinds: " + info.kinds.map(\.rawValue).joined(separator: ", "))
                for option in info.options {
                    session.output.line("  " + (option.name + (option.required ? " (required)" : "")).padding(toLength: 22, withPad: " ", startingAt: 0) + option.help)
                }
            }
            // Manifests that could not be read: said, not silently left out.
            for error in ImporterRegistry.external.errors { session.output.error(error) }
            return ImporterRegistry.external.errors.isEmpty ? 0 : 2
        }
    }

    static var sourcesCommand: CommandSpec {
        CommandSpec(
            "sources", usage: "[enable|disable ID...]",
            summary: "list the source definitions in the imports folder, and any that are broken; `sources enable ID` lets imports read a disabled one",
            positional: 0...100
        ) { args, session in
            if let action = args.positional.first {
                return try setEnabled(action, Array(args.positional.dropFirst()), session)
            }
            var (sources, errors) = session.sources()
            // Checked as an import would check them: each importer reads its options (selectors
            // compile, patterns are safe, fields are known); a broken one is listed as an error.
            sources = sources.filter { source in
                do {
                    _ = try ImporterRegistry.make(for: source)
                    return true
                } catch let error as TimeTrackError {
                    errors.append(error)
                    return false
                } catch {
                    errors.append(TimeTrackError(.configuration, "\(error)", context: ["file": source.file]))
                    return false
                }
            }
            // Held sources and last runs, when there is a store to ask.
            var states: [String: SourceState] = [:]
            var lastRuns: [String: ImportRun] = [:]
            if session.storeExists, let store = try? session.store() {
                for source in sources {
                    states[source.id] = try? store.sourceState(source.id)
                    lastRuns[source.id] = (try? store.runs(sourceID: source.id, limit: 1))?.first
                }
            }
            /// "ok: 12 found, 2 new, 1 problem" — what the last run did.
            func result(_ run: ImportRun?) -> String {
                guard let run else { return "-" }
                var parts = ["\(run.found) found"]
                if run.new > 0 { parts.append("\(run.new) new") }
                if run.changed > 0 { parts.append("\(run.changed) changed") }
                if run.missing > 0 { parts.append("\(run.missing) missing") }
                if run.problems > 0 { parts.append("\(run.problems) problem\(run.problems == 1 ? "" : "s")") }
                return run.status.rawValue + ": " + parts.joined(separator: ", ")
            }
            if session.output.json {
                session.output.printJSON(
                    JSONValue.object([
                        "sources": .array(
                            sources.map { s in
                                .object([
                                    "id": .string(s.id), "name": .string(s.name), "importer": .string(s.importer), "kind": .string(s.kind.rawValue),
                                    "url": .string(s.urlText), "school": s.school.map { .string($0) } ?? .null, "schedule": s.schedule.map { .string($0.description) } ?? .null,
                                    "review": .string(s.review.rawValue), "enabled": .bool(s.enabled), "file": .string(s.file),
                                    "held": states[s.id]?.heldReason.map { .string($0) } ?? .null,
                                    "lastRun": states[s.id]?.lastRunAt.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
                                    "lastResult": lastRuns[s.id].flatMap { try? JSONCoding.value($0) } ?? .null,
                                ])
                            }),
                        "errors": .array(errors.map { .object($0.jsonObject) }),
                    ]))
            } else {
                var table = Table(headers: ["id", "kind", "importer", "schedule", "review", "last run", "result", "url"])
                for s in sources {
                    let state = states[s.id]
                    let lastRun = state?.heldReason != nil ? "HELD" : state?.lastRunAt.map { Display.date($0, zone: session.runZone(ofSource: s.id)) } ?? "never"
                    table.rows.append([s.id + (s.enabled ? "" : " (disabled)"), s.kind.rawValue, s.importer, s.schedule?.description ?? "-", s.review.rawValue, lastRun, result(lastRuns[s.id]), s.urlText])
                }
                if sources.isEmpty {
                    session.output.line("no sources in \(session.importsPath)")
                } else {
                    session.output.printTable(table, width: terminalWidth())
                }
                for s in sources { if let reason = states[s.id]?.heldReason { session.output.line("\(s.id) is held: \(reason); `import \(s.id) --accept` applies it") } }
                for error in errors { session.output.error(error) }
            }
            return errors.isEmpty ? 0 : 2
        }
    }

    /// `sources enable|disable ID...`: sets `"enabled"` in each definition file, by a textual
    /// edit that keeps the file as its author wrote it; admins only.
    static func setEnabled(_ action: String, _ ids: [String], _ session: Session) throws -> Int32 {
        guard action == "enable" || action == "disable" else {
            throw TimeTrackError(.usage, "sources: unknown action '\(action)'", fix: "usage: sources [enable|disable ID...]")
        }
        guard !ids.isEmpty else { throw TimeTrackError(.usage, "sources \(action): name the sources", fix: "e.g. sources \(action) lincoln-news") }
        if session.storeExists { try session.requireAdmin(in: try session.store(), for: "\(action) sources") }
        let enabled = action == "enable"
        let (sources, _) = session.sources()
        for id in ids {
            guard let source = sources.first(where: { $0.id == id }) else {
                throw TimeTrackError(.notFound, "no source '\(id)' in \(session.importsPath)", fix: "`sources` lists them")
            }
            let text = try String(contentsOfFile: source.file, encoding: .utf8)
            let edited = SourceDefinition.settingEnabled(enabled, in: text)
            try AtomicFile.write(Data(edited.utf8), to: source.file)
            // Read back, so a file this edit broke is said at once, not at the next cron run.
            guard try SourceDefinition.load(file: source.file).enabled == enabled else {
                try AtomicFile.write(Data(text.utf8), to: source.file)
                throw TimeTrackError(.configuration, "could not set \"enabled\" in the file; it was left as it was", fix: "set \"enabled\": \(enabled) by hand", context: ["file": source.file])
            }
            session.output.line("\(id): \(enabled ? "enabled: `import --all` and cron read it" : "disabled: only `import \(id)` reads it")")
        }
        return 0
    }

    static var extractCommand: CommandSpec {
        CommandSpec(
            "extract", usage: "SOURCE|URL [--file PATH] [--item SEL] [--field NAME=SPEC]...",
            summary: "dry run: fetch and parse a source, print its items and problems, write nothing",
            options: [
                OptionSpec("file", value: "PATH", help: "read this local file instead of the source's url"),
                OptionSpec("item", value: "SEL", help: "try another item selector (html), or give one for a page's URL or file"),
                OptionSpec("field", value: "NAME=SPEC", repeats: true, help: "try a field spec: a selector or JSON (repeat for more); the definition is not changed"),
                OptionSpec("kind", value: "K", help: "with a page's URL or file: what it lists (default announcement)"),
                OptionSpec("zone", value: "Z", help: "with a page's URL or file: its time zone (default: this machine's)"),
            ],
            positional: 1...1
        ) { args, session in
            let source = try trySource(args, session)
            var pipeline = session.pipeline(for: source)
            pipeline.http = try session.webClient(for: source, cache: nil)
            let result = try pipeline.extract(source, file: args.option("file"))
            if session.output.json {
                session.output.printJSON(
                    JSONValue.object([
                        "source": .string(source.id), "kind": .string(source.kind.rawValue), "pages": .number(Double(result.pagesFetched)),
                        "duplicatesMerged": .number(Double(result.duplicatesMerged)),
                        "items": .array(result.items.map { itemJSON($0, zone: source.timeZone) }),
                        "problems": .array(result.problems.map { (try? JSONCoding.value($0)) ?? .null }),
                        "fieldsNeverRead": .array(result.fieldsNeverRead.map(JSONValue.string)),
                    ]))
            } else {
                for (index, item) in result.items.enumerated() {
                    if index > 0 { session.output.line() }
                    printItem(item, zone: source.timeZone, output: session.output)
                }
                if !result.items.isEmpty { session.output.line() }
                for problem in result.problems { session.output.note(problem.description) }
                for field in result.fieldsNeverRead { session.output.note("note: \(field) gave no value for any of the \(result.items.count) items: check its selector") }
                session.output.line("\(result.items.count) items, \(result.problems.count) problems, \(result.pagesFetched) pages read" + (result.duplicatesMerged > 0 ? ", \(result.duplicatesMerged) duplicates merged" : ""))
            }
            if result.items.isEmpty {
                // Blame the first rule that failed: items found and skipped are not the item
                // selector's fault.
                let skipped = result.problems.first { $0.severity == .error }
                let hint =
                    skipped.map { "every item was skipped; the first: \($0.location): \($0.message)" }
                    ?? source.options["item"]?.stringValue.map { "check options.item (\"\($0)\") against the page" }
                    ?? "check the url and the \(source.importer) importer's options (`plugins` lists them)"
                session.output.note("warning: 0 items from \(source.id): \(hint)")
                return 1
            }
            return result.problems.contains { $0.severity == .error } ? 3 : 0
        }
    }

    /// The source to extract: a definition, with `--item`/`--field` tried on top of its
    /// options; or a page's URL or file read with the html importer and those options only.
    static func trySource(_ args: Arguments, _ session: Session) throws -> SourceDefinition {
        let word = args.positional[0]
        let overrides = args.option("item") != nil || !args.values("field").isEmpty
        let isPage = word.lowercased().hasPrefix("http://") || word.lowercased().hasPrefix("https://") || (!word.hasSuffix(".json") && FileManager.default.fileExists(atPath: word))
        guard overrides || isPage else { return try session.source(word) }
        var object: [String: JSONValue]
        var file: String
        if isPage {
            guard let kind = ItemKind(word: args.option("kind") ?? "announcement") else { throw TimeTrackError(.usage, "extract: --kind must be announcement, event or school-info") }
            guard let zone = TimeZone(identifier: args.option("zone") ?? TimeZone.current.identifier) else { throw TimeTrackError(.usage, "extract: --zone is not a time zone", fix: "e.g. --zone America/Denver") }
            guard args.option("item") != nil else { throw TimeTrackError(.usage, "extract \(word): a page needs --item SEL and --field title=SEL", fix: "or explore it with `try \(word)`") }
            let local = !word.contains("://")
            object = Trial.object(id: "extract", target: local ? URL(fileURLWithPath: word).standardizedFileURL.lastPathComponent : word, kind: kind, zone: zone, baseURL: nil, allowPrivate: false)
            object["options"] = .object(["fields": .object([:])])
            file = local ? URL(fileURLWithPath: word).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("extract.json").path : (session.importsPath as NSString).appendingPathComponent("extract.json")
        } else {
            let source = try session.source(word)
            file = source.file
            guard let data = FileManager.default.contents(atPath: file), case .object(let read) = try? JSONValue(parsing: data) else {
                throw TimeTrackError(.configuration, "the definition could not be read again", context: ["file": file])
            }
            object = read
        }
        var options = object["options"]?.objectValue ?? [:]
        if let item = args.option("item") { options["item"] = Trial.spec(item) }
        var fields = options["fields"]?.objectValue ?? [:]
        for text in args.values("field") {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw TimeTrackError(.usage, "extract: --field \(text) is not NAME=SPEC", fix: "e.g. --field 'title=h2 a'") }
            fields[String(text[..<equals])] = Trial.spec(String(text[text.index(after: equals)...]))
        }
        options["fields"] = .object(fields)
        object["options"] = .object(options)
        return try SourceDefinition.parse(object, file: file)
    }

    static func itemJSON(_ item: ExtractedItem, zone: TimeZone) -> JSONValue {
        var fields = item.content.fields()
        // Dates as people's offsets, in the source's zone.
        for (key, value) in fields {
            if let text = value.stringValue, text.count == 20, text.hasSuffix("Z"), let date = ISO8601DateFormatter().date(from: text) {
                fields[key] = .string(Display.iso(date, zone: zone) ?? text)
            }
        }
        // What the importer had to guess ("year guessed: 2026 (start)") goes with the item, as
        // review shows it.
        return .object([
            "key": .string(item.key), "location": .string(item.location), "page": .string(item.pageURL), "kind": .string(item.content.kind.rawValue),
            "fields": .object(fields), "guesses": .array(item.guesses.map { .string($0) }),
        ])
    }

    static func printItem(_ item: ExtractedItem, zone: TimeZone, output: Output) {
        output.line(output.paint(SafeText.visible(item.content.title), .bold) + output.paint("  (\(item.location))", .dim))
        switch item.content {
        case .announcement(let a):
            if let d = a.publishedAt { output.line("  date:    " + Display.date(d, zone: zone)) }
            if let s = a.summary { output.line("  summary: " + TextNormalizer.truncate(s, to: 160)) }
            if let i = a.imageURL { output.line("  image:   " + i) }
            if let l = a.link { output.line("  link:    " + l) }
        case .event(let e):
            output.line("  when:     " + Display.date(e.start, zone: zone, allDay: e.allDay) + (e.end.map { " – " + Display.date(e.allDay ? $0.addingTimeInterval(-1) : $0, zone: zone, allDay: e.allDay) } ?? "") + (e.allDay ? " (all day)" : ""))
            output.line("  category: \(e.category.rawValue)" + (e.state == .scheduled ? "" : "  state: \(e.state.rawValue)"))
            if let l = e.locationName { output.line("  where:    " + l) }
            if let d = e.description { output.line("  about:    " + TextNormalizer.truncate(d.replacingOccurrences(of: "\n", with: " "), to: 160)) }
            if let l = e.link { output.line("  link:     " + l) }
        case .schoolInfo(let i):
            output.line("  section: \(i.section.rawValue)  type: \(i.documentType.rawValue)" + (i.group.map { "  under: \($0)" } ?? ""))
            output.line("  url:     " + i.url)
        case .deadline(let d):
            output.line("  due:      " + Display.date(d.due, zone: TimeZone(identifier: d.timeZone) ?? zone) + (d.dueTimeGuessed ? " (no time given: the end of the school day)" : ""))
            output.line("  course:   \(SafeText.visible(d.course))" + (d.courseName.map { " (\(SafeText.visible($0)))" } ?? "") + (d.teacher.map { ", \(SafeText.visible($0))" } ?? ""))
            output.line("  category: \(d.category.rawValue)" + (d.points.map { "  points: \(NumberText.plain($0))" } ?? "") + (d.weight.map { "  weight: \(NumberText.percent($0))" } ?? ""))
            if let line = d.sourceLine { output.line("  line:     " + SafeText.visible(line)) }
            if let l = d.link { output.line("  link:     " + l) }
        case .post, .absence, .ticket:
            break
        }
        for guess in item.guesses { output.line(output.paint("  guessed:  " + SafeText.visible(guess), .yellow)) }
    }

    static var importCommand: CommandSpec {
        CommandSpec(
            "import", usage: "SOURCE... | --all | --due [--file PATH] [--accept] [--dry-run] [--quiet]",
            summary: "fetch sources and store their items as pending (new, changed, unchanged, missing)",
            options: [
                OptionSpec("all", help: "every enabled source in the imports folder"),
                OptionSpec("due", help: "the enabled sources whose schedule says they are due (for cron)"),
                OptionSpec("file", value: "PATH", help: "read this local file instead of the source's url (one source)"),
                OptionSpec("accept", help: "apply a run the shrink guard would hold (after a look at `extract`)"),
                OptionSpec("dry-run", help: "read and report, write nothing (like extract)"),
                OptionSpec("quiet", help: "print nothing when nothing changed and nothing failed"),
                OptionSpec("no-review", help: "on a terminal, do not walk the review after importing"),
            ],
            positional: 0...100
        ) { args, session in
            var exit: Int32 = 0
            let selectors = [args.flag("all"), args.flag("due"), !args.positional.isEmpty].filter { $0 }.count
            guard selectors == 1 else {
                throw TimeTrackError(.usage, selectors == 0 ? "import: name at least one source, or --all, or --due" : "import: give source ids, --all or --due, only one of them", fix: "usage: import SOURCE... | --all | --due; `sources` lists them")
            }
            var sources: [SourceDefinition]
            if args.positional.isEmpty {
                let (all, errors) = session.sources()
                for error in errors { session.output.error(error) }
                if !errors.isEmpty { exit = 3 }
                sources = all.filter(\.enabled)
                if sources.isEmpty && errors.isEmpty { throw TimeTrackError(.configuration, "no enabled sources in \(session.importsPath)", fix: "add a definition, or pass --imports DIR") }
                if all.isEmpty && !errors.isEmpty {
                    // Nothing readable at all (no such folder, only broken definitions): a configuration error, no store made.
                    throw TimeTrackError(.configuration, "no source definitions could be read from \(session.importsPath)", fix: "check the folder (`--imports DIR`) and the errors above")
                }
            } else {
                sources = try args.positional.map { try session.source($0) }
            }
            if args.option("file") != nil && sources.count != 1 {
                throw TimeTrackError(.usage, "import: --file goes with exactly one source")
            }
            // Configuration first: a definition whose importer refuses its options is an error
            // before any store is opened or made (named sources: the command fails, exit 2;
            // --all/--due: that source fails, the rest run, exit 3).
            var checked: [SourceDefinition] = []
            for source in sources {
                do {
                    _ = try ImporterRegistry.make(for: source)
                    checked.append(source)
                } catch let error as TimeTrackError {
                    if !args.positional.isEmpty { throw error }
                    session.output.error(error)
                    exit = 3
                }
            }
            sources = checked
            if sources.isEmpty && exit != 0 {
                throw TimeTrackError(.configuration, "no source could be read: every definition has an error (above)", fix: "fix the definitions; `sources` checks them")
            }
            if args.flag("dry-run") {
                let code = try dryRun(sources, file: args.option("file"), session: session)
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
            } catch let error as TimeTrackError where error.code == .busy && args.flag("due") {
                // Cron's overlap: the run that holds the lock imports what is due; this one has
                // nothing to do, and says so only when asked to talk (no mail every quarter hour).
                if !args.flag("quiet") { session.output.note("skipped: \(error.message); what is due is imported by that run or the next") }
                return 0
            }
            defer { withExtendedLifetime(runner) {} }  // the run lock is held until the command ends
            if runner.interruptedEarlier > 0 { session.output.note("\(runner.interruptedEarlier) earlier run(s) had been interrupted; carrying on") }
            if args.flag("due") {
                sources = try runner.due(sources, at: Date())
                // Cron's quarter-hourly run with nothing to do: said, unless asked to be quiet.
                if sources.isEmpty {
                    if !args.flag("quiet") { session.output.line("nothing due: every enabled source was read within its schedule (`sources` shows when)") }
                    return 0
                }
            }
            runner.options.accept = args.flag("accept")
            runner.file = args.option("file")
            runner.shouldStop = { Interrupt.requested }
            var summaries: [SourceRunSummary] = []
            var failed = 0, held = 0
            var errorsBySource: [String: TimeTrackError] = [:]
            let quiet = args.flag("quiet")
            // On a terminal each source shows its progress and is read in its turn; otherwise
            // (cron, pipes) the next sources are read on other threads, each lane with its own
            // connection, while the current one is applied.
            let showProgress = session.interactive && isatty(2) == 1 && !session.output.json
            let progressBars = sources.map { Progress(label: $0.id, enabled: showProgress) }
            if showProgress {
                runner.lanes = 0
                runner.progress = { index, pages, items in progressBars[index].update(pages: pages, items: items) }
                runner.transfer = { index, host, bytes, elapsed in progressBars[index].transfer(host: host, bytes: bytes, elapsed: elapsed) }
            }
            try runner.run(sources) { outcome in
                let (index, source) = (outcome.index, outcome.source)
                progressBars[index].finish()
                switch outcome.result {
                case .success(let summary):
                    summaries.append(summary)
                    let run = summary.run
                    let changed = (run?.new ?? 0) + (run?.changed ?? 0) + (run?.missing ?? 0) > 0 || run?.status != .ok
                    if !(quiet && !changed) {
                        var line =
                            "\(source.id): \(run?.status.rawValue ?? "?") · \(run?.found ?? 0) found · \(run?.new ?? 0) new · \(run?.changed ?? 0) changed · \(run?.unchanged ?? 0) unchanged · \(run?.missing ?? 0) missing · \(run?.problems ?? 0) problems"
                        if let message = run?.message, run?.status != .ok { line += " · " + message }
                        if outcome.requests > 0 {
                            line += " · \(outcome.requests) requests, \(outcome.notModified) not modified"
                        }
                        session.output.note(line)
                        for problem in summary.result.problems + summary.failures where problem.severity == .error {
                            session.output.note("  \(source.id): \(problem.location): \(problem.message)")
                        }
                    }
                    switch run?.status {
                    case .failed?: failed += 1
                    case .held?: held += 1
                    case .partial?: exit = 3
                    default: break
                    }
                case .failure(let error):
                    failed += 1
                    let tagged = TimeTrackError(error.code, error.message, fix: error.fix, context: error.context.merging(["source": source.id]) { a, _ in a })
                    errorsBySource[source.id] = tagged
                    session.output.error(tagged)
                }
                return !Interrupt.requested
            }
            if session.output.json {
                var rows: [JSONValue] = summaries.map { s in
                    .object([
                        "source": .string(s.source), "status": .string(s.run?.status.rawValue ?? "failed"), "run": .number(Double(s.run?.id ?? 0)),
                        "found": .number(Double(s.run?.found ?? 0)), "new": .array(s.newIDs.map { .string($0) }),
                        "changed": .array(s.changedIDs.map { .string($0) }), "missing": .array(s.missingIDs.map { .string($0) }),
                        "message": s.run?.message.map { .string($0) } ?? .null,
                        "problems": .array((s.result.problems + s.failures).map { (try? JSONCoding.value($0)) ?? .null }),
                    ])
                }
                for (id, error) in errorsBySource.sorted(by: { $0.key < $1.key }) {
                    rows.append(.object(["source": .string(id), "status": .string("failed"), "error": .object(error.jsonObject)]))
                }
                session.output.printJSON(JSONValue.array(rows))
            }
            let pending = summaries.filter { ImportSourceReview.required($0, sources) }.reduce(0) { $0 + $1.newIDs.count + $1.changedIDs.count }
            if pending > 0 && !session.output.json && !quiet {
                if session.interactive, session.reader != nil, !args.flag("no-review"), !Interrupt.requested {
                    // On a terminal, go straight to reviewing what this import found.
                    // The district's public content first (news, events, school info), then posts,
                    // absence reports and tickets, as `review` walks them: not in source order.
                    let waiting = summaries.filter { ImportSourceReview.required($0, sources) }.flatMap { $0.newIDs + $0.changedIDs }
                    let order = Dictionary(uniqueKeysWithValues: ItemKind.allCases.enumerated().map { ($0.element, $0.offset) })
                    let walk = waiting.enumerated().sorted { a, b in
                        let (ka, kb) = (ItemKind.parseID(a.element)?.0, ItemKind.parseID(b.element)?.0)
                        return (ka.flatMap { order[$0] } ?? 99, a.offset) < (kb.flatMap { order[$0] } ?? 99, b.offset)
                    }.map(\.element)
                    _ = try walkReview(walk, store: store, session: session)
                } else {
                    session.output.line("\(pending) item(s) wait for review: `timetrack-admin review`")
                }
            }
            if sources.isEmpty { return exit }
            if failed + held == sources.count { return 1 }
            return failed + held > 0 ? 3 : exit
        }
    }

    /// `import --dry-run`: reads each source and says what an import would add, change and
    /// count missing against the store (all new when there is no store yet), like `terraform
    /// plan`; writes nothing, makes no store. Exits as `extract` does: 1 when no source gave an
    /// item, 3 when a source failed, gave none, or skipped items with errors.
    static func dryRun(_ sources: [SourceDefinition], file: String?, session: Session) throws -> Int32 {
        let store: (any ItemStore)?
        do {
            store = session.storeExists ? try session.store() : nil
        } catch let error as TimeTrackError where error.code == .notFound {
            store = nil  // a PostgreSQL database with no store in it yet: everything would be new
        }
        var rows: [JSONValue] = []
        var failed = 0, empty = 0, skippedItems = false
        for source in sources {
            let result: ImportResult
            do {
                var pipeline = session.pipeline(for: source)
                pipeline.http = try session.webClient(for: source, cache: nil)
                result = try pipeline.extract(source, file: file)
            } catch let error as TimeTrackError {
                failed += 1
                session.output.error(TimeTrackError(error.code, error.message, fix: error.fix, context: error.context.merging(["source": source.id]) { a, _ in a }))
                rows.append(.object(["source": .string(source.id), "error": .object(error.jsonObject)]))
                continue
            }
            // Counted as `extract` counts them: no item at all, or items skipped with an error.
            if result.found == 0 {
                empty += 1
                session.output.note("warning: 0 items from \(source.id)")
            } else if result.problems.contains(where: { $0.severity == .error }) {
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
            out.line(
                "\(source.id): \(result.items.count) found, \(result.problems.count) problems: would add \(plan.new.count), change \(plan.changed.count), "
                    + "leave \(plan.unchanged) unchanged, count \(plan.missing.count) missing (dry run, nothing written)")
            for item in plan.new { out.line(out.paint("  + ", .green) + SafeText.visible(item.title)) }
            for item in plan.changed { out.line(out.paint("  ~ ", .yellow) + "\(item.id ?? "")  " + SafeText.visible(item.title)) }
            for item in plan.missing { out.line(out.paint("  - ", .red) + "\(item.id ?? "")  " + SafeText.visible(item.title) + " (missing from the source)") }
            for item in plan.skipped { out.line("  = \(item.id ?? "")  " + SafeText.visible(item.title) + " (rejected or archived: left alone)") }
        }
        if session.output.json { session.output.printJSON(JSONValue.array(rows)) }
        // The exit code `extract` gives: 1 when nothing was read, 3 when part of it was.
        if !sources.isEmpty && failed + empty == sources.count { return 1 }
        return failed + empty > 0 || skippedItems ? 3 : 0
    }

    /// The terminal's width; in a pipe, no limit (unless COLUMNS says one).
    static func terminalWidth() -> Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 20 { return columns }
        guard isatty(1) == 1 else { return 10_000 }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return 100
    }
}

/// Which imported items wait for a person.
enum ImportSourceReview {
    static func required(_ summary: SourceRunSummary, _ sources: [SourceDefinition]) -> Bool {
        sources.first { $0.id == summary.source }?.review != .auto
    }
}
