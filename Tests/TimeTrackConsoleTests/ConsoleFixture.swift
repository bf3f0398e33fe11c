import Foundation
import TestSupport

/// A temporary store loaded with the sample district by the real binary.
///
/// A SQLite file; with `TIMETRACK_TEST_ENGINE=postgres` (`.ci/run` runs the console's end-to-end
/// suites so once more) a fresh database on a real PostgreSQL server the test process starts.
struct ConsoleFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let dir: TemporaryDirectory
    /// The store's location: a file path, or a PostgreSQL address.
    let store: String

    /// Whether the fixtures are PostgreSQL databases.
    static var onPostgres: Bool { ProcessInfo.processInfo.environment["TIMETRACK_TEST_ENGINE"] == "postgres" }

    init(importing: Bool = true) throws {
        dir = try TemporaryDirectory("console")
        if Self.onPostgres {
            if let reason = PostgresServer.unavailable { throw NSError(domain: "TIMETRACK_TEST_ENGINE=postgres, but \(reason)", code: 1) }
            store = try PostgresServer.shared().database()
        } else {
            store = dir.path("t.sqlite")
        }
        if importing {
            let result = try run(["--as", "ana", "import", "--all"])
            guard result.status == 0 else { throw NSError(domain: "fixture", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        }
    }

    /// Runs the binary against this store (from the package root, so ./Imports is the sample).
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", store] + arguments, stdin: stdin, environment: environment, currentDirectory: Self.root.path)
    }

    /// The store's name in the prompt: the file's, or the database's.
    var promptName: String {
        Self.onPostgres ? (URLComponents(string: store)?.path.dropFirst()).map(String.init) ?? store : (store as NSString).lastPathComponent
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

    /// `dir/imports`: the sample district (hillcrest) and a second school (lincoln) with private
    /// records, an absence report and a ticket.
    static func writeTwoSchools(into dir: TemporaryDirectory) throws {
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Imports").path, toPath: dir.path("imports"))
        try dir.write(
            "imports/lincoln-absences.json",
            #"{ "id": "lincoln-absences", "importer": "inbox", "kind": "absence", "url": "samples/inbox/lincoln-absences.json", "school": "lincoln","#
                + #" "timeZone": "America/Denver" }"#
        )
        try dir.write(
            "imports/samples/inbox/lincoln-absences.json",
            #"[{ "id": "absence-900", "student": "Riley Quist", "reportedBy": "Dana Quist", "dates": ["2026-09-22"], "periods": [], "reason":"#
                + #" "family", "note": "Custody hearing downtown." }]"#
        )
        try dir.write(
            "imports/lincoln-tickets.json",
            #"{ "id": "lincoln-tickets", "importer": "inbox", "kind": "ticket", "url": "samples/inbox/lincoln-tickets.json", "school": "lincoln","#
                + #" "timeZone": "America/Denver" }"#
        )
        try dir.write(
            "imports/samples/inbox/lincoln-tickets.json",
            #"[{ "id": "ticket-900", "from": "dana@parents.example", "kind": "question", "subject": "Pickup arrangements", "message": "Only Dana may"#
                + #" pick Riley up, never Chris.", "replies": [], "closed": false }]"#
        )
    }
}
