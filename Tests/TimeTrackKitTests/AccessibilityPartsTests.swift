import Foundation
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: the accessibility check's parts on tables of what school sites write: alt text,
/// link words, runs of capitals, video hosts, the language a text is in, and naming a link
/// from its target's title (a site name cut, a page titled "Home" passed over).
@Suite struct AccessibilityPartsTests {
    @Test(arguments: [
        (String?.none, "https://d.example/a.jpg", "has no alt text"),
        ("image", "https://d.example/a.jpg", "says only"), ("  Photo ", "https://d.example/a.jpg", "says only"),
        ("IMG_2231.JPG", "https://d.example/x.jpg", "file name"), ("DSC 0042", "https://d.example/x.jpg", "file name"),
        ("screenshot-12.png", "https://d.example/x.png", "file name"), ("flyer.pdf.png", "https://d.example/x.png", "file name"),
        ("hero-banner", "https://d.example/img/hero-banner", "file name"),
    ])
    func altTextProblems(_ alt: String?, _ image: String, _ problem: String) {
        #expect(AccessibilityCheck.altProblem(alt, image: image)?.contains(problem) == true, "\(alt ?? "nil")")
    }

    @Test(arguments: [
        ("", "decoration, by choice"), ("Third graders holding their class photos", ""), ("Photo 3 of the robotics team at regionals", ""),
        ("Image of the new playground", ""), ("Scan 2 of the permission form: sign at the bottom", ""), ("2026 graduates", ""),
    ])
    func goodAltText(_ alt: String, _ why: String) {
        #expect(AccessibilityCheck.altProblem(alt, image: "https://d.example/IMG_1.jpg") == nil, "\(alt) \(why)")
    }

    @Test(arguments: [
        ("click here", "means nothing"), ("Click Here!", "means nothing"), ("Read more »", "means nothing"), ("  more… ", "means nothing"),
        ("here", "means nothing"), ("Download", "means nothing"), ("", "is empty"), ("   ", "is empty"), ("https://d.example/menu.pdf", "bare address"),
        ("www.district.org", "bare address"),
    ])
    func vagueLinkWords(_ text: String, _ problem: String) {
        #expect(AccessibilityCheck.linkTextProblem(text, href: "https://d.example/menu.pdf")?.contains(problem) == true, "\(text)")
    }

    @Test(arguments: [
        "October lunch menu", "Read the 2026-27 supply list", "More about the bond election", "Here is the bus schedule", "Click-and-collect orders",
    ])
    func linkWordsThatSayWhereTheyGo(_ text: String) {
        #expect(AccessibilityCheck.linkTextProblem(text, href: "https://d.example/x") == nil, "\(text)")
    }

    @Test func aLinkWhoseTextIsItsAddressIsBare() {
        #expect(AccessibilityCheck.linkTextProblem("d.example/x", href: "D.EXAMPLE/X") == "is a bare address")
    }

    @Test(arguments: [
        (String(repeating: "A", count: 61), 61), ("NO SCHOOL MONDAY. " + String(repeating: "BUSES WILL NOT RUN. ", count: 4), 98),
        (String(repeating: "AB ", count: 30), 90), (String(repeating: "Ab ", count: 30), nil), ("Short CAPS only", nil),
        (String(repeating: "a", count: 100), nil),
        ("ATTENTION: " + String(repeating: "Word ", count: 20), nil), (String(repeating: "ÉCOLE ", count: 12), 72),
    ])
    func runsOfCapitals(_ text: String, _ expected: Int?) {
        #expect(AccessibilityCheck.capitalsRun(text) == expected, "\(text.prefix(30))")
    }

    @Test(arguments: [
        ("https://www.youtube.com/watch?v=1", true), ("https://youtu.be/1", true), ("https://m.youtube.com/watch?v=1", true),
        ("https://player.vimeo.com/video/1", true), ("https://d.example/video.mp4", false), ("https://youtube.com.evil.example/x", false),
        ("not a url", false),
    ])
    func videoHosts(_ url: String, _ expected: Bool) {
        #expect(AccessibilityCheck.isVideo(url) == expected, "\(url)")
    }

    @Test(arguments: [
        ("https://www.district.org/files/2026/bell-schedule.pdf", "www.district.org/…/bell-schedule.pdf"), ("https://d.example/", "d.example"),
        ("plain", "plain"),
    ])
    func shortAddresses(_ url: String, _ expected: String) {
        #expect(AccessibilityCheck.short(url) == expected)
        #expect(AccessibilityCheck.short(url + String(repeating: "x", count: 100)).count <= 60)
    }

    static let spanish =
        "Los estudiantes de la escuela van a tener el día de fotos el viernes. Por favor, envíen a sus hijos con la ropa que quieran para la foto y"
        + " las fotos se entregan en dos semanas con el formulario de la oficina."
    static let english =
        "Students at the school will have picture day on Friday. Please send your children in the clothes they want for the photo, and photos are"
        + " delivered in two weeks with the form from the office of the school."
    static let french =
        "Les élèves de l'école auront la journée des photos le vendredi. Merci de les habiller pour la photo, et les photos sont livrées dans deux"
        + " semaines avec le formulaire du bureau de l'école pour vous et les parents."

