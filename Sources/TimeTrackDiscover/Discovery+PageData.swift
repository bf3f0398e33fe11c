import Foundation
import TimeTrackCore
import TimeTrackKit

extension Discovery {
    /// Where a page keeps its data: the element, as the json importer's `from` names it.
    static let dataElements = [
        "script#__NEXT_DATA__", "script#__NUXT_DATA__", "script[type=\"application/json\"]",
    ]

    /// Data inside the page (Next's `__NEXT_DATA__` and pushes, Nuxt 2's `window.__NUXT__`,
    /// Nuxt 3's `__NUXT_DATA__`, JSON in a script or a hidden input): decoded without running
    /// JavaScript, and proposed to the json importer with `from` when it holds a list of dated,
    /// titled objects (or alerts).
    func proposePageData(_ document: HTMLDocument, page: URL, state: inout CrawlState) {
        let dates = DateParser(timeZone: settings.zone, reference: settings.now)
        var candidates: [(from: String, node: HTMLNode, attribute: String?)] = []
        for selector in Discovery.dataElements {
            for node in ((try? document.root.select(selector)) ?? []).prefix(5) {
                let id = node.attribute("id").flatMap { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? $0 : nil }
                candidates.append((id.map { "script#\($0)" } ?? selector, node, nil))
            }
        }
        for script in ((try? document.root.select("script:not([src])")) ?? []).prefix(200) where script.childText.contains("__NUXT__=") {
            candidates.append(("script:contains(window.__NUXT__)", script, nil))
        }
        for input in ((try? document.root.select("input[type=hidden][value^=\"[\"], input[type=hidden][value^=\"{\"]")) ?? []).prefix(5) {
            guard let id = input.attribute("id"), id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { continue }
            candidates.append(("input#\(id)@value", input, "value"))
        }
        for candidate in candidates where !state.proposed(url: page.absoluteString, importer: .json) {
            let text = candidate.attribute.map { candidate.node.attribute($0) ?? "" } ?? candidate.node.childText
            guard text.utf8.count <= 5_000_000, let value = PageData.decode(text, nuxtData: candidate.from == "script#__NUXT_DATA__"),
                let (kind, options) = JSONInference.infer(value, endpoint: page, dates: dates)
            else { continue }
            var from = candidate.from
            // A Nuxt 2 script has no id: the json importer finds it by its place among the scripts.
            if from.hasPrefix("script:contains") { from = Discovery.nuxtScriptSelector(candidate.node, in: document) }
            var object = base(id: state.id(Discovery.name(of: page, or: "data")), kind: kind, importer: .json, url: page.absoluteString)
            var withFrom = options
            withFrom["from"] = .string(from)
            object["options"] = .object(withFrom)
            state.propose(
                object, origin: .inferred, how: Discovery.inferred, why: "data inside the page (\(from)), \(Discovery.what(kind, options: options))")
        }
    }

    /// A selector for a script without an id: `script:nth-of-type(N)` under its parent.
    static func nuxtScriptSelector(_ node: HTMLNode, in document: HTMLDocument) -> String {
        guard let parent = node.parent else { return "script" }
        let scripts = parent.children.filter { $0.name == "script" }
        let index = (scripts.firstIndex { $0.identity == node.identity } ?? 0) + 1
        return "\(parent.name) > script:nth-of-type(\(index))"
    }
}
