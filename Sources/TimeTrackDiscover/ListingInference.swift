import Foundation
import TimeTrackCore
import TimeTrackKit

/// A listing found on a page no recognizer knows: the definition options that read it (item
/// selector, fields, year context) and what was seen.
public struct InferredListing: Sendable {
    /// Events or announcements, from the page's words and its dates.
    public var kind: ItemKind
    /// `item`, `fields` and, when the dates give no year, `yearFrom`.
    public var options: [String: JSONValue]
    /// The repeated blocks, and how many of them carry a date.
    public var blocks: Int
    public var dated: Int
    /// How the listing was found, for the person choosing ("14 div.event-card blocks, a date in 14").
    public var why: String
}

/// Finds the listing of a page by itself: the repeated blocks that carry a date and a title (or
/// a link), the selectors that read them, and the date's year context.
///
/// A page whose blocks do not mostly carry a date that parses gives nothing: no guess.
public enum ListingInference {
    /// The share of blocks that must carry a date that parses.
    static let datedShare = 0.8

    /// The listing of `document`, or nil when it has none.
    public static func infer(_ document: HTMLDocument, pageURL: URL, zone: TimeZone, now: Date) -> InferredListing? {
        let dates = DateParser(timeZone: zone, reference: now)
        var best: (reading: GroupReading, score: Double)?
        let headings = HeadingCache()
        for group in BlockGroups.find(in: document) {
            guard let reading = GroupReading(group, dates: dates, headings: headings), reading.datedShare >= datedShare else { continue }
            let score = Double(reading.group.members.count) * reading.datedShare * (reading.titleSelector == nil ? 0.5 : 1)
            if score > (best?.score ?? 0) { best = (reading, score) }
        }
        guard var reading = best?.reading, let title = reading.titleSelector else { return nil }
        reading.finish()
        let kind = kindOf(reading, document: document, pageURL: pageURL, now: now)
        var fields: [String: JSONValue] = ["title": title]
        fields[kind == .event ? "start" : "date"] = reading.dateSpec
        if let link = reading.linkSelector { fields["link"] = link }
        for (name, spec) in reading.extraFields where kind == .event || name == "summary" {
            fields[name == "summary" && kind == .event ? "description" : name] = spec
        }
        if kind == .announcement { fields["time"] = nil }
        var options: [String: JSONValue] = ["item": .string(reading.itemSelector), "fields": .object(fields)]
        if !reading.datesHaveYears {
            if let heading = reading.yearHeading {
                options["yearFrom"] = .string(heading)
            } else if pageURL.path.range(of: #"(19|20)\d\d"#, options: .regularExpression) != nil {
                options["yearFrom"] = .string("url")
            }
        }
        if let next = nextLink(document) { options["next"] = .string(next) }
        let why =
            "\(reading.group.members.count) \(reading.itemSelector) blocks, a date in \(reading.dated)"
            + (reading.dateFromHeading ? " (from the heading before each)" : "")
        return InferredListing(kind: kind, options: options, blocks: reading.group.members.count, dated: reading.dated, why: why)
    }

    /// A listing whose blocks carry a title and a link but no date (headlines whose date is on
    /// each article's page): its options without a date, and the first blocks' links, for
    /// `DetailDates` to find the date on.
    ///
    /// Nil when the page has no such listing.
    public static func undated(_ document: HTMLDocument, pageURL: URL, zone: TimeZone, now: Date) -> (listing: InferredListing, links: [URL])? {
        let dates = DateParser(timeZone: zone, reference: now)
        var best: GroupReading?
        let headings = HeadingCache()
        for group in BlockGroups.find(in: document) where group.members.count >= 3 {
            guard let reading = GroupReading(group, dates: dates, headings: headings, undated: true), reading.dated == 0, let link = reading.linkSelector,
                reading.titleSelector != nil
            else { continue }
            let linked = reading.group.members.filter { GroupReading.read(link, in: $0) != nil }.count
            guard linked * 5 >= reading.group.members.count * 4 else { continue }
            if reading.group.members.count > (best?.group.members.count ?? 0) { best = reading }
        }
        guard var reading = best, let title = reading.titleSelector, let link = reading.linkSelector else { return nil }
        reading.finish()
        let links = reading.group.members.prefix(3).compactMap { GroupReading.read(link, in: $0) }.compactMap {
            URL(string: $0, relativeTo: pageURL)?.absoluteURL
        }
        var options: [String: JSONValue] = ["item": .string(reading.itemSelector), "fields": .object(["title": title, "link": link])]
        if let next = nextLink(document) { options["next"] = .string(next) }
        let listing = InferredListing(
            kind: .announcement, options: options, blocks: reading.group.members.count, dated: 0,
            why: "\(reading.group.members.count) \(reading.itemSelector) blocks with a link, no date")
        return (listing, links)
    }

