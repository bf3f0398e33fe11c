import Foundation
import TimeTrackCore
import TimeTrackKit

extension Discovery {
    /// What a start address that is not a page holds: a feed (RSS, Atom), a calendar
    /// (iCalendar), a JSON answer or an XML export.
    enum Given: Equatable {
        case feed, calendar, json, xml, page
    }

    /// What the fetched bytes are, by their type and their first bytes.
    static func given(_ page: FetchedPage) -> Given {
        let type = (page.contentType ?? "").lowercased()
        let head = String(decoding: page.data.prefix(4_096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let start = head.drop { $0 == "\u{FEFF}" }
        if type.contains("calendar") || start.hasPrefix("begin:vcalendar") { return .calendar }
        if type.contains("json") || start.hasPrefix("{") || start.hasPrefix("[") { return .json }
        if type.contains("rss") || type.contains("atom") || start.contains("<rss") || (start.contains("<feed") && start.contains("atom")) { return .feed }
        if type.contains("xml") || start.hasPrefix("<?xml") { return start.contains("<html") ? .page : .xml }
        return .page
    }

    /// Proposes a start address that is not a page with the importer that reads it, and says
    /// what it was given; false when it is a page (the crawl reads it).
    func proposeGiven(_ page: FetchedPage, state: inout CrawlState) -> Bool {
        let url = page.url.absoluteString
        let name = Discovery.name(of: page.url, or: "source")
        switch Discovery.given(page) {
        case .page:
            return false
        case .feed:
            if proposeCalendarFeed(page, name: name, state: &state) { return true }
            state.result.notes.append("the address is a feed (RSS or Atom): proposed to the feed importer")
            state.propose(
                base(id: state.id(name), kind: .announcement, importer: .feed, url: url), origin: .declared, how: "the feed given",
                why: "the address answers a feed")
        case .calendar:
            state.result.notes.append("the address is a calendar (iCalendar): proposed to the ical importer")
            state.propose(
                base(id: state.id(name), kind: .event, importer: .ical, url: url), origin: .declared, how: "the calendar given",
                why: "the address answers an iCalendar file")
        case .json:
            let dates = DateParser(timeZone: settings.zone, reference: settings.now)
            guard let json = try? JSONValue(parsing: page.data) else {
                state.result.notes.append("the address answers JSON that cannot be read (not well-formed): nothing proposed")
                return true
            }
            // WordPress's REST answer (`title.rendered`, `date`, `link`): its own importer reads it whole.
            if let first = (json.arrayValue?.first ?? json).objectValue, first["title"]?.objectValue?["rendered"] != nil, first["date"] != nil {
                state.result.notes.append("the address answers WordPress's REST API (posts): proposed to the wordpress importer")
                state.propose(
                    base(id: state.id(name), kind: .announcement, importer: .wordpress, url: url), origin: .declared, how: "the API given",
                    why: "WordPress posts (title.rendered, date, link)")
                return true
            }
            guard let (kind, options) = JSONInference.infer(json, endpoint: page.url, dates: dates) else {
                state.result.notes.append(
                    "the address answers JSON with no list of dated, titled objects: read it by hand with the json importer (docs/importers/json.md)")
                return true
            }
            state.result.notes.append("the address answers JSON: \(Discovery.what(kind, options: options)), proposed to the json importer")
            var object = base(id: state.id(name), kind: kind, importer: .json, url: url)
            object["options"] = .object(options)
            state.propose(object, origin: .inferred, how: Discovery.inferred, why: "the JSON given, \(Discovery.what(kind, options: options))")
        case .xml:
            proposeXML(page, name: name, state: &state)
        }
        return true
    }

    /// A date at the start of a title, a time after it, and an end time after a dash
    /// ("9/24/2024 1:00 PM - 4:00 PM Greening Schools Committee", "October 3, 2026 6:00 PM …").
    static let leadingDate =
        #"(?:\d{1,2}/\d{1,2}/\d{2,4}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4})"#
    static let leadingTime = #"\d{1,2}(?::\d{2})?\s*[AaPp]\.?[Mm]\.?"#

    /// A calendar module's RSS (Web Community Manager's `RSS.aspx` of a calendar): entries whose
    /// titles start with their date and time are events, read by the html importer's XML
    /// reading with the date, the times and the title cut apart; false when it is news.
    func proposeCalendarFeed(_ page: FetchedPage, name: String, state: inout CrawlState) -> Bool {
        guard let document = try? HTMLDocument(xml: page.data, url: page.url), let titles = try? document.root.select("item > title"), titles.count >= 2
        else { return false }
        let date = Discovery.leadingDate
        let time = Discovery.leadingTime
        let dated = titles.filter { $0.text.range(of: "^\\s*" + date, options: [.regularExpression, .caseInsensitive]) != nil }.count
        guard dated * 5 >= titles.count * 4 else { return false }
        let fields: [String: JSONValue] = [
            "title": .object(["select": .string("title"), "pattern": .string("^\\s*\(date)(?:\\s+\(time))?(?:\\s*-\\s*\(time))?\\s+(.+)$")]),
            "start": .object(["select": .string("title"), "pattern": .string("^\\s*(\(date)(?:\\s+\(time))?)")]),
            "end": .object(["select": .string("title"), "pattern": .string("^\\s*\(date)\\s+\(time)\\s*-\\s*(\(time))")]),
            "link": .string("link"), "description": .string("description"),
        ]
        var object = base(id: state.id(name), kind: .event, importer: .html, url: page.url.absoluteString)
        object["options"] = .object(["xml": .bool(true), "item": .string("item"), "fields": .object(fields)])
        state.result.notes.append(
            "the address is a feed (RSS) of a calendar: \(dated) of its \(titles.count) entries start with their date; proposed as events (the html importer reading XML)"
        )
        state.propose(object, origin: .declared, how: "the feed given", why: "a calendar's feed: each entry's title starts with its date and time")
        return true
    }

    /// An XML export: its repeated record element read by the html importer's XML reading,
    /// fields by their element names; a broken file is read as far as it goes.
    func proposeXML(_ page: FetchedPage, name: String, state: inout CrawlState) {
        guard let document = try? HTMLDocument(xml: page.data, url: page.url), let root = document.rootElement else {
            state.result.notes.append("the address answers XML that cannot be read: nothing proposed")
            return
        }
        // The record element: the most common name among the root's children (or theirs).
        func records(_ parent: HTMLNode) -> (String, [HTMLNode])? {
            let counts = Dictionary(grouping: parent.children, by: \.name)
            return counts.filter { $0.value.count >= 2 }.max { $0.value.count < $1.value.count }.map { ($0.key, $0.value) }
        }
        guard let (record, items) = records(root) ?? root.children.lazy.compactMap(records).first else {
            state.result.notes.append("the address answers XML with no repeated record: read it by hand with the html importer's \"xml\": true")
            return
        }
        let children = Set(items.prefix(20).flatMap { $0.children.map(\.name) })
        func field(_ names: [String]) -> String? {
            names.first { children.contains($0) } ?? children.first { child in names.contains { child.lowercased().contains($0) } }
        }
        var fields: [String: JSONValue] = [:]
        let title = field(["title", "name", "subject", "summary", "description"])
        let date = field(["start", "date", "datetime", "meetingdate", "begin", "time"])
        if let title { fields["title"] = .string(title) }
        if let date { fields["start"] = .string(date) }
        if let link = field(["link", "url", "href"]) { fields["link"] = .string(link) }
        if let location = field(["location", "place", "venue"]) { fields["locationName"] = .string(location) }
        guard title != nil else {
            state.result.notes.append("the address answers XML whose <\(record)> records name no title: read it by hand with the html importer's \"xml\": true")
            return
        }
        let kind: ItemKind = date == nil ? .announcement : .event
        if kind == .announcement, let date = fields.removeValue(forKey: "start") { fields["date"] = date }
        state.result.notes.append("the address answers XML: \(items.count) <\(record)> records, proposed to the html importer reading XML")
        if let broken = document.encodingNote { state.result.notes.append(broken) }
        var object = base(id: state.id(name), kind: kind, importer: .html, url: page.url.absoluteString)
        object["options"] = .object(["xml": .bool(true), "item": .string(record), "fields": .object(fields)])
        state.propose(object, origin: .inferred, how: Discovery.inferred, why: "the XML given: \(items.count) <\(record)> records")
    }
}

extension Discovery {
    /// What an inferred JSON source holds, in words: "a list of events", "one event", "a list of alerts".
    static func what(_ kind: ItemKind, options: [String: JSONValue]) -> String {
        let noun = [ItemKind.event: "event", .alert: "alert", .announcement: "post"][kind] ?? kind.rawValue
        return options["items"] == .string("$") ? "one \(noun)" : "a list of \(noun)s"
    }
}

extension Discovery {
    /// Proposals that read the same items, folded into one.
    ///
    /// A feed and the news page it mirrors, a calendar file and the events page it feeds: the
    /// richer source is kept (the one whose
    /// items carry more fields, a link above all; on a tie a feed or calendar over a page, then
    /// the one that reads more items), the other named beside it and not written. Enabling both
    /// made every item twice.
    static func oneProposalPerContent(_ proposals: [Proposal]) -> [Proposal] {
        var kept: [Proposal] = []
        for proposal in proposals {
            let titles = proposal.sample?.titles ?? []
            guard titles.count >= 2,
                let index = kept.firstIndex(where: { other in
                    let theirs = other.sample?.titles ?? []
                    guard other.kind == proposal.kind, theirs.count >= 2 else { return false }
                    return Double(titles.intersection(theirs).count) >= 0.6 * Double(min(titles.count, theirs.count))
                })
            else {
                kept.append(proposal)
                continue
            }
            let (richer, other) = richness(proposal) > richness(kept[index]) ? (proposal, kept[index]) : (kept[index], proposal)
            var merged = richer
            merged.sameContent = richer.sameContent + [(other.id, other.url)] + other.sameContent
            kept[index] = merged
        }
        return kept
    }

    /// How good a source of the same items is: the fields its sampled items fill (a link counts
    /// most), then a feed or calendar over a page, then how many items it reads.
    static func richness(_ proposal: Proposal) -> Int {
        let items = proposal.sample?.items ?? []
        let filled = items.reduce(0) { total, item in
            let fields = item.content.fields()
            let link = ["link", "url"].contains { name in fields[name].map { $0 != .null && $0 != .string("") } ?? false }
            return total + fields.values.filter { $0 != .null && $0 != .string("") }.count + (link ? 10 : 0)
        }
        let structured = proposal.importer.isStructured ? 1 : 0
        return filled * 100_000 + structured * 10_000 + min(9_999, proposal.sample?.count ?? 0)
    }
}
