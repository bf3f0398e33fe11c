import Foundation
import TestSupport
import Testing

/// Dates written without a year: read from where the page says it (`yearFrom`, `year`), or
/// guessed and marked for the reviewer; a run whose guesses the page contradicts is held.
@Suite struct YearGuessTests {
    static let page = """
        <html><body>
        <h1>Hillcrest Calendar</h1>
        <h2 class="span">October 2022 – January 2023</h2>
        <ul>
          <li class="ev"><span class="d">Oct 17</span> <span class="t">Fall conferences</span></li>
          <li class="ev"><span class="d">Nov 23</span> <span class="t">Thanksgiving break</span></li>
          <li class="ev"><span class="d">Jan 9</span> <span class="t">Classes resume</span></li>
        </ul>
        </body></html>
        """

    func definition(_ extra: String) -> String {
        """
        {"id": "cal", "name": "Calendar", "importer": "html", "kind": "event", "url": "cal.html",
         "baseURL": "https://hillcrest.example/cal.html", "timeZone": "America/Denver",
         "options": {"item": "li.ev", "fields": {"title": ".t", "date": ".d"}\(extra)}}
        """
    }

    func run(_ extra: String) throws -> (TemporaryDirectory, [String: String], Binaries.Result) {
        let dir = try TemporaryDirectory("years")
        try Self.page.write(toFile: dir.path("cal.html"), atomically: true, encoding: .utf8)
        try definition(extra).write(toFile: dir.path("cal.json"), atomically: true, encoding: .utf8)
        let store = dir.path("s.sqlite")
        let result = try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "--imports", dir.url.path, "import", "cal", "--no-review"])
        let listed = try Binaries.run("timetrack-admin", ["--store", store, "--json", "list", "events", "--status", "pending"])
        let items = (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]] ?? []
        var starts: [String: String] = [:]
        for item in items {
            guard let id = item["id"] as? String else { continue }
            let shown = try Binaries.run("timetrack-admin", ["--store", store, "--json", "show", id])
            let object = (try? JSONSerialization.jsonObject(with: Data(shown.stdout.utf8))) as? [String: Any]
            let fields = object?["fields"] as? [String: Any]
            starts[(fields?["title"] as? String) ?? id] = (fields?["start"] as? String) ?? ""
        }
        return (dir, starts, result)
    }

    @Test func yearFromTheRangeHeadingGivesEachDateItsYear() throws {
        let (dir, starts, result) = try run(#", "yearFrom": "h2.span""#)
        defer { dir.remove() }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(starts["Fall conferences"]?.hasPrefix("2022-10-17") == true, "\(starts)")
        #expect(starts["Thanksgiving break"]?.hasPrefix("2022-11-23") == true, "\(starts)")
        #expect(starts["Classes resume"]?.hasPrefix("2023-01-09") == true, "\(starts)")
        let shown = try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "show", "e1"])
        #expect(!shown.stdout.contains("guessed"), "\(shown.stdout)")
        // `true`: the nearest heading; `year`: said in the definition.
        let (dir2, starts2, _) = try run(#", "yearFrom": true"#)
        defer { dir2.remove() }
        #expect(starts2["Classes resume"]?.hasPrefix("2023-01-09") == true, "\(starts2)")
        let (dir3, starts3, _) = try run(#", "year": 2021"#)
        defer { dir3.remove() }
        #expect(starts3["Fall conferences"]?.hasPrefix("2021-10-17") == true, "\(starts3)")
    }

    @Test func withoutItTheYearIsGuessedMarkedAndTheRunHeld() throws {
        let (dir, _, result) = try run("")
        defer { dir.remove() }
        let store = dir.path("s.sqlite")
        // Every guess contradicts the page's heading: held, nothing applied, the fix named.
        #expect(result.stdout.contains("held") || result.stderr.contains("held"), "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("yearFrom"), "\(result.stdout)\(result.stderr)")
        #expect(try Binaries.sql(store, "SELECT count(*) FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // Accepted after a look: the items carry their guess, and show and review say so.
        let accepted = try Binaries.run(
            "timetrack-admin", ["--store", store, "--as", "ana", "--imports", dir.url.path, "import", "cal", "--accept", "--no-review"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let shown = try Binaries.run("timetrack-admin", ["--store", store, "show", "e1"]).stdout
        #expect(shown.contains("note:     year guessed: ") && shown.contains("the page's heading says 2022–2023"), "\(shown)")
        let pty = try PseudoTerminal(Binaries.path("timetrack-admin"), ["--store", store, "--as", "ana", "review"])
        #expect(pty.expect("year guessed: ") != nil, "\(pty.transcript)")
        #expect(pty.expect(" [q]uit [?] ") != nil)
        pty.send("q\r")
        #expect(pty.waitForExit() == 0)
    }
}