    /// The next page's link, as a field spec: `rel="next"`, a class or label that says next,
    /// or the words ("Next ›", "Older posts"); nil when the page has none.
    static func nextLink(_ document: HTMLDocument) -> String? {
        let links = (try? document.root.select("a[href]")) ?? []
        let words = ["next", "next page", "next »", "next ›", "next >", "older posts", "older entries", "older", "»", "›"]
        for link in links {
            guard let href = link.attribute("href"), !href.hasPrefix("#"), !href.lowercased().hasPrefix("javascript:") else { continue }
            if (link.attribute("rel") ?? "").lowercased().split(separator: " ").contains("next") { return "a[rel~=next]@href" }
            let classes = (link.attribute("class") ?? "").split(separator: " ").map(String.init)
            if let name = classes.first(where: { $0.lowercased().contains("next") && $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" } }) {
                return "a.\(name)@href"
            }
            if let parent = link.parent,
                let name = (parent.attribute("class") ?? "").split(separator: " ").map(String.init).first(where: {
                    $0.lowercased().contains("next") && $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" }
                })
            {
                return "\(parent.name).\(name) > a@href"
            }
            let text = link.text.lowercased()
            if words.contains(text), let label = link.text.first.map({ _ in link.text }), !label.contains("'") {
                return "xpath://a[normalize-space(.)='\(label)']@href"
            }
        }
        return nil
    }

    /// Events when the page says so (calendar, events, meetings) or most dates carry a time
    /// or lie ahead; announcements when it says news; else by the dates.
    static func kindOf(_ reading: GroupReading, document: HTMLDocument, pageURL: URL, now: Date) -> ItemKind {
        let title = (document.root.first("title")?.text ?? "") + " " + (document.root.first("h1")?.text ?? "")
        let words = (pageURL.path + " " + title).lowercased()
        let eventWords = ["calendar", "event", "meeting", "schedule", "dates"]
        let newsWords = ["news", "announcement", "post", "blog", "press", "article", "stories"]
        let saysEvents = eventWords.contains { words.contains($0) }
        let saysNews = newsWords.contains { words.contains($0) }
        if saysEvents && !saysNews { return .event }
        if saysNews && !saysEvents { return .announcement }
        let ahead = reading.parsedDates.filter { $0.date > now }.count
        let timed = reading.parsedDates.filter(\.hasTime).count
        return ahead * 2 > reading.parsedDates.count || timed * 2 > reading.parsedDates.count ? .event : .announcement
    }
}

/// Sibling elements of one shape (tag and classes) under one parent, three or more: the
/// candidates for a page's items.
struct BlockGroup {
    var parent: HTMLNode
    var members: [HTMLNode]
    /// The members' shape as a selector step (`article.post`).
    var step: String
}

enum BlockGroups {
    static let any = try? Selector("*")

