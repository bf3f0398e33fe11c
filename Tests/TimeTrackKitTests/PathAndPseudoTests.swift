import Foundation
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: the JSON path scanner's and the selector's pseudo-class parser's forms and
/// refusals, each refusal saying where the text went wrong (and quoting it short).
@Suite struct PathAndPseudoTests {
    @Test(arguments: [
        ("data[*].attributes", false, 3), ("$..events[*]", true, 2), ("@.title.rendered", false, 2), ("['x y'][0]", false, 2), ("$['a.b']", true, 1),
        ("items[ -1 ]", false, 2), ("..*", false, 1), ("..[*]", false, 1), (".*", false, 1), ("  $.a  ", true, 1),
    ])
    func paths(_ text: String, _ fromDocument: Bool, _ steps: Int) throws {
        let path = try JSONPath(text)
        #expect(path.fromDocument == fromDocument && path.steps.count == steps, "\(text)")
    }

    @Test(arguments: [
        ("#.data", "which is no root"), ("/items", "which is no root"), ("a..", "no name after it"), ("a.", "empty name"), ("a[", "no ']'"),
        ("a['x]", "quoted name that is not closed"), ("a[?(@.x)]", "uses a filter"), ("a[x]", "write [N], [*] or ['name']"), ("a..[0]", "not '..[*]'"),
        ("a[99999999]", "write [N]"), ("a[0]x", "where '.' or '[' was expected"),
    ])
    func pathsRefused(_ text: String, _ message: String) {
        let error = #expect(throws: TimeTrackError.self) { try JSONPath(text) }
        #expect(error?.message.contains(message) == true, "\(text): \(error?.message ?? "")")
    }

    @Test func aLongPathIsQuotedShort() {
        let error = #expect(throws: TimeTrackError.self) { try JSONPath("a[" + String(repeating: "x", count: 10_000) + "]") }
        #expect((error?.message.count ?? .max) < 400)
    }

    @Test(arguments: [
        ("li:nth-child(2n+1)", 3), ("li:nth-child(odd)", 3), ("li:nth-child(even)", 2), ("li:nth-child(2)", 1), ("li:nth-last-child(1)", 1),
        ("li:nth-child(-n+2)", 2), ("li:first-child", 1), ("li:last-child", 1), ("li:not(.skip)", 4), ("ul:has(> li.skip)", 1),
        ("li:is(.skip, :first-child)", 2), ("li:where(.none)", 0), ("li:nth-of-type(3)", 1),
    ])
    func pseudoClasses(_ selector: String, _ count: Int) throws {
        let document = try HTMLDocument(html: "<ul><li>1</li><li class='skip'>2</li><li>3</li><li>4</li><li>5</li></ul>")
        #expect(try document.root.select(selector).count == count, "\(selector)")
    }

    @Test(arguments: [
        ("li:nth-child()", "takes a position"), ("li:nth-child(0)", "takes a position"), ("li:nth-child(2n+x)", "takes a position"),
        ("li:nth-child(9999999n)", "takes a position"), ("li:has()", "needs selectors"), ("li:not()", ":not needs a simple selector"),
        ("li:not(a b)", "takes one simple selector"), ("li:nth-child(2", "unclosed '('"), ("li:hover", "unsupported pseudo-class"),
        ("li" + String(repeating: ":is(", count: 10) + "a" + String(repeating: ")", count: 10), "nested too deeply"),
    ])
    func pseudoClassesRefused(_ selector: String, _ message: String) {
        let error = #expect(throws: TimeTrackError.self) { try Selector(selector) }
        #expect(error?.message.contains(message) == true, "\(selector): \(error?.message ?? "")")
    }

    @Test func anUnknownPseudoClassIsNamedShort() {
        let error = #expect(throws: TimeTrackError.self) { try Selector("a:" + String(repeating: "z", count: 5_000)) }
        #expect((error?.message.count ?? .max) < 300)
    }
}
