import Foundation
import TestSupport
import Testing

/// The README's tour, as a newcomer types it (issue 35): every line in order, on an 80x24
/// terminal under `bash -i`, in a fresh folder with the sample district's imports, on today's
/// date.
///
/// Each line must end with status 0 and print no error; screens that wait for a person
/// (the selector shell, the review walk, the console) are left the way the README says.
/// Lines that say they need the network or a PostgreSQL server are left out. Long output goes to
/// `cat` here (the real pager is RealPagerTests').
@Suite(.serialized) struct ReadmeTourTests {
    struct Line {
        var command: String
        var comment: String
    }

    /// The lines of the README's tour block, each split from its comment.
    static func tour() throws -> [Line] {
        let readme = try String(contentsOf: ConsoleFixture.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "## A two-minute tour"), let start = readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex),
            let end = readme.range(of: "```", range: start.upperBound..<readme.endIndex)
        else { return [] }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map { raw in
            let text = String(raw)
            guard let comment = text.range(of: #"\s{2,}# "#, options: .regularExpression) else {
                return Line(command: text.trimmingCharacters(in: .whitespaces), comment: "")
            }
            return Line(command: String(text[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces), comment: String(text[comment.upperBound...]))
        }
    }

    /// What each line must show for its comment to hold (issue 48: eight lines ran and showed
    /// nothing or misled), by the line's command.
    static let shows: [String: [String]] = [
        "tta sources": ["hillcrest-news", "hillcrest-tickets"],
        "tta plugins": ["html", "feed"],
        "tta try Imports/samples/hillcrest/events.html --kind event": ["loaded Imports/samples/hillcrest/events.html"],
        "tta try Imports/samples/hillcrest/events.html --suggest": ["suggest: 8", "8 items"],
        "tta plugin new lunch-menu --language python": ["lunch-menu-example"],
        "tta extract hillcrest-news": ["Homecoming Week Kicks Off September 21", "items,"],
        "tta extract Imports/hillcrest-events.json --json": ["\"items\""],
        "tta import --all": ["hillcrest-news: ok", "37 left"],
        "tta status": ["announcements", "the chain verifies"],
        "tta list announcements --status pending": ["a26", "pending"],
        "tta show a26": ["a26", "Homecoming"],
        "tta operator add sam --role staff --login sam --school hillcrest": ["sam: is staff", "schools hillcrest"],
        "tta reject p34 --reason \"advertising\"": ["p34: rejected"],
        "tta reply t36 \"B lunch is 4th period on Fridays.\" && tta close t36": ["t36: closed"],
        "tta reopen t36 --reason \"parent wrote back\"": ["t36: open"],
        "tta edit e9 locationName=\"Auditorium\"": ["locked against re-imports"],
        "tta unlock e9 locationName": ["unlocked locationName"],
        "tta history e9": ["revision 1", "locationName"],
        "tta approve a26 a27": ["a26: published", "a27: published"],
        "tta undo": ["a26: approve taken back", "a27: approve taken back"],
        "tta undo --list": ["next"],
        "tta approve a26 a27 && tta revert a26": ["back in review"],
        "tta list announcements --status published --json": ["\"a27\""],
        "tta places --unmatched": ["every event's location has a pin"],
        "tta approve e4 e8 e10": ["e10: published"],
        "tta export --format ics --out events.ics": ["wrote events.ics: 3 published items"],
        "tta preview --pending": ["wrote timetrack-preview/index.html"],
        "tta approve p32": ["p32: published"],
        "tta a11y report": ["p32", "WCAG 1.1.1", "1 published item(s) with 1 finding(s)"],
        "tta grades Imports/samples/grades/gradebook.json --target A": ["A (90%)"],
        "tta import Imports/samples/deadlines/canvas.json": ["6 new"],
        "tta approve d38 d39 d40": ["d40: published"],
        "tta courses": ["CHEM-AP", "ENG-11"],
        "tta course add CHEM-AP --reminders 3d,1h --weight test=40": ["reminders 3d, 1h"],
        "tta grades --course CHEM-AP": ["CHEM-AP AP Chemistry"],
        "tta list deadlines": ["d40", "published", "?"],
        "tta agenda --days 14": ["nothing goes live, expires or is due for review in the next 14 days"],
        "tta export --format ics --kind deadlines --out courses/": ["CHEM-AP.ics: 3 published items"],
    ]

