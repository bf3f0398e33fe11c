import Foundation
import TestSupport
import Testing

/// Issue 47: the article extractor scored by the benchmark's own scorer.
///
/// On its development pages (`../shared/benchmarks/article-extraction`, read in place):
/// `timetrack-bench --articles` writes the scorer's input, `evaluate.py` scores it. The figure is
/// printed; speed is the release bench's (no time is checked here).
@Suite struct ArticleBenchmarkTests {
    static let benchmark = ConsoleFixture.root.deletingLastPathComponent().appendingPathComponent("shared/benchmarks/article-extraction")

    @Test func theBenchmarksScorerGivesAtLeastPointNineSeven() throws {
        guard FileManager.default.fileExists(atPath: Self.benchmark.appendingPathComponent("ground-truth.json").path) else {
            try Skip.because("the article benchmark is not beside the project (../shared/benchmarks/article-extraction)")
            return
        }
        let dir = try TemporaryDirectory("article-bench")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("output"), withIntermediateDirectories: true)
        for name in ["ground-truth.json", "evaluate.py"] {
            try FileManager.default.copyItem(atPath: Self.benchmark.appendingPathComponent(name).path, toPath: dir.path(name))
        }
        let bench = try Binaries.run("timetrack-bench", ["--articles", Self.benchmark.path, "--out", dir.path("output/timetrack.json")])
        #expect(bench.stdout.contains("articles: 88 pages"), "\(bench.stdout) \(bench.stderr)")
        let scored = try Binaries.runPath("/usr/bin/python3", ["evaluate.py", "--n-bootstrap", "100"], currentDirectory: dir.url.path)
        let row = scored.stdout.split(separator: "\n").first { $0.hasPrefix("timetrack") } ?? ""
        print("article extraction, benchmark development pages: \(row)")
        let f1 = row.split(separator: " ").compactMap { Double($0) }.first ?? 0
        #expect(f1 >= 0.97, "F1 \(f1): \(scored.stdout) \(scored.stderr)")
    }
}
