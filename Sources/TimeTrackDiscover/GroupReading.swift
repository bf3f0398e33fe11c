import Foundation
import TimeTrackCore
import TimeTrackKit

/// What a group of blocks holds, field by field: where each block's date, title and link are,
/// as selectors that read every block alike.
struct GroupReading {
    var group: BlockGroup
    /// Set by `finish`, for the group chosen only: finding it selects on the whole page.
    var itemSelector = ""
    /// How each block's date is read (a selector, or the heading before it).
    var dateSpec: JSONValue = .null
    var dated = 0
    var parsedDates: [ParsedDate] = []
    var dateFromHeading = false
    /// Whether the dates say their year (else `yearHeading` or the URL gives it, or it is guessed).
    var datesHaveYears = true
    /// The selector of the nearest heading before the blocks when it names a year.
    var yearHeading: String?
    var titleSelector: JSONValue?
    var linkSelector: JSONValue?
    var extraFields: [(String, JSONValue)] = []
    /// The table's header is its first row of `td` cells: not an item.
    var headerIsFirstRow = false

    var datedShare: Double { Double(dated) / Double(max(1, group.members.count)) }

    /// What follows a leading date and a dash, a bar or a colon ("November 10, 2026 – Board
    /// Meeting" → "Board Meeting"); the whole text when there is none.
    static let afterDate = #"^(?:.*?\d[^–—|]*?\s[–—|:-]\s+)?(.+)$"#

    static let genericLinkWords: Set<String> = [
        "read more", "more", "details", "learn more", "click here", "here", "view", "view details", "continue reading", "more info", "read",
    ]

    /// Reads a group; with `undated`, a group whose blocks carry no date is read too (for its
    /// title and link, the date to come from each item's own page).
    init?(_ group: BlockGroup, dates: DateParser, headings: HeadingCache, undated: Bool = false) {
        var group = group
        // A block that holds only a date (an empty day of a calendar grid) is no item.
        group.members = group.members.filter { !Self.onlyADate($0.text) }
        // A table's header rows are no items.
        if group.members.first?.name == "tr" { group.members = group.members.filter { $0.first("td") != nil } }
        guard group.members.count >= 3 else { return nil }
        self.group = group
        guard let document = group.members.first?.document else { return nil }
        if group.members.first?.name == "tr" {
            guard readTable(dates: dates) else { return nil }
        } else {
            readDates(dates: dates)
            if dated < group.members.count { readHeadingDates(dates: dates, document: document, cache: headings) }
            guard dated > 0 || undated else { return nil }
            readTitleAndLink()
            readExtras(dates: dates)
        }
    }

    /// What only the chosen group needs: its item selector and the heading that gives its
    /// dates' year.
    mutating func finish() {
        guard let document = group.members.first?.document else { return }
        itemSelector = BlockGroups.itemSelector(group, in: document)
        if headerIsFirstRow { itemSelector += ":not(:first-child)" }
        readYearHeading(document: document)
    }

    // MARK: dates

    /// The block's own date: a `time[datetime]`, else the smallest element whose text holds one.
    mutating func readDates(dates: DateParser) {
        var found: [(block: HTMLNode, node: HTMLNode, parsed: ParsedDate, attribute: Bool)] = []
        for block in group.members {
            if let time = block.first("time[datetime]"), let value = time.attribute("datetime"), let parsed = dates.parse(value) {
                found.append((block, time, parsed, true))
                continue
            }
            var smallest: (HTMLNode, ParsedDate)?
            for node in [block] + Array(Self.descendants(block).prefix(300)) where node.text.count <= 80 {
                guard let parsed = dates.parse(node.text) else { continue }
                if smallest == nil || node.text.count <= (smallest?.0.text.count ?? .max) { smallest = (node, parsed) }
            }
            if smallest == nil, let parsed = dates.parse(block.text) { smallest = (block, parsed) }
            if let (node, parsed) = smallest { found.append((block, node, parsed, false)) }
        }
        guard !found.isEmpty else { return }
        if found.allSatisfy(\.attribute) {
            dateSpec = .array([.string("time@datetime"), .string("time")])
        } else {
            dateSpec = Self.choice(found.map { Self.relative($0.node, in: $0.block) })
        }
        // Count what the chosen spec reads in every block, as the importer will.
        dated = 0
        parsedDates = []
        for block in group.members {
            guard let parsed = Self.read(dateSpec, in: block).flatMap({ dates.parse($0) }) else { continue }
            dated += 1
            parsedDates.append(parsed)
        }
        datesHaveYears = parsedDates.filter(\.hadYear).count * 2 >= parsedDates.count
    }

