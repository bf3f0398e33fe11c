import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport

/// `Fetcher.readFile` reads to the end of a file whatever its size said when it was opened, and
/// never past the limit: a named pipe says 0 bytes, so every byte it gives is read into a buffer
/// that has to grow.
@Suite struct FileReadTests {
    /// A pipe at `imports/pipe.html` fed `bytes` by `cat` (another process: when the reader
    /// stops early, the writer is the one a broken pipe ends), and a fetcher for it.
    static func pipe(_ dir: TemporaryDirectory, feeding bytes: [UInt8], maxBytes: Int) throws -> (Fetcher, URL, Process) {
        try dir.write("imports/pipe.json", #"{ "id": "pipe", "importer": "html", "kind": "announcement", "url": "pipe.html", "options": { "item": "li" } }"#)
        let path = dir.path("imports/pipe.html")
        #expect(mkfifo(path, 0o600) == 0)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("bytes")))
        let source = try SourceDefinition.load(file: dir.path("imports/pipe.json"))
        let fetcher = Fetcher(source: source, confinedTo: dir.url.appendingPathComponent("imports"), maxBytes: maxBytes)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat \"$0\" > \"$1\"", dir.path("bytes"), path]
        try writer.run()
        return (fetcher, URL(fileURLWithPath: path), writer)
    }

    @Test func aFileLongerThanItsSizeSaidIsReadWhole() throws {
        let dir = try TemporaryDirectory("file-read")
        defer { dir.remove() }
        var random = SplitMix64(state: 5)
        let bytes = (0..<300_000).map { _ in UInt8(random.int(0...255)) }
        let (fetcher, url, writer) = try Self.pipe(dir, feeding: bytes, maxBytes: 1_000_000)
        defer { writer.waitUntilExit() }
        let page = try fetcher.readFile(url.path, standsFor: url)
        #expect(page.data == Data(bytes))
        #expect(page.hash == SHA256.hex(Data(bytes)))
    }

    @Test func aFileThatGrowsPastTheLimitIsRefused() throws {
        let dir = try TemporaryDirectory("file-read")
        defer { dir.remove() }
        let (fetcher, url, writer) = try Self.pipe(dir, feeding: [UInt8](repeating: 65, count: 200_000), maxBytes: 100_000)
        defer { writer.waitUntilExit() }
        #expect {
            try fetcher.readFile(url.path, standsFor: url)
        } throws: { error in
            (error as? TimeTrackError)?.message.contains("grew over the") == true
        }
    }
}
