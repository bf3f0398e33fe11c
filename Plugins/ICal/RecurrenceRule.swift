import Foundation

/// An RRULE (RFC 5545 §3.3.10), the common subset real school calendars use: FREQ
/// (DAILY/WEEKLY/MONTHLY/YEARLY), INTERVAL, COUNT, UNTIL, BYDAY (with ordinals for monthly and
/// yearly), BYMONTHDAY, BYMONTH. Expanded in local wall-clock time, so 6 PM stays 6 PM across
/// daylight-saving changes.
/// Why a rule is not expanded.
struct RuleError: Error {
    var reason: String
}

struct RecurrenceRule {
    enum Frequency: String { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: ICSDateTime?
    var byDay: [(ordinal: Int?, weekday: Int)] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []

    /// Parses a rule; nil (with the reason) when it uses what this importer does not expand.
    static func parse(_ text: String) -> Result<RecurrenceRule, RuleError> {
        let p = parts(text)
        guard let freqText = p["FREQ"], let frequency = Frequency(rawValue: freqText) else {
            return .failure(RuleError(reason: "RRULE FREQ=\(p["FREQ"] ?? "?") is not expanded (DAILY, WEEKLY, MONTHLY and YEARLY are)"))
        }
        var rule = RecurrenceRule(frequency: frequency)
        if let i = p["INTERVAL"] {
            guard let n = Int(i), (1...maxInterval).contains(n) else {
                return .failure(RuleError(reason: "RRULE INTERVAL=\(i.prefix(40)) is not a number from 1 to \(maxInterval)"))
            }
            rule.interval = n
        }
        if let c = p["COUNT"] {
            guard let n = Int(c), n > 0 else { return .failure(RuleError(reason: "RRULE COUNT=\(c.prefix(40)) is not a positive number")) }
            rule.count = n
        }
        if let u = p["UNTIL"] { guard let until = ICSDateTime(u, tzid: nil, valueType: nil) else { return .failure(RuleError(reason: "RRULE UNTIL=\(u) is not a date")) }; rule.until = until }
        if let days = p["BYDAY"] {
            for day in days.split(separator: ",") {
                guard let parsed = weekday(String(day)) else { return .failure(RuleError(reason: "RRULE BYDAY=\(days) is not understood")) }
                rule.byDay.append(parsed)
            }
        }
        if let days = p["BYMONTHDAY"] {
            for day in days.split(separator: ",") {
                guard let n = Int(day), n != 0, (-31...31).contains(n) else {
                    return .failure(RuleError(reason: "RRULE BYMONTHDAY=\(days.prefix(40)) is not a list of days from -31 to 31"))
                }
                rule.byMonthDay.append(n)
            }
        }
        if let months = p["BYMONTH"] {
            for month in months.split(separator: ",") {
                guard let n = Int(month), (1...12).contains(n) else {
                    return .failure(RuleError(reason: "RRULE BYMONTH=\(months.prefix(40)) is not a list of months from 1 to 12"))
                }
                rule.byMonth.append(n)
            }
        }
        for unsupported in ["BYSETPOS", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND"] where p[unsupported] != nil {
            return .failure(RuleError(reason: "RRULE \(unsupported) is not expanded"))
        }
        return .success(rule)
    }

    static func parts(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { result[pair[0].uppercased()] = String(pair[1]).uppercased() }
        }
        return result
    }

    /// The largest INTERVAL expanded: beyond it the second occurrence is centuries away.
    static let maxInterval = 1_000

