import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

/// Issue 36: the selector engine checked against libxml2's XPath on generated pages.
///
/// Random trees of elements with classes, ids and attributes, and random selectors of types,
/// classes, attributes, `:first-child`, `:nth-child(An+B)`, `:not()` and the descendant, child,
/// next-sibling and later-sibling combinators, each translated to the XPath that means the
/// same (libxml2's XPath is an implementation of its own). Both must select the same elements
/// in the same order.
@Suite struct SelectorPropertyTests {
    static let tags = ["div", "p", "span", "ul", "li", "a", "section", "h2"]
    static let classes = ["news", "item", "pdf"]

    /// A page of about `budget` elements, each with a unique id (`n1`, `n2`…) to compare by.
    static func page(_ random: inout SplitMix64, budget: Int) -> String {
        var counter = 0
        func element(depth: Int) -> String {
            counter += 1
            let tag = tags[random.int(0...tags.count - 1)]
            let picked = classes.filter { _ in random.chance(30) }
            var attributes = " id=\"n\(counter)\""
            if !picked.isEmpty { attributes += " class=\"\(picked.joined(separator: " "))\"" }
            if random.chance(40) { attributes += " data-x=\"\(random.int(1...2))\"" }
            var children = ""
            if depth < 4 {
                for _ in 0..<random.int(0...4) where counter < budget { children += element(depth: depth + 1) }
            }
            return "<\(tag)\(attributes)>t\(children)</\(tag)>"
        }
        var body = ""
        while counter < budget { body += element(depth: 0) }
        return "<html><body>\(body)</body></html>"
    }

    /// One compound selector and the XPath steps that mean it (a name test and predicates).
    static func compound(_ random: inout SplitMix64, depth: Int = 0) -> (css: String, name: String, predicates: String) {
        var css = "", predicates = ""
        var name = "*"
        if random.chance(60) {
            name = tags[random.int(0...tags.count - 1)]
            css = name
        }
        if random.chance(45) || css.isEmpty {
            let c = classes[random.int(0...classes.count - 1)]
            css += ".\(c)"
            predicates += "[contains(concat(' ', normalize-space(@class), ' '), ' \(c) ')]"
        }
        switch random.int(0...5) {
        case 0:
            css += "[data-x]"
            predicates += "[@data-x]"
        case 1:
            let v = random.int(1...2)
            css += "[data-x=\"\(v)\"]"
            predicates += "[@data-x='\(v)']"
        case 2:
            css += ":first-child"
            predicates += "[not(preceding-sibling::*)]"
        case 3:
            let a = random.int(1...3), b = random.int(0...2)
            css += ":nth-child(\(a)n+\(b))"
            // An+B: the position p (1-based) is b, b+a, b+2a… (p >= b and (p - b) mod a = 0).
            let p = "(count(preceding-sibling::*) + 1)"
            predicates += "[\(p) >= \(b) and (\(p) - \(b)) mod \(a) = 0]"
        case 4 where depth == 0:
            let inner = compound(&random, depth: 1)
            css += ":not(\(inner.css))"
            predicates += "[not(self::\(inner.name == "*" ? "node()" : inner.name)\(inner.predicates))]"
        default:
            break
        }
        return (css, name, predicates)
    }

    /// A selector of one to three compounds, and its XPath.
    static func selector(_ random: inout SplitMix64) -> (css: String, xpath: String) {
        let first = compound(&random)
        var css = first.css
        var xpath = "//body//\(first.name)\(first.predicates)"
        for _ in 0..<random.int(0...2) {
            let next = compound(&random)
            switch random.int(0...3) {
            case 0:
                css += " \(next.css)"
                xpath += "//\(next.name)\(next.predicates)"
            case 1:
                css += " > \(next.css)"
                xpath += "/\(next.name)\(next.predicates)"
            case 2:
                css += " + \(next.css)"
                xpath += "/following-sibling::*[1][self::\(next.name == "*" ? "node()" : next.name)\(next.predicates)]"
            default:
                css += " ~ \(next.css)"
                xpath += "/following-sibling::\(next.name)\(next.predicates)"
            }
        }
        return (css, xpath)
    }

    @Test func selectorsSelectWhatTheirXPathSelects() throws {
        var random = SplitMix64(state: 0x5E1E_C70B)
        var compared = 0, nonEmpty = 0
        for _ in 0..<60 {
            let document = try HTMLDocument(html: Self.page(&random, budget: random.int(20...120)), url: nil)
            for _ in 0..<40 {
                let (css, xpath) = Self.selector(&random)
                let expected = try XPath(xpath).evaluate(on: document.root).compactMap { $0.attribute("id") }
                // XPath's union of steps can list an element twice; CSS selects each once.
                var seen = Set<String>()
                let unique = expected.filter { seen.insert($0).inserted }
                let got = try document.root.select(css).compactMap { $0.attribute("id") }
                #expect(got == unique, "\(css)  vs  \(xpath)")
                compared += 1
                if !got.isEmpty { nonEmpty += 1 }
            }
        }
        // Enough of the cases select something for the comparison to mean something.
        #expect(compared == 2_400 && nonEmpty > 600, "\(nonEmpty) of \(compared) selected something")
    }
}
