import Foundation
import TestSupport
import Testing

/// Issue 48: Ctrl-C during `discover` on a server that takes its time stops the request under
/// way (it waited for the server's answer, about 110 s) and says what it stopped.
@Suite struct DiscoverSlowServerTests {
    @Test func ctrlCStopsTheRequestUnderWay() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/robots.txt", .init(status: 404))
        server.route("/", .init(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>slow</body></html>".utf8), delay: 60))
        let dir = try TemporaryDirectory("discover-interrupt")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retries": 0, "totalTimeout": 120, "connectTimeout": 120}"#)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "discover", server.base + "/", "--allow-private"], rows: 24, columns: 80)
        // The request is under way once the server has it.
        for _ in 0..<200 where !server.requests.contains(where: { $0.path == "/" }) { usleep(50_000) }
        #expect(server.requests.contains { $0.path == "/" })
        usleep(300_000)
        pty.send("\u{3}")
        // The guard below only keeps a broken build from hanging the suite: a request stopped by
        // Ctrl-C ends at once, long before the server's 60 s answer.
        let status = pty.waitForExit(timeout: 30)
        #expect(status != nil, "still waiting after Ctrl-C: \(pty.transcript.suffix(600))")
        #expect(pty.transcript.contains("stopped early"), "\(pty.transcript.suffix(600))")
    }
}
