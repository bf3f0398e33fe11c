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
    /// Words of an address or a list's key that make the items events (`BD-GetMeetingsList`,
    /// `/calendar/events`); "board" only as a word of its own (`Board.nsf`, not `dashboard`).
    static let eventWords = ["event", "calendar", "meeting", "agenda"]
    /// Words of titles that make a list meetings ("Regular Meeting", "Work Session", "Budget Hearing").
    static let meetingWords = ["meeting", "session", "hearing"]

    static func saysEvents(_ text: String) -> Bool {
        let lower = text.lowercased()
        return eventWords.contains { lower.contains($0) } || lower.split { !$0.isLetter }.contains { $0 == "board" || $0 == "boards" }
    }

    /// The `json` options that read `document`, and the kind.
    ///
    /// Nil when it holds no list of objects with a title and a date that parses in most of them (an alert list needs no date:
    /// a pop-up says when it was posted, if at all). A document that is one such object is one
    /// item (`"items": "$"`: a meeting's or an event's own answer).
    public static func infer(_ document: JSONValue, endpoint: URL, dates: DateParser) -> (kind: ItemKind, options: [String: JSONValue])? {
        var (path, list) = largestList(document, path: "", depth: 0) ?? ("", [])
        if list.isEmpty, let object = document.objectValue, titleKey([object]) != nil { (path, list) = ("$", [document]) }
        let alerts = saysAlerts(path, endpoint: endpoint)
        let all = list.compactMap(\.objectValue)
        guard all.count * 5 >= list.count * 4 else { return nil }
        // An empty object (BoardDocs ends its meetings list with `{}`) says nothing of the keys.
        let objects = all.filter { !$0.isEmpty }
        guard let sample = objects.first else {
            // An alert API with nothing up today: read by the common keys, empty until the district posts.
            guard alerts, !path.isEmpty, path != "$" else { return nil }
            return (.alert, ["items": .string(path), "fields": .object(["title": .string("title"), "message": .string("message"), "link": .string("link")])])
        }
        guard let title = titleKey(objects) else { return nil }
        let date = dateKey(sample, objects: objects, dates: dates)
        if alerts { return (.alert, alertOptions(path, sample: sample, title: title, date: date)) }
        // A date in the title ("… - May 28 2026") and a time key ("05:30 PM"): the two read together.
        var start = date.map { JSONValue.string(pathText($0)) }
        if start == nil, let time = sample.keys.first(where: { folded($0) == "time" }),
            objects.allSatisfy({ ($0[title]?.stringValue).flatMap { dates.parse($0) } != nil })
        {
            start = .object(["parts": .array([.string(pathText(title)), .string(pathText(time))]), "join": .string(" ")])
        }
        guard let start else { return nil }
        let titles = objects.prefix(50).compactMap { $0[title]?.stringValue?.lowercased() }
        let meetingTitles = titles.filter { text in meetingWords.contains { text.contains($0) } }.count
        let saysEvents = saysEvents(endpoint.path + " " + path) || (date ?? "").lowercased().contains("start") || meetingTitles * 2 > titles.count
        let kind: ItemKind = saysEvents ? .event : .announcement
        // A nested title (`Event.Title`) is a path already.
        let titlePath = sample[title] == nil ? title : pathText(title)
        var fields: [String: JSONValue] = ["title": .string(titlePath), kind == .event ? "start" : "date": start]
        if let link = key(linkKeys, in: sample) { fields["link"] = .string(pathText(link)) }
        if kind == .event, let place = key(placeKeys, in: sample) ?? sample.keys.sorted().first(where: { folded($0).hasSuffix("address1") }) {
            fields["location"] = sample[place]?.objectValue?["name"] != nil ? .string(pathText(place) + ".name") : .string(pathText(place))
        }
        if kind == .event, let end = sample.keys.first(where: { ["end", "enddate", "end_date", "ends_at", "endsat"].contains($0.lowercased()) }) {
            fields["end"] = .string(pathText(end))
        }
        if kind == .event, let allDay = sample.keys.first(where: { ["allday", "alldayevent", "isallday"].contains(folded($0)) }) {
            fields["allDay"] = .string(pathText(allDay))
        }
        var options: [String: JSONValue] = ["fields": .object(fields)]
        if !path.isEmpty { options["items"] = .string(path) }
        return (kind, options)
    }

    /// Whether a list is a site's alerts: its key or its address says so (`alerts`, `/api/popup-alerts`).
    static func saysAlerts(_ path: String, endpoint: URL) -> Bool {
        let words = (endpoint.path + " " + path).lowercased()
        return words.contains("alert") || words.contains("popup") || words.contains("page-pop")
    }

    /// The title key: a title's name (`title`, `name`), else one that ends with one
    /// (`MM_MeetingTitle`, `EventName`), the one whose values differ most; nested one level
    /// (`Event.Title`) when the objects hold it there.
    static func titleKey(_ objects: [[String: JSONValue]]) -> String? {
        guard let sample = objects.first else { return nil }
        if let plain = key(titleKeys, in: sample), sample[plain]?.stringValue != nil { return plain }
        let named = sample.keys.filter { name in
            let word = folded(name)
            return titleKeys.contains { word.hasSuffix($0) } && sample[name]?.stringValue != nil
        }
        let counted = named.map { (name: $0, distinct: distinct($0, objects)) }
        if let best = counted.max(by: { ($0.distinct, $1.name) < ($1.distinct, $0.name) }) { return best.name }
        for (name, value) in sample.sorted(by: { $0.key < $1.key }) {
            guard let inner = value.objectValue, let found = key(titleKeys, in: inner), inner[found]?.stringValue != nil else { continue }
            return pathText(name) + "." + pathText(found)
        }
        return nil
    }

    static func distinct(_ name: String, _ objects: [[String: JSONValue]]) -> Int {
        Set(objects.prefix(200).compactMap { $0[name]?.stringValue }).count
    }

    /// The date key: among those named like one, the first whose values parse in most objects.
    static func dateKey(_ sample: [String: JSONValue], objects: [[String: JSONValue]], dates: DateParser) -> String? {
        let candidates =
            dateKeys.compactMap { name in sample.keys.first { folded($0) == folded(name) } }
            + sample.keys.filter { name in
                let word = folded(name)
                return !dateKeys.map(folded).contains(word) && (word.contains("date") || word.contains("time") || word.hasPrefix("start"))
            }
            .sorted { (rank($0), $0) < (rank($1), $1) }
        return candidates.first { name in
            objects.filter { ($0[name]).flatMap(JSONPath.text).flatMap { dates.parse($0) } != nil }.count * 5 >= objects.count * 4
        }
    }

    /// A date key's order: a start or a meeting's date before a publishing or a record's date.
    static func rank(_ name: String) -> Int {
        let word = folded(name)
        if word.hasPrefix("start") || word.hasSuffix("datetime") || word == "numberdate" { return 0 }
        if ["publish", "modif", "updat", "creat", "min", "max"].contains(where: { word.contains($0) }) { return 2 }
        return 1
    }

    /// An alert list's options: title, message, link and when it was posted, by their names;
    /// only the ones a `visible` flag shows.
    static func alertOptions(_ path: String, sample: [String: JSONValue], title: String, date: String?) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["title": .string(pathText(title))]
        if let message = key(["message", "body", "text", "content", "description", "summary"], in: sample), message != title {
            fields["message"] = .string(pathText(message))
        }
        if let link = key(linkKeys, in: sample) { fields["link"] = .string(pathText(link)) }
        if let date { fields["date"] = .string(pathText(date)) }
        if let severity = key(["severity", "type", "level", "priority"], in: sample) { fields["severity"] = .string(pathText(severity)) }
        var options: [String: JSONValue] = ["items": .string(path.isEmpty ? "$[*]" : path), "fields": .object(fields)]
        if key(["id"], in: sample) != nil { options["key"] = .string(key(["id"], in: sample) ?? "id") }
        if let visible = sample.keys.first(where: { ["visible", "isvisible", "active", "isactive", "enabled"].contains(folded($0)) }),
            sample[visible]?.boolValue != nil
        {
            options["where"] = .object(["field": .string(pathText(visible)), "equals": .bool(true)])
        }
        return options
    }

    static func key(_ names: [String], in object: [String: JSONValue]) -> String? {
        names.lazy.compactMap { name in object.keys.sorted().first { folded($0) == folded(name) } }.first
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
        if case .array(let list) = value {
            best = (path, list)
            // A list of one wrapping the rest (Nuxt 2's `data: [{events: [...]}]`): its element is read too.
            guard depth < 4, list.count == 1, let inner = largestList(list[0], path: path + "[0]", depth: depth + 1) else { return best }
            return inner.1.count > list.count ? inner : best
        }
        guard depth < 4, case .object(let object) = value else { return best }
        for name in object.keys.sorted() {
            guard let child = object[name], let found = largestList(child, path: path.isEmpty ? pathText(name) : path + "." + pathText(name), depth: depth + 1)
            else { continue }
            if best == nil || found.1.count > (best?.1.count ?? 0) { best = found }
        }
        return best
    }
}
