import Foundation
import TestSupport
import Testing

/// The bundled sample district, through the real binary, as the README tells a new user to run it.
@Suite struct SampleDistrictTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func extract(_ source: String) throws -> [[String: Any]] {
        let result = try Binaries.run("timetrack-admin", ["--json", "extract", "Imports/\(source).json"], currentDirectory: Self.root.path)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((json?["problems"] as? [Any])?.isEmpty == true)
        return (json?["items"] as? [[String: Any]] ?? []).compactMap { $0["fields"] as? [String: Any] }
    }

    @Test func newsListsEveryArticleAcrossBothPagesWithDetailFields() throws {
        let items = try extract("hillcrest-news")
        #expect(items.count == 6)
        for item in items {
            for field in ["title", "publishedAt", "summary", "imageURL", "link", "body"] {
                #expect(item[field] as? String != nil, "\(field) missing in \(item["title"] ?? "?")")
            }
            #expect((item["link"] as? String)?.hasPrefix("https://hillcrest.canyonsdistrict.example/news/") == true)
            #expect((item["body"] as? String)?.contains("<script") == false)
        }
        #expect(items.first?["publishedAt"] as? String == "2026-09-14T08:00:00-06:00")
        #expect(items.last?["title"] as? String == "Welcome Back, Huskies!")
    }

    @Test func eventsHaveTimesAllDayAndCancelled() throws {
        let items = try extract("hillcrest-events")
        #expect(items.count == 8)
        #expect(items.filter { $0["allDay"] as? Bool == true }.count == 3)
        #expect(items.filter { $0["state"] as? String == "cancelled" }.count == 1)
        let night = try #require(items.first { $0["title"] as? String == "Back to School Night" })
        #expect(night["start"] as? String == "2026-09-15T18:00:00-06:00")
        #expect(night["end"] as? String == "2026-09-15T20:00:00-06:00")
        #expect(night["timeZone"] as? String == "America/Denver")
    }

    @Test func schoolInfoHasTheFourteenDocumentsInTheirSections() throws {
        let items = try extract("hillcrest-info")
        #expect(items.count == 14)
        var bySection: [String: [String]] = [:]
        for item in items { bySection[item["section"] as? String ?? "?", default: []].append(item["title"] as? String ?? "?") }
        #expect(bySection["schedules"] == ["Weekday Schedule", "Friday Schedule", "AB Calendar", "Fee Schedule", "Teacher Lunches"])
        #expect(bySection["policies"] == ["Attendance Policy", "School Fees Policy", "Technology Policy", "District Policy"])
        #expect(bySection["programs"] == ["Sterling Scholar", "Career and Technical Education", "AP Programs", "Concurrent Enrollment"])
        #expect(bySection["disclosures"] == ["School Disclosure"])
        #expect(items.allSatisfy { $0["documentType"] as? String == "pdf" })
    }

    @Test func importTwiceStoresOnceAndExtractWritesNothing() throws {
        let dir = try TemporaryDirectory("sample")
        defer { dir.remove() }
        let store = dir.path("t.sqlite")
        _ = try Binaries.run("timetrack-admin", ["--store", store, "extract", "hillcrest-news"], currentDirectory: Self.root.path)
        #expect(!FileManager.default.fileExists(atPath: store))
        let first = try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "import", "--all"], currentDirectory: Self.root.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("hillcrest-news: ok · 6 found · 6 new"))
        let second = try Binaries.run("timetrack-admin", ["--store", store, "--as", "ana", "--json", "import", "--all"], currentDirectory: Self.root.path)
        #expect(second.status == 0)
        let runs = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(runs.count == 6)
        #expect(runs.allSatisfy { ($0["new"] as? [Any])?.isEmpty == true && ($0["changed"] as? [Any])?.isEmpty == true })
        let status = try Binaries.run("timetrack-admin", ["--store", store, "--json", "status"])
        let counts = (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["counts"] as? [String: [String: Int]]
        #expect(counts?["announcement"]?["pending"] == 6)
        #expect(counts?["event"]?["pending"] == 8)
        #expect(counts?["school-info"]?["pending"] == 14)
    }
}
