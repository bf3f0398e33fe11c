import Foundation
import TimeTrackCore
import TimeTrackKit

/// An importer that is a program in the plugins folder (`PluginManifest`), in any language.
///
/// It gets the source definition and the run's context as one JSON line on stdin and answers with
/// JSON lines on stdout: items, problems, progress, and requests for pages, which the tool
/// fetches itself (robots.txt, the per-host schedule, the cache, size caps and the
/// private-network rule hold for plugins too) and answers on stdin. docs/external-importers.md.
///
/// Guarded as untrusted code: its environment is cleared but for what the manifest names; it
/// runs in its own process group, which is killed (TERM, then KILL) at the time limit, past the
/// output cap, or on Ctrl-C; stderr is kept (its end) as a problem of the run; a line that is
/// not the protocol is a problem, never a crash. It never sees the store.
public struct ExternalImporter: Importer {
    public static let info = ImporterInfo(name: "external", version: "1", kinds: PluginManifest.kinds, summary: "a program in the plugins folder", options: [])

    let manifest: PluginManifest
    let source: SourceDefinition

    public init(source: SourceDefinition) throws {
        guard let manifest = ImporterRegistry.external.manifests.first(where: { $0.info.name == source.importer }) else {
            throw source.error("importer", "'\(source.importer)' is not an installed importer")
        }
        try manifest.check(source)
        self.manifest = manifest
        self.source = source
    }

