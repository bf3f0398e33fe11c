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
            "iCalendar (.ics) feeds: time zones, all-day, cancelled, recurrence (RRULE with every day-level BY part, RDATE, EXDATE, changed occurrences with or without their series)",
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
        var result = ImportResult()
        result.pagesFetched = 1
        let url = source.urlText
        let document = try ICSDocument(String(decoding: page.data, as: UTF8.self), fallback: source.timeZone) { wrong in
            TimeTrackError(
                .parse,
                wrong == .htmlPage ? "this is an HTML page, not an iCalendar feed" : "this is not an iCalendar feed (it does not start with BEGIN:VCALENDAR)",
                fix: wrong == .htmlPage
                    ? "find the calendar's .ics export link (often \"Subscribe\" or \"iCal\"), or use the html importer" : "check the source's url",
                context: ["url": url])
        }
        result.problems += document.problems
        var zones = document.zones
        let windowStart = context.now.addingTimeInterval(-Double(pastDays) * 86_400)
        let windowEnd = context.now.addingTimeInterval(Double(futureDays) * 86_400)
        let events = document.events
        // Overrides of single occurrences, by UID and RECURRENCE-ID instant. An override whose
        // series is not in the feed (Google Calendar exports changed occurrences alone) or
        // whose occurrence the series does not have is an event of its own.
        var overrides: [String: [Date: ICSComponent]] = [:]
        let masters = Set(events.filter { $0.terminated && $0.first("RECURRENCE-ID") == nil }.compactMap { $0.first("UID")?.value })
        var usedOverrides: Set<ObjectIdentifier> = []
        // Every start each series has (in or out of the window), to tell an override of an
        // occurrence outside the window from one of an occurrence that does not exist.
        var seriesStarts: [String: Set<Date>] = [:]
        for event in events where event.terminated {
            guard let uid = event.first("UID")?.value, masters.contains(uid), let rid = event.first("RECURRENCE-ID") else { continue }
            guard let value = ICSDateTime(rid), let instant = zones.instant(value, allDayZone: zones.displayZone(value)) else {
                result.problems.append(
                    ImportProblem(
                        .warning, "'\(summary(event))': RECURRENCE-ID \(rid.value.prefix(40)) is not a date; the change is read as an event of its own",
                        location: "line \(event.line)"))
                continue
            }
            overrides[uid, default: [:]][instant] = event
        }
        var seen: [String: Int] = [:]
        var capped = false
        var pending = events.filter { $0.terminated && $0.first("RECURRENCE-ID") == nil }
        var next = 0
        // Then the overrides no series took (known only once the series are expanded).
        var overridePass = false
        while !capped {
            if next == pending.count {
                if overridePass { break }
                overridePass = true
                next = 0
                pending = events.filter { event in
                    guard event.terminated, event.first("RECURRENCE-ID") != nil, !usedOverrides.contains(ObjectIdentifier(event)) else { return false }
                    guard let uid = event.first("UID")?.value, masters.contains(uid) else { return true }  // no series in the feed
                    guard let (instant, _) = overrides[uid]?.first(where: { $0.value === event }) else { return true }  // RECURRENCE-ID unreadable
                    // An occurrence outside the window (or taken out by EXDATE) is not imported, changed or not.
                    if seriesStarts[uid]?.contains(instant) == true || instant < windowStart || instant > windowEnd { return false }
                    result.problems.append(
                        ImportProblem(
                            .warning,
                            "'\(summary(event))': changes an occurrence its series does not have (RECURRENCE-ID \(event.first("RECURRENCE-ID")?.value.prefix(40) ?? "")); imported as an event of its own",
                            location: "line \(event.line)"))
                    return true
                }
                if pending.isEmpty { break }
            }
            let event = pending[next]
            next += 1
            let location = "line \(event.line)"
            guard let uid = event.first("UID")?.value, !uid.isEmpty else {
                result.problems.append(ImportProblem(.error, "skipped: VEVENT without a UID", location: location))
                continue
            }
            guard let startProperty = event.first("DTSTART"), let start = ICSDateTime(startProperty) else {
                result.problems.append(ImportProblem(.error, "skipped '\(summary(event))': no valid DTSTART", location: location))
                continue
            }
            var zone = zones.displayZone(start)
            if start.isDate, let own = event.first("X-TIMETRACK-TZID").flatMap({ TimeZone(identifier: $0.value) }) { zone = own }
            guard let startInstant = zones.instant(start, allDayZone: zone) else {
                result.problems.append(ImportProblem(.error, "skipped '\(summary(event))': DTSTART is not a real date", location: location))
                continue
            }
            let length = duration(of: event, start: start, startInstant: startInstant, zone: zone, zones: &zones)
            if event.first("DTEND") == nil, let text = event.first("DURATION")?.value, ICSDuration(text) == nil {
                result.problems.append(
                    ImportProblem(
                        .warning,
                        "'\(summary(event))': DURATION:\(text.prefix(40)) is not a duration up to \(ICSDuration.maxDays) days; the event is read without it",
                        location: location))
            }
            var instances: [(key: String, start: Date, component: ICSComponent)] = []
            if let rid = event.first("RECURRENCE-ID") {
                // A changed occurrence read alone: keyed by the occurrence it stands for, so the
                // same change is the same item on every run.
                let ridInstant = ICSDateTime(rid).flatMap { zones.instant($0, allDayZone: zone) }
                instances = [(uid + "@" + (ridInstant.map(ICalImporter.keyTime) ?? rid.value), startInstant, event)]
            } else if event.first("RRULE") != nil || event.first("RDATE") != nil {
                let rruleText = event.first("RRULE")?.value ?? ""
                switch rruleText.isEmpty ? .success(RecurrenceRule(frequency: .daily, count: 1)) : RecurrenceRule.parse(rruleText) {
                case .failure(let error):
                    result.problems.append(
                        ImportProblem(.warning, "'\(summary(event))': \(error.reason); only the first occurrence is imported", location: location))
                    instances = [(uid, startInstant, event)]
                case .success(let rule):
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = start.isDate ? zone : (zones.instantZone(start) ?? zone)
                    let excluded = Set(
                        event.all("EXDATE").flatMap { property in
                            ICSParser.splitList(property.value).compactMap { value -> Date? in
                                guard let dt = ICSDateTime(value, tzid: property.parameters["TZID"] ?? start.tzid, valueType: property.parameters["VALUE"])
                                else { return nil }
                                return zones.instant(dt, allDayZone: zone)
                            }
                        })
                    let untilDate = rule.until.flatMap { zones.instant($0, allDayZone: zone) }
                    var zonesCopy = zones
                    let occurrences = rule.occurrences(
                        from: start.components, calendar: calendar, limit: windowEnd,
                        toDate: { components in
                            var value = start
                            (value.year, value.month, value.day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
                            return zonesCopy.instant(value, allDayZone: zone)
                        }, untilDate: untilDate)
                    var starts: [Date] = occurrences.compactMap { components in
                        var value = start
                        (value.year, value.month, value.day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
                        return zones.instant(value, allDayZone: zone)
                    }
                    // DTSTART is always the first instance (RFC 5545 §3.8.5.3), RDATEs add more.
                    starts.append(startInstant)
                    for property in event.all("RDATE") {
                        for text in ICSParser.splitList(property.value) {
                            // A PERIOD ("start/end" or "start/duration") starts at its first half.
                            let first = String(text.split(separator: "/").first ?? "")
                            let valueType = property.parameters["VALUE"]?.uppercased() == "PERIOD" ? nil : property.parameters["VALUE"]
                            guard let dt = ICSDateTime(first, tzid: property.parameters["TZID"] ?? start.tzid, valueType: valueType),
                                let instant = zones.instant(dt, allDayZone: zone)
                            else {
                                result.problems.append(
                                    ImportProblem(
                                        .warning, "'\(summary(event))': RDATE \(text.prefix(40)) is not a date; that occurrence is not imported",
                                        location: location))
                                continue
                            }
                            if instant <= windowEnd { starts.append(instant) }
                        }
                    }
                    seriesStarts[uid, default: []].formUnion(starts)
                    for instant in Set(starts).sorted() {
                        guard !excluded.contains(instant) else { continue }
                        guard instant >= windowStart || instant.addingTimeInterval(length) >= windowStart else { continue }
                        let component = overrides[uid]?[instant] ?? event
                        if component !== event { usedOverrides.insert(ObjectIdentifier(component)) }
                        instances.append(("\(uid)@\(ICalImporter.keyTime(instant))", instant, component))
                    }
                }
            } else {
                instances = [(uid, startInstant, event)]
            }
            for instance in instances {
                guard result.items.count < maxItems else {
                    result.problems.append(
                        ImportProblem(
                            .error,
                            "stopped at \(maxItems) events: the feed holds more (occurrences counted); the rest is not imported (raise options.maxItems if the calendar really is that large)",
                            location: location))
                    capped = true
                    break
                }
                var key = instance.key
                if let count = seen[key] {
                    // The same UID twice (some exports repeat events): keep both, distinctly.
                    seen[key] = count + 1
                    key += "#\(count + 1)"
                } else {
                    seen[key] = 1
                }
                do {
                    let content = try makeEvent(
                        instance.component, series: event, start: instance.start, seriesStart: start, length: length, zone: zone, zones: &zones)
                    result.items.append(
                        ExtractedItem(
                            key: key, content: .event(content), pageURL: source.publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt,
                            location: "line \(instance.component.line)"))
                } catch let error as TimeTrackError {
                    result.problems.append(
                        ImportProblem(.error, "skipped '\(summary(instance.component))': \(error.message)", location: "line \(instance.component.line)"))
                }
            }
        }
        result.problems += ICSDocument.unknownZones(zones)
        return result
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
