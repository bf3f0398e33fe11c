import CSQLite
import Foundation
import TimeTrackConsole
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackStore

/// The bench on PostgreSQL (`--store postgresql://…`): the database it is given is emptied
/// before each first import, so it must be one made for the bench.
enum PostgresBench {
    /// Empties the bench's database (its `public` schema dropped and made again).
    ///
    /// Refuses a database whose store has operators: the bench never makes any, so that is
    /// somebody's store.
    static func reset(_ address: String, force: Bool = false) throws {
        let db = try PostgresConnection(address)
        defer { db.close() }
        if !force, try db.scalar("SELECT to_regclass('operators') IS NOT NULL") == "t", let count = try db.scalar("SELECT count(*) FROM operators"),
            count != "0"
        {
            throw TimeTrackError(
                .configuration,
                "the database \(PostgresConnection.redacted(address)) holds a store with \(count) operators, and the bench empties the database it is given",
                fix: "create one for it: createdb timetrack_bench")
        }
        try db.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    }
}

/// What a child process measured.
struct ChildResult: Codable {
    var seconds: Double
    var items: Int = 0
    var pages: Int = 0
    var maxRSSKB: Int = 0
    /// User + system CPU time of the child, all threads.
    var cpuSeconds: Double = 0
    /// CPU time the applying thread spent in the store, and the items it wrote new.
    var storeCPUSeconds: Double = 0
    var newItems: Int = 0
}

