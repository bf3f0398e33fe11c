import Foundation
import TestSupport
import Testing

/// `grades` through the binary: a grade book in, what each letter needs out.
@Suite struct GradesCommandTests {
    @Test func whatEachLetterNeeds() throws {
        let dir = try TemporaryDirectory("grades")
        defer { dir.remove() }
        let book = try dir.write(
            "chem.json",
            #"{"categories": [{"name": "homework", "weight": 20, "earned": 180, "possible": 200, "remaining": 50}, {"name": "tests", "weight": 50,"#
                + #" "earned": 160, "possible": 200, "remaining": 100}, {"name": "project", "weight": 30, "remaining": 100}]}"#
        )
        let text = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "grades", book])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("A (90%): needs 96.6% on the remaining work"), "\(text.stdout)")
        #expect(text.stdout.contains("now 82.9% on graded work"))
        let json = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--json", "grades", book, "--target", "95"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.first?["verdict"] as? String == "impossible" && rows.first?["needed"] as? Double == 106.45, "\(json.stdout)")
        let bad = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "grades", try dir.write("bad.json", "[1,2]")])
        #expect(bad.status == 2 && bad.stderr.contains("is not a grade book"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("t.sqlite")), "grades opens no store")
    }

    /// `grades --course`: the grade book from the store: the course's weights, its deadlines'
    /// points, and the scores entered with `score`; a re-import never touches a score.
    @Test func aCoursesGradeBookComesFromTheStore() throws {
        let dir = try TemporaryDirectory("grades-course")
        defer { dir.remove() }
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Imports/samples/deadlines")
        try FileManager.default.copyItem(atPath: samples.path, toPath: dir.path("imports"))
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "--no-input"] + words)
        }
        #expect(try run(["import", "--all"]).status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(try run(["--json", "list", "deadlines"]).stdout.utf8)) as? [[String: Any]] ?? []
        func id(_ title: String) throws -> String {
            try #require(rows.first { ($0["title"] as? String)?.hasPrefix(title) == true }?["id"] as? String, "\(title) in \(rows)")
        }
        let lab = try id("Lab report 3"), quiz = try id("Stoichiometry check"), exam = try id("Unit 1 exam")
        #expect(try run(["score", lab, "18/20"]).stdout.contains("\(lab): scored 18 of 20 (90%)"))
        #expect(try run(["score", quiz, "9/10"]).status == 0)
        let before = try run(["grades", "--course", "CHEM-AP"])
        #expect(before.stdout.contains("left out, no points: \(exam)"), "a deadline without points is named: \(before.stdout)")
        #expect(try run(["edit", exam, "points=100"]).status == 0)
        // homework 18/20 and quiz 9/10 graded, the 100-point test to come, the project with no work.
        let graded = try run(["grades", "--course", "chem-ap"])
        #expect(graded.status == 0, "\(graded.stderr)")
        #expect(graded.stdout.contains("now 90.0% on graded work; the final grade will be 50.0% to 94.4%"), "\(graded.stdout)")
        #expect(graded.stdout.contains("A (90%): needs 90.0% on the remaining work"), "\(graded.stdout)")
        // The Canvas feed read again: the scores are the student's, the import leaves them.
        #expect(try run(["import", "--all"]).status == 0)
        #expect(try run(["grades", "--course", "CHEM-AP"]).stdout.contains("now 90.0% on graded work"))
        #expect(try run(["score", lab, "18/0"]).status == 2)
        #expect(try run(["grades", "--course", "NOPE"]).stderr.contains("no course 'NOPE'"))
        #expect(try run(["grades"]).status == 2)
    }

    /// A student's own course feed trusted to publish (`"review": "auto"`): a due date the
    /// teacher moves goes live at once, and the import shows the change, old and new, in the
    /// school's zone.
    @Test func aTrustedFeedShowsAMovedDueDateAfterPublishingIt() throws {
        let dir = try TemporaryDirectory("student-auto")
        defer { dir.remove() }
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Imports/samples/deadlines")
        try FileManager.default.copyItem(atPath: samples.path, toPath: dir.path("imports"))
        let definition = try String(contentsOfFile: dir.path("imports/canvas.json"), encoding: .utf8)
        try dir.write("imports/canvas.json", definition.replacingOccurrences(of: #""kind": "deadline","#, with: #""kind": "deadline", "review": "auto","#))
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "sam", "--no-input"] + words)
        }
        #expect(try run(["import", "--all"]).status == 0)
        #expect(try run(["list", "deadlines", "--status", "published"]).stdout.contains("Stoichiometry check"))
        // The teacher moves the quiz from Tuesday 08:30 to Thursday 08:30 (Denver).
        let feed = try String(contentsOfFile: dir.path("imports/canvas.ics"), encoding: .utf8)
        try dir.write("imports/canvas.ics", feed.replacingOccurrences(of: "DTSTART:20260915T143000Z", with: "DTSTART:20260917T143000Z"))
        let moved = try run(["import", "--all"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stderr.contains("published with a change") && moved.stderr.contains("Stoichiometry check"), "\(moved.stderr)")
        #expect(moved.stderr.contains("2026-09-15 08:30") && moved.stderr.contains("2026-09-17 08:30"), "old and new, in Denver's time: \(moved.stderr)")
    }
}
