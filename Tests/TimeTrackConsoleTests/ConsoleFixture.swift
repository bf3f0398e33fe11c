import Foundation
import TestSupport

/// A temporary store loaded with the sample district by the real binary.
struct ConsoleFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let dir: TemporaryDirectory
    var store: String { dir.path("t.sqlite") }

    init(importing: Bool = true) throws {
        dir = try TemporaryDirectory("console")
        if importing {
            let result = try run(["--as", "ana", "import", "--all"])
            guard result.status == 0 else { throw NSError(domain: "fixture", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        }
    }

    /// Runs the binary against this store (from the package root, so ./Imports is the sample).
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", store] + arguments, stdin: stdin, environment: environment, currentDirectory: Self.root.path)
    }

    func json(_ arguments: [String]) throws -> Any {
        let result = try run(["--json"] + arguments)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// Ids of the items of a kind with a status.
    func ids(_ kind: String, status: String = "pending") throws -> [String] {
        ((try json(["list", kind, "--status", status, "--limit", "1000"])) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    func remove() { dir.remove() }
}
