import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `ical` importer: RFC 5545 calendars (Edlio, Finalsite, Blackboard, Google Calendar exports)
/// to events.
///
/// Recurring events are expanded within a window; ids are stable across runs (UID, plus
/// the occurrence's start for recurring events).
public struct ICalImporter: Importer {
    public static let info = ImporterInfo(
        name: "ical", version: "1.1.0", kinds: [.event],
        summary:
            "iCalendar (.ics) feeds: time zones, all-day, cancelled, recurrence (RRULE with every day-level BY part, RDATE, EXDATE, changed"
            + " occurrences with or without their series)",
        options: [
            ImporterOption("pastDays", type: "number", help: "expand recurring events from this many days back (default 30)"),
            ImporterOption("futureDays", type: "number", help: "expand recurring events this many days ahead (default 365)"),
            ImporterOption("category", type: "string", help: "category for every event (default: from CATEGORIES and the title)"),
            ImporterOption("maxItems", type: "number", help: "stop after this many events, occurrences counted (default 5000)"),
        ])

    let source: SourceDefinition
    let pastDays: Int
    let futureDays: Int
    let category: Event.Category?
    let maxItems: Int

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(ICalImporter.info)
        pastDays = try source.intOption("pastDays", default: 30, range: 0...3660)
        futureDays = try source.intOption("futureDays", default: 365, range: 0...3660)
        maxItems = try source.intOption("maxItems", default: 5000, range: 1...100_000)
        if let text = source.options["category"] {
            guard let c = text.stringValue.flatMap(Event.Category.init(rawValue:)) else {
                throw source.error("options.category", "must be one of " + Event.Category.allCases.map(\.rawValue).joined(separator: ", "))
            }
            category = c
        } else {
            category = nil
        }
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let page = try context.fetcher.fetch(source.url)
        let url = source.urlText
        let document = try ICSDocument(String(decoding: page.data, as: UTF8.self), fallback: source.timeZone) { wrong in
            TimeTrackError(
                .parse,
                wrong == .htmlPage ? "this is an HTML page, not an iCalendar feed" : "this is not an iCalendar feed (it does not start with BEGIN:VCALENDAR)",
                fix: wrong == .htmlPage
                    ? "find the calendar's .ics export link (often \"Subscribe\" or \"iCal\"), or use the html importer" : "check the source's url",
                context: ["url": url])
        }
        var run = ICalRun(importer: self, context: context, page: page, document: document)
        return run.run()
    }

    /// `20260909T220000Z`-style UTC text for occurrence keys.
    static func keyTime(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: 0)
        return f.string(from: date)
    }

    func summary(_ event: ICSComponent) -> String {
        TextNormalizer.collapse(ICSParser.unescape(event.first("SUMMARY")?.value ?? "untitled"))
    }

    /// Seconds from start to end (DTEND or DURATION; all-day without either: one day).
    func duration(of event: ICSComponent, start: ICSDateTime, startInstant: Date, zone: TimeZone, zones: inout ZoneResolver) -> TimeInterval {
        if let endProperty = event.first("DTEND"), let end = ICSDateTime(endProperty), let endInstant = zones.instant(end, allDayZone: zone) {
            return max(0, endInstant.timeIntervalSince(startInstant))
        }
        if let d = event.first("DURATION").flatMap({ ICSDuration($0.value) }) {
            return TimeInterval(d.days * 86_400 + d.seconds)
        }
        return start.isDate ? 86_400 : 0
    }

    func makeEvent(
        _ component: ICSComponent, series: ICSComponent, start: Date, seriesStart: ICSDateTime, length: TimeInterval, zone: TimeZone, zones: inout ZoneResolver
    ) throws -> Event {
        let title = summary(component)
        guard !title.isEmpty else { throw TimeTrackError(.validation, "no SUMMARY") }
        var eventStart = start
        var end: Date? = length > 0 ? start.addingTimeInterval(length) : nil
        var allDay = seriesStart.isDate
        // An override may move the occurrence.
        if component !== series, let moved = component.first("DTSTART").flatMap(ICSDateTime.init), let instant = zones.instant(moved, allDayZone: zone) {
            eventStart = instant
            allDay = moved.isDate
            let movedLength = duration(of: component, start: moved, startInstant: instant, zone: zone, zones: &zones)
            end = movedLength > 0 ? instant.addingTimeInterval(movedLength) : nil
        }
        if allDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            if end == nil || (end ?? eventStart) <= eventStart { end = calendar.date(byAdding: .day, value: 1, to: eventStart) }
        }
        let status = (component.first("STATUS")?.value ?? "").uppercased()
        let lowerTitle = title.lowercased()
        var state = Event.State.scheduled
        if status == "CANCELLED" || lowerTitle.hasPrefix("canceled") || lowerTitle.hasPrefix("cancelled") {
            state = .cancelled
        } else if lowerTitle.hasPrefix("postponed") {
            state = .postponed
        }
        let categories = component.all("CATEGORIES").flatMap { ICSParser.splitList($0.value) }
        var description = component.first("DESCRIPTION").map { ICSParser.unescape($0.value) }.map(ICalImporter.plainText)
        if description?.isEmpty == true { description = nil }
        let link = component.first("URL")?.value.trimmingCharacters(in: .whitespaces)
        var latitude: Double?, longitude: Double?
        if let geo = component.first("GEO")?.value.split(separator: ";"), geo.count == 2, let lat = Double(geo[0]), let lon = Double(geo[1]) {
            (latitude, longitude) = (lat, lon)
        }
        let locationText = component.first("LOCATION").map { TextNormalizer.collapse(ICSParser.unescape($0.value)) }
        return Event(
            title: title,
            category: category
                ?? Normalizer.category(categories.first { Event.Category(rawValue: $0.lowercased()) != nil }, title: title + " " + (description ?? "")),
            start: eventStart, end: end, allDay: allDay, timeZone: zone.identifier, locationName: locationText.flatMap { $0.isEmpty ? nil : $0 },
            address: nil, latitude: latitude, longitude: longitude, description: description,
            link: link.flatMap { Check.urlProblem($0) == nil ? $0 : nil }, state: state)
    }

    /// DESCRIPTION text with HTML reduced to text, entities decoded, literal `\n` made newlines.
    static func plainText(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "\\n", with: "\n")
        if t.contains("<") && t.contains(">") {
            t = t.replacingOccurrences(of: #"<\s*(br|/p|/div|/li)\s*/?>"#, with: "\n", options: [.regularExpression, .caseInsensitive])
            // Other tags are inline (b, a, span): removed without adding a space ("<b>Friday</b>." → "Friday.").
            t = t.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
        }
        t = TextNormalizer.decodeEntities(t)
        return t.split(separator: "\n").map { TextNormalizer.collapse(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}

extension ICSDateTime {
    /// The TZID the value named, if any.
    var tzid: String? { if case .named(let id) = zone { return id } else { return nil } }
}

extension ZoneResolver {
    /// TZIDs seen that no zone database or VTIMEZONE explained.
    var unknownZones: Set<String> { unknownTZIDs }

    /// The zone whose calendar expands a series in wall-clock time.
    func instantZone(_ value: ICSDateTime) -> TimeZone? {
        switch value.zone {
        case .utc: return TimeZone(secondsFromGMT: 0)
        case .floating: return calendarZone ?? fallback
        case .named(let tzid): return ZoneResolver.ianaZone(tzid)
        }
    }
}
