import Foundation
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Each WCAG criterion the check knows, on an item that fails it and on a clean twin that
/// passes (issue 38): the finding names the criterion, the field and the fix.
@Suite struct AccessibilityCheckTests {
    static let day = Date(timeIntervalSince1970: 1_790_000_000)

    static func news(body: String? = nil, image: String? = nil, alt: String? = nil, title: String = "Picture Day Is Friday", link: String? = nil) -> ItemContent
    {
        .announcement(Announcement(title: title, body: body, imageURL: image, imageAlt: alt, link: link, publishedAt: day))
    }

    static func criteria(_ content: ItemContent) -> [String] { AccessibilityCheck.findings(content).map(\.criterion) }

    @Test func imagesNeedTextAlternatives() {
        let missing = AccessibilityCheck.findings(Self.news(image: "https://d.example/img/IMG_2231.jpg"))
        #expect(missing.map(\.criterion) == ["1.1.1"] && missing[0].field == "imageAlt" && missing[0].problem.contains("no alt text"))
        #expect(Self.criteria(Self.news(image: "https://d.example/img/IMG_2231.jpg", alt: "IMG_2231.jpg")) == ["1.1.1"])
        #expect(Self.criteria(Self.news(image: "https://d.example/img/a.jpg", alt: "photo")) == ["1.1.1"])
        #expect(Self.criteria(Self.news(body: #"<p>Look:</p><img src="https://d.example/img/DSC_0042.JPG">"#)) == ["1.1.1"])
        // Clean twins: a description, or alt="" for decoration.
        #expect(Self.criteria(Self.news(image: "https://d.example/img/IMG_2231.jpg", alt: "Third graders holding their class photos")).isEmpty)
        #expect(Self.criteria(Self.news(body: #"<p>Look:</p><img src="https://d.example/img/rule.png" alt="">"#)).isEmpty)
        #expect(
            Self.criteria(.post(Post(authorName: "Ana", authorRole: .teacher, text: "Our garden", imageURLs: ["https://d.example/p.jpg"], createdAt: Self.day)))
                == ["1.1.1"])
        #expect(Self.criteria(.post(Post(authorName: "Ana", authorRole: .teacher, text: "Our garden is growing", createdAt: Self.day))).isEmpty)
        var described = Post(
            authorName: "Ana", authorRole: .teacher, text: "Book fair", imageURLs: ["https://d.example/a.jpg", "https://d.example/b.jpg"], createdAt: Self.day)
        described.imageAlts = ["Students browsing the book fair tables", ""]
        let one = AccessibilityCheck.findings(.post(described))
        #expect(one.map(\.criterion) == ["1.1.1"] && one[0].problem.contains("photo 2 (") && one[0].field == "imageAlts", "\(one)")
        described.imageAlts = ["Students browsing the book fair tables", "Parent volunteers at the till, smiling"]
        #expect(Self.criteria(.post(described)).isEmpty)
    }

    @Test func linksSayWhereTheyGo() {
        let vague = AccessibilityCheck.findings(Self.news(body: #"<p>The supply list is ready: <a href="https://d.example/supplies.pdf">click here</a>.</p>"#))
        #expect(vague.map(\.criterion) == ["2.4.4"] && vague[0].problem.contains("click here"), "\(vague)")
        #expect(Self.criteria(Self.news(body: #"<p>See <a href="https://d.example/s">https://d.example/s</a></p>"#)) == ["2.4.4"])
        #expect(
            Self.criteria(.schoolInfo(SchoolInfoItem(section: .schedules, title: "Download", url: "https://d.example/bell.pdf", documentType: .pdf))) == [
                "2.4.4"
            ])
        #expect(Self.criteria(Self.news(body: #"<p>The <a href="https://d.example/supplies.pdf">2026-27 supply list</a> is ready.</p>"#)).isEmpty)
        #expect(
            Self.criteria(.schoolInfo(SchoolInfoItem(section: .schedules, title: "Bell Schedule", url: "https://d.example/bell.pdf", documentType: .pdf)))
                .isEmpty)
    }

    @Test func documentsThatAreNotPDFsOrPagesNeedAnAlternative() {
        func info(_ url: String, _ type: SchoolInfoItem.DocumentType) -> ItemContent {
            .schoolInfo(SchoolInfoItem(section: .activities, title: "Fall Festival Flyer", url: url, documentType: type))
        }
        #expect(Self.criteria(info("https://d.example/uploads/fall-festival-flyer.jpg", .image)) == ["1.1.1"])
        #expect(Self.criteria(info("https://d.example/uploads/volunteer-form.docx", .document)) == ["advisory"])
        #expect(Self.criteria(info("https://d.example/uploads/lunch-prices.xlsx", .spreadsheet)) == ["advisory"])
        #expect(Self.criteria(info("https://d.example/fall-festival/", .page)).isEmpty)
        #expect(Self.criteria(info("https://d.example/uploads/fall-festival-flyer.pdf", .pdf)).isEmpty)
    }

    @Test func structureIsMarkedNotDrawn() {
        #expect(Self.criteria(Self.news(body: "<h2>Fall</h2><p>a</p><h4>Sports</h4><p>b</p>")) == ["1.3.1"])
        #expect(Self.criteria(Self.news(body: "<p><strong>Bus Changes</strong></p><p>Route 4 leaves at 7:05.</p>")) == ["1.3.1"])
        #expect(Self.criteria(Self.news(body: "<table><tr><td>Mon</td><td>Pizza</td></tr><tr><td>Tue</td><td>Tacos</td></tr></table>")) == ["1.3.1"])
        #expect(Self.criteria(Self.news(body: "<h2>Fall</h2><p>a</p><h3>Sports</h3><p>b</p>")).isEmpty)
        #expect(Self.criteria(Self.news(body: "<p>Route 4 leaves at <strong>7:05</strong>, not 7:15.</p>")).isEmpty)
        #expect(Self.criteria(Self.news(body: "<table><tr><th>Day</th><th>Lunch</th></tr><tr><td>Mon</td><td>Pizza</td></tr></table>")).isEmpty)
    }

    @Test func videosCaptionsLanguagesAndCapitals() {
        #expect(Self.criteria(Self.news(link: "https://www.youtube.com/watch?v=abc123")) == ["1.2.2"])
        #expect(Self.criteria(Self.news(body: #"<p>Watch <a href="https://vimeo.com/12345">the board meeting recording</a>.</p>"#)) == ["1.2.2"])
        #expect(Self.criteria(Self.news(link: "https://d.example/news/picture-day")).isEmpty)
        let spanish =
            "<p>Los estudiantes de la escuela primaria van a tener el día de fotos el viernes. Por favor, envíen a sus hijos con la ropa que quieran"
            + " para la foto. Las fotos se entregan en dos semanas y los padres pueden comprar copias en la oficina de la escuela con el formulario.</p>"
        #expect(Self.criteria(Self.news(body: spanish)) == ["3.1.2"])
        let english =
            "<p>Students at the elementary school will have picture day on Friday. Please send your children in the clothes they want for the photo."
            + " Photos are delivered in two weeks and parents can buy copies at the school office with the form.</p>"
        #expect(Self.criteria(Self.news(body: english)).isEmpty)
        #expect(Self.criteria(Self.news(title: "ALL STUDENTS MUST BRING THEIR SIGNED PERMISSION SLIPS BEFORE THE FIELD TRIP ON FRIDAY")) == ["advisory"])
        #expect(Self.criteria(Self.news(title: "PTA Meeting Moved to the Library")).isEmpty)
        #expect(
            AccessibilityCheck.findings(Self.news(link: "https://youtu.be/x")).first?.description.hasPrefix("WCAG 1.2.2 Captions (Prerecorded): link:") == true)
    }
}
