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
            #"{"categories": [{"name": "homework", "weight": 20, "earned": 180, "possible": 200, "remaining": 50}, {"name": "tests", "weight": 50, "earned": 160, "possible": 200, "remaining": 100}, {"name": "project", "weight": 30, "remaining": 100}]}"#
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
}