    /// Blocks without a date of their own under headings that are dates ("Monday, October 5",
    /// then the day's entries; a `<dt>` date before each `<dd>`).
    mutating func readHeadingDates(dates: DateParser, document: HTMLDocument, cache: HeadingCache) {
        guard let first = group.members.first, let siblings = first.parent?.children else { return }
        var shapes: [String: Int] = [:]
        for sibling in siblings where sibling.name != first.name || BlockGroups.step(sibling) != group.step {
            if dates.parse(sibling.text) != nil, sibling.text.count <= 80 { shapes[BlockGroups.step(sibling), default: 0] += 1 }
        }
        guard let shape = shapes.max(by: { $0.value < $1.value })?.key, let headings = cache.index(shape, in: document) else { return }
        var parsed: [ParsedDate] = []
        let own = dateSpec
        for block in group.members {
            if own != .null, let date = Self.read(own, in: block).flatMap({ dates.parse($0) }) {
                parsed.append(date)
                continue
            }
            guard let heading = headings.nearest(before: block), let date = dates.parse(heading.text) else { continue }
            parsed.append(date)
        }
        guard parsed.count > dated else { return }
        // The block's own date where it has one (a time), else the day's heading.
        let heading = JSONValue.object(["heading": .string(shape)])
        switch own {
        case .null: dateSpec = heading
        case .array(let list): dateSpec = .array(list + [heading])
        default: dateSpec = .array([own, heading])
        }
        dateFromHeading = true
        dated = parsed.count
        parsedDates = parsed
        datesHaveYears = parsed.filter(\.hadYear).count * 2 >= parsed.count
    }

    // MARK: title, link and the rest

    mutating func readTitleAndLink() {
        var titles: [String] = []
        var links: [String] = []
        for block in group.members {
            let heading = block.first("h1, h2, h3, h4, h5, h6")
            let link =
                (heading?.first("a[href]")).flatMap(Self.usableLink)
                ?? (Self.linkSelector.map { block.select($0) } ?? []).first {
                    Self.usableLink($0) != nil && !Self.genericLinkWords.contains($0.text.lowercased()) && $0.text.count >= 4
                }
            let named = Self.descendants(block).first { node in
                let names = (node.attribute("class") ?? "").lowercased()
                return (names.contains("title") || names.contains("headline")) && !node.text.isEmpty
            }
            // The title is words of its own: never the element that only says the date.
            let candidates = [heading, link, named, block.first("strong, b")].compactMap { $0 }
            let leaf = Self.descendants(block).first { $0.children.isEmpty && $0.text.count >= 3 && !Self.onlyADate($0.text) }
            if let node = candidates.first(where: { !Self.onlyADate($0.text) }) ?? leaf {
                titles.append(Self.relative(node, in: block))
            }
            if let link { links.append(Self.relative(link, in: block)) }
        }
        let share = Double(titles.count) / Double(group.members.count)
        if share >= 0.8 {
            titleSelector = Self.choice(titles)
        } else if group.members.allSatisfy({ $0.text.count <= 200 }) {
            // A line each ("November 10, 2026 – Board Meeting"): the block's text, without the
            // date before a dash when the date is in the same text.
            titleSelector = dateSpec == .string(".") ? .object(["select": .string("."), "pattern": .string(Self.afterDate)]) : .string(".")
        }
        if Double(links.count) / Double(group.members.count) >= 0.6 { linkSelector = Self.choice(links, suffix: "@href") }
    }

