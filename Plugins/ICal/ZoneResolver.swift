import Foundation

/// A VTIMEZONE block evaluated by its STANDARD/DAYLIGHT observances (yearly rules with BYMONTH
/// and BYDAY, or single onsets), for TZIDs that are not IANA names.
struct VTimeZone {
    struct Observance {
        var start: DateComponents
        var offsetTo: Int
        var offsetFrom: Int
        var month: Int?
        var ordinal: Int?
        var weekday: Int?
        var until: DateComponents?
    }

    var observances: [Observance] = []

    init?(_ component: ICSComponent) {
        for child in component.children where child.name == "STANDARD" || child.name == "DAYLIGHT" {
            guard let startProperty = child.first("DTSTART"), let start = ICSDateTime(startProperty),
                let to = child.first("TZOFFSETTO").flatMap({ VTimeZone.offset($0.value) })
            else { continue }
            var observance = Observance(
                start: start.components, offsetTo: to, offsetFrom: child.first("TZOFFSETFROM").flatMap { VTimeZone.offset($0.value) } ?? to)
            if let rule = child.first("RRULE").map({ RecurrenceRule.parts($0.value) }) {
                observance.month = rule["BYMONTH"].flatMap { Int($0) }.flatMap { (1...12).contains($0) ? $0 : nil }
                if let byday = rule["BYDAY"], let parsed = RecurrenceRule.weekday(byday) {
                    observance.ordinal = parsed.ordinal
                    observance.weekday = parsed.weekday
                }
                observance.until = rule["UNTIL"].flatMap { ICSDateTime($0, tzid: nil, valueType: nil)?.components }
            }
            observances.append(observance)
        }
        if observances.isEmpty { return nil }
    }

    /// `-0500` → -18000.
    static func offset(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.count >= 5, let sign = t.first, sign == "+" || sign == "-", let h = Int(t.dropFirst().prefix(2)), let m = Int(t.dropFirst(3).prefix(2)) else {
            return nil
        }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    /// The UTC offset in force at a local wall-clock time.
    func offset(at local: DateComponents) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let localDate = calendar.date(from: local), let year = local.year else { return observances[0].offsetTo }
        var best: (Date, Int)?
        for observance in observances {
            for y in [year - 1, year] {
                guard let onset = onset(observance, year: y, calendar: calendar), onset <= localDate else { continue }
                if onset > (best?.0 ?? .distantPast) { best = (onset, observance.offsetTo) }
            }
        }
        return best?.1 ?? observances.min { (calendar.date(from: $0.start) ?? .distantFuture) < (calendar.date(from: $1.start) ?? .distantFuture) }?.offsetFrom
            ?? 0
    }

    private func onset(_ o: Observance, year: Int, calendar: Calendar) -> Date? {
        guard let startDate = calendar.date(from: o.start) else { return nil }
        guard let month = o.month, let weekday = o.weekday, let ordinal = o.ordinal else {
            return (o.start.year ?? 0) <= year ? startDate : nil
        }
        guard let day = RecurrenceRule.nthWeekday(ordinal: ordinal, weekday: weekday, year: year, month: month, calendar: calendar),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: o.start.hour, minute: o.start.minute))
        else { return nil }
        if date < startDate { return nil }
        if let until = o.until.flatMap({ calendar.date(from: $0) }), date > until { return nil }
        return date
    }
}

/// Places ICS date-times in time: IANA TZIDs through the system's zone database, other TZIDs
/// through the calendar's VTIMEZONE blocks or common Windows names, floating times in the
/// source's zone; an unknown TZID falls back to the source's zone with a warning.
struct ZoneResolver {
    let fallback: TimeZone
    var custom: [String: VTimeZone] = [:]
    /// The calendar's own default zone (X-WR-TIMEZONE), when it is an IANA name.
    var calendarZone: TimeZone?
    private(set) var unknownTZIDs: Set<String> = []

    static let windowsNames: [String: String] = [
        "eastern standard time": "America/New_York", "central standard time": "America/Chicago",
        "mountain standard time": "America/Denver", "us mountain standard time": "America/Phoenix",
        "pacific standard time": "America/Los_Angeles", "alaskan standard time": "America/Anchorage",
        "hawaiian standard time": "Pacific/Honolulu", "atlantic standard time": "America/Halifax", "utc": "UTC",
    ]

    init(fallback: TimeZone, calendars: [ICSComponent]) {
        self.fallback = fallback
        for calendar in calendars {
            if let name = calendar.first("X-WR-TIMEZONE")?.value, let zone = TimeZone(identifier: name) { calendarZone = zone }
            for child in calendar.children where child.name == "VTIMEZONE" {
                if let id = child.first("TZID")?.value, custom[id] == nil, let zone = VTimeZone(child) { custom[id] = zone }
            }
        }
    }

    /// The IANA zone for a TZID, if one is known.
    static func ianaZone(_ tzid: String) -> TimeZone? {
        var id = tzid.trimmingCharacters(in: .whitespaces)
        if id.hasPrefix("/") { id = String(id.drop { $0 == "/" }) }  // "/mozilla.org/.../America/New_York" style
        if let zone = TimeZone(identifier: id) { return zone }
        if let mapped = windowsNames[id.lowercased()] { return TimeZone(identifier: mapped) }
        // Prefixed ids like "/citadel.org/20190914_1/America/New_York".
        let parts = id.split(separator: "/")
        if parts.count >= 2, let zone = TimeZone(identifier: parts.suffix(2).joined(separator: "/")) { return zone }
        return nil
    }

    /// The zone an event is shown in (an IANA name for the model).
    func displayZone(_ value: ICSDateTime) -> TimeZone {
        if case .named(let tzid) = value.zone, let zone = ZoneResolver.ianaZone(tzid) { return zone }
        return calendarZone ?? fallback
    }

    /// The instant of a date-time (all-day dates: local midnight in `allDayZone`).
    mutating func instant(_ value: ICSDateTime, allDayZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        if value.isDate {
            calendar.timeZone = allDayZone
            return calendar.date(from: value.components)
        }
        switch value.zone {
        case .utc:
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? fallback
        case .floating:
            calendar.timeZone = calendarZone ?? fallback
        case .named(let tzid):
            if let zone = ZoneResolver.ianaZone(tzid) {
                calendar.timeZone = zone
            } else if let vtz = custom[tzid] {
                let offset = vtz.offset(at: value.components)
                calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? fallback
                return calendar.date(from: value.components).map { $0.addingTimeInterval(TimeInterval(-offset)) }
            } else {
                unknownTZIDs.insert(tzid)
                calendar.timeZone = fallback
            }
        }
        return calendar.date(from: value.components)
    }
}
