import Foundation
import TimeTrackCore
import TimeTrackKit

/// One run of the ical importer over a fetched feed: the changed occurrences found first, then
/// every series and single event read into items (recurrences expanded in the window), then the
/// changes no series took, read as events of their own.
struct ICalRun {
    let importer: ICalImporter
    let page: FetchedPage
    let events: [ICSComponent]
    let windowStart: Date
    let windowEnd: Date
    var zones: ZoneResolver
    var result = ImportResult()
    /// UIDs of the series the feed holds.
    let masters: Set<String>
    /// Overrides of single occurrences, by UID and RECURRENCE-ID instant.
    var overrides: [String: [Date: ICSComponent]] = [:]
    var usedOverrides: Set<ObjectIdentifier> = []
    /// Every start each series has (in or out of the window), to tell an override of an
    /// occurrence outside the window from one of an occurrence that does not exist.
    var seriesStarts: [String: Set<Date>] = [:]
    /// Each key once (some exports repeat events).
    var keys = DistinctKeys()
    /// True once `maxItems` items were read.
    var capped = false

    /// One occurrence to read: its key, its start, and the component that describes it (the
    /// series', or the override's).
    typealias Instance = (key: String, start: Date, component: ICSComponent)

    init(importer: ICalImporter, context: ImportContext, page: FetchedPage, document: ICSDocument) {
        self.importer = importer
        self.page = page
        events = document.events
        zones = document.zones
        result.pagesFetched = 1
        result.problems = document.problems
        windowStart = context.now.addingTimeInterval(-Double(importer.pastDays) * 86_400)
        windowEnd = context.now.addingTimeInterval(Double(importer.futureDays) * 86_400)
        masters = Set(document.events.filter { $0.terminated && $0.first("RECURRENCE-ID") == nil }.compactMap { $0.first("UID")?.value })
    }

    /// The whole run.
    mutating func run() -> ImportResult {
        collectOverrides()
        for event in events where event.terminated && event.first("RECURRENCE-ID") == nil {
            guard !capped else { break }
            read(event)
        }
        if !capped {
            for event in unclaimedOverrides() {
                guard !capped else { break }
                read(event)
            }
        }
        result.problems += ICSDocument.unknownZones(zones)
        return result
    }

    func summary(_ event: ICSComponent) -> String { importer.summary(event) }

    /// Finds the changed occurrences of the feed's series.
    ///
    /// An override whose series is not in
    /// the feed (Google Calendar exports changed occurrences alone) or whose occurrence the
    /// series does not have is an event of its own, read after the series.
    mutating func collectOverrides() {
        for event in events where event.terminated {
            guard let uid = event.first("UID")?.value, masters.contains(uid), let rid = event.first("RECURRENCE-ID") else { continue }
            guard let value = ICSDateTime(rid), let instant = zones.instant(value, allDayZone: zones.displayZone(value)) else {
                result.note(
                    ImportProblem(
                        .warning, "'\(summary(event))': RECURRENCE-ID \(rid.value.prefix(40)) is not a date; the change is read as an event of its own",
                        location: "line \(event.line)"))
                continue
            }
            overrides[uid, default: [:]][instant] = event
        }
    }

    /// The overrides no series took (known only once the series are expanded).
    mutating func unclaimedOverrides() -> [ICSComponent] {
        events.filter { event in
            guard event.terminated, event.first("RECURRENCE-ID") != nil, !usedOverrides.contains(ObjectIdentifier(event)) else { return false }
            guard let uid = event.first("UID")?.value, masters.contains(uid) else { return true }  // no series in the feed
            guard let (instant, _) = overrides[uid]?.first(where: { $0.value === event }) else { return true }  // RECURRENCE-ID unreadable
            // An occurrence outside the window (or taken out by EXDATE) is not imported, changed or not.
            if seriesStarts[uid]?.contains(instant) == true || instant < windowStart || instant > windowEnd { return false }
            result.note(
                ImportProblem(
                    .warning,
                    "'\(summary(event))': changes an occurrence its series does not have (RECURRENCE-ID"
                        + " \(event.first("RECURRENCE-ID")?.value.prefix(40) ?? "")); imported as an event of its own",
                    location: "line \(event.line)"))
            return true
        }
    }

    /// Reads one VEVENT (a series, a single event, or a change read alone) into items.
    mutating func read(_ event: ICSComponent) {
        let location = "line \(event.line)"
        guard let uid = event.first("UID")?.value, !uid.isEmpty else {
            result.note(ImportProblem(.error, "skipped: VEVENT without a UID", location: location))
            return
        }
        guard let startProperty = event.first("DTSTART"), let start = ICSDateTime(startProperty) else {
            result.note(ImportProblem(.error, "skipped '\(summary(event))': no valid DTSTART", location: location))
            return
        }
        var zone = zones.displayZone(start)
        if start.isDate, let own = event.first("X-TIMETRACK-TZID").flatMap({ TimeZone(identifier: $0.value) }) { zone = own }
        guard let startInstant = zones.instant(start, allDayZone: zone) else {
            result.note(ImportProblem(.error, "skipped '\(summary(event))': DTSTART is not a real date", location: location))
            return
        }
        let length = importer.duration(of: event, start: start, startInstant: startInstant, zone: zone, zones: &zones)
        if event.first("DTEND") == nil, let text = event.first("DURATION")?.value, ICSDuration(text) == nil {
            result.note(
                ImportProblem(
                    .warning,
                    "'\(summary(event))': DURATION:\(text.prefix(40)) is not a duration up to \(ICSDuration.maxDays) days; the event is read without it",
                    location: location))
        }
        let series = Series(event: event, uid: uid, start: start, startInstant: startInstant, zone: zone, length: length)
        append(instances(of: series), of: series)
    }

