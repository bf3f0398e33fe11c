import Foundation
import TestSupport
import Testing

/// The words a decision leaves are the ones staff use (issue 35): an absence report is excused
/// or not excused, never published; a ticket is open or closed; `revert` names the revision it
/// put back; a reply to a closed ticket says to reopen it.
@Suite struct StatusWordsTests {
    @Test func absencesTicketsAndRevertsSayWhatHappened() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let absences = try fixture.ids("absences")
        let tickets = try fixture.ids("tickets")
        try #require(absences.count >= 2 && !tickets.isEmpty)
        let approved = try fixture.run(["approve", absences[0]])
        #expect(approved.stdout.contains("\(absences[0]): excused") && !approved.stdout.contains("published"), "\(approved.stdout)")
        let rejected = try fixture.run(["reject", absences[1], "--reason", "no note from a parent"])
        #expect(rejected.stdout.contains("\(absences[1]): not excused"), "\(rejected.stdout)")
        let excused = try fixture.run(["list", "absences", "--status", "published"])
        #expect(excused.stdout.contains("\(absences[0])  excused") && !excused.stdout.contains("published"), "\(excused.stdout)")
        #expect(try fixture.run(["list", "absences", "--status", "rejected"]).stdout.contains("\(absences[1])  not excused"))
        #expect(try fixture.run(["show", absences[0]]).stdout.contains("absence  excused"))

        let ticket = tickets[0]
        #expect(try fixture.run(["list", "tickets"]).stdout.contains("\(ticket)  open"))
        #expect(try fixture.run(["reply", ticket, "Thanks, fixed."]).status == 0)
        let closed = try fixture.run(["close", ticket])
        #expect(closed.stdout.contains("\(ticket): closed"), "\(closed.stdout)")
        #expect(try fixture.run(["list", "tickets", "--status", "published"]).stdout.contains("\(ticket)  closed"))
        let late = try fixture.run(["reply", ticket, "One more thing"])
        #expect(late.status != 0 && late.stderr.contains("`reopen \(ticket) --reason R` first"), "\(late.stderr)")

        let news = try fixture.ids("announcements")
        try #require(!news.isEmpty)
        #expect(try fixture.run(["approve", news[0]]).status == 0)
        let reverted = try fixture.run(["revert", news[0]])
        #expect(reverted.stdout.contains("\(news[0]): unpublished revision 1; back in review"), "\(reverted.stdout)")
    }
}

/// What the console says when there is little to say (issue 35): `import --due` with nothing
/// due says so unless `--quiet`; a script's errors name their line; times that belong to no
/// item are in the district's zone, UTC only with `--utc`.
@Suite struct QuietCasesTests {
    @Test func nothingDueLineNumbersAndTheDistrictsZone() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let due = try fixture.run(["--as", "ana", "import", "--due"])
        #expect(due.status == 0 && due.stdout.contains("nothing due"), "\(due.stdout)\(due.stderr)")
        let quiet = try fixture.run(["--as", "ana", "import", "--due", "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let script = try fixture.run([], stdin: "list announcements --limit 1\nshow zz9\nbogus\n")
        #expect(script.stderr.contains("error: line 2: no item zz9") && script.stderr.contains("error: line 3: unknown command 'bogus'"), "\(script.stderr)")
        // The sample district's sources are in Denver: the audit log and runs read there.
        let audit = try fixture.run(["audit"]).stdout
        #expect(audit.contains(" MST") || audit.contains(" MDT"), "\(audit)")
        #expect(try fixture.run(["runs"]).stdout.contains(" M"), "runs in Mountain time")
        #expect(try fixture.run(["--utc", "audit"]).stdout.contains(" UTC"))
    }
}

/// The review walk after `import --all` on a terminal opens with the district's public content,
/// not with a private absence note (issue 35: the walk followed the sources' order).
@Suite struct ImportWalkOrderTests {
    @Test func theFirstScreenIsPublicContent() throws {
        let dir = try TemporaryDirectory("walk-order")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: ConsoleFixture.root.appendingPathComponent("Imports").path, toPath: dir.path("imports"))
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "--all"], rows: 24,
            columns: 80)
        let first = pty.expect("[a]pprove")
        #expect(first != nil, "\(pty.transcript)")
        let screen = pty.transcript.components(separatedBy: "[1/").last ?? ""
        #expect(screen.contains("announcement ·") && !screen.contains("absence ·"), "\(screen)")
        pty.send("q\r")
        #expect(pty.waitForExit() != nil, "\(pty.transcript)")
    }
}

/// The manual page and help text (issue 35): `man ./timetrack-admin.1` renders every command
/// without a groff warning, and help at 80 columns wraps between words, never inside one.
@Suite struct ManualTests {
    @Test func theManualPageRendersEveryCommand() throws {
        let dir = try TemporaryDirectory("man")
        defer { dir.remove() }
        let page = try Binaries.run("timetrack-admin", ["man"])
        #expect(page.status == 0 && page.stdout.hasPrefix(".\\\""), "\(page.stderr)")
        try dir.write("timetrack-admin.1", page.stdout)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("man and groff are missing (apt-get install man-db groff-base)") }
            return
        }
        let warnings = try Binaries.runPath("/usr/bin/groff", ["-man", "-ww", "-z", dir.path("timetrack-admin.1")])
        #expect(warnings.status == 0 && warnings.stderr.isEmpty, "\(warnings.stderr)")
        let rendered = try Binaries.runPath(
            "/usr/bin/man", ["./timetrack-admin.1"], environment: ["MANPAGER": "cat", "MANWIDTH": "80", "PAGER": "cat"], currentDirectory: dir.url.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        for command in ["discover", "import", "review", "approve", "undo", "export", "completions"] {
            #expect(rendered.stdout.contains("\n       \(command)"), "\(command) is not in the rendered page")
        }
        #expect(rendered.stdout.contains("--keep-duration") && rendered.stdout.contains("EXIT STATUS"))
    }

    @Test func helpWrapsBetweenWords() throws {
        let wide = try Binaries.run("timetrack-admin", ["help"], environment: ["COLUMNS": "1000"]).stdout
        let narrow = try Binaries.run("timetrack-admin", ["help"], environment: ["COLUMNS": "80"]).stdout
        let words = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) }
        #expect(words(narrow) == words(wide), "a word was broken: \(Set(words(narrow)).subtracting(words(wide)).sorted().prefix(10))")
    }
}
