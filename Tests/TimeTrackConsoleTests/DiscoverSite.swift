import Foundation
import TestSupport

/// A site for `discover` tests: a real HTTP server on 127.0.0.1 (no robots.txt), and an
/// imports folder that asks for no pause between requests; the real binary run against both.
final class DiscoverSite {
    let server: TestHTTPServer
    let dir: TemporaryDirectory

    init(_ name: String) throws {
        server = try TestHTTPServer()
        server.route("/robots.txt", .init(status: 404))
        dir = try TemporaryDirectory(name)
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
    }

    deinit {
        server.stop()
        dir.remove()
    }

    /// Answers `path` (with its query) with `body` of `type`.
    func route(_ path: String, _ body: Data, type: String = "text/html") {
        server.route(path, .init(status: 200, headers: ["Content-Type": type], body: body))
    }

    func route(_ path: String, _ text: String, type: String = "text/html") { route(path, Data(text.utf8), type: type) }

    /// The binary with this site's store and imports folder.
    func run(_ arguments: [String]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports")] + arguments)
    }

    /// `discover --json` of `path` on this server (private addresses allowed): its answer as an
    /// object, and the run.
    func discover(_ path: String, _ options: [String] = []) throws -> (object: [String: Any], result: Binaries.Result) {
        let result = try run(["--json", "discover", server.base + path, "--allow-private"] + options)
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (object, result)
    }
}
