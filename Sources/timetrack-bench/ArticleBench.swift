import Foundation
import TimeTrackCore
import TimeTrackKit

/// `timetrack-bench --articles DIR --out FILE`: the article extractor on every page of an
/// article-extraction benchmark folder (`DIR/html/*.html` or `*.html.gz`, named by the page's
/// key), writing the scorer's input (`{ "<key>": { "articleBody": "…" } }`) to FILE, and
/// printing the CPU time of the slowest page (parse and extraction; reading and unzipping the
/// file not counted).
enum ArticleBench {
    struct Figures {
        var pages = 0
        var empty = 0
        var slowest: (name: String, seconds: Double) = ("", 0)
        var totalSeconds = 0.0
    }

    static func run(folder: String, out: String) throws -> Figures {
        let pagesFolder = (folder as NSString).appendingPathComponent("html")
        let names = try FileManager.default.contentsOfDirectory(atPath: pagesFolder).filter { $0.hasSuffix(".html") || $0.hasSuffix(".html.gz") }.sorted()
        var output: [String: JSONValue] = [:]
        var figures = Figures()
        for name in names {
            let path = (pagesFolder as NSString).appendingPathComponent(name)
            let data = name.hasSuffix(".gz") ? try gunzip(path) : try Data(contentsOf: URL(fileURLWithPath: path))
            let key = String(name.prefix { $0 != "." })
            let started = threadCPU()
            let document = try HTMLDocument(data: data, url: nil)
            let article = ArticleExtractor().extract(document)
            let seconds = threadCPU() - started
            figures.pages += 1
            figures.totalSeconds += seconds
            if seconds > figures.slowest.seconds { figures.slowest = (key, seconds) }
            if article == nil { figures.empty += 1 }
            output[key] = .object(["articleBody": .string(article?.text ?? "")])
        }
        try Data(JSONCoding.compactString(JSONValue.object(output)).utf8).write(to: URL(fileURLWithPath: out))
        return figures
    }

    /// The calling thread's CPU time in seconds.
    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A gzip file's bytes, through gzip(1).
    static func gunzip(_ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TimeTrackError(.system, "gzip could not read \(path)") }
        return data
    }
}
