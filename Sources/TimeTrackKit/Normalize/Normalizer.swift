import Foundation
import TimeTrackCore

/// Field values as an importer found them (text, already-resolved URLs, sanitized HTML), by name.
///
/// Names: `title`, `link`, `date`, `summary`, `body`, `image`, `imageAlt`, `priority`, `expires`
/// (announcements); `start`, `end`, `date`, `time`, `allDay`, `location`, `address`, `latitude`,
/// `longitude`, `description`, `category`, `state` (events); `url`, `section`, `type`, `group`
/// (school info).
public struct RawItem: Sendable, Equatable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    public subscript(_ name: String) -> String? {
        get { values[name].flatMap { $0.isEmpty ? nil : $0 } }
        set { values[name] = newValue }
    }

    /// Fills fields this item lacks from another sighting of the same item.
    public mutating func merge(_ other: RawItem) {
        for (key, value) in other.values where self[key] == nil && !value.isEmpty { values[key] = value }
    }
}

/// Turns raw field values into a valid model of the source's kind: dates in the source's zone,
/// cleaned text, absolute http(s) URLs, categories and states inferred from words.
public struct Normalizer: Sendable {
    public var source: SourceDefinition
    public var dates: DateParser

    public init(source: SourceDefinition, now: Date) {
        self.source = source
        self.dates = DateParser(timeZone: source.timeZone, reference: now)
    }

    /// The raw value that says the year of dates that give none (`year`/`yearFrom` in the
    /// definition fill it), and the nearest heading's text (to tell a reviewer when a guessed
    /// year disagrees with the page).
    public static let yearField = "@year", headingField = "@heading"

    /// The model for a raw item, or the reasons it cannot be one.
    public func build(_ raw: RawItem) -> Result<ItemContent, TimeTrackError> {
        unchecked(raw).map(\.content).flatMap { content in
            let problems = content.validate()
            return problems.isEmpty ? .success(content) : .failure(Normalizer.invalid(problems))
        }
    }

    /// The same, validated once and encoded for the store: what importers hand on when they
    /// do not change the content afterwards.
    public func prepare(_ raw: RawItem) -> Result<PreparedContent, TimeTrackError> {
        prepareNoting(raw).map(\.prepared)
    }

    /// The same, with what had to be guessed ("year guessed: 2026 (start)").
    public func prepareNoting(_ raw: RawItem) -> Result<(prepared: PreparedContent, guesses: [Guess]), TimeTrackError> {
        unchecked(raw).flatMap { built in
            let (prepared, problems) = PreparedContent.checked(built.content)
            return prepared.map { .success(($0, built.guesses)) } ?? .failure(Normalizer.invalid(problems))
        }
    }

    /// The key of an event whose definition names none: its title and its start, normalized in
    /// the source's zone ("Board Meeting|2026-10-14T18:00", "…|2026-10-14" for a day).
    ///
    /// Two meetings on one day and the same meeting next year are items of their own (the raw date
    /// text, without year or time, made them one). Nil when there is no title or the start does
    /// not parse.
    public func eventKey(_ raw: RawItem) -> String? {
        guard let title = raw["title"].map(TextNormalizer.collapse), !title.isEmpty,
            let startText = text(raw, "start") ?? text(raw, "date"), var start = dates.parse(startText, hint: yearHint(raw))
        else { return nil }
        if !start.hasTime, let timeText = text(raw, "time"), let withTime = dates.time(timeText, on: start.date) {
            start = ParsedDate(date: withTime, hasTime: true, hadYear: start.hadYear, yearGuessed: start.yearGuessed)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: start.date)
        func two(_ number: Int?) -> String { let n = number ?? 0; return n < 10 ? "0\(n)" : String(n) }
        var key = "\(title)|\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
        if start.hasTime { key += "T\(two(parts.hour)):\(two(parts.minute))" }
        return key
    }

    /// Where the year of a yearless date comes from: the definition's `year`, or the text
    /// `yearFrom` found for this item.
    func yearHint(_ raw: RawItem) -> YearHint? {
        if let fixed = source.options["year"] {
            if let number = fixed.numberValue, number.isFinite, (1900...2199).contains(number) { return YearHint(year: Int(number)) }
            if let text = fixed.stringValue { return YearHint.read(text) }
        }
        return raw[Normalizer.yearField].flatMap(YearHint.read)
    }

    static func invalid(_ problems: [ValidationProblem]) -> TimeTrackError {
        TimeTrackError(.validation, problems.map(\.description).joined(separator: "; "))
    }