    /// Every group of three or more elements of one shape in one place (their tag and classes,
    /// and their parents' and grandparents'), outside the page's chrome (navigation, header,
    /// footer, menus): siblings of a list, and cards each wrapped in a column of their own.
    static func find(in document: HTMLDocument) -> [BlockGroup] {
        guard let any else { return [] }
        var byPath: [String: [HTMLNode]] = [:]
        var order: [String] = []
        let skipped: Set<String> = [
            "script", "style", "br", "hr", "input", "option", "meta", "link", "head", "title", "html", "body", "span", "a", "b", "i", "em", "strong", "img",
            "svg", "path",
        ]
        for element in document.root.select(any).prefix(20_000) where !skipped.contains(element.name) {
            guard let parent = element.parent else { continue }
            let path = [parent.parent.map(step) ?? "", step(parent), memberStep(element)].joined(separator: " > ")
            if byPath[path] == nil { order.append(path) }
            byPath[path, default: []].append(element)
        }
        var out: [BlockGroup] = []
        for path in order {
            guard var members = byPath[path], members.count >= 3, let parent = members.first?.parent, !inChrome(parent) else { continue }
            members = members.filter { !$0.text.isEmpty }
            // A member inside another is part of it, not an item of its own.
            let identities = Set(members.map(\.identity))
            members = members.filter { member in
                var up = member.parent
                while let here = up {
                    if identities.contains(here.identity) { return false }
                    up = here.parent
                }
                return true
            }
            guard members.count >= 3 else { continue }
            out.append(BlockGroup(parent: parent, members: members, step: memberStep(members[0])))
        }
        return out
    }

    /// The step that groups an element with its siblings: a table's rows are one listing
    /// whatever their classes (a board's meetings and its committees' in one table).
    static func memberStep(_ node: HTMLNode) -> String { node.name == "tr" ? "tr" : step(node) }

    /// A selector step for an element: its tag and its first two stable classes (none with a
    /// digit, none that marks a state).
    static func step(_ node: HTMLNode) -> String {
        let states: Set<String> = ["active", "first", "last", "odd", "even", "clearfix", "selected", "current", "hidden", "show", "open"]
        let classes = (node.attribute("class") ?? "").split(separator: " ").map(String.init).filter { name in
            !name.isEmpty && !states.contains(name.lowercased()) && name.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" } && name.first?.isLetter == true
        }
        return node.name + classes.prefix(2).map { "." + $0 }.joined()
    }

    /// Whether the node sits in navigation, a header, a footer or a menu.
    static func inChrome(_ node: HTMLNode) -> Bool {
        var current: HTMLNode? = node
        while let here = current, here.name != "body" {
            if ["nav", "header", "footer", "aside", "select"].contains(here.name) { return true }
            let names = ((here.attribute("class") ?? "") + " " + (here.attribute("id") ?? "")).lowercased()
            if ["menu", "navbar", "nav-", "footer", "breadcrumb", "sidebar", "dropdown", "skip"].contains(where: { names.contains($0) }) { return true }
            current = here.parent
        }
        return false
    }

    /// A selector that picks the group's members and little else: the step under its parent
    /// (and the parent's parent when needed).
    static func itemSelector(_ group: BlockGroup, in document: HTMLDocument) -> String {
        let members = Set(group.members.map(\.identity))
        func fits(_ candidate: String) -> Bool {
            guard let selector = try? Selector(candidate) else { return false }
            let matched = document.root.select(selector)
            return matched.count == group.members.count
                || (matched.count <= group.members.count + group.members.count / 10 && members.isSubset(of: Set(matched.map(\.identity))))
        }
        var candidate = group.step
        if fits(candidate) { return candidate }
        var context: [String] = []
        var ancestor: HTMLNode? = group.parent
        for _ in 0..<4 {
            guard let here = ancestor, here.name != "body", here.name != "html" else { break }
            let id = here.attribute("id").flatMap {
                $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && $0.first?.isLetter == true ? $0 : nil
            }
            context.insert(id.map { "\(here.name)#\($0)" } ?? step(here), at: 0)
            candidate = (context + [group.step]).joined(separator: " > ")
            if fits(candidate) || id != nil { return candidate }
            ancestor = here.parent
        }
        return candidate
    }
}
