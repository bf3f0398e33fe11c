import Foundation
import TimeTrackCore
import TimeTrackKit

/// One run of an external importer's process: the start line written, then each line it
/// prints answered or taken (a page request, an item, a problem, progress, a page it could
/// not read), then its exit judged and its items normalized.
struct PluginRun {
    let importer: ExternalImporter
    let context: ImportContext
    let process: PluginProcess
    let deadline: Date
    let normalizer: Normalizer
    var result = ImportResult()
    var found: [MappedFields.Found] = []
    var keys: [String: Int] = [:]
    /// The page the plugin read last: its items' links resolve against it.
    var lastPage: FetchedPage?
    /// Lines that are not the protocol (the first 20 are named).
    var badLines = 0
    /// True once `maxItems` items came and the plugin was stopped.
    var capped = false
    /// Keys of the items already normalized and written out (`spill`).
    var spilledKeys: Set<String> = []
    /// Items that repeated the key of one written out already: counted, not merged.
    var lateDuplicates = 0
    /// Items are normalized and written to a temporary file this many at a time, so a run of a
    /// million items holds one batch in memory (`SpilledItems`), not the run.
    static let spillBatch = 5_000

    var manifest: PluginManifest { importer.manifest }
    var source: SourceDefinition { importer.source }

    init(importer: ExternalImporter, context: ImportContext, process: PluginProcess) {
        self.importer = importer
        self.context = context
        self.process = process
        deadline = Date().addingTimeInterval(importer.manifest.timeout)
        normalizer = Normalizer(source: importer.source, now: context.now)
    }

    /// The whole run.
    mutating func run() throws -> ImportResult {
        try process.write(importer.startLine(now: context.now), deadline: deadline)
        var lineNumber = 0
        while !capped, let line = try process.readLine(deadline: deadline, maxOutput: manifest.maxOutput, shouldStop: context.shouldStop) {
            lineNumber += 1
            try take(line, location: "output line \(lineNumber)")
        }
        let name = manifest.info.name
        if badLines > 20 {
            result.note(ImportProblem(.warning, "\(badLines - 20) more lines that are not the protocol were skipped", location: name))
        }
        let status = process.wait(deadline: deadline)
        guard status == 0 || capped else {
            throw TimeTrackError(
                .fetch, "the \(name) importer exited with status \(status)" + process.stderrTail,
                fix: "run it by hand in \(manifest.folder) with the start line on stdin (docs/external-importers.md)", context: ["url": source.urlText])
        }
        if !process.stderrTail.isEmpty {
            result.note(ImportProblem(.warning, "stderr:" + process.stderrTail, location: name))
            result.runNote = TextNormalizer.truncate("plugin" + process.stderrTail, to: 2_000)
        }
        if lateDuplicates > 0 {
            result.note(
                ImportProblem(
                    .warning,
                    "\(lateDuplicates) item(s) repeated the key of an item more than \(Self.spillBatch) items earlier; they were counted as duplicates"
                        + " and not merged into it", location: name))
        }
        if result.spilled != nil {
            try spill()
        } else {
            MappedFields.finish(found, normalizer: normalizer, into: &result, context: context)
        }
        return result
    }

    /// Normalizes the items taken so far and writes them to the run's temporary file.
    mutating func spill() throws {
        var chunk = ImportResult()
        MappedFields.finish(found, normalizer: normalizer, into: &chunk, context: context)
        let spilled = try result.spilled ?? SpilledItems(kind: source.kind)
        result.spilled = spilled
        // The chunk's item memo entries go with its items, remembered with the batch that
        // stores them (the rest of the context's entries are pages').
        var memo: [String: MemoEntry] = [:]
        context.memoEntries.removeAll { entry in
            guard entry.url.utf8.starts(with: ItemMemoKeys.prefix.utf8) else { return false }
            memo[entry.url] = entry
            return true
        }
        try spilled.append(chunk.items, memo: memo)
        for problem in chunk.problems { result.note(problem) }
        result.problemsNotRecorded += chunk.problemsNotRecorded
        result.errorsNotRecorded += chunk.errorsNotRecorded
        result.settled += chunk.settled
        spilledKeys.formUnion(keys.keys)
        keys = [:]
        found = []
    }