    static let weekdays = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]

    /// `2TU` → (2, Tuesday); `-1SU` → (-1, Sunday); `FR` → (nil, Friday). Weekdays as Calendar's 1 = Sunday.
    static func weekday(_ text: String) -> (ordinal: Int?, weekday: Int)? {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard t.count >= 2, let day = weekdays[String(t.suffix(2))] else { return nil }
        let prefix = t.dropLast(2)
        if prefix.isEmpty { return (nil, day) }
        // RFC 5545: ordinals run from 1 to 53 (weeks of a year), either way.
        guard let n = Int(prefix), n != 0, (-53...53).contains(n) else { return nil }
        return (n, day)
    }

    /// The day of the month of the nth (or nth-from-last, when negative) weekday.
    static func nthWeekday(ordinal: Int, weekday: Int, year: Int, month: Int, calendar: Calendar) -> Int? {
        guard (1...12).contains(month), (-53...53).contains(ordinal), ordinal != 0,
            let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let range = calendar.range(of: .day, in: .month, for: first)
        else { return nil }
        let days = range.filter { day in
            guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return false }
            return calendar.component(.weekday, from: date) == weekday
        }
        if ordinal > 0 { return ordinal <= days.count ? days[ordinal - 1] : nil }
        return -ordinal <= days.count ? days[days.count + ordinal] : nil
    }

    /// Local start components of each occurrence from `start`, in order, until `limit` is passed
    /// (local components compared through `toDate`), COUNT or UNTIL is reached.
    func occurrences(from start: DateComponents, calendar: Calendar, limit: Date, toDate: (DateComponents) -> Date?, untilDate: Date?) -> [DateComponents] {
        var result: [DateComponents] = []
        guard let startDate = calendar.date(from: start), let startYear = start.year, let startMonth = start.month, let startDay = start.day else { return [] }
        var produced = 0
        var period = 0
        let startWeekday = calendar.component(.weekday, from: startDate)
        func emit(_ day: DateComponents) -> Bool {  // false: stop
            var c = day
            c.hour = start.hour
            c.minute = start.minute
            c.second = start.second
            guard let local = calendar.date(from: c), local >= startDate else { return true }
            if !byMonth.isEmpty, let m = c.month, !byMonth.contains(m), frequency != .yearly { return true }
            guard let instant = toDate(c) else { return true }
            if let untilDate, instant > untilDate { return false }
            if let count, produced >= count { return false }
            if instant > limit { return false }
            produced += 1
            result.append(c)
            return true
        }
        while period < 10_000 {
            var days: [DateComponents] = []
            switch frequency {
            case .daily:
                guard let step = RecurrenceRule.product(period, interval),
                    let date = calendar.date(byAdding: .day, value: step, to: startDate)
                else { return result }
                days = [calendar.dateComponents([.year, .month, .day], from: date)]
            case .weekly:
                guard let step = RecurrenceRule.product(period, interval, 7),
                    let weekStart = calendar.date(byAdding: .day, value: step - (startWeekday - 1), to: calendar.startOfDay(for: startDate))
                else { return result }
                let wanted = byDay.isEmpty ? [startWeekday] : byDay.map(\.weekday).sorted()
                days = wanted.compactMap { calendar.date(byAdding: .day, value: $0 - 1, to: weekStart).map { calendar.dateComponents([.year, .month, .day], from: $0) } }
            case .monthly:
                guard let step = RecurrenceRule.product(period, interval) else { return result }
                let total = (startMonth - 1) + step
                let (y, m) = (startYear + total / 12, total % 12 + 1)
                guard y <= 9999 else { return result }
                days = monthDays(year: y, month: m, defaultDay: startDay, calendar: calendar)
            case .yearly:
                guard let step = RecurrenceRule.product(period, interval), startYear + step <= 9999 else { return result }
                let y = startYear + step
                for m in (byMonth.isEmpty ? [startMonth] : byMonth) {
                    days += monthDays(year: y, month: m, defaultDay: startDay, calendar: calendar)
                }
            }
            for day in days.sorted(by: { ($0.year ?? 0, $0.month ?? 0, $0.day ?? 0) < ($1.year ?? 0, $1.month ?? 0, $1.day ?? 0) }) {
                if !emit(day) { return result }
            }
            period += 1
            // Past the limit: stop (periods only move forward in time).
            if let probe = days.first.flatMap({ calendar.date(from: $0) }), probe > limit.addingTimeInterval(86_400 * 32) { return result }
        }
        return result
    }

    /// The product of small counts, or nil when it would leave a sane range (no trap on overflow).
    static func product(_ values: Int...) -> Int? {
        var result = 1
        for value in values {
            let (next, overflow) = result.multipliedReportingOverflow(by: value)
            guard !overflow, abs(next) <= 10_000_000 else { return nil }
            result = next
        }
        return result
    }

    private func monthDays(year: Int, month: Int, defaultDay: Int, calendar: Calendar) -> [DateComponents] {
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)), let range = calendar.range(of: .day, in: .month, for: first) else { return [] }
        var days: [Int] = []
        if !byMonthDay.isEmpty {
            days = byMonthDay.map { $0 > 0 ? $0 : range.count + 1 + $0 }.filter { range.contains($0) }
        } else if !byDay.isEmpty {
            for (ordinal, weekday) in byDay {
                if let ordinal {
                    if let d = RecurrenceRule.nthWeekday(ordinal: ordinal, weekday: weekday, year: year, month: month, calendar: calendar) { days.append(d) }
                } else {
                    for d in range {
                        if let date = calendar.date(from: DateComponents(year: year, month: month, day: d)), calendar.component(.weekday, from: date) == weekday { days.append(d) }
                    }
                }
            }
        } else if range.contains(defaultDay) {
            days = [defaultDay]
        }
        return Set(days).sorted().map { DateComponents(year: year, month: month, day: $0) }
    }
}
