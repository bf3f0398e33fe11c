import Foundation
import TimeTrackCore
import TimeTrackKit

/// Dated lines in one element, cut by `<br>` ("October 6, 2026 – Regular Board Meeting<br>
/// October 20, 2026 – Work Session<br>…"), as page editors write a year's meeting dates.
///
/// Proposed to the html importer as `{"select": SEL, "split": "br"}`, each line an item: its
/// title what follows the date, its date the line's.
enum BrLines {
    /// The options that read the page's dated lines, the kind and why; nil when it has none.
    static func infer(_ document: HTMLDocument, pageURL: URL, zone: TimeZone, now: Date) -> (options: [String: JSONValue], kind: ItemKind, why: String)? {
        let dates = DateParser(timeZone: zone, reference: now)
        guard let candidates = try? document.root.select("p, div, td, li") else { return nil }
        var best: (node: HTMLNode, lines: [String], parsed: [ParsedDate])?
        for node in candidates.prefix(5_000) {
            // Its own lines only: `<br>`s of its own, and no block inside (that is a container).
            let children = node.children
            guard children.contains(where: { $0.name == "br" }), children.allSatisfy({ !["p", "div", "table", "ul", "ol", "li"].contains($0.name) }),
                node.text.count <= 20_000, !BlockGroups.inChrome(node)
            else { continue }
            let lines = node.pieces(atBlocks: false).map { TextNormalizer.collapse(TextNormalizer.plainText(fromHTML: $0)) }.filter { !$0.isEmpty }
            guard lines.count >= 3 else { continue }
            let parsed = lines.compactMap { line in GroupReading.onlyADate(line) ? nil : dates.parse(String(line.prefix(120))) }
            guard Double(parsed.count) >= 0.8 * Double(lines.count), parsed.count > (best?.parsed.count ?? 0) else { continue }
            best = (node, lines, parsed)
        }
        guard let best, let selector = selector(for: best.node, in: document) else { return nil }
        let words = (pageURL.path + " " + (document.root.first("title")?.text ?? "") + " " + best.lines.joined(separator: " ")).lowercased()
        let timed = best.parsed.filter(\.hasTime).count
        let kind: ItemKind =
            ["meeting", "board", "calendar", "session", "event", "hearing"].contains { words.contains($0) } || timed * 2 > best.parsed.count
            ? .event : .announcement
        let line: JSONValue = .string(".")
        let fields: [String: JSONValue] = [
            "title": .object(["select": line, "pattern": .string(GroupReading.afterDate)]), kind == .event ? "start" : "date": line,
        ]
        let options: [String: JSONValue] = ["item": .object(["select": .string(selector), "split": .string("br")]), "fields": .object(fields)]
        return (options, kind, "\(best.lines.count) lines of \(selector) cut at <br>, a date in \(best.parsed.count)")
    }

    /// A selector that finds the element alone: its step, else with its parent's.
    static func selector(for node: HTMLNode, in document: HTMLDocument) -> String? {
        func own(_ node: HTMLNode) -> String {
            let id = node.attribute("id").flatMap {
                $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && $0.first?.isLetter == true ? $0 : nil
            }
            return id.map { "\(node.name)#\($0)" } ?? BlockGroups.step(node)
        }
        var candidates = [own(node)]
        if let parent = node.parent {
            let place = (parent.children.filter { $0.name == node.name }.firstIndex { $0.identity == node.identity } ?? 0) + 1
            candidates += [own(parent) + " > " + own(node), own(parent) + " > " + node.name + ":nth-of-type(\(place))"]
        }
        return candidates.first { candidate in
            guard let found = try? document.root.select(candidate) else { return false }
            return found.count == 1 && found[0].identity == node.identity
        }
    }
}