    /// What is known of the VEVENT being read.
    struct Series {
        var event: ICSComponent
        var uid: String
        var start: ICSDateTime
        var startInstant: Date
        var zone: TimeZone
        var length: TimeInterval
        var location: String { "line \(event.line)" }
    }

    /// The occurrences a VEVENT gives in the window.
    mutating func instances(of series: Series) -> [Instance] {
        let event = series.event
        if let rid = event.first("RECURRENCE-ID") {
            // A changed occurrence read alone: keyed by the occurrence it stands for, so the
            // same change is the same item on every run.
            let ridInstant = ICSDateTime(rid).flatMap { zones.instant($0, allDayZone: series.zone) }
            return [(series.uid + "@" + (ridInstant.map(ICalImporter.keyTime) ?? rid.value), series.startInstant, event)]
        }
        guard event.first("RRULE") != nil || event.first("RDATE") != nil else { return [(series.uid, series.startInstant, event)] }
        let ruleText = event.first("RRULE")?.value ?? ""
        switch ruleText.isEmpty ? .success(RecurrenceRule(frequency: .daily, count: 1)) : RecurrenceRule.parse(ruleText) {
        case .failure(let error):
            result.note(
                ImportProblem(.warning, "'\(summary(event))': \(error.reason); only the first occurrence is imported", location: series.location))
            return [(series.uid, series.startInstant, event)]
        case .success(let rule):
            return occurrences(of: series, rule: rule)
        }
    }

    /// A recurring VEVENT's occurrences: its rule's, DTSTART, its RDATEs, less its EXDATEs, each
    /// changed occurrence taken from its override.
    mutating func occurrences(of series: Series, rule: RecurrenceRule) -> [Instance] {
        let (event, start, zone) = (series.event, series.start, series.zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = start.isDate ? zone : (zones.instantZone(start) ?? zone)
        let excluded = Set(
            event.all("EXDATE").flatMap { property in
                ICSParser.splitList(property.value).compactMap { value -> Date? in
                    guard let dt = ICSDateTime(value, tzid: property.parameters["TZID"] ?? start.tzid, valueType: property.parameters["VALUE"]) else {
                        return nil
                    }
                    return zones.instant(dt, allDayZone: zone)
                }
            })
        let untilDate = rule.until.flatMap { zones.instant($0, allDayZone: zone) }
        var zonesCopy = zones
        func on(_ components: DateComponents) -> ICSDateTime {
            var value = start
            (value.year, value.month, value.day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
            return value
        }
        let found = rule.occurrences(
            from: start.components, calendar: calendar, limit: windowEnd, toDate: { zonesCopy.instant(on($0), allDayZone: zone) }, untilDate: untilDate)
        var starts: [Date] = found.compactMap { zones.instant(on($0), allDayZone: zone) }
        // DTSTART is always the first instance (RFC 5545 §3.8.5.3), RDATEs add more.
        starts.append(series.startInstant)
        starts += recurrenceDates(of: series)
        seriesStarts[series.uid, default: []].formUnion(starts)
        var instances: [Instance] = []
        for instant in Set(starts).sorted() {
            guard !excluded.contains(instant) else { continue }
            guard instant >= windowStart || instant.addingTimeInterval(series.length) >= windowStart else { continue }
            let component = overrides[series.uid]?[instant] ?? event
            if component !== event { usedOverrides.insert(ObjectIdentifier(component)) }
            instances.append(("\(series.uid)@\(ICalImporter.keyTime(instant))", instant, component))
        }
        return instances
    }

    /// The RDATE starts up to the window's end; one that is not a date is said and skipped.
    mutating func recurrenceDates(of series: Series) -> [Date] {
        var starts: [Date] = []
        for property in series.event.all("RDATE") {
            for text in ICSParser.splitList(property.value) {
                // A PERIOD ("start/end" or "start/duration") starts at its first half.
                let first = String(text.split(separator: "/").first ?? "")
                let valueType = property.parameters["VALUE"]?.uppercased() == "PERIOD" ? nil : property.parameters["VALUE"]
                guard let dt = ICSDateTime(first, tzid: property.parameters["TZID"] ?? series.start.tzid, valueType: valueType),
                    let instant = zones.instant(dt, allDayZone: series.zone)
                else {
                    result.note(
                        ImportProblem(
                            .warning, "'\(summary(series.event))': RDATE \(text.prefix(40)) is not a date; that occurrence is not imported",
                            location: series.location))
                    continue
                }
                if instant <= windowEnd { starts.append(instant) }
            }
        }
        return starts
    }

    /// The occurrences as items, keyed once each, up to `maxItems`.
    mutating func append(_ instances: [Instance], of series: Series) {
        for instance in instances {
            guard result.items.count < importer.maxItems else {
                result.note(
                    ImportProblem(
                        .error,
                        "stopped at \(importer.maxItems) events: the feed holds more (occurrences counted); the rest is not imported (raise"
                            + " options.maxItems if the calendar really is that large)",
                        location: series.location))
                capped = true
                return
            }
            let key = keys.key(for: instance.key)
            do {
                let content = try importer.makeEvent(
                    instance.component, series: series.event, start: instance.start, seriesStart: series.start, length: series.length, zone: series.zone,
                    zones: &zones)
                result.items.append(
                    ExtractedItem(
                        key: key, content: .event(content), pageURL: importer.source.publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt,
                        location: "line \(instance.component.line)"))
            } catch let error as TimeTrackError {
                result.note(
                    ImportProblem(.error, "skipped '\(summary(instance.component))': \(error.message)", location: "line \(instance.component.line)"))
            } catch {
                result.note(ImportProblem(.error, "skipped '\(summary(instance.component))': \(error)", location: "line \(instance.component.line)"))
            }
        }
    }
}
