import Foundation
import TestSupport
import Testing

@testable import TimeTrackKit

/// Issue 36: "the nearest heading before this item" (a meeting's date over its files, a month
/// over its events) by binary search, against a walk of the page in document order, on
/// generated pages where headings and items nest at every depth.
@Suite struct HeadingIndexTests {
    /// A page of sections, headings and items, nested up to four deep.
    static func page(_ random: inout SplitMix64, depth: Int = 0, counter: inout Int) -> String {
        var html = ""
        for _ in 0..<random.int(1...4) {
            counter += 1
            switch depth >= 3 ? random.int(0...1) : random.int(0...3) {
            case 0:
                let level = random.int(2...3)
                html += "<h\(level) id=\"h\(counter)\">Heading \(counter)</h\(level)>"
            case 1: html += "<p class=\"item\" id=\"i\(counter)\">Item \(counter)</p>"
            case 2: html += "<div>" + page(&random, depth: depth + 1, counter: &counter) + "</div>"
            default:
                html +=
                    "<section><ul><li class=\"item\" id=\"i\(counter)\">Item \(counter)</li></ul>" + page(&random, depth: depth + 1, counter: &counter)
                    + "</section>"
            }
        }
        return html
    }

    @Test func theNearestHeadingIsTheLastOneBeforeTheItem() throws {
        var random = SplitMix64(state: 2_602)
        var checked = 0
        for _ in 0..<150 {
            var counter = 0
            let document = try HTMLDocument(html: "<html><body>" + Self.page(&random, counter: &counter) + "</body></html>")
            let index = HeadingIndex(document: document, selector: try Selector("h2, h3"))
            // The same answer by walking the page in document order.
            var last: String?
            var expected: [String: String?] = [:]
            for node in try document.root.select("h2, h3, .item") {
                if node.name == "h2" || node.name == "h3" {
                    last = node.attribute("id")
                } else if let id = node.attribute("id") {
                    expected[id] = last
                }
            }
            for item in try document.root.select(".item") {
                let id = item.attribute("id") ?? ""
                #expect(index.nearest(before: item)?.attribute("id") == expected[id] ?? nil, "\(id)")
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    @Test func aKeptSubsetAnswersFromItsOwnHeadings() throws {
        let document = try HTMLDocument(
            html: """
                <h2 id="year">2026</h2><h3 id="march">March 10 | Regular meeting</h3><p class="item" id="a">Agenda</p>
                <h3 id="note">Note: files open in a new window</h3><p class="item" id="b">Minutes</p>
                """)
        let all = HeadingIndex(document: document, selector: try Selector("h2, h3"))
        let dated = HeadingIndex(all) { ($0.attribute("id") ?? "") != "note" }
        let minutes = try #require(document.root.first(".item#b"))
        #expect(all.nearest(before: minutes)?.attribute("id") == "note")
        #expect(dated.nearest(before: minutes)?.attribute("id") == "march")
        #expect(dated.headings.count == 2)
    }

    @Test func anItemBeforeEveryHeadingHasNone() throws {
        let document = try HTMLDocument(html: "<p class='item'>First</p><h2>Later</h2>")
        let index = HeadingIndex(document: document, selector: try Selector("h2"))
        #expect(index.nearest(before: try #require(document.root.first(".item"))) == nil)
        let empty = HeadingIndex(document: document, selector: try Selector("h4"))
        #expect(empty.nearest(before: try #require(document.root.first(".item"))) == nil)
    }
}
