import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

@Suite struct SelectorTests {
    let page = """
        <html><head><base href="https://school.example/news/"></head><body>
        <div id="main" class="content wide">
          <ul class="list">
            <li class="item first"><a href="one.html" data-id="1">One</a></li>
            <li class="item"><a href="/two.html" data-id="2" title="It's &quot;two&quot;">Two</a></li>
            <li class="item hidden"><a href="https://other.example/3" data-id="3">Three</a></li>
            <li><span>Four</span></li>
          </ul>
          <p>Para <b>bold</b>&nbsp;&nbsp;text</p>
        </div>
        <div class="contentx"><a href="#top">Top</a></div>
        </body></html>
        """

    func texts(_ selector: String) throws -> [String] {
        try HTMLDocument(html: page, url: URL(string: "https://school.example/news/index.html")).root.select(selector).map(\.text)
    }

    @Test func basics() throws {
        #expect(try texts("li a") == ["One", "Two", "Three"])
        #expect(try texts("#main .item") == ["One", "Two", "Three"])
        #expect(try texts(".content").count == 1)  // not .contentx
        #expect(try texts("ul > li > a[data-id=2]") == ["Two"])
        #expect(try texts("a[href^=https]") == ["Three"])
        #expect(try texts("a[href$='.html']") == ["One", "Two"])
        #expect(try texts("a[href*=two]") == ["Two"])
        #expect(try texts("a[title]") == ["Two"])
        #expect(try texts("li:first-child") == ["One"])
        #expect(try texts("li:last-child") == ["Four"])
        #expect(try texts("li:nth-of-type(2)") == ["Two"])
        #expect(try texts("li:nth-child(3)") == ["Three"])
        #expect(try texts("li.item:not(.hidden) a") == ["One", "Two"])
        #expect(try texts("li.first + li") == ["Two"])
        #expect(try texts("li.first ~ li").count == 3)
        #expect(try texts("span, b") == ["Four", "bold"])
        #expect(try texts("P") == ["Para bold text"])
        #expect(try texts("xpath://li[2]/a") == ["Two"])
        #expect(try texts("table") == [])
    }

    @Test func attributesAndLinks() throws {
        let document = try HTMLDocument(html: page, url: URL(string: "https://school.example/news/index.html"))
        let links = try document.root.select("li a").compactMap { $0.attribute("href") }.compactMap(document.resolve)
        #expect(links == ["https://school.example/news/one.html", "https://school.example/two.html", "https://other.example/3"])
        #expect(document.resolve("#top") == nil)
        #expect(try document.root.select("a[data-id=2]").first?.attribute("title") == "It's \"two\"")
    }

    @Test(arguments: ["", "li[", "a[href=", ":nth-child(x)", "li:hover", "a >", ",", "li..x", "a[x~~y]"])
    func invalidSelectorsAreClearErrors(_ selector: String) {
        do {
            _ = try Selector(selector)
            Issue.record("'\(selector)' was accepted")
        } catch let error as TimeTrackError {
            #expect(error.code == .selector)
            #expect(error.context["selector"] == selector)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func selectorWithQuotesInValues() throws {
        let document = try HTMLDocument(html: #"<p data-x="a'b">1</p><p data-x='c"d'>2</p>"#)
        #expect(try document.root.select(#"p[data-x="a'b"]"#).map(\.text) == ["1"])
        #expect(try document.root.select(#"p[data-x='c"d']"#).map(\.text) == ["2"])
    }
}
