import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: the text cleanup every importer shares, on tables of what pages write, and its two
/// hand-made fast paths (byte search, ASCII collapse) against plain references on generated text.
@Suite struct TextNormalizerTests {
    /// What `collapse` is meant to do, written plainly.
    static func referenceCollapse(_ text: String) -> String {
        let invisible: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0xFEFF, 0xAD]
        let spaces: Set<UInt32> = [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0xA0, 0x2007, 0x202F, 0x3000]
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if invisible.contains(v) { continue }
            if spaces.contains(v) || (0x2000...0x200A).contains(v) {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if v >= 0x20 && v != 0x7F {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ")
    }

    @Test func collapseAgreesWithItsReferenceOnGeneratedText() {
        var random = SplitMix64(state: 2_026)
        let pieces = ["a", "Bus", " ", "  ", "\t", "\n", "\r\n", "\u{A0}", "\u{200B}", "\u{AD}", "\u{7}", "\u{7F}", "é", "\u{2003}", "\u{3000}", "x y", "."]
        for _ in 0..<5_000 {
            let text = (0..<random.int(0...10)).map { _ in pieces[random.int(0...(pieces.count - 1))] }.joined()
            #expect(TextNormalizer.collapse(text) == Self.referenceCollapse(text), "\(text.debugDescription)")
        }
    }

    @Test func theByteSearchAgreesWithContains() {
        var random = SplitMix64(state: 99)
        let alphabet = ["a", "b", "ab", "é", " ", "ba"]
        for _ in 0..<5_000 {
            let text = (0..<random.int(0...12)).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }.joined()
            let needle = (0..<random.int(0...3)).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }.joined()
            let expected = needle.isEmpty || text.utf8.count >= needle.utf8.count && text.range(of: needle, options: .literal) != nil
            #expect(TextNormalizer.has(text, needle) == expected, "\(text) / \(needle)")
        }
    }

    @Test(arguments: [
        ("Fish &amp; chips", "Fish & chips"), ("&lt;b&gt;", "<b>"), ("It&#8217;s", "It’s"), ("It&#x2019;s", "It’s"), ("&#X41;", "A"),
        ("Wait&hellip;", "Wait…"), ("a&nbsp;b", "a\u{A0}b"), ("&copy; 2026", "© 2026"), ("Caf&eacute;", "Café"),
        ("AT&T", "AT&T"), ("&unknown;", "&unknown;"), ("& alone", "& alone"), ("&#xD800;", "&#xD800;"), ("&#99999999;", "&#99999999;"),
        ("&amp;amp;", "&amp;"), ("no entities", "no entities"), ("&averyveryverylongname;", "&averyveryverylongname;"),
    ])
    func entities(_ text: String, _ expected: String) {
        #expect(TextNormalizer.decodeEntities(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("<p>One</p><p>Two</p>", "One Two"),
        ("<strong>April 8</strong>.", "April 8."),
        ("Line<br>break", "Line break"),
        ("<td>a</td><td>b</td>", "a b"),
        ("<!-- <p>hidden</p> -->shown", "shown"),
        ("<!-- a > b -->after", "after"),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("  <div>\n  spaced\n</div>  ", "spaced"),
        ("<a href=\"x\">link</a>text", "linktext"),
        ("", ""),
    ])
    func plainText(_ html: String, _ expected: String) {
        #expect(TextNormalizer.plainText(fromHTML: html) == expected, "\(html)")
    }

    @Test(arguments: [
        ("The board met on Monday. Read more", "The board met on Monday."),
        ("The board met on Monday. Read More »", "The board met on Monday."),
        ("Registration is open […]", "Registration is open"),
        ("Registration is open [...]", "Registration is open"),
        ("Bus routes changed. Continue reading →", "Bus routes changed."),
        ("Bus routes changed. Learn more...", "Bus routes changed."),
        ("Bus routes changed. See more ›", "Bus routes changed."),
        ("News... Read more… Read more", "News..."),
        ("Read more", ""),
        ("We need more", "We need more"),
        ("Continue reading >", "Continue reading >"),
        ("Reading more books", "Reading more books"),
        ("Our reading program", "Our reading program"),
        ("Café news. Read more »", "Café news."),
    ])
    func readMoreTails(_ text: String, _ expected: String) {
        #expect(TextNormalizer.removeReadMore(text) == expected, "\(text)")
    }

    @Test func aLongExcerptLosesOnlyItsTail() {
        let body = String(repeating: "Lunch menus change weekly. ", count: 40) + "End."
        #expect(TextNormalizer.removeReadMore(body + " Read more") == body)
        let repeated = body + String(repeating: " Read more", count: 30)
        #expect(TextNormalizer.removeReadMore(repeated) == body)
    }

    @Test(arguments: [
        ("short", 10, "short"), ("one two three four", 10, "one two…"), ("abcdefghijkl", 5, "abcd…"), ("exactly10!", 10, "exactly10!"),
    ])
    func truncation(_ text: String, _ limit: Int, _ expected: String) {
        let cut = TextNormalizer.truncate(text, to: limit)
        #expect(cut == expected)
        #expect(cut.count <= limit)
    }

    // MARK: What a School Info link opens

    @Test(arguments: [
        ("https://www.district.k12.us/files/handbook.pdf", nil, nil, SchoolInfoItem.DocumentType.pdf),
        ("https://www.district.k12.us/Handbook.PDF?ver=3", nil, nil, .pdf),
        ("https://www.district.k12.us/page", "Handbook (PDF)", nil, .pdf),
        ("https://www.district.k12.us/page", "Handbook [PDF, 2 MB]", nil, .pdf),
        ("https://cdn.district.us/a.jpeg", nil, nil, .image),
        ("https://cdn.district.us/welcome.mp4", nil, nil, .video),
        ("https://www.youtube.com/watch?v=abc", nil, nil, .video),
        ("https://youtu.be/abc", nil, nil, .video),
        ("https://docs.google.com/spreadsheets/d/1/edit", nil, nil, .spreadsheet),
        ("https://docs.google.com/document/d/1/edit", nil, nil, .document),
        ("https://drive.google.com/file/d/1/view", nil, nil, .document),
        ("https://drive.google.com/drive/folders/1", nil, nil, .page),
        ("https://www.district.k12.us/supply-list.docx", nil, nil, .document),
        ("https://www.district.k12.us/fees.xlsx", nil, nil, .spreadsheet),
        ("https://www.district.k12.us/about", nil, nil, .page),
        ("https://www.district.k12.us/about.aspx", nil, nil, .page),
        ("https://www.district.k12.us/x", nil, "application/pdf", .pdf),
        ("https://www.district.k12.us/x", nil, "text/html; charset=utf-8", .page),
        ("https://www.district.k12.us/x", nil, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", .document),
        ("https://www.district.k12.us/x", nil, "application/vnd.ms-excel", .spreadsheet),
        ("https://www.district.k12.us/x", nil, "image/webp", .image),
        ("https://www.district.k12.us/filedownload.ashx?moduleinstanceid=1&FileName=Handbook.pdf", nil, nil, .pdf),
        ("https://district.sharepoint.com/:b:/s/site/EaBc", nil, nil, .pdf),
        ("https://district.sharepoint.com/:x:/s/site/EaBc", nil, nil, .spreadsheet),
        ("https://1drv.ms/w/s!abc", nil, nil, .document),
        ("https://www.school.org/fs/resource-manager/view/5d6e-11", nil, nil, .document),
        ("https://district.app.box.com/s/abc123", nil, nil, .document),
        ("https://www.district.k12.us/board-meeting", "Board meeting recording", nil, .video),
        ("https://www.district.k12.us/archive.zip", nil, nil, .other),
    ])
    func documentTypes(_ url: String, _ label: String?, _ mime: String?, _ expected: SchoolInfoItem.DocumentType) {
        #expect(DocumentClassifier.documentType(url: url, label: label, mimeType: mime) == expected, "\(url) \(label ?? "") \(mime ?? "")")
    }

    @Test(arguments: [
        ("Attendance Policy (PDF)", "Attendance Policy"),
        ("Student Handbook [Adobe PDF]", "Student Handbook"),
        ("Fee Schedule (PDF, 2.3 MB)", "Fee Schedule"),
        ("Supply List (Microsoft Word)", "Supply List"),
        ("Budget [Excel file]", "Budget"),
        ("Calendar (opens in new window)", "Calendar"),
        ("Calendar - Opens a new window", "Calendar"),
        ("Handbook (Spanish)", "Handbook (Spanish)"),
        ("Bell Schedule [Updated]", "Bell Schedule [Updated]"),
        ("Bell Schedule (PDF) (Spanish)", "Bell Schedule (Spanish)"),
        ("  Menu   -  ", "Menu"),
        ("Grades (9-12)", "Grades (9-12)"),
        ("Unclosed (PDF", "Unclosed (PDF"),
    ])
    func cleanTitles(_ label: String, _ expected: String) {
        #expect(DocumentClassifier.cleanTitle(label) == expected, "\(label)")
    }

    @Test(arguments: [
        ("Bell Schedules", SchoolInfoItem.Section.schedules), ("Lunch Menus", .schedules), ("2026–27 Calendar", .calendars),
        ("Annual Notices", .disclosures), ("Title IX", .disclosures), ("Board Policies", .policies), ("Student Handbook", .policies),
        ("CTE Programs", .programs), ("AP courses", .programs), ("Counseling", .counseling), ("Scholarships", .counseling),
        ("Athletics", .activities), ("Clubs & Activities", .activities), ("Family Resources", .resources), ("Transportation", .resources),
        ("Mental Health", .counseling), ("Health Services", .resources), ("Fine Arts", .activities), ("Fees", .schedules),
    ])
    func sectionsForHeadings(_ heading: String, _ expected: SchoolInfoItem.Section) {
        #expect(DocumentClassifier.section(forHeading: heading) == expected, "\(heading)")
    }

    @Test(arguments: ["Welcome", "Contact Us", "Apple pie", "Library", "", "Coffee with the principal", "Charts and graphs", "Tib"])
    func headingsWithoutASection(_ heading: String) {
        #expect(DocumentClassifier.section(forHeading: heading) == nil, "\(heading)")
    }
}
