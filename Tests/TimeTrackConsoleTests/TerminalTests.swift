import Foundation
import TestSupport
import Testing

/// The real binary on a pseudo-terminal: prompt, review keys, Ctrl-C, history.
@Suite struct TerminalTests {
    @Test func replPromptReviewCtrlCAndHistory() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        #expect(try fixture.run(["--as", "ana", "operator", "add", "sam", "--role", "staff"]).status == 0)
        let history = fixture.dir.path("history")
        // Staff at the prompt: the README's `review --kind post`.
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", fixture.store, "--as", "sam", "--imports", ConsoleFixture.root.appendingPathComponent("Imports").path],
            environment: ["TIMETRACK_HISTORY": history])
        #expect(pty.expect("(sam)> ") != nil, "no prompt: \(pty.transcript)")
        // The line editor counts every byte of the prompt as a column: it holds no escape codes.
        #expect(pty.transcript.contains("\(fixture.promptName) (sam)> ") && !pty.transcript.contains("\u{1B}[1m\(fixture.promptName)"), "\(pty.transcript)")
        // psql's \? is help here too.
        pty.send("\\?\r")
        #expect(pty.expect("global options:") != nil, "\(pty.transcript)")
        #expect(pty.expect("(sam)> ") != nil)
        // Ctrl-C at the prompt cancels the line and stays.
        pty.send("some half-typed line\u{3}")
        #expect(pty.expect("(sam)> ") != nil, "\(pty.transcript)")
        #expect(pty.process.isRunning)
        // Review answered with keys.
        pty.send("review --kind post\r")
        #expect(pty.expect("NEW") != nil, "\(pty.transcript)")
        // Posts are people's submissions: no bulk approval is offered for them.
        #expect(pty.expect("[a]pprove [r]eject [e]dit [s]kip ") != nil, "\(pty.transcript)")
        #expect(!pty.transcript.contains("[A]ll posts"), "\(pty.transcript)")
        pty.send("a\r")
        #expect(pty.expect("approved") != nil, "\(pty.transcript)")
        #expect(pty.expect("[a]pprove") != nil)
        pty.send("r\r")
        #expect(pty.expect("reason: ") != nil)
        pty.send("not school related\r")
        #expect(pty.expect("rejected") != nil, "\(pty.transcript)")
        #expect(pty.expect("[a]pprove") != nil)
        pty.send("?\r")
        #expect(pty.expect("publish") != nil)
        #expect(pty.expect("[q]uit [?] ") != nil)
        pty.send("s\r")
        #expect(pty.expect("[a]pprove") != nil)
        // Ctrl-C in the middle of a review stops the review, not the console.
        pty.send("\u{3}")
        #expect(pty.expect("reviewed: 2 decided, 1 skipped, 1 left") != nil, "\(pty.transcript)")
        #expect(pty.expect("(sam)> ") != nil)
        pty.send("quit\r")
        #expect(pty.waitForExit() == 0)
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("review"))
        let posts = try fixture.json(["list", "posts"]) as? [[String: Any]] ?? []
        #expect(posts.compactMap { $0["status"] as? String }.sorted() == ["pending", "pending", "published", "rejected"])
    }

    @Test func ctrlDLeavesAndNoLibeditFallbackWorks() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", fixture.store, "--as", "ana"],
            environment: ["TIMETRACK_NO_LIBEDIT": "1", "TIMETRACK_HISTORY": fixture.dir.path("h")])
        #expect(pty.expect("(ana)> ") != nil, "\(pty.transcript)")
        pty.send("\u{3}")
        #expect(pty.expect("(ana)> ") != nil, "\(pty.transcript)")
        pty.send("help status\r")
        #expect(pty.expect("usage: status") != nil)
        pty.send("\u{4}")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
    }

    @Test func importOnATerminalWalksTheReview() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", fixture.store, "--as", "ana", "--imports", ConsoleFixture.root.appendingPathComponent("Imports").path, "import", "hillcrest-info"])
        #expect(pty.expect("[1/14]") != nil, "\(pty.transcript)")
        // `A` asks first; no is no.
        pty.send("A\r")
        #expect(pty.expect("approve this and 13 more school-info? [y/N]") != nil || pty.expect("approve this and 13 more") != nil, "\(pty.transcript)")
        pty.send("n\r")
        #expect(pty.expect("nothing approved") != nil, "\(pty.transcript)")
        pty.send("A\r")
        #expect(pty.expect("13 more") != nil, "\(pty.transcript)")
        pty.send("y\r")
        #expect(pty.expect("reviewed: 14 decided") != nil, "\(pty.transcript)")
        // Each approved item is named.
        #expect(pty.transcript.components(separatedBy: "  approved i").count - 1 == 14, "\(pty.transcript)")
        #expect(pty.waitForExit() == 0)
        #expect(try fixture.ids("school-info", status: "published").count == 14)
    }

    /// `A` on a mixed queue approves the rest of the current kind only, after a yes, naming each;
    /// `undo` takes the whole bulk approval back; the audit log shows both.
    @Test func approveTheRestOfOneKindThenUndoIt() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let news = try fixture.ids("announcements")
        let eventsBefore = try fixture.ids("events")
        #expect(news.count > 2 && !eventsBefore.isEmpty)
        let pty = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", fixture.store, "--as", "ana", "review"])
        // The queue is in kind order: absence reports first (never in a bulk approval).
        for _ in 0..<10 {
            guard let seen = pty.expect(" [q]uit [?] ") else { break }
            if seen.contains("[A]ll announcements") { break }
            #expect(!seen.contains("[A]ll"), "bulk approval offered for a submission: \(seen)")
            pty.send("s\r")
        }
        pty.send("A\r")
        #expect(pty.expect("approve this and \(news.count - 1) more announcements? [y/N]") != nil, "\(pty.transcript)")
        pty.send("y\r")
        // The next kind's first item is asked about, not approved.
        #expect(pty.expect("[A]ll events") != nil, "\(pty.transcript)")
        pty.send("q\r")
        #expect(pty.expect("`undo` takes the bulk approval back whole") != nil, "\(pty.transcript)")
        #expect(pty.waitForExit() == 0)
        for id in news { #expect(pty.transcript.contains("  approved \(id) "), "\(id) not named") }
        #expect(try fixture.ids("announcements", status: "published").sorted() == news.sorted())
        #expect(try fixture.ids("events").sorted() == eventsBefore.sorted())
        #expect(try fixture.ids("absences").count == 3)

        let undo = try fixture.run(["--as", "ana", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("took back \(news.count) of \(news.count)"), "\(undo.stdout)")
        #expect(try fixture.ids("announcements").sorted() == news.sorted())
        let log = try fixture.json(["audit", "--limit", "200"]) as? [[String: Any]] ?? []
        let actions = log.filter { news.contains(($0["itemID"] as? String) ?? ($0["item"] as? String) ?? "") }.compactMap { $0["action"] as? String }
        #expect(actions.filter { $0 == "approve" }.count == news.count, "\(log.prefix(3))")
        #expect(actions.filter { $0 == "undo-item" }.count == news.count)
        // Nothing further of ana's to take back.
        #expect(try fixture.run(["--as", "ana", "undo"]).stdout.contains("nothing to undo"))
    }

    /// The review's prompts use the console's line editor in a one-shot command too: arrow keys
    /// and backspace edit the FIELD=VALUE line, and the stored value is what was visible.
    ///
    /// Without libedit the keys cannot edit, and their bytes never reach the value.
    @Test(arguments: [false, true])
    func arrowKeysAndBackspaceEditTheFieldPrompt(plain: Bool) throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let id = try #require(try fixture.ids("announcements").first)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", fixture.store, "--as", "ana", "review", "--kind", "announcements"],
            environment: plain ? ["TIMETRACK_NO_LIBEDIT": "1"] : [:])
        #expect(pty.expect("[\(1)/") != nil, "\(pty.transcript)")
        #expect(pty.expect(" [q]uit [?] ") != nil, "\(pty.transcript)")
        pty.send("e\r")
        #expect(pty.expect("FIELD=VALUE ...: ") != nil, "\(pty.transcript)")
        if plain {
            // A terminal in line mode: backspace works, arrows do not (and are dropped).
            pty.send("title=Hellx\u{7F}o\u{1B}[D\u{1B}[A\r")
        } else {
            // "Helo", left, "l" → "Hello"; "X", backspace; Home, right: still "Hello".
            pty.send("title=Helo\u{1B}[Dl")
            pty.send("X\u{7F}")
            pty.send("\u{1B}[H\u{1B}[C\r")
        }
        #expect(pty.expect("edited and locked: title") != nil, "\(pty.transcript)")
        #expect(pty.expect(" [q]uit [?] ") != nil)
        pty.send("q\r")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
        let shown = try fixture.json(["show", id]) as? [String: Any]
        let pending = (shown?["pending"] as? [String: Any]) ?? (shown?["fields"] as? [String: Any])
        #expect(pending?["title"] as? String == "Hello", "\(shown ?? [:])")
        let stored = try Binaries.sql(fixture.store, "SELECT title FROM items WHERE id = '\(id)'")
        #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == "Hello")
        #expect(!stored.contains("\u{1B}") && !stored.contains("[D"))
    }
}
