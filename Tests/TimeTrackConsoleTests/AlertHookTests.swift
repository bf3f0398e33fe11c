import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore
@testable import TimeTrackImport

/// The district's `onAlert` command (issue 46), run by the real binary as `approve` publishes an
/// alert: killed with all it started when it overstays, its failures said and audited, never a
/// hang or a crash, and the decision stands whatever it did.
///
/// (Through the binary: a hook runs as plugins do, and their orphan sweep belongs to the
/// process that runs them, not to this test process, whose other children it would take.)
@Suite struct AlertHookTests {
    /// An imports folder with a pop-up of one emergency alert and `onAlert` set to `script`.
    static func district(_ script: String, seconds: Double = 5) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("hook")
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "onAlert": ["hooks/notify.sh", "--channel", "sms"], "onAlertSeconds": \#(seconds)}"#)
        try dir.write("imports/hooks/notify.sh", "#!/bin/sh\n" + script + "\n")
        chmod(dir.path("imports/hooks/notify.sh"), 0o755)
        try dir.write(
            "imports/alerts.json",
            #"{ "id": "alerts", "importer": "html", "kind": "alert", "url": "popup.html", "timeZone": "America/Denver", "school": "hillcrest","#
                + #" "options": { "item": "div.alert", "fields": { "title": "h2", "message": "p" } } }"#)
        try dir.write("imports/popup.html", "<div class=\"alert\"><h2>Lockdown at Hillcrest</h2><p>Shelter in place.</p></div>")
        return dir
    }

    static func run(_ dir: TemporaryDirectory, _ words: [String]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports")] + words)
    }

    /// Imports the alert and approves it; the approval's result.
    static func approve(in dir: TemporaryDirectory) throws -> Binaries.Result {
        #expect(try run(dir, ["import", "alerts"]).status == 0)
        return try run(dir, ["approve", "w1"])
    }

    /// Processes whose command line holds `marker`.
    static func running(_ marker: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return line.contains(marker)
        }
    }

    @Test func theAlertArrivesOnStdinWithTheArgumentsGiven() throws {
        let dir = try Self.district(#"echo "$@" > ../args.txt; cat > ../got.json"#)
        defer { dir.remove() }
        let approved = try Self.approve(in: dir)
        #expect(approved.status == 0 && approved.stderr.contains("w1 published: onAlert exited 0"), "\(approved.stderr)")
        #expect(try String(contentsOfFile: dir.path("args.txt"), encoding: .utf8) == "--channel sms\n", "run in the imports folder")
        let got = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: dir.path("got.json")))).objectValue ?? [:]
        #expect(got["event"] == .string("published") && got["id"] == .string("w1") && got["school"] == .string("hillcrest"))
        #expect(got["severity"] == .string("emergency") && got["title"] == .string("Lockdown at Hillcrest") && got["expiresAt"]?.stringValue != nil)
    }

    @Test func aHookThatOverstaysIsKilledWithWhatItStartedAndTheDecisionStands() throws {
        let marker = "31.\(getpid())"
        let dir = try Self.district("sleep \(marker) &\nsleep \(marker)", seconds: 0.5)
        defer { dir.remove() }
        let approved = try Self.approve(in: dir)
        #expect(approved.status == 0 && approved.stderr.contains("w1 published: onAlert killed after 0.5 s"), "\(approved.stderr)")
        #expect(Self.running(marker).isEmpty, "its background child is gone too")
        #expect(try Binaries.sql(dir.path("s.sqlite"), "SELECT status FROM items WHERE id = 'w1'").hasPrefix("published"))
        #expect(try Binaries.sql(dir.path("s.sqlite"), "SELECT detail FROM audit WHERE action = 'alert-hook'").hasPrefix("published: killed after 0.5 s"))
    }

    @Test(arguments: [
        ("exit 3", "exited 3"), ("kill -9 $$", "ended by signal 9"), ("yes 'a long line of output'", "stopped: it printed more than 64 KB"),
    ])
    func failuresAreSaidAndAudited(_ script: String, _ said: String) throws {
        let dir = try Self.district(script)
        defer { dir.remove() }
        let approved = try Self.approve(in: dir)
        #expect(approved.status == 0 && approved.stderr.contains("w1 published: onAlert \(said)"), "\(approved.stderr)")
        #expect(try Binaries.sql(dir.path("s.sqlite"), "SELECT detail FROM audit WHERE action = 'alert-hook'").hasPrefix("published: \(said)"))
    }

    @Test func aHookThatIsNoProgramIsSaidSo() throws {
        let dir = try Self.district("exit 0")
        defer { dir.remove() }
        try FileManager.default.removeItem(atPath: dir.path("imports/hooks/notify.sh"))
        let approved = try Self.approve(in: dir)
        #expect(approved.status == 0 && approved.stderr.contains("onAlert not run: ") && approved.stderr.contains("is not an executable file"))
    }

    @Test func onlyEmergencyAndUrgentAlertsCallIt() {
        let expires = Date(timeIntervalSince1970: 1_790_000_000)
        func item(_ content: ItemContent) -> Item {
            Item(id: "w3", kind: content.kind, status: .published, school: nil, content: content, createdAt: expires, updatedAt: expires)
        }
        #expect(AlertHook.applies(to: item(.alert(Alert(title: "Lockdown", severity: .emergency, expiresAt: expires)))))
        #expect(AlertHook.applies(to: item(.alert(Alert(title: "Late start", severity: .urgent, expiresAt: expires)))))
        #expect(!AlertHook.applies(to: item(.alert(Alert(title: "Picture day", severity: .info, expiresAt: expires)))))
        #expect(!AlertHook.applies(to: item(.announcement(Announcement(title: "News")))))
    }
}

/// The review walk meets a taken-down alert as a person does: the real binary under `bash -i`
/// and `zsh -i` on an 80x24 terminal.
@Suite struct TakenDownReviewTests {
    @Test func aTakenDownAlertIsSaidSoInTheWalkAndArchivedWithA() throws {
        let shells = RealPagerTests.available
        #expect(!shells.isEmpty || ProcessInfo.processInfo.environment["CI"] == nil, "bash, zsh and less are needed in CI")
        for (path, arguments) in shells {
            let dir = try AlertHookTests.district("exit 0")
            defer { dir.remove() }
            #expect(try AlertHookTests.approve(in: dir).status == 0)
            try dir.write("imports/popup.html", "<html><body></body></html>")
            #expect(try AlertHookTests.run(dir, ["import", "alerts"]).stderr.contains("w1 withdrawn"))
            let pty = try RealPagerTests.shell(path, arguments)
            let words = [Binaries.path("timetrack-admin"), "--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "review"]
            pty.send(words.joined(separator: " ") + "\r")
            #expect(pty.expect("TAKEN DOWN by the district", timeout: 30) != nil, "\(path): \(pty.transcript)")
            #expect(pty.expect("the district took it down", timeout: 30) != nil, "\(path): \(pty.transcript)")
            #expect(pty.expect("[a]rchive [s]kip [q]uit", timeout: 30) != nil, "\(path): \(pty.transcript)")
            pty.send("a\r")
            #expect(pty.expect("archived", timeout: 30) != nil, "\(path): \(pty.transcript)")
            #expect(pty.expect("READY> ", timeout: 30) != nil, "back at the shell: \(pty.transcript)")
            pty.send("exit\r")
            _ = pty.waitForExit(timeout: 10)
            #expect(try Binaries.sql(dir.path("s.sqlite"), "SELECT status FROM items WHERE id = 'w1'").hasPrefix("archived"))
        }
    }
}
