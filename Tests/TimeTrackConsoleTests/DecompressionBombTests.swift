import Foundation
import TestSupport
import Testing

/// Compressed answers that expand far past the page cap (gzip and deflate bombs, and one made
/// of many gzip members), served by a real server on 127.0.0.1 to the real binary: the fetch
/// stops early, memory stays small, the message says what happened, and the other source of
/// the run is imported all the same.
@Suite struct DecompressionBombTests {
    typealias Setup = UnattendedRunTests.Setup

    /// Writes a bomb of about `bytes` compressed bytes: zeros deflated at the best ratio, as one
    /// gzip member, one zlib stream, or many small gzip members back to back.
    static func bomb(_ kind: String, bytes: Int, to path: String) throws -> Data {
        let script = """
            import sys, zlib
            kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
            zeros = b'\\0' * (1 << 20)
            if kind == 'multi':
                c = zlib.compressobj(9, zlib.DEFLATED, 31)
                member = c.compress(zeros * 16) + c.flush()
                body = member * (size // len(member) + 1)
            else:
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                head = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
                block = c.compress(zeros * 16) + c.flush(zlib.Z_FULL_FLUSH)
                raw = head + block * max(1, (size - len(head)) // len(block)) + c.flush()
                gzip = b'\\x1f\\x8b\\x08\\x00\\x00\\x00\\x00\\x00\\x02\\xff'
                body = (gzip + raw + b'\\x00' * 8) if kind == 'gzip' else (b'\\x78\\xda' + raw + b'\\x00' * 4)
            open(out, 'wb').write(body)
            """
        let made = try Binaries.runPath("/usr/bin/python3", ["-c", script, kind, String(bytes), path])
        guard made.status == 0 else { throw NSError(domain: "bomb", code: Int(made.status), userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: [("gzip", 1), ("gzip", 4), ("gzip", 40), ("deflate", 1), ("deflate", 4), ("deflate", 40), ("multi", 4)])
    func aCompressedBombIsStoppedEarlyAndTheRestOfTheRunCompletes(kind: String, megabytes: Int) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let body = try Self.bomb(kind, bytes: megabytes * 1_048_576, to: setup.dir.path("bomb.bin"))
        let encoding = kind == "deflate" ? "deflate" : "gzip"
        setup.server.route(
            "/bomb.html", .init(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Content-Encoding": encoding], body: body))
        setup.server.route("/news.html", .html(UnattendedRunTests.page(3)))
        try setup.source("bomb", path: "/bomb.html")
        try setup.source("news", path: "/news.html")
        let run = try Binaries.runMeasured("timetrack-admin", ["--store", setup.store, "--imports", setup.imports, "--as", "cron", "import", "--all"])
        let output = run.result.stdout + run.result.stderr
        print("decompression bomb, \(kind) \(megabytes) MB: peak memory \(Int(run.peakMB)) MB, exit \(run.result.status)")
        #expect(run.peakMB < 150, "peak memory \(run.peakMB) MB for a \(megabytes) MB \(kind) bomb")
        #expect(run.result.status == 3, "\(output)")
        #expect(output.contains("decompression bomb") || output.contains("larger than the"), "\(output)")
        #expect(output.contains("bomb"), "the message does not name the source: \(output)")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE title LIKE 'Item %'") == "3", "\(output)")
    }

    /// A page that really is compressed (about six times, as HTML is) is read whole.
    @Test func anOrdinaryCompressedPageIsRead() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let page = UnattendedRunTests.page(40)
        let file = setup.dir.path("page.html")
        try page.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try Binaries.runPath("/bin/gzip", ["-k", "-9", file])
        let gzipped = try Data(contentsOf: URL(fileURLWithPath: file + ".gz"))
        setup.server.route(
            "/news.html", .init(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"], body: gzipped))
        try setup.source("news", path: "/news.html")
        let result = try setup.run(["import", "news"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE title LIKE 'Item %'") == "40")
        #expect(setup.server.requests.contains { ($0.headers["accept-encoding"] ?? "").contains("gzip") })
    }
}