enum Child {
    /// libxml2 parsing every page and nothing else: the floor.
    ///
    /// `parse` (by default libxml2's parse as it comes) may be the arena's, for information.
    static func floor(_ folder: String, parse: (Data) -> Void = HTMLDocument.parseAndDiscard) throws -> ChildResult {
        let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".html") }.sorted()
        let start = Date()
        for name in files {
            parse(try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name))))
        }
        return ChildResult(seconds: Date().timeIntervalSince(start), pages: files.count)
    }

    /// The floor's parse with the import's arena allocation (not the floor: for information).
    static func arenaFloor(_ folder: String) throws -> ChildResult { try floor(folder, parse: HTMLDocument.parseInArenaAndDiscard) }

    /// The floor on all cores: every page parsed by libxml2 on `Parallel.workers` threads.
    static func parallelFloor(_ folder: String) throws -> ChildResult {
        let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".html") }.sorted()
        let paths = files.map { (folder as NSString).appendingPathComponent($0) }
        let start = Date()
        _ = Parallel.map(paths) { path in
            if let data = try? Data(contentsOf: URL(fileURLWithPath: path)) { HTMLDocument.parseAndDiscard(data) }
            return 0
        }
        return ChildResult(seconds: Date().timeIntervalSince(start), pages: files.count)
    }

    /// SHA-256 of every page (read first, not timed): the hashing share of a fetch.
    static func hashAll(_ folder: String) throws -> ChildResult {
        let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".html") }.sorted()
        let pages = try files.map { try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent($0))) }
        let start = Date()
        var bytes = 0
        for page in pages {
            bytes += page.count
            _ = SHA256.hex(page)
        }
        return ChildResult(seconds: Date().timeIntervalSince(start), items: bytes, pages: files.count)
    }

    /// Every source of an imports folder into a store, as `import --all` does (through the same `ImportRunner`).
    static func importAll(imports: String, store path: String) throws -> ChildResult {
        let start = Date()
        let opened = try StoreLocation.open(path, create: true)
        let store = opened.store
        let (sources, errors) = SourceDefinition.loadAll(folder: imports)
        if let error = errors.first { throw error }
        var items = 0, pages = 0, newItems = 0
        var storeCPU = 0.0
        do {
            let runner = try ImportRunner(store: store, lock: try opened.runLock(), reader: opened.reader, by: "bench")
            runner.now = { Date(timeIntervalSince1970: 1_790_000_000) }
            try runner.run(sources) { outcome in
                let summary = try outcome.result.get()
                items += summary.result.found
                pages += summary.result.pagesFetched
                storeCPU += summary.applyCPUSeconds
                newItems += summary.run?.new ?? 0
                return true
            }
        }
        store.close()
        return ChildResult(seconds: Date().timeIntervalSince(start), items: items, pages: pages, storeCPUSeconds: storeCPU, newItems: newItems)
    }

    /// Every source read and normalized, nothing stored: how much of an import is extraction.
    static func extractAll(imports: String) throws -> ChildResult {
        let start = Date()
        let (sources, errors) = SourceDefinition.loadAll(folder: imports)
        if let error = errors.first { throw error }
        var items = 0, pages = 0
        for source in sources {
            var pipeline = ImportPipeline(importsRoot: URL(fileURLWithPath: imports))
            pipeline.now = { Date(timeIntervalSince1970: 1_790_000_000) }
            let result = try pipeline.extract(source)
            items += result.items.count
            pages += result.pagesFetched
        }
        return ChildResult(seconds: Date().timeIntervalSince(start), items: items, pages: pages)
    }

    /// A store with `count` items, written straight with SQL in one transaction (the schema is
    /// the store's own: it is created by opening it first).
    static func fill(store path: String, count: Int) throws -> ChildResult {
        let start = Date()
        try SQLiteStore(path: path, create: true).close()
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw TimeTrackError(.database, "cannot open \(path)") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw TimeTrackError(.database, String(cString: sqlite3_errmsg(db))) }
        }
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; BEGIN")
        var item: OpaquePointer?, revision: OpaquePointer?, row: OpaquePointer?
        sqlite3_prepare_v2(
            db,
            "INSERT INTO items (seq, id, kind, status, school, title, sort_at, source_id, source_key, source_url, pending_revision, live_revision,"
                + " base_hash, created_at, updated_at) VALUES (?, ?, 'announcement', ?, 'school1', ?, ?, 'bench', ?, 'https://lakeside.example/', ?,"
                + " ?, 'h', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
            -1, &item, nil)
        sqlite3_prepare_v2(
            db,
            "INSERT INTO revisions (item_seq, number, state, content, content_hash, created_at, created_by) VALUES (?, 1, ?, ?, 'h',"
                + " '2026-01-01T00:00:00Z', 'bench')",
            -1, &revision, nil)
        sqlite3_prepare_v2(
            db,
            "INSERT INTO announcements (item_seq, title, summary, link, published_at, priority) VALUES (?, ?, 'Summary', 'https://lakeside.example/',"
                + " ?, 'normal')",
            -1, &row, nil)
        defer { sqlite3_finalize(item); sqlite3_finalize(revision); sqlite3_finalize(row) }
        let transient = csqlite_transient()
        for seq in 1...count {
            // One in five pending, the rest published: a realistic queue on a big store.
            let pending = seq % 5 == 0
            let title = "Announcement \(seq)"
            let date = String(format: "2026-%02d-%02dT%02d:00:00Z", seq % 12 + 1, seq % 28 + 1, seq % 24)
            sqlite3_bind_int64(item, 1, Int64(seq))
            sqlite3_bind_text(item, 2, "a\(seq)", -1, transient)
            sqlite3_bind_text(item, 3, pending ? "pending" : "published", -1, transient)
            sqlite3_bind_text(item, 4, title, -1, transient)
            sqlite3_bind_text(item, 5, date, -1, transient)
            sqlite3_bind_text(item, 6, "key-\(seq)", -1, transient)
            if pending { sqlite3_bind_int64(item, 7, 1); sqlite3_bind_null(item, 8) } else { sqlite3_bind_null(item, 7); sqlite3_bind_int64(item, 8, 1) }
            guard sqlite3_step(item) == SQLITE_DONE else { throw TimeTrackError(.database, String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(item)
            sqlite3_bind_int64(revision, 1, Int64(seq))
            sqlite3_bind_text(revision, 2, pending ? "pending" : "live", -1, transient)
            sqlite3_bind_text(
                revision, 3,
                "{\"link\":\"https://lakeside.example/\",\"priority\":\"normal\",\"publishedAt\":\"\(date)\",\"summary\":\"Summary\",\"title\":\"\(title)\"}",
                -1, transient)
            guard sqlite3_step(revision) == SQLITE_DONE else { throw TimeTrackError(.database, String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(revision)
            sqlite3_bind_int64(row, 1, Int64(seq))
            sqlite3_bind_text(row, 2, title, -1, transient)
            sqlite3_bind_text(row, 3, date, -1, transient)
            guard sqlite3_step(row) == SQLITE_DONE else { throw TimeTrackError(.database, String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(row)
        }
        try exec("COMMIT; PRAGMA wal_checkpoint(TRUNCATE); ANALYZE")
        return ChildResult(seconds: Date().timeIntervalSince(start), items: count)
    }
}

/// Runs this same executable as a child and returns what it printed and its peak RSS.
///
/// Runs this executable with `arguments` (and `environment` added to its own); the child's
/// JSON result with its peak memory and CPU time, and the wall clock.
func runChild(_ arguments: [String], environment: [String: String] = [:]) throws -> (ChildResult, Double) {
    var pid: pid_t = 0
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).path
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let envp = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in envp { free(p) } }
    var out: [Int32] = [0, 0]
    pipe(&out)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_addclose(&actions, out[0])
    let start = Date()
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    posix_spawn_file_actions_destroy(&actions)
    close(out[1])
    guard rc == 0 else { throw TimeTrackError(.system, "cannot start a child: \(rc)") }
    let data = FileHandle(fileDescriptor: out[0], closeOnDealloc: true).readDataToEndOfFile()
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let wall = Date().timeIntervalSince(start)
    guard status == 0 else { throw TimeTrackError(.system, "child \(arguments) failed with status \(status)") }
    var result = (try? JSONDecoder().decode(ChildResult.self, from: data)) ?? ChildResult(seconds: wall)
    result.maxRSSKB = Int(usage.ru_maxrss)
    result.cpuSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    return (result, wall)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
}
