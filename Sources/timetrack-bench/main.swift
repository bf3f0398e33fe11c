// timetrack-bench: how close the import pipeline is to libxml2's parse time, and how the console
// scales with the store.
// `swift run -c release timetrack-bench [--pages N] [--large N] [--items N] [--repeat N] [--json]`.
// `swift run -c release timetrack-bench --fuzz N [--seed S]`: N mutated inputs per parser instead.
// `swift run -c release timetrack-bench --listing N [--repeat R]`: one listing page of N items.
// `swift run -c release timetrack-bench --memory [--listing-items N] [--plugin-items N]`: peak memory of
// a listing page's import and of an external importer's items.
// `swift run -c release timetrack-bench --articles DIR --out FILE`: the article extractor on an
// article-extraction benchmark folder (its scorer's input, and the slowest page's CPU time).
// `--store postgresql://USER@HOST/DB`: the imports and the million-item store on PostgreSQL too
// (beside SQLite, for the ratio); the bench empties that database, so give it one of its own.
import Foundation
import TimeTrackConsole
import TimeTrackCore
import TimeTrackFuzz
import TimeTrackStore

let arguments = Array(CommandLine.arguments.dropFirst())

// A long fuzz campaign (the tests run a short one with a fixed seed).
if let index = arguments.firstIndex(of: "--fuzz") {
    let iterations = index + 1 < arguments.count ? Int(arguments[index + 1]) ?? 10_000 : 10_000
    let seed = arguments.firstIndex(of: "--seed").flatMap { $0 + 1 < arguments.count ? UInt64(arguments[$0 + 1]) : nil } ?? UInt64(Date().timeIntervalSince1970)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("fuzz seed \(seed), \(iterations) inputs per target")
    var failed = false
    for target in FuzzCampaign.targets {
        do {
            let report = try FuzzCampaign(seed: seed, folder: folder).run(target, iterations: iterations)
            print(report)
            for failure in report.failures.prefix(5) { print("  " + failure.prefix(300)) }
            failed = failed || !report.failures.isEmpty
        } catch {
            print("\(target): \(error)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}

// One listing page of N items (default 100,000), extracted as an import reads it.
if let index = arguments.firstIndex(of: "--listing") {
    let items = index + 1 < arguments.count ? Int(arguments[index + 1]) ?? 100_000 : 100_000
    let repeats = arguments.firstIndex(of: "--repeat").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 3
    do {
        var complete = true
        for shape in ListingBench.Shape.allCases {
            let (seconds, found, bytes) = try ListingBench.run(items: items, repeats: repeats, shape: shape)
            print(
                String(
                    format: "listing, %@ items: %d (%.1f MB) -> %d extracted; best %.3f s, median %.3f s over %d runs (target: under 2 s for 100,000)",
                    shape.rawValue, items, Double(bytes) / 1_000_000, found, seconds.first ?? 0, seconds[seconds.count / 2], seconds.count))
            complete = complete && found == items
        }
        exit(complete ? 0 : 1)
    } catch {
        print("listing: \(error)")
        exit(1)
    }
}

// The article extractor on a benchmark folder: the scorer's input, and the slowest page's CPU time.
if let index = arguments.firstIndex(of: "--articles"), index + 1 < arguments.count {
    let out = arguments.firstIndex(of: "--out").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "articles.json"
    do {
        let figures = try ArticleBench.run(folder: arguments[index + 1], out: out)
        print(
            String(
                format: "articles: %d pages (%d with nothing found) -> %@; CPU per page: mean %.1f ms, slowest %.1f ms (%@); target: none over 50 ms",
                figures.pages, figures.empty, out, figures.totalSeconds / Double(max(1, figures.pages)) * 1000, figures.slowest.seconds * 1000,
                figures.slowest.name))
        exit(figures.slowest.seconds <= 0.05 ? 0 : 1)
    } catch {
        print("articles: \(error)")
        exit(1)
    }
}

// Peak memory of a listing page's import and of an external importer's million items.
if arguments.contains("--memory") {
    func count(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-memory-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
        for figure in try MemoryBench.run(listingItems: count("--listing-items", 100_000), pluginItems: count("--plugin-items", 1_000_000), in: folder) {
            print(String(format: "memory: %@: peak %.0f MB (%@), %.1f s", figure.what, figure.peakMB, figure.note, figure.seconds))
        }
    } catch {
        print("memory: \(error)")
        exit(1)
    }
    exit(0)
}

// Child modes: one measurement per fresh process.
if arguments.first == "--child" {
    do {
        let result: ChildResult
        switch arguments.dropFirst().first {
        case "floor": result = try Child.floor(arguments[2])
        case "import": result = try Child.importAll(imports: arguments[2], store: arguments[3])
        case "extract": result = try Child.extractAll(imports: arguments[2])
        case "hash": result = try Child.hashAll(arguments[2])
        case "parallel-floor": result = try Child.parallelFloor(arguments[2])
        case "arena-floor": result = try Child.arenaFloor(arguments[2])
        case "fill": result = try Child.fill(store: arguments[2], count: Int(arguments[3]) ?? 1_000_000)
        case "generate":
            // For profiling: `timetrack-bench --child generate DIR PAGES` leaves a corpus in DIR.
            var corpus = Corpus(root: URL(fileURLWithPath: arguments[2]), totalPages: Int(arguments[3]) ?? 2_000)
            _ = try corpus.generate()
            result = ChildResult(seconds: 0, pages: corpus.pageFiles.count)
        case "console":
            // The console exactly as timetrack-admin runs it, writing to /dev/null.
            let null = open("/dev/null", O_WRONLY)
            dup2(null, 1)
            exit(Console.main(arguments: Array(arguments.dropFirst(2))))
        default: throw TimeTrackError(.usage, "unknown child mode")
        }
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("timetrack-bench child: \(error)\n".utf8))
        exit(1)
    }
}

func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count, let n = Int(arguments[index + 1]) else { return fallback }
    return n
}
let json = arguments.contains("--json")
let smallPages = option("pages", 2_000)
let largePages = option("large", 20_000)
let storeItems = option("items", 1_000_000)
// The floor and the first import vary from run to run on a shared machine: each is run this
// many times, alternating, and the medians are compared.
let repeats = max(1, option("repeat", 3))
let postgres = arguments.firstIndex(of: "--store").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
if let postgres, !PostgresConnection.isAddress(postgres) {
    FileHandle.standardError.write(Data("timetrack-bench: --store takes a PostgreSQL address (postgresql://USER@HOST/DB); SQLite is always measured\n".utf8))
    exit(2)
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-bench-\(getpid())")
func note(_ text: String) { if !json { FileHandle.standardError.write(Data((text + "\n").utf8)) } }

var figures: [String: Double] = [:]
var rows: [(String, String, String)] = []
var parallelFloor = ChildResult(seconds: 0)
/// The floor's parse with the import's arena allocation, CPU the median of the rounds.
var arenaFloor = ChildResult(seconds: 0)
var oneThread = ChildResult(seconds: 0)
var floorRange = (0.0, 0.0), firstRange = (0.0, 0.0), unchangedRange = (0.0, 0.0)
/// (target, figure, "met" or "missed"), printed after the table.
var targets: [(String, String, String)] = []
do {
    defer { try? FileManager.default.removeItem(at: work) }
    // a–d on the small corpus, f on both.
    var results: [Int: (floor: ChildResult, first: ChildResult, unchanged: ChildResult, changed: ChildResult, touched: Int)] = [:]
    /// On PostgreSQL (small corpus): the first imports and the unchanged re-imports.
    var pgFirsts: [ChildResult] = [], pgUnchanged: [ChildResult] = []
    var storage: (usedBytes: Int, contentBytes: Int, revisions: Int) = (0, 0, 0)
    var corpusBytes = 0
    for pages in [smallPages, largePages] where pages > 0 {
        note("generating a corpus of about \(pages) pages…")
        var corpus = Corpus(root: work.appendingPathComponent("corpus-\(pages)"), totalPages: pages)
        let imports = try corpus.generate()
        let store = work.appendingPathComponent("store-\(pages).sqlite").path
        var floors: [ChildResult] = [], firsts: [ChildResult] = []
        for round in 1...(pages == smallPages ? repeats : 1) {
            note("  \(corpus.pageFiles.count) pages in \(corpus.schools) schools; floor and first import, round \(round)…")
            floors.append(try runChild(["--child", "floor", imports.path]).0)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            firsts.append(try runChild(["--child", "import", imports.path, store]).0)
            if let postgres, pages == smallPages {
                try PostgresBench.reset(postgres)
                pgFirsts.append(try runChild(["--child", "import", imports.path, postgres]).0)
            }
        }
        if pages == smallPages {
            // The store the first import wrote, and the corpus it read.
            let opened = try SQLiteStore(path: store, create: false)
            storage = try opened.storageFigures()
            opened.close()
            corpusBytes = corpus.pageFiles.reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
            }
        }
        func medianRun(_ runs: [ChildResult]) -> ChildResult { runs.sorted { $0.seconds < $1.seconds }[runs.count / 2] }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        // Wall clock from the run of median wall clock; each CPU figure the median of its own
        // rounds (the run of median wall clock is not the run of median CPU on a busy machine).
        var floor = medianRun(floors), first = medianRun(firsts)
        floor.cpuSeconds = median(floors.map(\.cpuSeconds))
        first.cpuSeconds = median(firsts.map(\.cpuSeconds))
        first.storeCPUSeconds = median(firsts.map(\.storeCPUSeconds))
        if pages == smallPages {
            note("  floor on all cores…")
            parallelFloor = try runChild(["--child", "parallel-floor", imports.path]).0
            note("  floor with the import's arena allocation…")
            let arenaFloors = try (0..<repeats).map { _ in try runChild(["--child", "arena-floor", imports.path]).0 }
            arenaFloor = arenaFloors.sorted { $0.cpuSeconds < $1.cpuSeconds }[arenaFloors.count / 2]
            // The same first import on one thread: how much of its CPU is work, and how much the
            // price of using both cores.
            note("  first import on one thread…")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            oneThread = try runChild(["--child", "import", imports.path, store], environment: ["TIMETRACK_WORKERS": "1", "TIMETRACK_READ_AHEAD": "0"]).0
            floorRange = (floors.map(\.seconds).min() ?? 0, floors.map(\.seconds).max() ?? 0)
            firstRange = (firsts.map(\.seconds).min() ?? 0, firsts.map(\.seconds).max() ?? 0)
        }
        // Nothing changes between these runs, so each is the same measurement: the median counts.
        var unchangedRuns: [ChildResult] = []
        for round in 1...(pages == smallPages ? repeats : 1) {
            note("  unchanged re-import, round \(round)…")
            unchangedRuns.append(try runChild(["--child", "import", imports.path, store]).0)
            if let postgres, pages == smallPages { pgUnchanged.append(try runChild(["--child", "import", imports.path, postgres]).0) }
        }
        let unchanged = medianRun(unchangedRuns)
        if pages == smallPages { unchangedRange = (unchangedRuns.map(\.seconds).min() ?? 0, unchangedRuns.map(\.seconds).max() ?? 0) }
        let touched = try corpus.touch(fraction: 0.1)
        note("  re-import with \(touched) pages changed…")
        let (changed, _) = try runChild(["--child", "import", imports.path, store])
        results[pages] = (floor, first, unchanged, changed, touched)
    }
    if let small = results[smallPages] {
        let floor = small.floor.seconds
        figures["pages"] = Double(small.floor.pages)
        figures["floorSeconds"] = floor
        figures["firstImportSeconds"] = small.first.seconds
        figures["firstImportRatio"] = small.first.seconds / floor
        figures["unchangedSeconds"] = small.unchanged.seconds
        figures["unchangedRatioToFirst"] = small.unchanged.seconds / small.first.seconds
        figures["changed10Seconds"] = small.changed.seconds
        figures["changed10RatioToFirst"] = small.changed.seconds / small.first.seconds
        figures["items"] = Double(small.first.items)
        figures["floorCPUSeconds"] = small.floor.cpuSeconds
        figures["firstImportCPUSeconds"] = small.first.cpuSeconds
        figures["firstImportCPURatio"] = small.first.cpuSeconds / max(0.001, small.floor.cpuSeconds)
        figures["parallelFloorSeconds"] = parallelFloor.seconds
        figures["arenaFloorCPUSeconds"] = arenaFloor.cpuSeconds
        figures["firstImportCPURatioToArenaFloor"] = small.first.cpuSeconds / max(0.001, arenaFloor.cpuSeconds)
        figures["oneThreadFirstImportCPUSeconds"] = oneThread.cpuSeconds
        figures["oneThreadFirstImportCPURatio"] = oneThread.cpuSeconds / max(0.001, small.floor.cpuSeconds)
        figures["firstImportRatioToParallelFloor"] = small.first.seconds / max(0.001, parallelFloor.seconds)
        figures["repeats"] = Double(repeats)
        let items = Double(max(1, small.first.items))
        figures["firstImportCPUMicrosecondsPerItem"] = small.first.cpuSeconds / items * 1_000_000
        figures["firstImportCPUSecondsPerMB"] = small.first.cpuSeconds / max(0.001, Double(corpusBytes) / 1_000_000)
        figures["storeCPUMicrosecondsPerNewItem"] = small.first.storeCPUSeconds / Double(max(1, small.first.newItems)) * 1_000_000
        figures["storeBytesPerItem"] = Double(storage.usedBytes) / items
        figures["storeBytesRatioToContent"] = Double(storage.usedBytes) / Double(max(1, storage.contentBytes))
        rows += [
            (
                "a. floor: libxml2 parse of \(small.floor.pages) pages, one thread", String(format: "%.3f s", floor),
                String(format: "1.00× floor (median of %d: %.3f–%.3f s)", repeats, floorRange.0, floorRange.1)
            ),
            (
                "b. first import (\(small.first.items) items), wall clock", String(format: "%.3f s", small.first.seconds),
                String(format: "%.2f× floor (target ≤ 2; median of %d: %.3f–%.3f s)", small.first.seconds / floor, repeats, firstRange.0, firstRange.1)
            ),
            (
                "   same, CPU time of all threads", String(format: "%.3f s", small.first.cpuSeconds),
                String(format: "%.2f× the floor's CPU time of %.3f s", small.first.cpuSeconds / max(0.001, small.floor.cpuSeconds), small.floor.cpuSeconds)
            ),
            (
                "   floor on all \(ProcessInfo.processInfo.activeProcessorCount) cores (libxml2 only)", String(format: "%.3f s", parallelFloor.seconds),
                String(format: "first import is %.2f× this", small.first.seconds / max(0.001, parallelFloor.seconds))
            ),
            (
                "   floor's parse in arenas, as the import parses, CPU", String(format: "%.3f s", arenaFloor.cpuSeconds),
                String(format: "first import CPU is %.2f× this (information, not the floor)", small.first.cpuSeconds / max(0.001, arenaFloor.cpuSeconds))
            ),
            (
                "   same on one thread (no read-ahead), CPU time", String(format: "%.3f s", oneThread.cpuSeconds),
                String(format: "%.2f× the floor's CPU time (wall clock %.3f s)", oneThread.cpuSeconds / max(0.001, small.floor.cpuSeconds), oneThread.seconds)
            ),
            (
                "c. re-import, nothing changed", String(format: "%.3f s", small.unchanged.seconds),
                String(
                    format: "%.2f× first (target ≤ 0.3; median of %d: %.3f–%.3f s)", small.unchanged.seconds / small.first.seconds, repeats,
                    unchangedRange.0, unchangedRange.1)
            ),
            (
                "d. re-import, \(small.touched) pages (10%) changed", String(format: "%.3f s", small.changed.seconds),
                String(format: "%.2f× first", small.changed.seconds / small.first.seconds)
            ),
            (
                "   first import CPU per item, per MB of pages", String(format: "%.0f µs", figures["firstImportCPUMicrosecondsPerItem"] ?? 0),
                String(format: "%.2f s per MB (%.1f MB of pages)", figures["firstImportCPUSecondsPerMB"] ?? 0, Double(corpusBytes) / 1_000_000)
            ),
            (
                "   store CPU per new item (the applying thread)", String(format: "%.0f µs", figures["storeCPUMicrosecondsPerNewItem"] ?? 0),
                String(format: "%.3f s for %d new items", small.first.storeCPUSeconds, small.first.newItems)
            ),
            (
                "   store after the first import, per item", String(format: "%.0f bytes", figures["storeBytesPerItem"] ?? 0),
                String(
                    format: "%.2f× the content itself (%.1f MB used, %.1f MB of content in %d revisions)", figures["storeBytesRatioToContent"] ?? 0,
                    Double(storage.usedBytes) / 1_000_000, Double(storage.contentBytes) / 1_000_000, storage.revisions)
            ),
        ]
        // Each target, met or missed (issue 16's next to the first landing's).
        func verdict(_ ok: Bool) -> String { ok ? "met" : "missed" }
        let cpuRatio = small.first.cpuSeconds / max(0.001, small.floor.cpuSeconds)
        targets += [
            ("first import wall ≤ 2× floor", String(format: "%.2f×", small.first.seconds / floor), verdict(small.first.seconds / floor <= 2)),
            (
                "unchanged re-import ≤ 0.3× first", String(format: "%.2f×", small.unchanged.seconds / small.first.seconds),
                verdict(small.unchanged.seconds / small.first.seconds <= 0.3)
            ),
            ("first import CPU ≤ 1.6× the floor's CPU", String(format: "%.2f×", cpuRatio), verdict(cpuRatio <= 1.6)),
            (
                "first import wall ≤ 1.3× the one-thread floor", String(format: "%.2f×", small.first.seconds / floor),
                verdict(small.first.seconds / floor <= 1.3)
            ),
            (
                "unchanged re-import ≤ 0.08× first", String(format: "%.2f×", small.unchanged.seconds / small.first.seconds),
                verdict(small.unchanged.seconds / small.first.seconds <= 0.08)
            ),
            (
                "store CPU ≤ 50 µs per new item", String(format: "%.0f µs", figures["storeCPUMicrosecondsPerNewItem"] ?? 0),
                verdict((figures["storeCPUMicrosecondsPerNewItem"] ?? 0) <= 50)
            ),
            (
                "store bytes ≤ 1.1× the content", String(format: "%.2f×", figures["storeBytesRatioToContent"] ?? 0),
                verdict((figures["storeBytesRatioToContent"] ?? 0) <= 1.1)
            ),
        ]
    }
    if let small = results[smallPages], !pgFirsts.isEmpty, !pgUnchanged.isEmpty {
        let first = median(pgFirsts.map(\.seconds)), unchanged = median(pgUnchanged.map(\.seconds))
        let ratio = first / max(0.001, small.first.seconds)
        figures["postgresFirstImportSeconds"] = first
        figures["postgresFirstImportRatioToSQLite"] = ratio
        figures["postgresUnchangedSeconds"] = unchanged
        rows += [
            (
                "b. first import on PostgreSQL (\(pgFirsts[0].items) items)", String(format: "%.3f s", first),
                String(
                    format: "%.2f× SQLite's (target ≤ 1.5; median of %d: %.3f–%.3f s)", ratio, pgFirsts.count, pgFirsts.map(\.seconds).min() ?? 0,
                    pgFirsts.map(\.seconds).max() ?? 0)
            ),
            (
                "c. re-import on PostgreSQL, nothing changed", String(format: "%.3f s", unchanged),
                String(format: "%.2f× its first import", unchanged / max(0.001, first))
            ),
        ]
        targets.append(("PostgreSQL first import ≤ 1.5× SQLite's", String(format: "%.2f×", ratio), ratio <= 1.5 ? "met" : "missed"))
    }
    if let small = results[smallPages], let large = results[largePages] {
        figures["peakRSSSmallMB"] = Double(small.first.maxRSSKB) / 1024
        figures["peakRSSLargeMB"] = Double(large.first.maxRSSKB) / 1024
        figures["peakRSSRatio"] = Double(large.first.maxRSSKB) / Double(max(1, small.first.maxRSSKB))
        figures["largePages"] = Double(large.floor.pages)
        figures["largeFirstImportRatio"] = large.first.seconds / large.floor.seconds
        rows += [
            ("f. peak RSS, first import of \(small.floor.pages) pages", String(format: "%.1f MB", Double(small.first.maxRSSKB) / 1024), ""),
            (
                "f. peak RSS, first import of \(large.floor.pages) pages", String(format: "%.1f MB", Double(large.first.maxRSSKB) / 1024),
                String(format: "%.2f× the small run (target ≤ 1.2)", figures["peakRSSRatio"] ?? 0)
            ),
            (
                "   (large corpus: first import)", String(format: "%.3f s", large.first.seconds),
                String(format: "%.2f× its floor of %.3f s", large.first.seconds / large.floor.seconds, large.floor.seconds)
            ),
        ]
        targets.append(
            (
                "peak memory ≤ 1.2× from the small corpus to the large", String(format: "%.2f×", figures["peakRSSRatio"] ?? 0),
                (figures["peakRSSRatio"] ?? 9) <= 1.2 ? "met" : "missed"
            ))
    }
    // e. the console.
    note("console start…")
    var starts: [Double] = []
    for _ in 0..<21 { starts.append(try runChild(["--child", "console", "help"]).1) }
    figures["consoleStartMs"] = median(starts) * 1000
    rows.append(("e. console start to first output (help), median of 21", String(format: "%.1f ms", median(starts) * 1000), "target < 50 ms"))
    targets.append(("console start < 50 ms", String(format: "%.1f ms", median(starts) * 1000), median(starts) < 0.05 ? "met" : "missed"))
    if storeItems > 0 {
        note("filling a store with \(storeItems) items…")
        let big = work.appendingPathComponent("big.sqlite").path
        let (fill, _) = try runChild(["--child", "fill", big, String(storeItems)])
        note("  filled in \(String(format: "%.1f", fill.seconds)) s; paging…")
        let store = try SQLiteStore(path: big, create: false)
        func time(_ body: () throws -> Void) rethrows -> Double {
            var samples: [Double] = []
            for _ in 0..<21 {
                let start = Date()
                try body()
                samples.append(Date().timeIntervalSince(start))
            }
            return median(samples) * 1000
        }
        let firstPage = try time { _ = try store.list(ItemQuery(kind: .announcement, status: .pending, limit: 50)) }
        let deepPage = try time { _ = try store.list(ItemQuery(kind: .announcement, status: .pending, limit: 50, offset: 5_000)) }
        let anyKind = try time { _ = try store.list(ItemQuery(status: .pending, limit: 50)) }
        let queue = try time { _ = try store.list(ItemQuery(needsReview: true, limit: 50)) }
        let show = try time { _ = try store.item("a500000") }
        store.close()
        var cli: [Double] = []
        for _ in 0..<11 { cli.append(try runChild(["--child", "console", "--store", big, "list", "announcements", "--status", "pending", "--limit", "50"]).1) }
        var review: [Double] = []
        for _ in 0..<11 { review.append(try runChild(["--child", "console", "--store", big, "review", "--kind", "announcements"]).1) }
        figures["storeItems"] = Double(storeItems)
        figures["listPendingPageMs"] = firstPage
        figures["listDeepPageMs"] = deepPage
        figures["listAnyKindPageMs"] = anyKind
        figures["reviewQueuePageMs"] = queue
        figures["showItemMs"] = show
        figures["cliListMs"] = median(cli) * 1000
        targets.append(("a page of 50 pending of \(storeItems) items < 20 ms", String(format: "%.2f ms", firstPage), firstPage < 20 ? "met" : "missed"))
        rows += [
            ("e. page of 50 pending announcements, \(storeItems) items", String(format: "%.2f ms", firstPage), "target < 20 ms"),
            ("e. same, 100 pages deep (offset 5,000)", String(format: "%.2f ms", deepPage), ""),
            ("e. page of 50 pending items of any kind", String(format: "%.2f ms", anyKind), ""),
            ("e. review queue, first 50", String(format: "%.2f ms", queue), ""),
            ("e. show one item", String(format: "%.2f ms", show), ""),
            ("e. `timetrack-admin list … --limit 50` end to end", String(format: "%.1f ms", median(cli) * 1000), "process start included"),
            (
                "e. `timetrack-admin review --kind announcements` (pipe) end to end", String(format: "%.1f ms", median(review) * 1000),
                "first 50 of the queue, with the count of the rest"
            ),
        ]
        if let postgres {
            // The same store copied to PostgreSQL (and back, checked both ways), then paged there.
            try PostgresBench.reset(postgres)
            note("copying the \(storeItems)-item store to PostgreSQL…")
            var start = Date()
            let there = try StoreCopy.toPostgres(from: big, to: postgres)
            let copyThere = Date().timeIntervalSince(start)
            let pg = try PostgresStore(address: postgres)
            let pgFirstPage = try time { _ = try pg.list(ItemQuery(kind: .announcement, status: .pending, limit: 50)) }
            let pgQueue = try time { _ = try pg.list(ItemQuery(needsReview: true, limit: 50)) }
            let pgShow = try time { _ = try pg.item("a500000") }
            pg.close()
            note("  and back to a new file…")
            start = Date()
            let back = try StoreCopy.toSQLite(from: postgres, to: work.appendingPathComponent("back.sqlite").path)
            let copyBack = Date().timeIntervalSince(start)
            let same = there.items == back.items && there.revisions == back.revisions && there.audit.holds && back.audit.holds
            // Left empty for the next bench (the copied store has the console's operator).
            try PostgresBench.reset(postgres, force: true)
            figures["postgresListPendingPageMs"] = pgFirstPage
            figures["postgresReviewQueuePageMs"] = pgQueue
            figures["postgresCopySeconds"] = copyThere
            figures["postgresCopyBackSeconds"] = copyBack
            rows += [
                ("e. page of 50 pending on PostgreSQL, \(storeItems) items", String(format: "%.2f ms", pgFirstPage), "target < 20 ms"),
                ("e. review queue on PostgreSQL, first 50", String(format: "%.2f ms", pgQueue), ""),
                ("e. show one item on PostgreSQL", String(format: "%.2f ms", pgShow), ""),
                (
                    "   store copy to PostgreSQL and back", String(format: "%.1f s", copyThere + copyBack),
                    String(
                        format: "%.1f s there, %.1f s back; %@ (%d revisions, audit chain %@)", copyThere, copyBack, same ? "counts equal" : "COUNTS DIFFER",
                        back.revisions, back.audit.holds ? "verifies" : "BROKEN")
                ),
            ]
            targets.append(
                (
                    "a page of 50 pending of \(storeItems) items on PostgreSQL < 20 ms", String(format: "%.2f ms", pgFirstPage),
                    pgFirstPage < 20 ? "met" : "missed"
                ))
            targets.append(("store copy round trip: equal counts, chain verifies", same ? "equal" : "differs", same ? "met" : "missed"))
        }
    }
} catch {
    FileHandle.standardError.write(Data("timetrack-bench: \(error)\n".utf8))
    exit(1)
}

let cores = ProcessInfo.processInfo.activeProcessorCount
if json {
    var object = figures.mapValues { JSONValue.number($0) }
    object["cores"] = .number(Double(cores))
    print((try? JSONCoding.prettyString(JSONValue.object(object))) ?? "{}")
} else {
    print("timetrack-bench · \(cores) cores · \(ProcessInfo.processInfo.operatingSystemVersionString)")
    let width = (rows.map { $0.0.count }.max() ?? 0) + 2
    for (label, value, ratio) in rows {
        print(label.padding(toLength: width, withPad: " ", startingAt: 0) + value.padding(toLength: 12, withPad: " ", startingAt: 0) + ratio)
    }
    print("")
    let targetWidth = (targets.map { $0.0.count }.max() ?? 0) + 2
    for (target, figure, verdict) in targets {
        print(
            "target: " + target.padding(toLength: targetWidth, withPad: " ", startingAt: 0) + figure.padding(toLength: 10, withPad: " ", startingAt: 0)
                + verdict)
    }
}
