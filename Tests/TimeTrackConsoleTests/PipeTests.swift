import Foundation
import TestSupport
import Testing

/// The real binary in a pipe: scripts of commands, exit codes, --json parsed, no prompts.
@Suite struct PipeTests {
    @Test func aScriptOfCommandsRunsWithoutPromptsOrQuestions() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let posts = try fixture.ids("posts")
        #expect(posts.count == 4)
        let script = """
            operator add sam --role staff
            # staff work through the pipe
            review --kind posts
            quit
            list posts   # never reached
            """
        let result = try fixture.run(["--as", "ana"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("> "))
        #expect(!result.stdout.contains("[a]pprove"))
        #expect(result.stdout.contains("4 item(s) wait"))
        #expect(!result.stdout.contains("Anonymous: BUY CHEAP SNEAKERS www.sneaker-deals.example  \n"))

        // Staff approve and reject posts.
        let staff = try fixture.run(["--as", "sam"], stdin: "approve \(posts[0]) \(posts[1])\nreject \(posts[2]) --reason \"spam link\"\n")
        #expect(staff.status == 0, "\(staff.stderr)")
        #expect(try fixture.ids("posts", status: "published").sorted() == [posts[0], posts[1]].sorted())
        let rejected = try fixture.json(["show", posts[2]]) as? [String: Any]
        #expect(rejected?["status"] as? String == "rejected")
        #expect(rejected?["rejectReason"] as? String == "spam link")
        // Staff may not approve imported content; the refusal says who may.
        let announcement = try #require(try fixture.ids("announcements").first)
        let refused = try fixture.run(["--as", "sam", "approve", announcement])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("sam (staff) may not approve announcements"), "\(refused.stderr)")
        #expect(refused.stderr.contains("admins may"))
        #expect(!refused.stderr.contains("--as"))
        // Everything landed in the audit log.
        let audit = try fixture.json(["audit", "--limit", "10"]) as? [[String: Any]] ?? []
        #expect(audit.prefix(3).compactMap { $0["action"] as? String }.sorted() == ["approve", "approve", "reject"])
        // ana (the admin this account is) acted as sam: both are named.
        #expect(audit.first?["operatorName"] as? String == "sam (by ana)")
    }

    @Test func bailStopsAtTheFirstFailingCommand() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let keepGoing = try fixture.run(["--as", "ana"], stdin: "show a99999\nstatus\n")
        #expect(keepGoing.status == 3)
        #expect(keepGoing.stdout.contains("schema version"))
        let bail = try fixture.run(["--as", "ana", "--bail"], stdin: "show a99999\nstatus\n")
        #expect(bail.status == 1)
        #expect(!bail.stdout.contains("schema version"))
        #expect(bail.stderr.contains("no item a99999"))
    }

    @Test func jsonOutputsParse() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let news = try #require(try fixture.ids("announcements").first)
        #expect(try fixture.run(["--as", "ana", "approve", news]).status == 0)
        let published =
            try JSONSerialization.jsonObject(with: Data(try fixture.run(["list", "announcements", "--status", "published", "--json"]).stdout.utf8))
            as? [[String: Any]]
        #expect(published?.count == 1)
        #expect(published?.first?["id"] as? String == news)
        let shown = try fixture.json(["show", news]) as? [String: Any]
        #expect((shown?["fields"] as? [String: Any])?["title"] != nil)
        #expect((shown?["provenance"] as? [String: Any])?["source"] as? String == "hillcrest-news")
        let runs = try fixture.json(["runs"]) as? [[String: Any]]
        #expect(runs?.count == 6)
        #expect(runs?.allSatisfy { $0["status"] as? String == "ok" } == true)
        let plugins = try fixture.json(["plugins"]) as? [[String: Any]]
        #expect(
            plugins?.compactMap { $0["name"] as? String } == [
                "html", "ical", "feed", "wordpress", "metadata", "documents", "inbox", "json", "lms", "photo", "csv-info", "js-calendar",
            ])
        let sources = try fixture.json(["sources"]) as? [String: Any]
        #expect((sources?["sources"] as? [Any])?.count == 6)
        let history = try fixture.json(["history", news]) as? [String: Any]
        #expect((history?["revisions"] as? [Any])?.count == 1)
        let audit = try fixture.json(["audit"]) as? [[String: Any]]
        #expect(audit?.first?["action"] as? String == "approve")
    }

    @Test func editLocksAndShowsInHistory() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let event = try #require(try fixture.ids("events").first)
        let edit = try fixture.run(["--as", "ana", "edit", event, "title=Back to School Night (moved)", "locationName=Auditorium", "--reason", "room change"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains("locked against re-imports: locationName, title"))
        // A re-import keeps the edit.
        #expect(try fixture.run(["--as", "ana", "import", "hillcrest-events"]).status == 0)
        let shown = try fixture.json(["show", event]) as? [String: Any]
        #expect((shown?["fields"] as? [String: Any])?["title"] as? String == "Back to School Night (moved)")
        let bad = try fixture.run(["--as", "ana", "edit", event, "start=someday"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'someday' is not a date"))
        let unknownField = try fixture.run(["--as", "ana", "edit", event, "colour=red"])
        #expect(unknownField.status == 2)
        #expect(unknownField.stderr.contains("has no field 'colour'"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["list", "widgets"], "'widgets' is not a kind"),
        (["list", "--status", "lost"], "'lost' is not a status"),
        (["list", "--limit", "-3"], "--limit must be a whole number"),
        (["show"], "show: missing argument"),
        (["show", "a1", "a2"], "show: unexpected argument 'a2'"),
        (["approve"], "approve: missing argument"),
        (["reject", "a1"], "reject: a reason is required"),
        (["reject", "a1", "--reason"], "--reason needs a value"),
        (["edit", "a1"], "edit: missing argument"),
        (["import"], "name at least one source, or --all"),
        (["import", "nowhere"], "no source 'nowhere'"),
        (["extract", "--file"], "--file needs a value"),
        (["review", "--kind", "memos"], "'memos' is not a kind"),
        (["status", "--verbose"], "unknown option --verbose"),
        (["operator", "add", "lee"], "the role must be one of admin|importer|staff|viewer"),
        (["completions", "tcsh"], "'tcsh' is not a shell"),
        (["--frob"], "unknown option --frob"),
    ])
    func badArgumentsExitTwoNamingTheProblem(_ arguments: [String], _ message: String) throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run(["--as", "ana"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func unknownIDsSayNoItem() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        for command in [["show", "x1"], ["history", "e424242"], ["approve", "p9999"], ["archive", "zz"], ["restore", "a0"]] {
            let result = try fixture.run(["--as", "ana"] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("no item \(command[1])"), "\(result.stderr)")
        }
    }

    @Test func helpVersionAndCompletions() throws {
        let help = try Binaries.run("timetrack-admin", ["--help"])
        #expect(help.status == 0)
        for command in ["import", "review", "approve", "export", "completions", "operator", "keep"] {
            #expect(help.stdout.contains("  \(command)"), "\(command)")
        }
        let helpImport = try Binaries.run("timetrack-admin", ["help", "import"])
        #expect(helpImport.stdout.contains("usage: import SOURCE... [--all] [--due]"))
        #expect(helpImport.stdout.contains("--dry-run"))
        #expect(try Binaries.run("timetrack-admin", ["--version"]).stdout.hasPrefix("timetrack-admin "))
        let bash = try Binaries.run("timetrack-admin", ["completions", "bash"])
        #expect(bash.stdout.contains("complete -F _timetrack_admin timetrack-admin"))
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/bin/bash")
        check.arguments = ["-n", "-c", bash.stdout]
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
    }

    @Test func ticketsAndAbsencesAsStaff() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        #expect(try fixture.run(["--as", "ana", "operator", "add", "sam", "--role", "staff"]).status == 0)
        let ticket = try #require(try fixture.ids("tickets").first)
        #expect(try fixture.run(["--as", "sam", "reply", ticket, "B lunch is 4th period on Fridays."]).status == 0)
        #expect(try fixture.run(["--as", "sam", "close", ticket]).status == 0)
        let shown = try fixture.json(["show", ticket]) as? [String: Any]
        let fields = shown?["fields"] as? [String: Any]
        #expect(fields?["closed"] as? Bool == true)
        #expect((fields?["replies"] as? [[String: Any]])?.first?["by"] as? String == "sam (by ana)")
        let absence = try #require(try fixture.ids("absences").first)
        #expect(try fixture.run(["--as", "sam", "approve", absence]).status == 0)
        let report = try fixture.json(["show", absence]) as? [String: Any]
        #expect((report?["fields"] as? [String: Any])?["outcome"] as? String == "excused")
        #expect(try fixture.run(["--as", "sam", "approve", ticket]).status != 0)
        // `show` reads the thread, and the ticket's state as people say it.
        let text = try fixture.run(["show", ticket]).stdout
        #expect(text.contains("\(ticket)  ticket  closed"), "\(text)")
        #expect(text.contains("replies:") && text.contains("sam (by ana):") && text.contains("      B lunch is 4th period on Fridays."), "\(text)")
        // Reopened, it is open again (published, and said as open), and takes replies.
        #expect(try fixture.run(["--as", "sam", "reopen", ticket, "--reason", "parent wrote back"]).status == 0)
        #expect((((try fixture.json(["show", ticket]) as? [String: Any])?["fields"] as? [String: Any])?["closed"] as? Bool) == false)
        #expect(try fixture.run(["show", ticket]).stdout.contains("\(ticket)  ticket  open"))
        #expect(try fixture.run(["--as", "sam", "reply", ticket, "Thanks, noted."]).status == 0)
        #expect(try fixture.run(["reopen", ticket]).status != 0)  // it is open
    }
}
