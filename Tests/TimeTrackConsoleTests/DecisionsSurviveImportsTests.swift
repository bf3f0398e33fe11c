import Foundation
import TestSupport
import Testing

/// A person's decision is never undone by an import, a submission never sets what staff decide,
/// and no local file leaves through an export: the reproductions of issue 37, through the real
/// binary on a real store.
@Suite struct DecisionsSurviveImportsTests {
    /// `reply`, then an unchanged `import --all`: the reply is still there, and the importer
    /// wrote no revision.
    @Test func aReplyOutlivesAnUnchangedReimport() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        guard let ticket = try fixture.ids("tickets").first else { Issue.record("the sample has no tickets"); return }
        #expect(try fixture.run(["--as", "ana", "reply", ticket, "B lunch is 4th period on Fridays."]).status == 0)
        let revisions = try fixture.run(["history", ticket]).stdout
        let again = try fixture.run(["--json", "import", "--all"])
        #expect(again.status == 0, "\(again.stderr)")
        let shown = try fixture.run(["show", ticket]).stdout
        #expect(shown.contains("B lunch is 4th period on Fridays."), "\(shown)")
        #expect(!shown.contains("none yet"), "\(shown)")
        #expect(try fixture.run(["history", ticket]).stdout == revisions)
        let runs = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]] ?? []
        for run in runs { #expect((run["changed"] as? [Any])?.isEmpty == true, "\(run)") }
    }

    /// Approved and rejected absence reports are not proposed again by every run.
    @Test func absenceDecisionsAreNotProposedAgain() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let absences = try fixture.ids("absences")
        guard absences.count >= 2 else { Issue.record("the sample has fewer than 2 absences"); return }
        #expect(try fixture.run(["--as", "ana", "approve", absences[0]]).status == 0)
        #expect(try fixture.run(["--as", "ana", "reject", absences[1], "--reason", "no note from a parent"]).status == 0)
        for _ in 0..<2 {
            let again = try fixture.run(["--json", "import", "--all"])
            let runs = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]] ?? []
            for run in runs { #expect((run["changed"] as? [Any])?.isEmpty == true, "\(run)") }
        }
        #expect(try fixture.run(["--json", "show", absences[0]]).stdout.contains(#""outcome" : "excused""#))
        #expect(try fixture.run(["--json", "show", absences[1]]).stdout.contains(#""outcome" : "unexcused""#))
        // The outcome follows the decision; an edit cannot contradict it.
        let edit = try fixture.run(["--as", "ana", "edit", absences[1], "outcome=excused"])
        #expect(edit.status == 2 && edit.stderr.contains("follows its decision"), "\(edit.stderr)")
    }

    /// A folder of definitions and inbox files for the hostile submissions below.
    static func inbox(_ dir: TemporaryDirectory, kind: String, _ json: String) throws {
        try FileManager.default.createDirectory(atPath: dir.path("imports/inbox"), withIntermediateDirectories: true)
        try dir.write("imports/inbox/\(kind).json", json)
        try dir.write(
            "imports/\(kind).json",
            #"{ "id": "\#(kind)", "importer": "inbox", "kind": "\#(kind)", "url": "inbox/\#(kind).json", "school": "hillcrest", "timeZone": "America/Denver" }"#
        )
    }

    static func run(_ dir: TemporaryDirectory, _ words: [String]) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words)
    }

    /// Submissions that set staff-owned fields (an outcome, replies by anyone, closed, a
    /// moderation note) have them ignored, with a warning that says so.
    @Test func aSubmissionCannotSetWhatStaffDecide() throws {
        let dir = try TemporaryDirectory("staff-owned")
        defer { dir.remove() }
        try Self.inbox(
            dir, kind: "ticket",
            #"[{ "id": "t-1", "from": "pat@example.org", "kind": "question", "subject": "Lunch", "message": "When?", "closed": true, "replies": [{"#
                + #" "by": "principal", "at": "2026-09-14T08:00:00Z", "text": "forged answer" }] }]"#
        )
        try Self.inbox(
            dir, kind: "absence",
            #"[{ "id": "r-1", "student": "Sam Lee", "reportedBy": "Pat Lee", "dates": ["2026-09-14"], "periods": [], "reason": "illness", "outcome":"#
                + #" "excused" }]"#
        )
        try Self.inbox(
            dir, kind: "post",
            #"[{ "id": "p-1", "authorName": "Ana", "authorRole": "student", "text": "Hi", "imageURLs": [], "createdAt": "2026-09-14T08:00:00Z","#
                + #" "moderationNote": "approved by the principal" }]"#
        )
        let imported = try Self.run(dir, ["--json", "import", "--all"])
        #expect(imported.status == 0, "\(imported.stderr)")
        for field in ["closed, replies", "outcome", "moderationNote"] {
            #expect(imported.stdout.contains("ignored \(field) of"), "\(field): \(imported.stdout)")
        }
        func shown(_ kind: String) throws -> String {
            let listed = try JSONSerialization.jsonObject(with: Data(try Self.run(dir, ["--json", "list", kind]).stdout.utf8)) as? [[String: Any]] ?? []
            let id = try #require(listed.first?["id"] as? String, "no \(kind) was imported")
            return try Self.run(dir, ["--json", "show", id]).stdout
        }
        let ticket = try shown("tickets")
        #expect(!ticket.contains("forged answer") && ticket.contains("\"closed\" : false") && ticket.contains("When?"), "\(ticket)")
        let absence = try shown("absences")
        #expect(!absence.contains("excused") && absence.contains("Sam Lee"), "\(absence)")
        let post = try shown("posts")
        #expect(!post.contains("principal") && post.contains("\"text\" : \"Hi\""), "\(post)")
    }

    /// Photos given as `file:` URLs, absolute paths, `..` or links out of the imports folder are
    /// dropped where they enter; a photo inside the folder is kept; and the export copies only
    /// files that lie inside the imports folder, whatever the store says.
    @Test func noLocalFileLeavesThroughAnExport() throws {
        let dir = try TemporaryDirectory("local-files")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports/inbox/photos"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PhotoPrivacyTests.photos.appendingPathComponent("plain.jpg").path, toPath: dir.path("imports/inbox/photos/ok.jpg"))
        try FileManager.default.copyItem(atPath: PhotoPrivacyTests.photos.appendingPathComponent("plain.jpg").path, toPath: dir.path("secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("imports/inbox/photos/link.jpg"), withDestinationPath: dir.path("secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("imports/inbox/photos/passwd.jpg"), withDestinationPath: "/etc/passwd")
        let hostile = ["file://\(dir.path("secret.jpg"))", dir.path("secret.jpg"), "../../secret.jpg", "photos/link.jpg", "photos/passwd.jpg", "photos/ok.jpg"]
        let list = hostile.map { "\"\($0)\"" }.joined(separator: ", ")
        try Self.inbox(
            dir, kind: "post",
            #"""
            [{ "id": "p-1", "authorName": "Ana", "authorRole": "student", "text": "Hi", "createdAt": "2026-09-14T08:00:00Z", "imageURLs": [\#(list)] },
             { "id": "p-2", "authorName": "Ana", "authorRole": "student", "text": "Ok", "createdAt": "2026-09-14T08:00:00Z", "imageURLs": ["photos/ok.jpg"] }]
            """#)
        let imported = try Self.run(dir, ["--json", "import", "--all"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.components(separatedBy: "dropped").count - 1 == 5, "\(imported.stdout)")
        let shown = try Self.run(dir, ["--json", "show", "p1"]).stdout
        #expect(!shown.contains("secret") && !shown.contains("passwd") && shown.contains("ok.jpg") && shown.contains("\"text\" : \"Hi\""), "\(shown)")
        // Someone with the console points the post at a file outside the imports folder.
        let edited = try Self.run(dir, ["edit", "p1", "imageURLs=file://\(dir.path("secret.jpg")),file:///etc/passwd"])
        #expect(edited.status == 0, "\(edited.stderr)")
        let approved = try Self.run(dir, ["approve", "p1", "p2"])
        #expect(approved.status == 0, "\(approved.stderr)")
        let export = try Self.run(dir, ["export", "--format", "json", "--out", dir.path("out")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("not a file inside the imports folder"), "\(export.stderr)")
        let copies = (try? FileManager.default.contentsOfDirectory(atPath: dir.path("out/images"))) ?? []
        #expect(copies.count == 1, "only ok.jpg's copy: \(copies)")
    }
}

/// A healthy cron run says nothing is wrong: a documents page read again (its footer changed,
/// its links did not) gives its items as settled, not "0 items: no document links".
@Suite struct HealthyRunTests {
    @Test func anUnchangedDocumentsPageIsNoProblem() throws {
        let dir = try TemporaryDirectory("documents-again")
        defer { dir.remove() }
        func page(_ footer: String) -> String {
            """
            <html><body><nav><a href="/">Home</a></nav><main><h2>Schedules</h2><ul>
            <li><a href="/docs/School_Schedule.pdf">Weekday Schedule</a></li>
            <li><a href="/docs/Friday_Schedule.pdf">Friday Schedule</a></li></ul>
            <h2>Policies</h2><ul><li><a href="/docs/Attendance_Policy.pdf">Attendance Policy</a></li></ul></main>
            <footer>\(footer)</footer></body></html>
            """
        }
        try dir.write("imports/site/info.html", page("Updated Monday"))
        try dir.write(
            "imports/info.json",
            #"{ "id": "info", "importer": "documents", "kind": "school-info", "url": "site/info.html", "baseURL": "https://school.example/info.html","#
                + #" "timeZone": "America/Denver" }"#
        )
        func run() throws -> [String: Any] {
            let result = try Binaries.run(
                "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "--json", "import", "info"])
            #expect(result.status == 0, "\(result.stderr)")
            return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first ?? [:]
        }
        let first = try run()
        #expect((first["new"] as? [Any])?.count == 3, "\(first)")
        try dir.write("imports/site/info.html", page("Updated Tuesday"))
        let again = try run()
        #expect((again["problems"] as? [Any])?.isEmpty == true, "\(again)")
        #expect((again["new"] as? [Any])?.isEmpty == true && (again["changed"] as? [Any])?.isEmpty == true, "\(again)")
        #expect(again["found"] as? Int == 3, "\(again)")
    }
}