    /// The model, not validated yet, and what had to be guessed.
    func unchecked(_ raw: RawItem) -> Result<(content: ItemContent, guesses: [Guess]), TimeTrackError> {
        var guesses: [Guess] = []
        do {
            switch source.kind {
            case .announcement: return .success((try timed(.announcement(try announcement(raw, &guesses)), raw, &guesses), guesses))
            case .event: return .success((try timed(.event(try event(raw, &guesses)), raw, &guesses), guesses))
            case .schoolInfo: return .success((try timed(.schoolInfo(try schoolInfo(raw)), raw, &guesses), guesses))
            case .deadline: return .success((try timed(.deadline(try deadline(raw, &guesses)), raw, &guesses), guesses))
            case .alert: return .success((.alert(try alert(raw, &guesses)), guesses))
            case .post, .absence, .ticket:
                throw TimeTrackError(.configuration, "the html importer cannot make \(source.kind.rawValue) items", context: ["field": "kind"])
            }
        } catch let error as TimeTrackError {
            return .failure(error)
        } catch {
            return .failure(TimeTrackError(.validation, "\(error)"))
        }
    }

    func text(_ raw: RawItem, _ name: String) -> String? {
        raw[name].map(TextNormalizer.collapse).flatMap { $0.isEmpty ? nil : $0 }
    }

    func required(_ raw: RawItem, _ name: String) throws -> String {
        guard let value = text(raw, name) else {
            // Name the spec that matched nothing, when the definition has one for the field.
            let spec =
                source.options["fields"]?.objectValue?[name].map {
                    " (options.fields.\(name): \(TextNormalizer.truncate($0.description, to: 80)) matched nothing)"
                } ?? ""
            throw TimeTrackError(.validation, "no \(name) found" + spec, context: ["field": name])
        }
        return value
    }

    /// An http(s) URL, or a problem that says why not.
    func url(_ raw: RawItem, _ name: String) throws -> String? {
        guard let value = text(raw, name) else { return nil }
        if value.lowercased().hasPrefix("file:") {
            throw TimeTrackError(
                .validation, "\(name) '\(value)' points to a local file",
                fix: "set baseURL in the source definition to the page's public URL so relative links resolve to it", context: ["field": name])
        }
        if let problem = Check.urlProblem(value) { throw TimeTrackError(.validation, "\(name): \(problem)", context: ["field": name]) }
        return value
    }

    func date(_ raw: RawItem, _ name: String, _ guesses: inout [Guess]) throws -> ParsedDate? {
        guard let value = text(raw, name) else { return nil }
        guard let parsed = dates.parse(value, hint: yearHint(raw)) else {
            throw TimeTrackError(.validation, "\(name) '\(value)' is not a date this importer reads", context: ["field": name])
        }
        note(parsed, name, raw, &guesses)
        return parsed
    }

    /// Records a guessed year: "year guessed: 2026 (start)", and what the page's nearest
    /// heading says when it names other years.
    func note(_ parsed: ParsedDate, _ name: String, _ raw: RawItem, _ guesses: inout [Guess]) {
        if let misread = parsed.misread { guesses.append("digits guessed: \(name) read \(misread)") }
        guard parsed.yearGuessed else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        let year = calendar.component(.year, from: parsed.date)
        var note = "year guessed: \(year) (\(name)"
        var contradicted = false
        if let heading = raw[Normalizer.headingField].flatMap(YearHint.read), !(heading.startYear...heading.endYear).contains(year) {
            note += "; the page's heading says \(heading.description)"
            contradicted = true
        }
        guesses.append(Guess(note + ")", contradictsHeading: contradicted))
    }

    func truthy(_ value: String?) -> Bool {
        guard let v = value?.lowercased().trimmingCharacters(in: .whitespaces), !v.isEmpty else { return false }
        return !["false", "no", "0", "off"].contains(v)
    }

    func announcement(_ raw: RawItem, _ guesses: inout [Guess]) throws -> Announcement {
        let title = try required(raw, "title")
        var summary = text(raw, "summary").map { TextNormalizer.truncate(TextNormalizer.removeReadMore($0), to: 1000) }.flatMap { $0.isEmpty ? nil : $0 }
        let body = raw["body"]
        if summary == nil, let body {
            let plain = TextNormalizer.plainText(fromHTML: body)
            if !plain.isEmpty { summary = TextNormalizer.truncate(plain, to: 300) }
        }
        let priority: Announcement.Priority = raw["priority"].map { truthy($0) && $0.lowercased() != "normal" } == true ? .urgent : .normal
        return Announcement(
            title: title, summary: summary, body: body, imageURL: try url(raw, "image"), imageAlt: text(raw, "imageAlt"),
            link: try url(raw, "link"), publishedAt: try date(raw, "date", &guesses)?.date, priority: priority,
            expiresAt: try date(raw, "expires", &guesses)?.date)
    }

