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
        var candidates: [(from: String, text: String, nuxtData: Bool)] = []
        for selector in Discovery.dataElements {
            for node in ((try? document.root.select(selector)) ?? []).prefix(5) {
                let id = node.attribute("id").flatMap { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? $0 : nil }
                candidates.append((id.map { "script#\($0)" } ?? selector, node.childText, id == "__NUXT_DATA__"))
            }
        }
        let scripts = ((try? document.root.select("script:not([src])")) ?? []).prefix(200).map { ($0, $0.childText) }
        // Nuxt 2's script has no id: the json importer finds it by its place among the scripts.
        for (script, text) in scripts where text.contains("__NUXT__=") {
            candidates.append((Discovery.scriptSelector(script), text, false))
        }
        // Next's pushes: `from: "script"` reads them all, joined.
        let pushes = scripts.map(\.1).filter { $0.contains("self.__next_f.push(") }
        if !pushes.isEmpty { candidates.append(("script", pushes.joined(separator: "\n"), false)) }
        for input in ((try? document.root.select("input[type=hidden][value^=\"[\"], input[type=hidden][value^=\"{\"]")) ?? []).prefix(5) {
            guard let id = input.attribute("id"), id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { continue }
            candidates.append(("input#\(id)@value", input.attribute("value") ?? "", false))
        }
        for candidate in candidates where !state.proposed(url: page.absoluteString, importer: .json) {
            guard candidate.text.utf8.count <= 5_000_000, let value = PageData.decode(candidate.text, nuxtData: candidate.nuxtData),
                let (kind, options) = JSONInference.infer(value, endpoint: page, dates: dates)
            else { continue }
            let from = candidate.from
            var object = base(id: state.id(Discovery.name(of: page, or: "data")), kind: kind, importer: .json, url: page.absoluteString)
            var withFrom = options
            withFrom["from"] = .string(from)
            object["options"] = .object(withFrom)
            state.propose(
                object, origin: .inferred, how: Discovery.inferred, why: "data inside the page (\(from)), \(Discovery.what(kind, options: options))")
        }
    }

    /// A selector for a script without an id: `script:nth-of-type(N)` under its parent.
    static func scriptSelector(_ node: HTMLNode) -> String {
        guard let parent = node.parent else { return "script" }
        let scripts = parent.children.filter { $0.name == "script" }
        let index = (scripts.firstIndex { $0.identity == node.identity } ?? 0) + 1
        return "\(parent.name) > script:nth-of-type(\(index))"
    }
}