    @Test func everyLineRunsAsWrittenOnAnyDate() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { Issue.record("bash is missing"); return }
        let lines = try Self.tour()
        #expect(lines.count >= 30, "the tour has \(lines.count) lines")
        let dir = try TemporaryDirectory("readme-tour")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: ConsoleFixture.root.appendingPathComponent("Imports").path, toPath: dir.path("Imports"))
        let pty = try PseudoTerminal(
            "/bin/bash", ["--norc", "--noprofile", "-i"],
            environment: [
                "PS1": "READY> ", "PAGER": "cat", "MANPAGER": "cat", "HISTFILE": "/dev/null", "HOME": dir.url.path, "TIMETRACK_HISTORY": "/dev/null",
            ], rows: 24,
            columns: 80)
        #expect(pty.expect("READY> ") != nil, "\(pty.transcript)")
        pty.send("cd '\(dir.url.path)'\r")
        #expect(pty.expect("READY> ") != nil)
        var ran = 0, checked = 0
        for line in lines where !line.command.isEmpty {
            if line.comment.contains("needs the network") || line.comment.contains("needs a PostgreSQL server") { continue }
            let command = line.command.hasPrefix("alias tta=") ? "alias tta='\(Binaries.path("timetrack-admin"))'" : line.command
            let before = pty.transcript.count
            pty.send(command + "\r")
            // Until the shell's prompt is back: screens that wait for a person are left the way
            // the README's comments say (the selector shell with `done`, the review walk with
            // `q`, the console with Ctrl-D).
            var answered = 0
            var seen = before + command.count
            let deadline = Date().addingTimeInterval(45)
            while Date() < deadline {
                let since = String(pty.transcript.dropFirst(seen))
                if since.contains("READY> ") { break }
                if since.contains("try> ") {
                    pty.send("done\r")
                } else if since.contains("[q]uit [?]") {
                    pty.send("q\r")
                } else if since.contains(")> ") {
                    pty.send("\u{4}")
                } else {
                    // The terminal is read only while something is expected: read on.
                    _ = pty.expect("\u{0}never\u{0}", timeout: 0.1)
                    continue
                }
                seen = pty.transcript.count
                answered += 1
                _ = pty.expect("\u{0}never\u{0}", timeout: 0.3)
            }
            pty.send("echo \"RC-$?-END\"\r")
            let done = pty.expect("-END\r\n", timeout: 30)
            // The shell's next prompt read too, so the next line's output starts after it (a
            // prompt read late would end the next line's wait before it began).
            _ = pty.expect("READY> ", timeout: 30)
            let output = String(pty.transcript.dropFirst(before))
            #expect(done != nil, "\(command) did not finish: \(output.suffix(800))")
            #expect(output.contains("RC-0-END"), "\(command) failed: \(output.suffix(1200))")
            #expect(!output.contains("error:"), "\(command) printed an error: \(output.suffix(1200))")
            #expect(answered <= 3, "\(command) kept asking: \(output.suffix(800))")
            for shown in Self.shows[line.command] ?? [] {
                #expect(output.contains(shown), "\(command): its comment says \(line.comment), and it did not show \"\(shown)\": \(output.suffix(1200))")
            }
            if Self.shows[line.command] != nil { checked += 1 }
            ran += 1
        }
        #expect(ran >= 30, "ran \(ran) lines")
        #expect(checked == Self.shows.count, "\(checked) of the \(Self.shows.count) lines with something to show were run")
        // The console's history went to /dev/null: libedit makes the file it saves to private,
        // and /dev/null must stay open to every user (it was made 0600 once, as root).
        let mode = ((try? FileManager.default.attributesOfItem(atPath: "/dev/null"))?[.posixPermissions] as? NSNumber)?.intValue ?? 0
        #expect(mode & 0o666 == 0o666, "/dev/null is now mode \(String(mode, radix: 8))")
        pty.send("exit\r")
        _ = pty.waitForExit(timeout: 10)
    }
}
