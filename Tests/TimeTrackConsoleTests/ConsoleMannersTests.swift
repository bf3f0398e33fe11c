import Foundation
import TestSupport
import Testing

/// What users of psql, git and kubectl expect at first contact: help flags, did-you-mean,
/// psql's backslash commands, `--out -`, and a review that starts with what an admin came for.
@Suite struct ConsoleMannersTests {
    @Test(arguments: [["import", "--help"], ["import", "-h"], ["help", "import"], ["list", "announcements", "--help"]])
    func commandHelpIsNotAnError(_ words: [String]) throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run(words)
        #expect(result.status == 0, "\(words): \(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: \(words[0] == "help" ? words[1] : words[0])"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.store))
    }

    @Test func shortFlagsForHelpAndVersion() throws {
        #expect(try Binaries.run("timetrack-admin", ["-V"]).stdout.hasPrefix("timetrack-admin "))
        let help = try Binaries.run("timetrack-admin", ["-h"])
        #expect(help.status == 0 && help.stdout.contains("global options:"))
    }

    @Test(arguments: [
        (["list", "--stauts", "pending"], "did you mean `--status`?"),
        (["list", "anouncements"], "did you mean `announcements`?"),
        (["review", "--kind", "evnts"], "did you mean `events`?"),
        (["hepl"], "did you mean `help`?"),
        (["help", "imprt"], "did you mean `import`?"),
    ])
    func nearMissesAreNamed(_ words: [String], _ hint: String) throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run(words)
        #expect(result.status == 2)
        #expect(result.stderr.contains(hint), "\(words): \(result.stderr)")
    }

    @Test func psqlBackslashCommandsInAScript() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let result = try fixture.run([], stdin: "\\?\n\\h list\n\\q\nstatus\n")
        #expect(result.stdout.contains("global options:"))
        #expect(result.stdout.contains("usage: list [KIND]"))
        #expect(!result.stderr.contains("no store"), "\\q stops before status: \(result.stderr)")
        #expect(result.status == 0)
    }

    @Test func exportToStdoutAndAnEmptyExportSaysSo() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let empty = try fixture.run(["export", "--format", "json", "--out", fixture.dir.path("out")])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("announcements.json: 0 published items"), "\(empty.stdout)")
        #expect(empty.stderr.contains("warning: nothing was published"), "\(empty.stderr)")
        let events = try fixture.ids("events")
        #expect(try fixture.run(["approve"] + events).status == 0)
        let ics = try fixture.run(["export", "--format", "ics", "--out", "-"])
        #expect(ics.status == 0)
        #expect(ics.stdout.hasPrefix("BEGIN:VCALENDAR") && ics.stdout.contains("END:VCALENDAR"), "\(ics.stdout.prefix(200))")
        #expect(!FileManager.default.fileExists(atPath: ConsoleFixture.root.appendingPathComponent("-").path))
        #expect(try fixture.run(["export", "--format", "json", "--out", "-"]).status == 2)
    }

    @Test func anAdminsReviewStartsWithDistrictNewsNotAbsenceReports() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let queue = try fixture.run(["review", "--limit", "1000"]).stdout.split(separator: "\n").dropFirst()
        let kinds = queue.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) }
        #expect(kinds.first == "announcement", "\(queue.prefix(3))")
        let order = ["announcement", "event", "school-info", "post", "absence", "ticket"]
        let positions = kinds.compactMap { order.firstIndex(of: $0) }
        #expect(positions == positions.sorted(), "\(kinds)")
        // Paged across kinds: the second page starts where the first stopped.
        let first = try fixture.run(["review", "--limit", "5"]).stdout
        let second = try fixture.run(["review", "--limit", "5", "--offset", "5"]).stdout
        #expect(first.contains("more wait: review --offset 5"))
        let ids = { (text: String) in text.split(separator: "\n").dropFirst().prefix(5).compactMap { $0.split(separator: " ").first.map(String.init) } }
        #expect(Set(ids(first)).isDisjoint(with: ids(second)) && ids(second).count == 5, "\(first)\n\(second)")
    }
}
