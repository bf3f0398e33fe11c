import Foundation
import TestSupport
import Testing

/// The privacy check in review: quiet on the clean sample district; on a planted post it names
/// and highlights the phone number, e-mail, address and student's name, and approving takes
/// `--anyway`, which the audit records.
@Suite struct PrivacyReviewTests {
    /// The sample district in `dir/imports`, plus a source of one post by Coach B saying `text`.
    static func plant(_ text: String, in dir: TemporaryDirectory) throws {
        try FileManager.default.copyItem(atPath: ConsoleFixture.root.appendingPathComponent("Imports").path, toPath: dir.path("imports"))
        try dir.write(
            "imports/planted-posts.json",
            #"{ "id": "planted-posts", "importer": "inbox", "kind": "post", "url": "samples/planted.json", "school": "hillcrest", "timeZone":"#
                + #" "America/Denver" }"#
        )
        let entry: [String: Any] = [
            "id": "post-9", "authorName": "Coach B", "authorRole": "teacher", "imageURLs": [], "createdAt": "2026-09-19T08:00:00-06:00", "text": text,
        ]
        try dir.write("imports/samples/planted.json", String(decoding: try JSONSerialization.data(withJSONObject: [entry]), as: UTF8.self))
    }

    @Test func theCleanSampleDistrictRaisesNothing() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let queue = try fixture.run(["review", "--limit", "1000"])
        #expect(queue.status == 0)
        #expect(queue.stdout.contains("announcement") && !queue.stdout.contains("⚠"), "\(queue.stdout)")
        // Every public item is approved without --anyway.
        for kind in ["announcements", "events", "school-info", "posts"] {
            let ids = try fixture.ids(kind)
            #expect(!ids.isEmpty)
            let approved = try fixture.run(["approve"] + ids)
            #expect(approved.status == 0, "\(kind): \(approved.stderr)")
        }
    }

    @Test func aPlantedPostIsFlaggedHighlightedAndApprovedOnlyAnyway() throws {
        let dir = try TemporaryDirectory("privacy")
        defer { dir.remove() }
        try Self.plant("Text me at (208) 555-0142 or coach.b@gmail.com. Avery Chen scored twice! Pick-up at 412 Maple Street.", in: dir)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words)
        }
        #expect(try run(["import", "--all"]).status == 0)
        let posts = try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "posts"]).stdout.utf8)) as? [[String: Any]] ?? []
        let planted = try #require(posts.first { ($0["title"] as? String)?.hasPrefix("Coach B") == true }?["id"] as? String)
        let queue = try run(["review", "--kind", "posts"]).stdout
        let line = try #require(queue.split(separator: "\n").first { $0.hasPrefix(planted + " ") })
        #expect(line.contains("⚠ e-mail address, phone number, street address, student's name"), "\(line)")
        #expect(queue.split(separator: "\n").filter { $0.contains("⚠") }.count == 1)
        let shown = try run(["show", planted]).stdout
        for text in [
            "phone number in text: …Text me at «(208) 555-0142» or", "e-mail address in text:", "«coach.b@gmail.com»", "«Avery Chen»", "«412 Maple Street»",
        ] {
            #expect(shown.contains(text), "\(text) in: \(shown)")
        }
        let refused = try run(["approve", planted])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("may expose private information"))
        #expect(refused.stderr.contains("approve \(planted) --anyway"))
        #expect(try run(["approve", planted, "--anyway"]).status == 0)
        let audit = try JSONSerialization.jsonObject(with: Data(try run(["--json", "audit", planted, "--limit", "1"]).stdout.utf8)) as? [[String: Any]]
        let reason = audit?.first?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("approved despite privacy flags: phone number \"(208) 555-0142\" in text"), "\(reason)")
    }

    /// At the terminal: the walk shows the flags, `a` asks "approve anyway?", a no leaves it
    /// pending, a yes publishes it with the flags in the audit.
    @Test func theReviewWalkAsksBeforeApprovingFlaggedContent() throws {
        let fixture = try ConsoleFixture(importing: false)
        defer { fixture.remove() }
        let dir = fixture.dir
        try Self.plant("Call 208-555-0142.", in: dir)
        #expect(try fixture.run(["--imports", dir.path("imports"), "import", "planted-posts"]).status == 0)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"), ["--store", fixture.store, "--imports", dir.path("imports"), "review", "--kind", "posts"])
        #expect(pty.expect("⚠ privacy: phone number in text") != nil, "\(pty.transcript)")
        #expect(pty.expect(" [q]uit [?] ") != nil)
        pty.send("a\r")
        #expect(pty.expect("approve anyway? the audit records it [y/N] ") != nil, "\(pty.transcript)")
        pty.send("n\r")
        #expect(pty.expect("not approved") != nil, "\(pty.transcript)")
        #expect(pty.expect(" [q]uit [?] ") != nil)
        pty.send("a\r")
        #expect(pty.expect("approve anyway? the audit records it [y/N] ") != nil)
        pty.send("y\r")
        #expect(pty.expect("approved") != nil, "\(pty.transcript)")
        pty.send("q\r")
        _ = pty.waitForExit()
        #expect(try fixture.ids("posts", status: "published").count == 1)
        let audit = try fixture.json(["audit", "--limit", "1"]) as? [[String: Any]]
        #expect((audit?.first?["reason"] as? String)?.hasPrefix("approved despite privacy flags: phone number") == true)
    }
}
