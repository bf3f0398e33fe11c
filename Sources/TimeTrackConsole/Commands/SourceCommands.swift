import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var pluginsCommand: CommandSpec { PluginsCommand.spec }

    struct PluginsCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "plugins", summary: "list the importers, built-in and external (the plugins folder), their kinds and options", pages: true)

        func run(_ session: Session) throws -> Int32 {
            let infos = ImporterRegistry.infos
            if session.output.json {
                session.output.printJSON(
                    JSONValue.array(
                        infos.map { info -> JSONValue in
                            .object([
                                "name": .string(info.name), "version": .string(info.version), "kinds": .array(info.kinds.map { .string($0.rawValue) }),
                                "summary": .string(info.summary),
                                "options": .array(
                                    info.options.map {
                                        .object(["name": .string($0.name), "type": .string($0.type), "required": .bool($0.required), "help": .string($0.help)])
                                    }),
                            ])
                        }))
                return 0
            }
            if session.output.csv {
                // A row an option (an importer without options: one row with none).
                var table = Table(headers: ["importer", "version", "kinds", "option", "required", "help"])
                for info in infos {
                    let kinds = info.kinds.map(\.rawValue).joined(separator: " ")
                    if info.options.isEmpty { table.rows.append([info.name, info.version, kinds, "", "", info.summary]) }
                    for option in info.options {
                        table.rows.append([info.name, info.version, kinds, option.name, option.required ? "yes" : "no", option.help])
                    }
                }
                session.output.printTable(table, width: terminalWidth())
                for error in ImporterRegistry.external.errors { session.output.error(error) }
                return ImporterRegistry.external.errors.isEmpty ? 0 : 2
            }
            for info in infos {
                session.output.line("\(info.name) \(info.version): \(info.summary)")
                session.output.line("  kinds: " + info.kinds.map(\.rawValue).joined(separator: ", "))
                for option in info.options {
                    session.output.line(
                        "  " + (option.name + (option.required ? " (required)" : "")).padding(toLength: 22, withPad: " ", startingAt: 0) + option.help)
                }
            }
            // Manifests that could not be read: said, not silently left out.
            for error in ImporterRegistry.external.errors { session.output.error(error) }
            return ImporterRegistry.external.errors.isEmpty ? 0 : 2
        }
    }

    static var sourcesCommand: CommandSpec { SourcesCommand.spec }

    struct SourcesCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "sources",
            summary: "list the source definitions in the imports folder, and any that are broken; `sources enable ID` lets imports read a disabled one",
            pages: true)
        @Positional("[enable|disable ID...]", count: 0...100, completes: [.words(["enable", "disable"]), .sources]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            if let action = words.first {
                return try setEnabled(action, Array(words.dropFirst()), session)
            }
            let (sources, errors) = checkedSources(session)
            // Held sources and last runs, when there is a store to ask.
            var states: [String: SourceState] = [:]
            var lastRuns: [String: ImportRun] = [:]
            if session.storeExists, let store = try? session.store() {
                for source in sources {
                    states[source.id] = try? store.sourceState(source.id)
                    lastRuns[source.id] = (try? store.runs(sourceID: source.id, limit: 1))?.first
                }
            }
            if session.output.json {
                printSourcesJSON(sources, errors: errors, states: states, lastRuns: lastRuns, session: session)
                return errors.isEmpty ? 0 : 2
            }
            var table = Table(headers: ["id", "kind", "importer", "schedule", "review", "last run", "result", "url"])
            for s in sources {
                let state = states[s.id]
                let lastRun = state?.heldReason != nil ? "HELD" : state?.lastRunAt.map { Display.date($0, zone: session.runZone(ofSource: s.id)) } ?? "never"
                table.rows.append([
                    s.id + (s.enabled ? "" : " (disabled)"), s.kind.rawValue, s.importer, s.schedule?.description ?? "-", s.review.rawValue, lastRun,
                    runResult(lastRuns[s.id]), s.urlText,
                ])
            }
            if sources.isEmpty {
                session.output.line("no sources in \(session.importsPath)")
            } else {
                session.output.printTable(table, width: terminalWidth())
            }
            for s in sources {
                if let reason = states[s.id]?.heldReason { session.output.line("\(s.id) is held: \(reason); `import \(s.id) --accept` applies it") }
            }
            for error in errors { session.output.error(error) }
            return errors.isEmpty ? 0 : 2
        }
    }

    /// The imports folder's sources, checked as an import would check them: each importer reads
    /// its options (selectors compile, patterns are safe, fields are known); a broken one is an
    /// error beside those that do not read.
    static func checkedSources(_ session: Session) -> ([SourceDefinition], [TimeTrackError]) {
        var (sources, errors) = session.sources()
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
        return (sources, errors)
    }

    /// "ok: 12 found, 2 new, 1 problem": what the last run did.
    static func runResult(_ run: ImportRun?) -> String {
        guard let run else { return "-" }
        var parts = ["\(run.found) found"]
        if run.new > 0 { parts.append("\(run.new) new") }
        if run.changed > 0 { parts.append("\(run.changed) changed") }
        if run.missing > 0 { parts.append("\(run.missing) missing") }
        if run.problems > 0 { parts.append("\(run.problems) problem\(run.problems == 1 ? "" : "s")") }
        return run.status.rawValue + ": " + parts.joined(separator: ", ")
    }

    static func printSourcesJSON(
        _ sources: [SourceDefinition], errors: [TimeTrackError], states: [String: SourceState], lastRuns: [String: ImportRun], session: Session
    ) {
        session.output.printJSON(
            JSONValue.object([
                "sources": .array(
                    sources.map { s in
                        .object([
                            "id": .string(s.id), "name": .string(s.name), "importer": .string(s.importer), "kind": .string(s.kind.rawValue),
                            "url": .string(s.urlText), "school": s.school.map { .string($0) } ?? .null,
                            "schedule": s.schedule.map { .string($0.description) } ?? .null,
                            "review": .string(s.review.rawValue), "enabled": .bool(s.enabled), "file": .string(s.file),
                            "held": states[s.id]?.heldReason.map { .string($0) } ?? .null,
                            "lastRun": states[s.id]?.lastRunAt.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
                            "lastResult": lastRuns[s.id].flatMap { try? JSONCoding.value($0) } ?? .null,
                        ])
                    }),
                "errors": .array(errors.map { .object($0.jsonObject) }),
            ]))
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
                throw TimeTrackError(
                    .configuration, "could not set \"enabled\" in the file; it was left as it was", fix: "set \"enabled\": \(enabled) by hand",
                    context: ["file": source.file])
            }
            session.output.line("\(id): \(enabled ? "enabled: `import --all` and cron read it" : "disabled: only `import \(id)` reads it")")
        }
        return 0
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