    func event(_ raw: RawItem, _ guesses: inout [Guess]) throws -> Event {
        let title = try required(raw, "title")
        guard let startText = text(raw, "start") ?? text(raw, "date") else {
            throw TimeTrackError(.validation, "no start date found", context: ["field": "start"])
        }
        let hint = yearHint(raw)
        guard var start = dates.parse(startText, hint: hint) else {
            throw TimeTrackError(.validation, "start '\(startText)' is not a date this importer reads", context: ["field": "start"])
        }
        note(start, "start", raw, &guesses)
        if !start.hasTime, let timeText = text(raw, "time"), let withTime = dates.time(timeText, on: start.date) {
            start = ParsedDate(date: withTime, hasTime: true, hadYear: start.hadYear, yearGuessed: start.yearGuessed)
        }
        let allDay = raw["allDay"] != nil ? truthy(raw["allDay"]) : !start.hasTime
        var end: Date?
        // An end given as a day ("Oct 10 – Oct 11", "end": "2026-10-11") is the event's last
        // day, as people write it: the day after it is the exclusive end the store keeps.
        var endIsADay = false
        if let endText = text(raw, "end") {
            if let parsed = dates.parse(endText, hint: hint) {
                end = parsed.date
                endIsADay = !parsed.hasTime
            } else if let time = dates.time(endText, on: start.date) {
                end = time
            } else {
                throw TimeTrackError(.validation, "end '\(endText)' is not a date or time this importer reads", context: ["field": "end"])
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        var startDate = start.date
        if allDay {
            startDate = calendar.startOfDay(for: start.date)
            if let e = end, e >= startDate {
                let day = calendar.startOfDay(for: e)
                end = endIsADay || day != e ? calendar.date(byAdding: .day, value: 1, to: day) : e
            } else {
                end = calendar.date(byAdding: .day, value: 1, to: startDate)
            }
        }
        if let e = end, e < startDate {
            throw TimeTrackError(.validation, "the end comes before the start", context: ["field": "end"])
        }
        var state = Normalizer.eventState(title: title, cells: [raw["state"], raw["start"], raw["end"], raw["time"]].compactMap { $0 })
        var latitude = text(raw, "latitude").flatMap(Double.init)
        var longitude = text(raw, "longitude").flatMap(Double.init)
        if latitude == nil || longitude == nil { latitude = nil; longitude = nil }
        var description = raw["description"].map { TextNormalizer.decodeEntities($0) }.map { text in
            text.split(separator: "\n").map { TextNormalizer.collapse(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }.flatMap { $0.isEmpty ? nil : $0 }
        let said = [title, raw["state"], raw["start"], raw["time"], description].compactMap { $0 }
        if let moved = rescheduled(said, start: startDate, end: end, allDay: allDay, hint: hint, raw: raw, guesses: &guesses) {
            (startDate, end, state) = (moved.start, moved.end, .scheduled)
            description = [description, moved.note].compactMap { $0 }.joined(separator: "\n")
        }
        return Event(
            title: title, category: Normalizer.category(raw["category"], title: title + " " + (description ?? "")), start: startDate, end: end, allDay: allDay,
            timeZone: source.timeZone.identifier, locationName: text(raw, "location"), address: text(raw, "address"), latitude: latitude,
            longitude: longitude, description: description, link: try url(raw, "link"), state: state)
    }

    /// "Rescheduled to October 5", "moved to 10/12 at 6 PM", "postponed until Oct 19": the new
    /// date wins (at the old time of day when it gives none), the end moves with it, and the old
    /// date goes into the description; nil when no text says so with a date that parses.
    func rescheduled(
        _ texts: [String], start: Date, end: Date?, allDay: Bool, hint: YearHint?, raw: RawItem, guesses: inout [Guess]
    ) -> (start: Date, end: Date?, note: String)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source.timeZone
        for text in texts {
            let ns = text as NSString
            guard let match = Normalizer.movedPattern?.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { continue }
            let phrase = ns.substring(with: match.range(at: 1))
            guard let parsed = dates.parse(phrase, hint: hint) else { continue }
            note(parsed, "start", raw, &guesses)
            var moved = parsed.date
            if allDay {
                moved = calendar.startOfDay(for: moved)
            } else if !parsed.hasTime {
                let time = calendar.dateComponents([.hour, .minute], from: start)
                moved = calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: moved) ?? moved
            }
            guard moved != start else { return nil }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = source.timeZone
            formatter.dateFormat = allDay ? "MMMM d, yyyy" : "MMMM d, yyyy 'at' h:mm a"
            return (moved, end.map { $0.addingTimeInterval(moved.timeIntervalSince(start)) }, "Rescheduled from \(formatter.string(from: start)).")
        }
        return nil
    }

    /// The words that say an event moved, and where its new date begins.
    static let movedPattern = try? NSRegularExpression(
        pattern: #"\b(?:re-?scheduled|moved|postponed|changed)\s+(?:to|until|for)\s+(.{3,80})"#, options: [.caseInsensitive])

    /// Whether an event is cancelled or postponed: a state word (`canceled`, `cancelled`,
    /// `postponed`) as the first or the last word of its title ("CANCELED - Board Meeting",
    /// "Board Meeting (Cancelled)", "Board meeting – canceled"), or anywhere in its status, date
    /// or time cells.
    ///
    /// A word inside a title ("Cancellation policy review") is no state.
    public static func eventState(title: String, cells: [String]) -> Event.State {
        func words(_ text: String) -> [Substring] { text.lowercased().split { !$0.isLetter } }
        func state(_ word: Substring) -> Event.State? {
            switch word {
            case "canceled", "cancelled", "cancel": return .cancelled
            case "postponed": return .postponed
            default: return nil
            }
        }
        let titleWords = words(title)
        for word in [titleWords.first, titleWords.last].compactMap({ $0 }) { if let found = state(word) { return found } }
        for cell in cells { for word in words(cell) { if let found = state(word) { return found } } }
        return .scheduled
    }

    /// The category a source's label or an event's title points to.
    public static func category(_ label: String?, title: String) -> Event.Category {
        if let label, let exact = Event.Category(rawValue: label.lowercased()) { return exact }
        let words = " " + ((label ?? "") + " " + title).lowercased() + " "
        for (category, keywords) in Normalizer.categoryKeywords where keywords.contains(where: { TextNormalizer.has(words, $0) }) {
            return category
        }
        return .other
    }

    /// Words in a title or label that point to a category, checked in this order.
    static let categoryKeywords: [(Event.Category, [String])] = [
        (.noSchool, ["no school", "holiday", "break", "no classes", "recess"]),
        (.board, ["board", " boe ", "committee", "hearing"]),
        (.athletics, [" vs", "game", "athlet", "football", "basketball", "soccer", "volleyball", "track meet"]),
        (.arts, ["concert", "choir", "band", "theater", "theatre", "art show", "musical", "play "]),
        (.academic, ["exam", "test", "grades", "report card", "parent-teacher", "conference", "early release", "late start"]),
        (.community, ["fair", "community", "festival", "night", "fundraiser"]),
    ]

    func schoolInfo(_ raw: RawItem) throws -> SchoolInfoItem {
        guard let link = try url(raw, "url") ?? url(raw, "link") else { throw TimeTrackError(.validation, "no url found", context: ["field": "url"]) }
        let label = try required(raw, "title")
        let title = DocumentClassifier.cleanTitle(label)
        guard !title.isEmpty else { throw TimeTrackError(.validation, "the link text '\(label)' is only a document type", context: ["field": "title"]) }
        var section: SchoolInfoItem.Section = .other
        if let value = text(raw, "section") {
            section = SchoolInfoItem.Section(rawValue: value.lowercased()) ?? DocumentClassifier.section(forHeading: value) ?? .other
        }
        if section == .other, let group = text(raw, "group"), let guessed = DocumentClassifier.section(forHeading: group) { section = guessed }
        if section == .other, let fallback = source.options["section"]?.stringValue.flatMap(SchoolInfoItem.Section.init(rawValue:)) { section = fallback }
        let type = raw["type"].flatMap { SchoolInfoItem.DocumentType(rawValue: $0.lowercased()) } ?? DocumentClassifier.documentType(url: link, label: label)
        return SchoolInfoItem(section: section, title: title, url: link, documentType: type, group: text(raw, "group"))
    }
}