    /// The first line the plugin reads.
    func startLine(now: Date) -> Data {
        let iso = ISO8601DateFormatter()
        var definition: [String: JSONValue] = [
            "id": .string(source.id), "kind": .string(source.kind.rawValue), "url": .string(source.urlText), "timeZone": .string(source.timeZone.identifier),
            "options": .object(source.options),
        ]
        if let base = source.baseURL { definition["baseURL"] = .string(base.absoluteString) }
        if let school = source.school { definition["school"] = .string(school) }
        let line = JSONValue.object([
            "protocol": .number(Double(PluginManifest.protocolVersion)), "source": .object(definition),
            "run": .object(["now": .string(iso.string(from: now)), "importer": .string(manifest.info.name), "version": .string(manifest.info.version)]),
        ])
        return Data(((try? JSONCoding.compactString(line)) ?? "{}").utf8) + Data([10])
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var result = ImportResult()
        let normalizer = Normalizer(source: source, now: context.now)
        var found: [MappedFields.Found] = []
        var keys: [String: Int] = [:]
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TIMETRACK_PLUGIN_PROTOCOL": String(PluginManifest.protocolVersion)]
        let own = ProcessInfo.processInfo.environment
        for name in manifest.environment { if let value = own[name] { environment[name] = value } }
        let process = try PluginProcess(command: manifest.command, directory: manifest.folder, environment: environment)
        defer { process.stop() }
        let deadline = Date().addingTimeInterval(manifest.timeout)
        let name = manifest.info.name
        func failure(_ message: String, fix: String? = nil) -> TimeTrackError {
            TimeTrackError(.fetch, "the \(name) importer \(message)" + process.stderrTail, fix: fix, context: ["url": source.urlText])
        }
        try process.write(startLine(now: context.now), deadline: deadline)
        var lineNumber = 0
        var lastPage: FetchedPage?
        var badLines = 0
        var capped = false
        while let line = try process.readLine(deadline: deadline, maxOutput: manifest.maxOutput, shouldStop: context.shouldStop) {
            lineNumber += 1
            let location = "output line \(lineNumber)"
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            guard let value = try? JSONValue(parsing: line), let object = value.objectValue else {
                badLines += 1
                if badLines <= 20 {
                    result.problems.append(
                        ImportProblem(.warning, "not a JSON object, skipped: \(TextNormalizer.truncate(SafeText.visible(line), to: 120))", location: location))
                }
                continue
            }
            if let url = object["fetch"]?.stringValue {
                // The tool fetches: its rules hold for the plugin's pages too.
                var answer: [String: JSONValue] = ["fetched": .string(url)]
                if let parsed = URL(string: url), parsed.scheme != nil {
                    do {
                        let page = try context.fetcher.fetch(parsed)
                        result.pagesFetched += 1
                        lastPage = page
                        answer["status"] = .number(200)
                        answer["url"] = .string(page.url.absoluteString)
                        answer["contentType"] = page.contentType.map { .string($0) } ?? .null
                        answer["text"] = .string(String(decoding: page.data, as: UTF8.self))
                        context.progress?(result.pagesFetched, found.count)
                    } catch let error as TimeTrackError where error.code != .interrupted {
                        answer["error"] = .string(error.description)
                        result.problems.append(ImportProblem(.warning, "page request refused or failed: \(error.description)", location: location))
                    }
                } else {
                    answer["error"] = .string("'\(url)' is not an absolute URL")
                }
                try process.write(Data(((try? JSONCoding.compactString(JSONValue.object(answer))) ?? "{}").utf8) + Data([10]), deadline: deadline)
            } else if let item = object["item"]?.objectValue {
                var raw = RawItem()
                for (field, value) in item where field != "key" {
                    switch value {
                    case .string(let text): raw[field] = text
                    case .number, .bool: raw[field] = value.description
                    default: continue
                    }
                }
                // Links resolve against the page the plugin read last (or the source's own URL).
                let base = lastPage?.url ?? source.publicURL
                for field in MappedFields.linkFields { if let text = raw[field] { raw[field] = MappedFields.resolveLink(text, base: base) } }
                MappedFields.sanitizeBody(&raw, base: base)
                let key = item["key"].map(\.description) ?? MappedFields.defaultKey(raw, kind: source.kind, normalizer: normalizer) ?? ""
                guard !key.isEmpty else {
                    result.problems.append(ImportProblem(.error, "skipped: an item with no key, title or link", location: location))
                    continue
                }
                if let existing = keys[key] {
                    found[existing].raw.merge(raw)
                    result.duplicatesMerged += 1
                    continue
                }
                guard found.count < manifest.maxItems else {
                    // The cap: stop the plugin, keep what came, count nothing missing.
                    capped = true
                    process.stop()
                    result.unreadPages.append(source.urlText)
                    result.problems.append(
                        ImportProblem(
                            .warning, "stopped at \(manifest.maxItems) items (\"maxItems\" in plugin.json); the rest was not read", location: location))
                    break
                }
                let page = lastPage ?? FetchedPage(url: source.publicURL, location: name, data: Data(line.utf8), fetchedAt: context.now)
                keys[key] = found.count
                found.append(MappedFields.Found(key: key, raw: raw, page: page, pageURL: raw["link"] ?? page.url.absoluteString, location: location))
            } else if let problem = object["problem"] {
                let message = problem.objectValue?["message"]?.stringValue ?? problem.stringValue ?? "?"
                let severity: ImportProblem.Severity = problem.objectValue?["severity"]?.stringValue == "error" ? .error : .warning
                result.problems.append(
                    ImportProblem(
                        severity, TextNormalizer.truncate(SafeText.visible(message.replacingOccurrences(of: "\n", with: " ⏎ ")), to: 500),
                        location: problem.objectValue?["location"]?.stringValue.map { TextNormalizer.truncate(SafeText.visible($0), to: 120) } ?? location))
            } else if object["progress"] != nil {
                context.progress?(result.pagesFetched, found.count)
            } else if object["unread"] != nil {
                // A page of the source the plugin could not read: nothing of it counts missing.
                let url = object["unread"]?.stringValue ?? source.urlText
                result.unreadPages.append(url)
                result.problems.append(ImportProblem(.warning, "a page was not read: \(url)", location: location))
            } else {
                badLines += 1
                if badLines <= 20 {
                    result.problems.append(ImportProblem(.warning, "a line with no item, problem, progress or fetch, skipped", location: location))
                }
            }
        }
        if badLines > 20 {
            result.problems.append(ImportProblem(.warning, "\(badLines - 20) more lines that are not the protocol were skipped", location: name))
        }
        let status = process.wait(deadline: deadline)
        guard status == 0 || capped else {
            throw failure("exited with status \(status)", fix: "run it by hand in \(manifest.folder) with the start line on stdin (docs/external-importers.md)")
        }
        if !process.stderrTail.isEmpty {
            result.problems.append(ImportProblem(.warning, "stderr:" + process.stderrTail, location: name))
            result.runNote = TextNormalizer.truncate("plugin" + process.stderrTail, to: 2_000)
        }
        MappedFields.finish(found, normalizer: normalizer, into: &result, context: context)
        return result
    }
}
