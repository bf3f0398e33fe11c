import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackStore

@testable import TimeTrackReview

@Suite struct PrivacyLintTests {
    static let students = ["Avery Chen", "Jordan Lee"]

    @Test func phoneEmailAddressAndStudentsNameAreFoundWithTheirText() throws {
        let post = ItemContent.post(
            Post(
                authorName: "Coach B", authorRole: .staff,
                text: "Text me at (208) 555-0142 or coach.b@gmail.com. AVERY CHEN scored twice! Pick-up at 412 Maple Street.", createdAt: Samples.day))
        let found = PrivacyLint.findings(post, students: Self.students)
        #expect(found.map(\.kind) == [.phone, .email, .address, .student])
        #expect(found.map(\.match) == ["(208) 555-0142", "coach.b@gmail.com", "412 Maple Street", "AVERY CHEN"])
        #expect(found.allSatisfy { $0.field == "text" })
        #expect(found[0].before == "Text me at " && found[0].after.hasPrefix(" or coach.b"))
    }

    @Test func placesLinksDatesAndPrivateKindsAreNotLinted() throws {
        let event = ItemContent.event(
            Event(
                title: "Back to school night", start: Samples.day, timeZone: "America/Denver", address: "1200 W Hillcrest Drive, Boise",
                link: "https://hillcrest.example/events/2026-555-0142"))
        #expect(PrivacyLint.findings(event, students: Self.students).isEmpty)
        #expect(PrivacyLint.findings(Samples.absence(), students: Self.students).isEmpty)
        #expect(
            PrivacyLint.findings(.announcement(Announcement(title: "Jordan Leeds wins the spelling bee", publishedAt: Samples.day)), students: Self.students)
                .isEmpty)
        // Numbers that are not phone numbers: dates, scores, years.
        let scores = ItemContent.announcement(Announcement(title: "Huskies win 28-14 on 2026-09-18; 1,200 fans", publishedAt: Samples.day))
        #expect(PrivacyLint.findings(scores, students: Self.students).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func approvingFlaggedContentTakesAnywayAndIsRecorded(_ backend: Backend) throws {
        try backend.with { repository, life in try Self.approveFlagged(repository, life) }
    }

    static func approveFlagged(_ repository: any ItemRepository, _ life: Lifecycle) throws {
        _ = try life.submit(Samples.absence(), school: "hillcrest", by: "ana", note: nil)
        let student = try #require(try repository.absenceStudents().first)
        let post = try life.submit(
            .post(Post(authorName: "Coach B", authorRole: .staff, text: "Great game, \(student)!", createdAt: Samples.day)), school: "hillcrest", by: "ana",
            note: nil)
        #expect {
            try life.approve(post.id, by: "ana")
        } throws: { error in
            (error as? TimeTrackError)?.message.contains("may expose private information: student's name \"\(student)\" in text") == true
        }
        #expect(try repository.item(post.id).status == .pending)
        #expect(try life.approve(post.id, by: "ana", anyway: true).status == .published)
        let entry = try #require(try repository.audit(itemID: post.id, limit: 1).first)
        #expect(entry.action == "approve" && entry.reason == "approved despite privacy flags: student's name \"\(student)\" in text")
    }
}