    /// Location and time cells, and a summary paragraph, when the blocks have them by class.
    mutating func readExtras(dates: DateParser) {
        func byClass(_ words: [String]) -> String? {
            var found: [String] = []
            for block in group.members {
                let node = Self.descendants(block).first { node in
                    let names = (node.attribute("class") ?? "").lowercased()
                    return words.contains { names.contains($0) } && !node.text.isEmpty && node.text.count <= 200
                }
                if let node { found.append(Self.relative(node, in: block)) }
            }
            return Double(found.count) / Double(group.members.count) >= 0.5 ? Self.mostCommon(found) : nil
        }
        if let location = byClass(["location", "venue", "where", "place"]) { extraFields.append(("location", .string(location))) }
        if let time = byClass(["time"]), time != dateSpec.stringValue { extraFields.append(("time", .string(time))) }
        if let summary = byClass(["summary", "excerpt", "teaser", "description", "desc", "intro"]) { extraFields.append(("summary", .string(summary))) }
    }

    /// The nearest heading before the first block, when it names a year ("2026 Board Meetings").
    mutating func readYearHeading(document: HTMLDocument) {
        guard !datesHaveYears, let first = group.members.first, let headings = try? Selector("h1, h2, h3, h4") else { return }
        guard let heading = document.root.select(headings).last(where: { HTMLNode.precedes($0, first) && !HTMLNode.contains($0, first) }),
            YearHint.read(heading.text) != nil
        else { return }
        yearHeading = heading.name
    }

    // MARK: tables

    /// A table's rows: columns named by the header row's words, else by what their cells hold.
    mutating func readTable(dates: DateParser) -> Bool {
        guard let table = group.parent.name == "table" ? group.parent : group.parent.parent else { return false }
        // The header row: its `th` cells, or a first row of short bold cells with no date
        // (`<td><strong>Date</strong></td>`, as a page editor makes one).
        var headerRow = table.first("tr:has(th)")
        if headerRow == nil, let first = group.members.first, Self.isHeaderRow(first, dates: dates) {
            headerRow = first
            group.members.removeFirst()
            headerIsFirstRow = true
        }
        let headerCells = headerRow?.children.filter { $0.name == "th" || $0.name == "td" }.map { $0.text.lowercased() } ?? []
        let rows = group.members.filter { $0.first("td") != nil }
        guard rows.count >= 3, let width = rows.map({ $0.children.count }).max(), width >= 2 else { return false }
        func column(_ index: Int) -> [String] { rows.map { $0.children.indices.contains(index) ? $0.children[index].text : "" } }
        func header(_ words: [String]) -> Int? { headerCells.firstIndex { cell in words.contains { cell.contains($0) } } }
        let dateColumn =
            header(["date", "when", "day"])
            ?? (0..<width).max { a, b in column(a).filter { dates.parse($0) != nil }.count < column(b).filter { dates.parse($0) != nil }.count }
        guard let dateColumn else { return false }
        let parsed = column(dateColumn).compactMap { dates.parse($0) }
        guard !parsed.isEmpty else { return false }
        let cellName = rows[0].children.indices.contains(dateColumn) ? rows[0].children[dateColumn].name : "td"
        func spec(_ index: Int) -> String { "\(cellName):nth-child(\(index + 1))" }
        dateSpec = .string(spec(dateColumn))
        dated = parsed.count
        parsedDates = parsed
        datesHaveYears = parsed.filter(\.hadYear).count * 2 >= parsed.count
        let titleColumn =
            header(["event", "title", "meeting", "name", "description", "what", "activity"])
            ?? (0..<width).filter { $0 != dateColumn }.max { column($0).map(\.count).reduce(0, +) < column($1).map(\.count).reduce(0, +) }
        guard let titleColumn else { return false }
        if titleColumn == dateColumn {
            // One cell says the date, the time and the title ("May 5, 2026 at 4:30 PM - Committee"):
            // its first line (a `div` of its own when it has one) read without the date.
            let cell = rows[0].children.indices.contains(dateColumn) ? rows[0].children[dateColumn] : nil
            let line =
                cell?.children.first { $0.name == "div" || $0.name == "p" || $0.name == "span" }.map { spec(dateColumn) + " > " + $0.name } ?? spec(dateColumn)
            let titles = rows.compactMap { Self.read(.string(line), in: $0) }.filter { !Self.onlyADate($0) }
            guard titles.count * 5 >= rows.count * 4 else { return false }
            dateSpec = .string(line)
            titleSelector = .object(["select": .string(line), "pattern": .string(Self.afterDate)])
        } else {
            titleSelector = .string(spec(titleColumn))
        }
        if let time = header(["time"]), time != dateColumn { extraFields.append(("time", .string(spec(time)))) }
        if let place = header(["location", "where", "place", "room", "venue"]) { extraFields.append(("location", .string(spec(place)))) }
        if rows.filter({ $0.first("a[href]") != nil }).count * 2 >= rows.count { linkSelector = .string("a@href") }
        return true
    }