    @Test func theLanguageATextIsIn() {
        #expect(LanguageGuess.otherThan("en", Self.spanish) == "Spanish")
        #expect(LanguageGuess.otherThan("en", Self.french) == "French")
        #expect(LanguageGuess.otherThan("en", Self.english) == nil)
        #expect(LanguageGuess.otherThan("es", Self.english) == "English")
        #expect(LanguageGuess.otherThan("es", Self.spanish) == nil)
        // Too short to tell, or a district language the guess does not know.
        #expect(LanguageGuess.otherThan("en", "Los estudiantes de la escuela") == nil)
        #expect(LanguageGuess.otherThan("de", Self.spanish) == nil)
        // A bilingual notice is the district's language too.
        #expect(LanguageGuess.otherThan("en", Self.english + " " + Self.spanish) == nil)
    }

    // MARK: Naming a link from its target

    @Test(arguments: [
        ("Lunch Menu | Hillcrest Elementary", "Lunch Menu"), ("Bus Routes – Lakeside Schools", "Bus Routes"), ("Fees - 2026 :: District", "Fees"),
        ("A | B", "A | B"), ("  Supply\nList  ", "Supply List"), (String(repeating: "w", count: 200), String(repeating: "w", count: 120)),
        // A control that would turn the text around is shown, not obeyed.
        ("Board\u{202E}evil", "Board⟨U+202E⟩evil"),
    ])
    func titlesWithoutTheSiteName(_ title: String, _ expected: String) {
        #expect(LinkNames.cleaned(title) == expected, "\(title)")
    }

    static func page(_ head: String, _ body: String = "") -> Data { Data("<html><head>\(head)</head><body>\(body)</body></html>".utf8) }
    static let url = URL(string: "https://d.example/menu") ?? URL(fileURLWithPath: "/")

    @Test func aPageIsNamedByItsOpenGraphTitleThenItsTitleThenItsHeading() {
        let all = Self.page(#"<meta property="og:title" content="October Lunch Menu"><title>Menus | District</title>"#, "<h1>Menus</h1>")
        #expect(LinkNames.name(of: all, url: Self.url) == "October Lunch Menu")
        #expect(LinkNames.name(of: Self.page("<title>Bus Routes | District</title>", "<h1>Routes</h1>"), url: Self.url) == "Bus Routes")
        #expect(LinkNames.name(of: Self.page("", "<h1>Volunteer Sign-up</h1>"), url: Self.url) == "Volunteer Sign-up")
    }

    @Test(arguments: ["Home", "Welcome | District", "Page Not Found", "Sign In", "Just a moment...", "Index"])
    func aTitleThatNamesNoPageIsPassedOver(_ title: String) {
        #expect(LinkNames.name(of: Self.page("<title>\(title)</title>", "<h1>Fall Sports Schedule</h1>"), url: Self.url) == "Fall Sports Schedule")
        #expect(LinkNames.name(of: Self.page("<title>\(title)</title>"), url: Self.url) == nil)
    }

    @Test func aTargetThatSaysNothingBetterGivesNoName() {
        #expect(LinkNames.name(of: Self.page("<title>Click here</title>"), url: Self.url) == nil)
        #expect(LinkNames.name(of: Self.page("<title>abc</title>"), url: Self.url) == nil)
        #expect(LinkNames.name(of: Self.page("<title>https://d.example/menu</title>"), url: Self.url) == nil)
        #expect(LinkNames.name(of: Data("%PDF-1.4 not really".utf8), url: Self.url) == nil)
    }

    @Test func vagueLinksAreListedOnceEachAndRenamedTogether() {
        let body = """
            <p>Menus: <a href="https://d.example/menu.pdf">click here</a>, <a href="https://d.example/menu.pdf">here</a>,
            <a href="https://d.example/bus">the bus routes</a>, <a href="mailto:x@d.example">here</a>,
            <a href="https://d.example/logo"><img src="https://d.example/logo.png" alt="District logo"></a></p>
            """
        let content = ItemContent.announcement(Announcement(title: "Menus", body: body, publishedAt: Date(timeIntervalSince1970: 1_790_000_000)))
        let vague = LinkNames.vague(in: content)
        #expect(vague == [LinkNames.Vague(field: "body", url: "https://d.example/menu.pdf", text: "click here")])
        let changes = LinkNames.changes(content, names: ["https://d.example/menu.pdf": "October lunch menu"])
        let renamed = changes["body"]?.stringValue ?? ""
        #expect(renamed.components(separatedBy: ">October lunch menu</a>").count == 3)
        #expect(renamed.contains(">the bus routes</a>"))
        #expect(LinkNames.changes(content, names: [:]).isEmpty)
    }

    @Test func aDocumentsTitleIsItsLinkText() {
        let info = ItemContent.schoolInfo(SchoolInfoItem(section: .schedules, title: "Download", url: "https://d.example/bell.pdf", documentType: .pdf))
        #expect(LinkNames.vague(in: info) == [LinkNames.Vague(field: "title", url: "https://d.example/bell.pdf", text: "Download")])
        #expect(LinkNames.changes(info, names: ["https://d.example/bell.pdf": "Bell Schedule"]) == ["title": .string("Bell Schedule")])
        #expect(LinkNames.changes(info, names: ["https://d.example/other.pdf": "Other"]).isEmpty)
        let named = ItemContent.schoolInfo(SchoolInfoItem(section: .schedules, title: "Bell Schedule", url: "https://d.example/bell.pdf", documentType: .pdf))
        #expect(LinkNames.vague(in: named).isEmpty)
    }
}
