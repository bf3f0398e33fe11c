import Foundation
import TestSupport
import Testing

/// A locked field whose source changes settles: one record of the source's value, no revision,
/// no noise for cron; `show` tells, `unlock` takes it.
@Suite struct LockSettlingTests {
    @Test func aLockedFieldChangedUpstreamIsRecordedOnceAndUnlockTakesIt() throws {
        let dir = try TemporaryDirectory("locks")
        defer { dir.remove() }
        func page(_ summary: String) throws {
            try dir.write("imports/news.html", "<article><h2>Open house</h2><p class='s'>\(summary)</p><a href='/n/1'>more</a></article>")
        }
        try page("In the gym")
        try dir.write(
            "imports/news.json",
            """
            { "id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://district.example/news/", "timeZone":\
             "America/Denver",
              "options": { "item": "article", "key": "a@href", "fields": { "title": "h2", "summary": ".s", "link": "a@href" } } }
            """)
        let store = dir.path("s.sqlite")
        func run(_ arguments: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", store, "--imports", dir.path("imports"), "--as", "root"] + arguments)
        }
        #expect(try run(["import", "news"]).status == 0)
        let id = try Binaries.sql(store, "SELECT id FROM items").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(["approve", id]).status == 0)
        let edit = try run(["edit", id, "summary=In the auditorium"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains("locked against re-imports: summary"))
        let revisions = try Binaries.sql(store, "SELECT count(*) FROM revisions")

        try page("In room 200")
        for round in 1...5 {
            let quiet = try run(["import", "news", "--quiet"])
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "round \(round): \(quiet.stdout) \(quiet.stderr)")
        }
        #expect(try Binaries.sql(store, "SELECT count(*) FROM revisions") == revisions)
        #expect(try Binaries.sql(store, "SELECT count(*) FROM audit WHERE action = 'import-locked'").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try Binaries.sql(store, "SELECT status FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "published")
        let shown = try run(["show", id])
        #expect(shown.stdout.contains("locked:   summary = In the auditorium"), "\(shown.stdout)")
        #expect(shown.stdout.contains("upstream now: In room 200"), "\(shown.stdout)")

        let unlocked = try run(["unlock", id, "summary"])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        let after = try run(["--json", "show", id])
        #expect(after.stdout.contains("In room 200"))
        #expect(!after.stdout.contains("In the auditorium"))
        #expect(try Binaries.sql(store, "SELECT count(*) FROM audit WHERE action = 'unlock'").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // Following the source again: the next import is quiet, nothing to apply.
        let next = try run(["import", "news", "--quiet"])
        #expect(next.stdout.isEmpty && next.stderr.isEmpty, "\(next.stderr)")
    }
}
