import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

/// `:nth-*`, `:is()` and `:has()` checked against libxml2's XPath (an implementation of its
/// own) on a table of rows and a list of links.
@Suite struct StructuralSelectorTests {
    static let page: String = {
        var rows = ""
        for i in 1...13 {
            let link = i % 3 == 0 ? "<a class=\"pdf\" href=\"f\(i).pdf\">file</a>" : (i % 4 == 0 ? "<span><a href=\"p\(i).html\">page</a></span>" : "")
            rows += "<tr id=\"r\(i)\"><td>\(i)</td><td>\(link)</td></tr>"
        }
        return """
            <html><body><table><tbody>\(rows)</tbody></table>
            <div id="mix"><h2 id="h1">A</h2><p id="p1">x</p><p id="p2">y</p><h3 id="h2">B</h3><p id="p3">z</p><p id="p4">w</p><p id="p5">v</p></div>
            </body></html>
            """
    }()

    func ids(_ selector: String) throws -> [String] {
        try HTMLDocument(html: StructuralSelectorTests.page, url: nil).root.select(selector).compactMap { $0.attribute("id") }
    }

    @Test(arguments: [
        ("tr:nth-child(odd)", "//tr[count(preceding-sibling::*) mod 2 = 0]"),
        ("tr:nth-child(even)", "//tr[count(preceding-sibling::*) mod 2 = 1]"),
        ("tr:nth-child(3n+1)", "//tr[count(preceding-sibling::*) mod 3 = 0]"),
        ("tr:nth-child(-n+4)", "//tr[count(preceding-sibling::*) < 4]"),
        ("tr:nth-child(n+11)", "//tr[count(preceding-sibling::*) >= 10]"),
        ("tr:nth-last-child(2)", "//tr[count(following-sibling::*) = 1]"),
        ("tr:nth-last-child(-n+3)", "//tr[count(following-sibling::*) < 3]"),
        ("#mix p:nth-of-type(2n)", "//div[@id='mix']/p[count(preceding-sibling::p) mod 2 = 1]"),
        ("#mix p:nth-last-of-type(1)", "//div[@id='mix']/p[last()]"),
        ("#mix :is(h2, h3)", "//div[@id='mix']/*[self::h2 or self::h3]"),
        ("#mix :where(h2 + p, h3 ~ p)", "//div[@id='mix']/p[preceding-sibling::*[1][self::h2] or preceding-sibling::h3]"),
        ("tr:has(a.pdf)", "//tr[.//a[contains(concat(' ', @class, ' '), ' pdf ')]]"),
        ("tr:has(> td > a)", "//tr[td/a]"),
        ("tr:has(span a, a.pdf)", "//tr[.//span//a or .//a[@class='pdf']]"),
        ("tr:not(:has(a))", "//tr[not(.//a)]"),
        ("tr:has(a):nth-child(odd)", "//tr[.//a][count(preceding-sibling::*) mod 2 = 0]"),
    ])
    func matchesXPath(_ css: String, _ xpath: String) throws {
        let expected = try ids("xpath:" + xpath)
        #expect(!expected.isEmpty, "the XPath found nothing: the case proves nothing")
        #expect(try ids(css) == expected, "\(css)")
    }

    @Test(arguments: [":nth-child(0)", ":nth-child(2x)", ":nth-child()", ":is()", ":has()", "tr:has(> )", ":nth-of-type(n+)"])
    func refused(_ selector: String) {
        #expect(throws: TimeTrackError.self) { try Selector(selector) }
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: ":is(", count: 200) + "a" + String(repeating: ")", count: 200)
        #expect(throws: TimeTrackError.self) { try Selector(deep) }
    }
}
