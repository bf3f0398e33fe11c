import Foundation
import TestSupport
import Testing
import TimeTrackCore

@Suite struct DocumentsImporterTests {
    @Test func documentsPageToSchoolInfo() throws {
        let result = try ImporterFixtures.extract("info-docs")
        let items = result.infos
        #expect(
            items.map(\.title) == ["Regular Bell Schedule", "Friday Schedule", "Lunch Schedule", "Attendance Policy", "Handbook video", "Counseling Center"])
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
            #"{ "id": "page", "importer": "documents", "kind": "school-info", "url": "page.html", "baseURL": "https://s.example/info/page.html","#
                + #" "timeZone": "America/Denver" }"#
        )
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
        #expect(
            result.infos.map(\.url) == [
                "https://s.example/handbook.html#dress-code", "https://s.example/handbook.html#attendance", "https://s.example/plan.pdf#page=4",
            ])
        #expect(result.duplicatesMerged == 1)
    }
}

/// Titles as a person would give them (issue 34): file-kind notes go ("[Adobe PDF]", "(Microsoft
/// Word, 45 KB)"), other notes stay ("(Spanish)"), and a URL linked first by an icon and then by
/// text takes the text.
@Suite struct DocumentTitlesTests {
    @Test func fileKindNotesGoAndTextBeatsAnIconsAlt() throws {
        let folder = try TemporaryDirectory("document-titles")
        defer { folder.remove() }
        try folder.write(
            "info.html",
            """
            <main><h2>Policies</h2><ul>
            <li><a href="/docs/handbook.pdf"><img src="/icons/pdf.png" alt="PDF icon"></a> <a href="/docs/handbook.pdf">Student Handbook</a></li>
            <li><a href="/docs/fees.pdf">Fee Schedule [Adobe PDF]</a></li>
            <li><a href="/docs/lunch.docx">Lunch Menu (Microsoft Word, 45 KB)</a></li>
            <li><a href="/docs/dress.pdf">Dress Code (PDF, 1.2 MB)</a></li>
            <li><a href="/docs/plan-es.pdf">Safety Plan (Spanish)</a></li>
            <li><a href="/docs/budget.xlsx">Budget [Excel file]</a></li>
            </ul></main>
            """)
        try folder.write(
            "info-def.json",
            #"{ "id": "info-def", "importer": "documents", "kind": "school-info", "url": "info.html", "baseURL": "https://school.example/info.html","#
                + #" "timeZone": "UTC" }"#
        )
        let result = try ImporterFixtures.extract("info-def", folder: folder.url)
        #expect(result.infos.map(\.title) == ["Student Handbook", "Fee Schedule", "Lunch Menu", "Dress Code", "Safety Plan (Spanish)", "Budget"])
        #expect(result.duplicatesMerged == 1)
    }
}

/// `"exclude": ""` excludes nothing (issue 34: the default could not be emptied).
@Suite struct DocumentsExcludeTests {
    @Test func anEmptyExcludeKeepsEveryLink() throws {
        let folder = try TemporaryDirectory("documents-exclude")
        defer { folder.remove() }
        try folder.write(
            "docs.html",
            "<main><nav class='sidebar'><ul><li><a href='/docs/handbook.pdf'>Handbook</a></li><li><a href='/docs/bell.pdf'>Bell"
                + " Schedule</a></li></ul></nav></main>"
        )
        for (exclude, expected) in [(nil, [String]()), ("\"\"", ["Handbook", "Bell Schedule"]), ("\"footer\"", ["Handbook", "Bell Schedule"])] {
            let option = exclude.map { #", "options": { "exclude": \#($0) }"# } ?? ""
            try folder.write(
                "docs-def.json",
                #"{ "id": "docs-def", "importer": "documents", "kind": "school-info", "url": "docs.html", "baseURL": "https://s.example/docs.html","#
                    + #" "timeZone": "UTC"\#(option) }"#
            )
            let result = try ImporterFixtures.extract("docs-def", folder: folder.url)
            #expect(result.infos.map(\.title) == expected, "exclude \(exclude ?? "default"): \(result.problems)")
        }
    }
}

/// Links to files whose address has no extension are typed by what the address says
/// (issue 34: every one was typed `page`).
@Suite struct ExtensionlessFileLinkTests {
    @Test func fileStoresShareLinksAndFileNamesInTheQuery() throws {
        let folder = try TemporaryDirectory("extensionless")
        defer { folder.remove() }
        try folder.write(
            "board.html",
            """
            <main><h2>Board Documents</h2><ul>
            <li><a href="/fs/resource-manager/view/6e1d2c3b-4a59-4f8e-9d7c-6b5a4e3d2c1b">Agenda</a></li>
            <li><a href="/site/handlers/filedownload.ashx?moduleinstanceid=2841&amp;dataid=9932&amp;FileName=Budget%20Hearing%20Packet.pdf">Budget\
             Hearing Packet</a></li>
            <li><a href="https://cedarridge.sharepoint.com/:x:/s/BoardOffice/EaB1c2D3e4F5g6H7i8J9k0">Enrollment Figures</a></li>
            <li><a href="https://1drv.ms/w/s!AkL9m8N7o6P5q4R3">Superintendent's Letter</a></li>
            <li><a href="https://www.cedarridge.example/apps/pages/index.jsp?uREC_ID=311&amp;type=d">Board Members</a></li>
            <li><a href="/board/meeting-calendar">Meeting Calendar</a></li>
            </ul></main>
            """)
        try folder.write(
            "board-def.json",
            #"{ "id": "board-def", "importer": "documents", "kind": "school-info", "url": "board.html", "baseURL":"#
                + #" "https://www.cedarridge.example/board/documents", "timeZone": "UTC" }"#
        )
        let result = try ImporterFixtures.extract("board-def", folder: folder.url)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(
            result.infos.map(\.title) == [
                "Agenda", "Budget Hearing Packet", "Enrollment Figures", "Superintendent's Letter", "Board Members", "Meeting Calendar",
            ])
        #expect(result.infos.map(\.documentType) == [.document, .pdf, .spreadsheet, .document, .page, .page])
    }
}
