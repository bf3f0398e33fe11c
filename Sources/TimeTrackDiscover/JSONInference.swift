import Foundation
import TimeTrackCore
import TimeTrackKit

/// JSON endpoints a page's markup shows (`data-events-url="/api/events.json"`, a script's
/// `fetch("/api/news")`), and the `json` importer options that read one: the list of objects in
/// it and the keys that hold a title, a date, a link and a place.
public enum JSONInference {
    /// Addresses of JSON on the same site that the page's attributes or scripts name.
    static func endpoints(in document: HTMLDocument, page: URL) -> [URL] {
        var found: [String] = []
        func consider(_ text: String) {
            let lower = text.lowercased()
            guard text.count <= 300, !text.contains(" "), lower.hasSuffix(".json") || lower.contains("/api/") || lower.contains(".json?") else { return }
            if !found.contains(text) { found.append(text) }
        }
        for element in (BlockGroups.any.map { document.root.select($0) } ?? []).prefix(20_000) where element.name != "link" {
            for name in ["data-url", "data-src", "data-source", "data-feed", "data-endpoint", "data-events-url", "data-json", "data-api"] {
                if let value = element.attribute(name) { consider(value.trimmingCharacters(in: .whitespaces)) }
            }
            if element.name == "script", element.attribute("src") == nil {
                let text = element.childText
                guard text.utf8.count <= 200_000 else { continue }
                for quote in ["\"", "'"] {
                    for piece in text.components(separatedBy: quote).enumerated() where piece.offset % 2 == 1 { consider(piece.element) }
                }
            }
        }
        // The cap counts the page's own site's addresses only: off-site `/api/` strings (an
        // analytics or a widget vendor's) used to spend it before the site's own API was reached.
        let site = CrawlState.site(of: page)
        return found.compactMap { URL(string: $0, relativeTo: page)?.absoluteURL }
            .filter { ["http", "https"].contains($0.scheme?.lowercased() ?? "") && CrawlState.site(of: $0) == site }.prefix(5).map { $0 }
    }

    static let titleKeys = ["title", "name", "headline", "subject", "summary"]
    static let linkKeys = ["url", "link", "href", "permalink", "web_url", "webUrl"]
    static let placeKeys = ["location", "venue", "place", "room"]
    static let dateKeys = [
        "start", "startdate", "start_date", "starts_at", "startsat", "date", "published", "publishedat", "published_at", "pubdate", "created", "datetime",
        "when",
    ]

    /// The `json` options that read `document`, and the kind, or nil when it holds no list of
    /// objects with a title and a date that parses in most of them.
    public static func infer(_ document: JSONValue, endpoint: URL, dates: DateParser) -> (kind: ItemKind, options: [String: JSONValue])? {
        guard let (path, list) = largestList(document, path: "", depth: 0), list.count >= 2 else { return nil }
        let objects = list.compactMap(\.objectValue)
        guard objects.count * 5 >= list.count * 4, let sample = objects.first else { return nil }
        func key(_ names: [String], in object: [String: JSONValue]) -> String? {
            names.lazy.compactMap { name in object.keys.first { folded($0) == folded(name) } }.first
        }
        guard let title = key(titleKeys, in: sample) else { return nil }
        // The date key: among those named like one, the first whose values parse in most objects.
        let dateCandidates =
            dateKeys.compactMap { name in sample.keys.first { folded($0) == folded(name) } }
            + sample.keys.filter { name in
                !dateKeys.map(folded).contains(folded(name)) && (name.lowercased().contains("date") || name.lowercased().contains("time"))
            }
            .sorted()
        guard
            let date = dateCandidates.first(where: { name in
                objects.filter { ($0[name]).flatMap(JSONPath.text).flatMap { dates.parse($0) } != nil }.count * 5 >= objects.count * 4
            })
        else { return nil }
        let lowerDate = date.lowercased()
        let saysEvents = endpoint.path.lowercased().contains("event") || endpoint.path.lowercased().contains("calendar") || lowerDate.contains("start")
        let kind: ItemKind = saysEvents ? .event : .announcement
        var fields: [String: JSONValue] = ["title": .string(pathText(title)), kind == .event ? "start" : "date": .string(pathText(date))]
        if let link = key(linkKeys, in: sample) { fields["link"] = .string(pathText(link)) }
        if kind == .event, let place = key(placeKeys, in: sample) {
            fields["location"] = sample[place]?.objectValue?["name"] != nil ? .string(pathText(place) + ".name") : .string(pathText(place))
        }
        if kind == .event, let end = sample.keys.first(where: { ["end", "enddate", "end_date", "ends_at", "endsat"].contains($0.lowercased()) }) {
            fields["end"] = .string(pathText(end))
        }
        var options: [String: JSONValue] = ["fields": .object(fields)]
        if !path.isEmpty { options["items"] = .string(path) }
        return (kind, options)
    }

    /// A key as the lists above name it: case, spaces, `_` and `-` do not count
    /// (`Published At`, `published_at` and `publishedAt` are one key).
    static func folded(_ key: String) -> String {
        String(key.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    /// A key as a path: plain, or bracketed when it holds anything but letters, digits and _.
    static func pathText(_ key: String) -> String {
        key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? key : "['\(key.replacingOccurrences(of: "'", with: ""))']"
    }

    /// The longest list in the document (within four levels) and its path.
    static func largestList(_ value: JSONValue, path: String, depth: Int) -> (String, [JSONValue])? {
        var best: (String, [JSONValue])?
        if case .array(let list) = value { best = (path, list) }
        guard depth < 4, case .object(let object) = value else { return best }
        for name in object.keys.sorted() {
            guard let child = object[name], let found = largestList(child, path: path.isEmpty ? pathText(name) : path + "." + pathText(name), depth: depth + 1)
            else { continue }
            if found.1.count > (best?.1.count ?? 0) { best = found }
        }
        return best
    }
}
