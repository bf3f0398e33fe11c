import Foundation
import TestSupport
import Testing

/// Issue 48: what the console says is what happened, in the words a reader expects.
@Suite struct ConsoleWordsTests {
    /// The review walk says what a decision did to an absence report, in the words `list
    /// absences` uses: approving excuses it ("excused"), rejecting leaves it "not excused" (it
    /// said "approved (published)").
    @Test func theReviewWalkSaysExcusedAndNotExcused() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let absences = try fixture.ids("absences")
        #expect(absences.count >= 2, "\(absences)")
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", fixture.store, "--imports", ConsoleFixture.root.appendingPathComponent("Imports").path, "--as", "ana", "review", "--kind", "absences"],
            rows: 24, columns: 80)
        #expect(pty.expect("[a]pprove", timeout: 20) != nil, "\(pty.transcript)")
        pty.send("a\r")
        #expect(pty.expect("excused", timeout: 10) != nil, "\(pty.transcript.suffix(1500))")
        #expect(pty.expect("[a]pprove", timeout: 10) != nil, "\(pty.transcript.suffix(600))")
        pty.send("r\r")
        #expect(pty.expect("reason:", timeout: 10) != nil, "\(pty.transcript.suffix(600))")
        pty.send("no note from a parent\r")
        #expect(pty.expect("not excused", timeout: 10) != nil, "\(pty.transcript.suffix(600))")
        pty.send("q\r")
        _ = pty.waitForExit(timeout: 10)
        #expect(!pty.transcript.contains("approved (published)"), "\(pty.transcript.suffix(800))")
    }

    /// `import --due --json` with nothing due prints JSON (an empty list of runs), not a sentence.
    @Test func nothingDueIsEmptyJSON() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        setup.server.route("/news.html", .html(UnattendedRunTests.page(2)))
        try setup.source("news", path: "/news.html", schedule: "1d")
        let first = try setup.run(["--json", "import", "--due"])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try setup.run(["--json", "import", "--due"])
        #expect(again.status == 0, "\(again.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [Any]
        #expect(parsed?.isEmpty == true, "\(again.stdout)")
    }

    /// `operator add` refuses a school no source or place names (a typo gave staff a school
    /// with nothing in it, silently), and says when the login has no account on this machine.
    @Test func operatorAddChecksTheSchoolAndTheLogin() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let imports = ["--imports", ConsoleFixture.root.appendingPathComponent("Imports").path, "--as", "ana"]
        let typo = try fixture.run(imports + ["operator", "add", "sam", "--role", "staff", "--school", "hilcrest"])
        #expect(typo.status == 2 && typo.stderr.contains("'hilcrest'") && typo.stderr.contains("hillcrest"), "\(typo.stderr)")
        let noAccount = try fixture.run(imports + ["operator", "add", "sam", "--role", "staff", "--school", "hillcrest", "--login", "nosuchaccount9"])
        #expect(noAccount.status == 0, "\(noAccount.stderr)")
        // A login is a Unix account on a SQLite store (on PostgreSQL it is a database role).
        if !ConsoleFixture.onPostgres { #expect(noAccount.stderr.contains("no account 'nosuchaccount9'"), "\(noAccount.stderr)") }
    }

    /// A viewer's `status` counts what a viewer may read: items of the exported kinds, nothing of
    /// absence reports or tickets.
    @Test func aViewersStatusCountsOnlyWhatItMayRead() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let imports = ["--imports", ConsoleFixture.root.appendingPathComponent("Imports").path]
        #expect(try fixture.run(imports + ["--as", "ana", "operator", "add", "vic", "--role", "viewer"]).status == 0)
        let status = try fixture.run(imports + ["--as", "vic", "status"]).stdout
        #expect(!status.contains("absence") && !status.contains("ticket"), "\(status)")
        #expect(status.contains("announcements"), "\(status)")
        let admin = try fixture.run(imports + ["--as", "ana", "status"]).stdout
        #expect(admin.contains("absence") && admin.contains("pending"), "\(admin)")
    }

    /// `revert` after an approval that was undone and made again: the version published before
    /// is the same text, so the item goes back to review (it made a new revision of the same
    /// text, "revision 1 live again").
    @Test func revertingASamePublishedVersionGoesBackToReview() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let imports = ["--imports", ConsoleFixture.root.appendingPathComponent("Imports").path, "--as", "ana"]
        let id = try #require(try fixture.ids("announcements").first)
        for words in [["approve", id], ["undo"], ["approve", id]] { #expect(try fixture.run(imports + words).status == 0, "\(words)") }
        let reverted = try fixture.run(imports + ["revert", id])
        #expect(reverted.stdout.contains("back in review") && !reverted.stdout.contains("live again"), "\(reverted.stdout) \(reverted.stderr)")
    }

    /// A folder with a copy of the sample imports, and a runner of the binary on a store in it.
    static func sampleStore(_ name: String) throws -> (TemporaryDirectory, ([String]) throws -> Binaries.Result) {
        let dir = try TemporaryDirectory(name)
        try FileManager.default.copyItem(atPath: ConsoleFixture.root.appendingPathComponent("Imports").path, toPath: dir.path("Imports"))
        let run: ([String]) throws -> Binaries.Result = { words in
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("Imports"), "--as", "ana"] + words)
        }
        return (dir, run)
    }

    /// `grades --course` with deadlines still to come that have no points yet (photographed
    /// assignment sheets): the grade is not known, never "missed (nothing remains)".
    @Test func deadlinesWithoutPointsAreNotNothingRemaining() throws {
        let (dir, run) = try Self.sampleStore("grades-uncounted")
        defer { dir.remove() }
        #expect(try run(["import", dir.path("Imports/samples/deadlines/canvas.json")]).status == 0)
        let chemistry = try #require(
            (try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "deadlines"]).stdout.utf8)) as? [[String: Any]] ?? [])
                .filter { ($0["title"] as? String)?.hasPrefix("Lab report 3") == true }.first?["id"] as? String)
        #expect(try run(["score", chemistry, "18/20"]).status == 0)
        let grades = try run(["grades", "--course", "CHEM-AP"]).stdout
        #expect(grades.contains("not known yet: 2 deadline(s) still to come have no points"), "\(grades)")
        #expect(!grades.contains("nothing remains"), "\(grades)")
    }

    /// A course that was made with no weights (by a photographed sheet, or by hand) takes the
    /// weights a Canvas feed's rules give later; weights a person set stay.
    @Test func aCourseWithoutWeightsTakesTheFeedsWeights() throws {
        let (dir, run) = try Self.sampleStore("course-weights")
        defer { dir.remove() }
        #expect(try run(["course", "add", "CHEM-AP", "--name", "AP Chemistry"]).status == 0)
        #expect(try run(["course", "add", "ENG-11", "--name", "English 11", "--weight", "reading=100"]).status == 0)
        #expect(try run(["import", dir.path("Imports/samples/deadlines/canvas.json")]).status == 0)
        let courses = try run(["courses"]).stdout
        let chemistry = courses.split(separator: "\n").first { $0.hasPrefix("CHEM-AP") } ?? ""
        let english = courses.split(separator: "\n").first { $0.hasPrefix("ENG-11") } ?? ""
        #expect(chemistry.contains("test 40%"), "\(courses)")
        #expect(english.contains("reading 100%") && !english.contains("project"), "\(courses)")
    }
}