    /// Whether a row of `td` cells is a header: every cell short, bold, and no date.
    static func isHeaderRow(_ row: HTMLNode, dates: DateParser) -> Bool {
        let cells = row.children.filter { $0.name == "td" }
        return cells.count >= 2
            && cells.allSatisfy { cell in
                let text = cell.text
                return text.count <= 30 && dates.parse(text) == nil && (cell.first("strong, b") != nil || text.isEmpty)
            }
    }

    // MARK: selectors

    static let linkSelector = try? Selector("a[href]")

    /// The elements inside a node, in document order.
    static func descendants(_ node: HTMLNode) -> [HTMLNode] { BlockGroups.any.map { node.select($0) } ?? [] }

    /// A link to a page (not `#`, not script, mail or a phone number).
    static func usableLink(_ node: HTMLNode) -> HTMLNode? {
        guard let href = node.attribute("href")?.trimmingCharacters(in: .whitespaces).lowercased(), !href.isEmpty, !href.hasPrefix("#") else { return nil }
        guard !["javascript:", "mailto:", "tel:", "sms:", "data:"].contains(where: { href.hasPrefix($0) }) else { return nil }
        return node
    }

    static let dateWords: Set<String> = [
        "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july", "aug", "august", "sep", "sept", "september",
        "oct",
        "october", "nov", "november", "dec", "december", "mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu", "thur", "thurs", "thursday",
        "fri", "friday",
        "sat", "saturday", "sun", "sunday", "am", "pm", "a", "p", "m", "st", "nd", "rd", "th", "at", "of", "today", "all", "day",
    ]

    /// Whether a text says only a date (and a time): no words of its own to be a title.
    static func onlyADate(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        return words.filter { !dateWords.contains($0) }.isEmpty
    }

    /// A selector from `block` to `node`: `.` for the block itself, else the node's step, with
    /// its parent's step before it when the node's alone is found first elsewhere in the block.
    static func relative(_ node: HTMLNode, in block: HTMLNode) -> String {
        if node.identity == block.identity { return "." }
        let own = BlockGroups.step(node)
        if let selector = try? Selector.compiled(own), block.first(selector)?.identity == node.identity { return own }
        var path = [own]
        var current = node.parent
        while let here = current, here.identity != block.identity, path.count < 4 {
            path.insert(BlockGroups.step(here), at: 0)
            let joined = path.joined(separator: " > ")
            if let selector = try? Selector.compiled(joined), block.first(selector)?.identity == node.identity { return joined }
            current = here.parent
        }
        return path.joined(separator: " > ")
    }

    /// The selectors the blocks need, most used first: one, or a list of fallbacks (up to three)
    /// when the blocks differ (a long event's title has a class of its own).
    static func choice(_ values: [String], suffix: String = "") -> JSONValue {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        let ranked = counts.keys.sorted { (counts[$0] ?? 0, $1) > (counts[$1] ?? 0, $0) }.prefix(3).map { JSONValue.string($0 + suffix) }
        return ranked.count == 1 ? ranked[0] : .array(Array(ranked))
    }

    static func mostCommon(_ values: [String]) -> String {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return values.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? "."
    }

    /// What a date spec reads in a block (a selector, with `@attribute`; the first of a list).
    static func read(_ spec: JSONValue, in block: HTMLNode) -> String? {
        switch spec {
        case .array(let list): return list.lazy.compactMap { read($0, in: block) }.first
        case .string(let text):
            var selector = text
            var attribute: String?
            if let at = Selector.attributeSplit(text) {
                attribute = String(text[text.index(after: at)...])
                selector = String(text[..<at])
            }
            let node = selector == "." ? block : (try? Selector.compiled(selector)).flatMap { block.first($0) }
            guard let node else { return nil }
            let value = attribute.map { node.attribute($0) ?? "" } ?? node.text
            return value.isEmpty ? nil : value
        default: return nil
        }
    }
}