    /// One line of the plugin's output.
    mutating func take(_ line: String, location: String) throws {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        guard let value = try? JSONValue(parsing: line), let object = value.objectValue else {
            skip("not a JSON object, skipped: \(TextNormalizer.truncate(SafeText.visible(line), to: 120))", location: location)
            return
        }
        if let url = object["fetch"]?.stringValue {
            try answer(fetch: url, location: location)
        } else if let item = object["item"]?.objectValue {
            try take(item, line: line, location: location)
        } else if let problem = object["problem"] {
            take(problem: problem, location: location)
        } else if object["progress"] != nil {
            context.progress?(result.pagesFetched, found.count + spilledKeys.count)
        } else if object["unread"] != nil {
            // A page of the source the plugin could not read: nothing of it counts missing.
            let url = object["unread"]?.stringValue ?? source.urlText
            result.unreadPages.append(url)
            result.note(
                ImportProblem(.warning, "a page was not read: \(TextNormalizer.truncate(SafeText.visible(url), to: 200))", location: location))
        } else {
            skip("a line with no item, problem, progress or fetch, skipped", location: location)
        }
    }

    /// A line that is not the protocol: named, the first 20 of them.
    mutating func skip(_ message: String, location: String) {
        badLines += 1
        if badLines <= 20 { result.note(ImportProblem(.warning, message, location: location)) }
    }

    /// Fetches a page the plugin asked for, with the tool's own rules (robots.txt, the per-host
    /// schedule, the cache, size caps, the private-network rule), and answers on its stdin.
    mutating func answer(fetch url: String, location: String) throws {
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
                result.note(ImportProblem(.warning, "page request refused or failed: \(error.description)", location: location))
            }
        } else {
            answer["error"] = .string("'\(url)' is not an absolute URL")
        }
        try process.write(Data(((try? JSONCoding.compactString(JSONValue.object(answer))) ?? "{}").utf8) + Data([10]), deadline: deadline)
    }

    /// An item: its text fields, links resolved against the page read last, merged by key, up
    /// to `maxItems` (past it the plugin is stopped and the run keeps what came).
    mutating func take(_ item: [String: JSONValue], line: String, location: String) throws {
        var raw = RawItem()
        for (field, value) in item where field != "key" {
            switch value {
            case .string(let text): raw[field] = text
            case .number, .bool: raw[field] = value.description
            default: continue
            }
        }
        let base = lastPage?.url ?? source.publicURL
        for field in MappedFields.linkFields { if let text = raw[field] { raw[field] = MappedFields.resolveLink(text, base: base) } }
        MappedFields.sanitizeBody(&raw, base: base)
        let key = item["key"].map(\.description) ?? MappedFields.defaultKey(raw, kind: source.kind, normalizer: normalizer) ?? ""
        guard !key.isEmpty else {
            result.note(ImportProblem(.error, "skipped: an item with no key, title or link", location: location))
            return
        }
        if let existing = keys[key] {
            found[existing].raw.merge(raw)
            result.duplicatesMerged += 1
            return
        }
        if spilledKeys.contains(key) {
            lateDuplicates += 1
            result.duplicatesMerged += 1
            return
        }
        guard found.count + spilledKeys.count < manifest.maxItems else {
            capped = true
            process.stop()
            result.unreadPages.append(source.urlText)
            result.note(
                ImportProblem(.warning, "stopped at \(manifest.maxItems) items (\"maxItems\" in plugin.json); the rest was not read", location: location))
            return
        }
        let page = lastPage ?? FetchedPage(url: source.publicURL, location: manifest.info.name, data: Data(line.utf8), fetchedAt: context.now)
        keys[key] = found.count
        found.append(MappedFields.Found(key: key, raw: raw, page: page, pageURL: raw["link"] ?? page.url.absoluteString, location: location))
        if found.count >= Self.spillBatch { try spill() }
    }

    /// A problem the plugin reports: shown on one line, at most 500 characters.
    mutating func take(problem: JSONValue, location: String) {
        let message = problem.objectValue?["message"]?.stringValue ?? problem.stringValue ?? "?"
        let severity: ImportProblem.Severity = problem.objectValue?["severity"]?.stringValue == "error" ? .error : .warning
        result.note(
            ImportProblem(
                severity, TextNormalizer.truncate(SafeText.visible(message.replacingOccurrences(of: "\n", with: " ⏎ ")), to: 500),
                location: problem.objectValue?["location"]?.stringValue.map { TextNormalizer.truncate(SafeText.visible($0), to: 120) } ?? location))
    }
}
