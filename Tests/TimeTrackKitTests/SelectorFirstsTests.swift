import Foundation
import Testing
import TimeTrackKit

/// `Selector.firsts` finds in one walk what `first` finds for each selector alone, on the html
/// importer's fixture pages and with selectors that match, match late, match nothing, or match
/// the same element.
@Suite struct SelectorFirstsTests {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "HTMLImporterTests/Fixtures")

    @Test func oneWalkFindsWhatEachWalkFinds() throws {
        let selectors = try [
            "h1", "title", "a", "a[href$='.pdf']", "p:nth-of-type(2)", "div > span", "li:last-child", "footer a", "time", "h2 + p", "table td:nth-child(3)",
            "nav li:has(> a)", "body", "no-such-element", ".fsTitle", "article", "meta[property='og:title']", "*", "a", "xpath://h2",
        ].map { try Selector($0) }
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).sorted() where name.hasSuffix(".html") {
            let document = try HTMLDocument(data: Data(contentsOf: Self.pages.appendingPathComponent(name)), url: URL(fileURLWithPath: "/\(name)"))
            for scope in [document.root] + Array(document.root.select(try Selector("div")).prefix(20)) {
                let one = Selector.firsts(selectors, on: scope)
                for (selector, found) in zip(selectors, one) {
                    #expect(found?.identity == scope.first(selector)?.identity, "\(name): \(selector.source)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }
}
