import Foundation
import TestSupport
import Testing

/// The real binary killed at chosen write calls (strace's fault injection: `-e
/// inject=pwrite64:signal=KILL:when=N`): during an import, at the checkpoint when it closes the
/// store, and during decisions.
///
/// Every store must open, pass `integrity_check`, and a re-run must
/// end where an uninterrupted run ends.
@Suite struct CrashInjectionTests {
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What an import leaves that must not depend on interruptions (ids and run records may).
    static func snapshot(_ store: String) throws -> String {
        try Binaries.sql(
            store,
            """
            SELECT kind || '|' || status || '|' || source_id || '|' || source_key || '|' || base_hash || '|' ||
                (SELECT count(*) FROM revisions r WHERE r.item_seq = items.seq)
            FROM items ORDER BY source_id, source_key
            """)
            + Binaries.sql(store, "SELECT action || '|' || count(*) FROM audit GROUP BY action ORDER BY action")
    }

    func runKilled(at call: Int, _ arguments: [String]) throws -> Binaries.Result {
        guard let strace = Self.strace else { throw CrashInjectionError.noStrace }
        return try Binaries.runPath(
            strace,
            ["-f", "-o", "/dev/null", "-e", "trace=pwrite64", "-e", "inject=pwrite64:signal=KILL:when=\(call)", Binaries.path("timetrack-admin")] + arguments,
            currentDirectory: ConsoleFixture.root.path)
    }

    enum CrashInjectionError: Error { case noStrace }

    func importArguments(_ store: String) -> [String] { ["--store", store, "--as", "root", "import", "--all", "--no-review"] }

    /// Records why a test cannot run without strace; true when it can.
    static func straceInstalled() -> Bool {
        if strace == nil { Issue.record("strace is not installed (apt-get install strace; .ci/run installs it)") }
        return strace != nil
    }

    @Test func killedAtEveryFiftiethWriteOfAnImportAndAtTheCheckpoint() throws {
        guard Self.straceInstalled() else { return }
        let dir = try TemporaryDirectory("inject")
        defer { dir.remove() }
        // The uninterrupted run, and how many writes it makes.
        let reference = dir.path("reference.sqlite")
        let clean = try Binaries.run("timetrack-admin", importArguments(reference), currentDirectory: ConsoleFixture.root.path)
        #expect(clean.status == 0, "\(clean.stderr)")
        let expected = try Self.snapshot(reference)
        #expect(expected.contains("import-new|37"), "\(expected)")
        let counted = try Binaries.runPath(
            try #require(Self.strace),
            ["-f", "-c", "-o", dir.path("count.txt"), "-e", "trace=pwrite64", Binaries.path("timetrack-admin")] + importArguments(dir.path("counted.sqlite")),
            currentDirectory: ConsoleFixture.root.path)
        #expect(counted.status == 0)
        let summary = try String(contentsOfFile: dir.path("count.txt"), encoding: .utf8)
        let writes = try #require(
            summary.split(separator: "\n").first { $0.hasSuffix("pwrite64") }?.split(separator: " ").compactMap { Int($0) }.dropFirst().first)
        #expect(writes > 100, "\(summary)")

