import Foundation
import TimeTrackCore
import TimeTrackKit

/// Runs the import of one or more sources into a store: the one owner of an import's moving
/// parts, used by the console's `import` and by the benchmark.
///
/// For its whole life it holds the store's run lock (one import at a time per store; a second
/// one fails at once with `.busy` naming the holder). It marks runs left by a killed import as
/// interrupted, opens the read-ahead lanes (read-only connections to the same store), makes each
/// source's web client (settings from `_settings.json` beside its definition, one host schedule
/// shared by every source so two sources on one host are still polite), and hands back each
/// source's outcome in order, on the caller's thread.
public final class ImportRunner {
    /// One source's outcome, handed to `run`'s `each` in order.
    public struct Outcome {
        public var index: Int
        public var source: SourceDefinition
        public var result: Result<SourceRunSummary, TimeTrackError>
        /// HTTP requests made for the source, and how many were answered 304 Not Modified.
        public var requests = 0
        public var notModified = 0
    }

    public let store: any ImportStore
    /// Runs a killed import had left running, marked interrupted when the runner was made.
    public let interruptedEarlier: Int
    /// Who the runs and revisions are recorded as.
    public let operatorName: String
    public var options = ImportOptions()
    /// Sources read at once while the current one is applied; 0 reads each in its turn.
    ///
    /// A single source is always read in its turn.
    public var lanes = SourceImports.defaultLanes
    /// Read this local file instead of the source's url (one source only).
    public var file: String?
    /// The version sent in the User-Agent.
    public var version = "0"
    /// The runs' clock (dates without a year resolve against it).
    public var now: () -> Date = { Date() }
    /// Asked before every page; true stops the import (Ctrl-C).
    public var shouldStop: () -> Bool = { false }
    /// Called as source `index` is read: pages fetched, items found.
    public var progress: ((_ index: Int, _ pages: Int, _ items: Int) -> Void)?
    /// Called while source `index` has a request in flight: host, bytes so far, seconds.
    public var transfer: ((_ index: Int, _ host: String, _ bytes: Int, _ elapsed: TimeInterval) -> Void)?

    /// The store's run lock, released with the runner.
    private let lock: any RunLock
    private let openReader: () throws -> any ReadingLane
    private let hosts = HostSchedule()

    /// - Parameters:
    ///   - lock: the store's run lock, taken (held for the runner's life).
    ///   - reader: opens one read-only connection to the same store (a read-ahead lane).
    /// The store and both factories come from `StoreLocation.open` (the store module's one
    /// door); this module never names an engine.
    public init(store: any ImportStore, lock: any RunLock, reader: @escaping () throws -> any ReadingLane, by operatorName: String) throws {
        self.lock = lock
        self.store = store
        self.openReader = reader
        self.operatorName = operatorName
        interruptedEarlier = try store.markInterruptedRuns()
    }

    /// The sources whose schedule says they are due at `now` (a source without one never is).
    public func due(_ sources: [SourceDefinition], at now: Date) throws -> [SourceDefinition] {
        try sources.filter { source in
            guard let schedule = source.schedule else { return false }
            return schedule.isDue(lastRun: try store.sourceState(source.id)?.lastRunAt, now: now, timeZone: source.timeZone)
        }
    }

    /// Imports `sources` in order; `each` gets every outcome in order and returns false to stop
    /// (sources being read ahead are then not applied, and their runs say so).
    public func run(_ sources: [SourceDefinition], each: (Outcome) throws -> Bool) throws {
        if file != nil && sources.count != 1 {
            throw TimeTrackError(.usage, "--file goes with exactly one source")
        }
        // `_settings.json` read once per folder, not once per source, and before anything runs:
        // a bad one is a configuration error of the whole command (exit 2), as in `extract`.
        var settingsByFolder: [String: FetchSettings] = [:]
        for source in sources {
            let folder = WebClient.settingsFolder(of: source)
            if settingsByFolder[folder] == nil { settingsByFolder[folder] = try FetchSettings.load(folder: folder) }
        }
        // A deadline source's course rules add the courses the store lacks (never overwriting
        // what `course add` set).
        // A course that has no weights yet (one a photographed sheet made) takes the rule's;
        // weights a person set are never touched.
        let known = Dictionary((try store.courses()).map { ($0.code.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for source in sources where source.kind == .deadline {
            for rule in (try? CourseRules(source: source).rules) ?? [] {
                if var existing = known[rule.course.code.lowercased()] {
                    guard existing.weights.isEmpty, !rule.course.weights.isEmpty else { continue }
                    existing.weights = rule.course.weights
                    try store.saveCourse(existing, by: operatorName, onlyIfMissing: false)
                } else {
                    try store.saveCourse(rule.course, by: operatorName, onlyIfMissing: true)
                }
            }
        }
        let laneCount = sources.count < 2 ? 0 : lanes
        // The hash library's one-time set-up on the other core, while the lanes' connections
        // and the pipelines are made here (else the first reading waits for it). Waited for
        // before returning: a process that exits while OpenSSL is being set up crashes in its
        // exit handlers.
        let prepared = DispatchSemaphore(value: 0)
        if !sources.isEmpty {
            Thread.detachNewThread {
                SHA256.prepare()
                prepared.signal()
            }
        } else {
            prepared.signal()
        }
        defer { prepared.wait() }
        let readers = try (0..<laneCount).map { _ in try openReader() }
        defer { for reader in readers { reader.close() } }
        var clients: [Int: WebClient] = [:]
        try SourceImports.run(sources, file: file, into: store, readers: readers, by: operatorName, options: options) { index, cache in
            let source = sources[index]
            var pipeline = ImportPipeline(importsRoot: URL(fileURLWithPath: source.file).deletingLastPathComponent())
            let folder = WebClient.settingsFolder(of: source)
            let settings = try settingsByFolder[folder] ?? FetchSettings.load(folder: folder)
            settingsByFolder[folder] = settings
            let client = WebClient(settings: settings, allowPrivateNetwork: source.allowPrivateNetwork, cache: cache, version: version, hosts: hosts)
            client.shouldStop = shouldStop
            if let transfer { client.onTransfer = { host, bytes, elapsed in transfer(index, host, bytes, elapsed) } }
            clients[index] = client
            pipeline.http = client
            pipeline.now = now
            pipeline.shouldStop = shouldStop
            if let progress { pipeline.progress = { pages, items in progress(index, pages, items) } }
            return pipeline
        } each: { index, _, result in
            let client = clients[index]
            return try each(
                Outcome(index: index, source: sources[index], result: result, requests: client?.requestCount ?? 0, notModified: client?.notModifiedCount ?? 0))
        }
    }
}

extension WebClient {
    /// The HTTP client for a source: settings from `_settings.json` beside its definition, its
    /// private-network permission, and `cache` for validators (nil: no cache).
    public static func forSource(_ source: SourceDefinition, cache: FetchCache?, version: String, hosts: HostSchedule = HostSchedule()) throws -> WebClient {
        let settings = try FetchSettings.load(folder: settingsFolder(of: source))
        return WebClient(settings: settings, allowPrivateNetwork: source.allowPrivateNetwork, cache: cache, version: version, hosts: hosts)
    }

    /// The folder whose `_settings.json` applies to `source`: its definition's.
    public static func settingsFolder(of source: SourceDefinition) -> String {
        let folder = (source.file as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
