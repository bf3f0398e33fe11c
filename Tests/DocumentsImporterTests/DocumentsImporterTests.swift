import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct DocumentsImporterTests {
    @Test func documentsPageToSchoolInfo() throws {
        let result = try ImporterFixtures.extract("info-docs")
        let items = result.infos
        #expect(items.map(\.title) == ["Regular Bell Schedule", "Friday Schedule", "Lunch Schedule", "Attendance Policy", "Handbook video", "Counseling Center"])
        #expect(result.duplicatesMerged == 1)
        #expect(items.map(\.documentType) == [.pdf, .pdf, .spreadsheet, .pdf, .video, .page])
        #expect(items.map(\.section) == [.schedules, .schedules, .schedules, .policies, .policies, .counseling])
        #expect(items[0].url == "https://lakeside.example/docs/Bell_Schedule.pdf")
        #expect(items[1].url == "https://lakeside.example/fs/resource-manager/view/3c9e")
        #expect(items[0].group == "Bell Schedules")
        #expect(!items.contains { $0.url.contains("privacy") || $0.url.hasPrefix("mailto") || $0.url.hasPrefix("tel") })
        #expect(items.allSatisfy { $0.fingerprint == nil })
    }

    @Test func documentFingerprintsChangeWhenTheFileChanges() throws {
        let result = try ImporterFixtures.extract("info-docs-fp")
        let bell = try #require(result.infos.first { $0.title == "Regular Bell Schedule" })
        #expect(bell.fingerprint == TimeTrackCore.SHA256.hex(Array("%PDF-1.4 bell schedule v1\n".utf8)))
        // Links the mirror cannot serve are reported, not dropped.
        #expect(result.problems.contains { $0.message.contains("could not fetch the document") })
        #expect(result.infos.count == 6)
    }
}

@Suite struct DocumentFragmentTests {
    @Test func linksIntoOtherPagesKeepTheirFragmentsAnchorsOnThisPageAreSkipped() throws {
        let dir = try TemporaryDirectory("fragments")
        defer { dir.remove() }
        try dir.write(
            "page.json",
            #"{ "id": "page", "importer": "documents", "kind": "school-info", "url": "page.html", "baseURL": "https://s.example/info/page.html", "timeZone": "America/Denver" }"#)
        try dir.write(
            "page.html",
            """
            <main><h2>Handbook</h2>
            <a href="#top">Back to top</a>
            <a href="/info/page.html#forms">Forms below</a>
            <a href="/handbook.html#dress-code">Dress code</a>
            <a href="/handbook.html#attendance">Attendance</a>
            <a href="/handbook.html#dress-code">Dress code (again)</a>
            <a href="/plan.pdf#page=4">Safety plan, page 4</a>
            </main>
            """)
        let result = try ImporterFixtures.extract("page", folder: dir.url)
        #expect(result.infos.map(\.url) == ["https://s.example/handbook.html#dress-code", "https://s.example/handbook.html#attendance", "https://s.example/plan.pdf#page=4"])
        #expect(result.duplicatesMerged == 1)
    }
}