        // Every 50th write, and the last writes (the checkpoint into the main file as the store closes).
        var points = Array(stride(from: 1, to: writes, by: 50))
        points += [writes - 6, writes - 3, writes - 1, writes]
        var killed = 0
        for point in points {
            let store = dir.path("killed-\(point).sqlite")
            let run = try runKilled(at: point, importArguments(store))
            if run.status != 0 { killed += 1 }
            #expect(!run.stderr.contains("Fatal error"))
            if FileManager.default.fileExists(atPath: store) {
                let status = try Binaries.run("timetrack-admin", ["--store", store, "status"])
                #expect(status.status == 0, "killed at write \(point): \(status.stderr)")
                #expect(try Binaries.sql(store, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "killed at write \(point)")
            }
            // The next run finishes the job, as if nothing had happened.
            let rerun = try Binaries.run("timetrack-admin", importArguments(store), currentDirectory: ConsoleFixture.root.path)
            #expect(rerun.status == 0, "re-run after write \(point): \(rerun.stderr)")
            #expect(try Self.snapshot(store) == expected, "killed at write \(point)")
        }
        #expect(killed >= points.count - 2, "only \(killed) of \(points.count) runs were killed")
    }

    @Test func killedDuringDecisionsLeavesEachAllOrNothing() throws {
        guard Self.straceInstalled() else { return }
        let dir = try TemporaryDirectory("inject-decide")
        defer { dir.remove() }
        let store = dir.path("s.sqlite")
        #expect(try Binaries.run("timetrack-admin", importArguments(store), currentDirectory: ConsoleFixture.root.path).status == 0)
        let ids = try Binaries.sql(store, "SELECT id FROM items WHERE kind = 'announcement' ORDER BY seq").split(separator: "\n").map(String.init)
        #expect(ids.count == 6)
        var partial = false
        for point in [5, 30, 30, 45] {
            let run = try runKilled(at: point, ["--store", store, "--as", "root", "approve"] + ids)
            #expect(run.status != 0, "the approve run was not killed at write \(point)")
            #expect(try Binaries.sql(store, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
            // Each approval is one transaction: published items and approval audit entries agree.
            let published = try Binaries.sql(store, "SELECT count(*) FROM items WHERE kind = 'announcement' AND status = 'published'").trimmingCharacters(
                in: .whitespacesAndNewlines)
            let approvals = try Binaries.sql(store, "SELECT count(DISTINCT item_id) FROM audit WHERE action = 'approve'").trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(published == approvals, "killed at write \(point): \(published) published, \(approvals) approvals")
            let projected = try Binaries.sql(store, "SELECT count(*) FROM published_announcements").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(projected == published)
            if let n = Int(published), n > 0 && n < 6 { partial = true }
        }
        #expect(partial, "no kill fell between two approvals")
        _ = try Binaries.run("timetrack-admin", ["--store", store, "--as", "root", "approve"] + ids)
        #expect(
            try Binaries.sql(store, "SELECT count(*) FROM items WHERE kind = 'announcement' AND status = 'published'").trimmingCharacters(
                in: .whitespacesAndNewlines) == "6")
    }

    /// Approving an absence report excuses it and publishes it: once two transactions, now one.
    ///
    /// Killed at every write of that approval (and of closing a ticket), the store holds all of
    /// the decision or none of it.
    @Test func aPerKindDecisionKilledAtEveryWriteIsAllOrNothing() throws {
        guard Self.straceInstalled() else { return }
        let dir = try TemporaryDirectory("inject-kind")
        defer { dir.remove() }
        let base = dir.path("base.sqlite")
        #expect(try Binaries.run("timetrack-admin", importArguments(base), currentDirectory: ConsoleFixture.root.path).status == 0)
        func sql(_ store: String, _ query: String) throws -> String {
            try Binaries.sql(store, query).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let absence = try sql(base, "SELECT id FROM items WHERE kind = 'absence' AND status = 'pending' ORDER BY seq LIMIT 1")
        let ticket = try sql(base, "SELECT id FROM items WHERE kind = 'ticket' AND status = 'pending' ORDER BY seq LIMIT 1")
        #expect(!absence.isEmpty && !ticket.isEmpty)
        var states: Set<String> = []
        for (command, id) in [(["approve"], absence), (["close"], ticket)] {
            // How many writes the whole decision makes (SQLite's shared-memory set-up, the log
            // frames, the commit, the checkpoint when it closes), then a kill at every other one.
            let counted = dir.path("count.sqlite")
            try? FileManager.default.removeItem(atPath: counted)
            try FileManager.default.copyItem(atPath: base, toPath: counted)
            let trace = dir.path("count.txt")
            _ = try Binaries.runPath(
                try #require(Self.strace),
                ["-f", "-o", trace, "-e", "trace=pwrite64", Binaries.path("timetrack-admin"), "--store", counted, "--as", "root"] + command + [id])
            let writes = try String(contentsOfFile: trace, encoding: .utf8).components(separatedBy: "pwrite64(").count - 1
            #expect(writes > 10, "\(writes) writes")
            var completed = false
            for point in Array(stride(from: 1, to: writes, by: id == absence ? 2 : 4)) + [writes + 1] {
                let store = dir.path("k\(point).sqlite")
                try? FileManager.default.removeItem(atPath: store)
                try FileManager.default.copyItem(atPath: base, toPath: store)
                let run = try runKilled(at: point, ["--store", store, "--as", "root"] + command + [id])
                completed = completed || run.status == 0
                #expect(try sql(store, "PRAGMA integrity_check") == "ok")
                let status = try sql(store, "SELECT status FROM items WHERE id = '\(id)'")
                let actions = try sql(
                    store,
                    "SELECT coalesce(group_concat(action), '') FROM (SELECT action FROM audit WHERE item_id = '\(id)' AND action NOT LIKE 'import%'"
                        + " ORDER BY id)"
                )
                if id == absence {
                    let outcome = try sql(
                        store, "SELECT coalesce(outcome, 'none') FROM absence_reports a JOIN items i ON i.seq = a.item_seq WHERE i.id = '\(id)'")
                    let whole = status == "published" && outcome == "excused" && actions == "excuse,approve"
                    let none = status == "pending" && outcome == "none" && actions.isEmpty
                    #expect(whole || none, "killed at write \(point): \(status), outcome \(outcome), audit \(actions)")
                    states.insert("absence " + (whole ? "whole" : "none"))
                } else {
                    let closed = try sql(store, "SELECT closed FROM tickets t JOIN items i ON i.seq = t.item_seq WHERE i.id = '\(id)'")
                    let whole = status == "published" && closed == "1" && actions == "close,approve"
                    let none = status == "pending" && closed == "0" && actions.isEmpty
                    #expect(whole || none, "killed at write \(point): \(status), closed \(closed), audit \(actions)")
                    states.insert("ticket " + (whole ? "whole" : "none"))
                }
                try? FileManager.default.removeItem(atPath: store)
            }
            #expect(completed, "\(command) \(id) never ran to the end")
        }
        // Both sides were seen: kills before the commit and a run that finished.
        #expect(states == ["absence whole", "absence none", "ticket whole", "ticket none"], "\(states)")
    }
}
