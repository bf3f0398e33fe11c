import Foundation

/// Why a rule is not expanded.
struct RuleError: Error {
    var reason: String
}

/// An RRULE (RFC 5545 §3.3.10) with FREQ DAILY, WEEKLY, MONTHLY or YEARLY and every BY part
/// that works on days: INTERVAL, COUNT, UNTIL, WKST, BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY,
/// BYDAY (ordinals within the month or the year) and BYSETPOS.
///
/// BYHOUR, BYMINUTE and BYSECOND (several occurrences a day) and the sub-daily frequencies are
/// refused with a reason.
///
/// Expanded on civil dates (days since 1970, proleptic Gregorian) in local wall-clock time, so
/// 6 PM stays 6 PM across daylight-saving changes: each period (a year, a month, a week from
/// WKST, a day) gives its candidate days, the BY parts filter them, BYSETPOS picks among what
/// is left, as RFC 5545 and python-dateutil do.
struct RecurrenceRule {
    enum Frequency: String { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: ICSDateTime?
    /// Weekdays as Calendar's 1 = Sunday … 7 = Saturday.
    var byDay: [(ordinal: Int?, weekday: Int)] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var byYearDay: [Int] = []
    var byWeekNo: [Int] = []
    var bySetPos: [Int] = []
    /// The first day of a week, as Calendar's weekday (default Monday).
    var weekStart = 2

    /// Parses a rule; the reason when it uses what this importer does not expand.
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
        if let u = p["UNTIL"] {
            guard let until = ICSDateTime(u, tzid: nil, valueType: nil) else {
                return .failure(RuleError(reason: "RRULE UNTIL=\(u.prefix(40)) is not a date"))
            };
            rule.until = until
        }
        if let days = p["BYDAY"] {
            for day in days.split(separator: ",") {
                guard let parsed = weekday(String(day)) else { return .failure(RuleError(reason: "RRULE BYDAY=\(days.prefix(40)) is not understood")) }
                rule.byDay.append(parsed)
            }
        }
        if let w = p["WKST"] {
            guard let day = weekdays[w] else { return .failure(RuleError(reason: "RRULE WKST=\(w.prefix(10)) is not a weekday (MO, TU, …)")) }
            rule.weekStart = day
        }
        func numbers(_ name: String, _ range: ClosedRange<Int>) -> Result<[Int], RuleError> {
            guard let text = p[name] else { return .success([]) }
            var out: [Int] = []
            for part in text.split(separator: ",") {
                guard let n = Int(part), n != 0 || range.lowerBound > 0, range.contains(n) else {
                    return .failure(
                        RuleError(reason: "RRULE \(name)=\(text.prefix(40)) is not a list of numbers from \(range.lowerBound) to \(range.upperBound)"))
                }
                out.append(n)
            }
            return .success(out)
        }
        switch (
            numbers("BYMONTHDAY", -31...31), numbers("BYMONTH", 1...12), numbers("BYYEARDAY", -366...366), numbers("BYWEEKNO", -53...53),
            numbers("BYSETPOS", -366...366)
        ) {
        case (.success(let monthDays), .success(let months), .success(let yearDays), .success(let weeks), .success(let positions)):
            (rule.byMonthDay, rule.byMonth, rule.byYearDay, rule.byWeekNo, rule.bySetPos) = (monthDays, months, yearDays, weeks, positions)
        case (.failure(let e), _, _, _, _), (_, .failure(let e), _, _, _), (_, _, .failure(let e), _, _), (_, _, _, .failure(let e), _),
            (_, _, _, _, .failure(let e)):
            return .failure(e)
        }
        for unsupported in ["BYHOUR", "BYMINUTE", "BYSECOND"] where p[unsupported] != nil {
            return .failure(RuleError(reason: "RRULE \(unsupported) (several occurrences a day) is not expanded"))
        }
        if !rule.byWeekNo.isEmpty && rule.frequency != .yearly {
            return .failure(RuleError(reason: "RRULE BYWEEKNO is only valid with FREQ=YEARLY"))
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

    /// `2TU` → (2, Tuesday); `-1SU` → (-1, Sunday); `FR` → (nil, Friday).
    ///
    /// Weekdays as Calendar's 1 = Sunday.
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
        guard let year = start.year, let month = start.month, let day = start.day, (1...9999).contains(year) else { return [] }
        var result: [DateComponents] = []
        var produced = 0
        var stopped = false
        // The last day that can hold an occurrence before `limit` (a day of margin for zones).
        let end = calendar.dateComponents([.year, .month, .day], from: limit)
        let lastDay = CivilDay.days(end.year ?? 9999, end.month ?? 12, end.day ?? 31) + 1
        expandDays(startDay: CivilDay.days(year, month, day), lastDay: lastDay) { civil in
            let (y, m, d) = CivilDay.civil(civil)
            let c = DateComponents(year: y, month: m, day: d, hour: start.hour, minute: start.minute, second: start.second)
            guard let instant = toDate(c) else { return true }
            if let untilDate, instant > untilDate { stopped = true; return false }
            if let count, produced >= count { stopped = true; return false }
            if instant > limit { return false }
            produced += 1
            result.append(c)
            return true
        }
        _ = stopped
        return result
    }

    /// Calls `emit` with each occurrence's day (days since 1970-01-01) from `startDay` on, in
    /// order, until it returns false, the periods pass `lastDay` or year 9999, or 10,000
    /// periods in a row gave nothing (a rule that can never match).
    func expandDays(startDay: Int, lastDay: Int = Int.max, emit: (Int) -> Bool) {
        let choice = DayChoice(rule: self, startDay: startDay)
        var empty = 0
        for period in 0..<1_000_000 {
            guard let step = RecurrenceRule.product(period, interval), let candidates = days(ofPeriod: period, step: step, startDay: startDay) else { return }
            if candidates.lowerBound > lastDay { return }
            var days = candidates.filter(choice.keeps)
            if !bySetPos.isEmpty {
                let picked = bySetPos.compactMap { position -> Int? in
                    let index = position > 0 ? position - 1 : days.count + position
                    return days.indices.contains(index) ? days[index] : nil
                }
                days = Set(picked).sorted()
            }
            empty = days.isEmpty ? empty + 1 : 0
            if empty > 10_000 { return }
            for day in days where day >= startDay {
                if !emit(day) { return }
            }
        }
    }

    /// The days of one period of the rule (a year, month, week or day, `step` frequencies after
    /// the start's); nil past the year 9999 or on overflow.
    func days(ofPeriod period: Int, step: Int, startDay: Int) -> ClosedRange<Int>? {
        let (startYear, startMonth, _) = CivilDay.civil(startDay)
        switch frequency {
        case .yearly:
            let y = startYear + step
            guard y <= 9999 else { return nil }
            return CivilDay.days(y, 1, 1)...CivilDay.days(y, 12, 31)
        case .monthly:
            let total = (startMonth - 1) + step
            let (y, m) = (startYear + total / 12, total % 12 + 1)
            guard y <= 9999 else { return nil }
            return CivilDay.days(y, m, 1)...CivilDay.days(y, m, CivilDay.monthLength(y, m))
        case .weekly:
            guard let weeks = RecurrenceRule.product(step, 7) else { return nil }
            let weekOffset = (CivilDay.weekday(startDay) - weekStart + 7) % 7
            let first = startDay - weekOffset + weeks
            guard first < CivilDay.days(9999, 12, 25) else { return nil }
            // The first week's set starts at DTSTART (as python-dateutil has it): BYSETPOS
            // counts only the days from the start on.
            return (period == 0 ? startDay : first)...(first + 6)
        case .daily:
            guard startDay + step < CivilDay.days(9999, 12, 31) else { return nil }
            return (startDay + step)...(startDay + step)
        }
    }

    /// Which days of a period a rule keeps: its BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and
    /// BYDAY parts, or, without any day-choosing part, the start's own day, weekday or month
    /// and day.
    struct DayChoice {
        var rule: RecurrenceRule
        var byMonth: [Int], byMonthDay: [Int]
        var byDay: [(ordinal: Int?, weekday: Int)]
        /// Ordinals count within the month (MONTHLY, or YEARLY with BYMONTH) or the year; for
        /// WEEKLY and DAILY they are plain weekdays.
        var ordinalsInMonth: Bool
        var plainDays: Set<Int>
        var ordinalDays: [(ordinal: Int?, weekday: Int)]

        init(rule: RecurrenceRule, startDay: Int) {
            self.rule = rule
            let (_, startMonth, startDate) = CivilDay.civil(startDay)
            (byMonth, byMonthDay, byDay) = (rule.byMonth, rule.byMonthDay, rule.byDay)
            if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && byMonthDay.isEmpty && byDay.isEmpty {
                switch rule.frequency {
                case .yearly:
                    if byMonth.isEmpty { byMonth = [startMonth] }
                    byMonthDay = [startDate]
                case .monthly: byMonthDay = [startDate]
                case .weekly: byDay = [(nil, CivilDay.weekday(startDay))]
                case .daily: break
                }
            }
            let frequency = rule.frequency
            ordinalsInMonth = frequency == .monthly || (frequency == .yearly && !byMonth.isEmpty)
            plainDays = Set(byDay.filter { $0.ordinal == nil || frequency == .weekly || frequency == .daily }.map(\.weekday))
            ordinalDays = frequency == .weekly || frequency == .daily ? [] : byDay.filter { $0.ordinal != nil }
        }

        func keeps(_ day: Int) -> Bool {
            let (y, m, d) = CivilDay.civil(day)
            if !byMonth.isEmpty && !byMonth.contains(m) { return false }
            if !rule.byWeekNo.isEmpty && !rule.byWeekNo.contains(where: { CivilDay.inWeek($0, day: day, weekStart: rule.weekStart) }) { return false }
            if !rule.byYearDay.isEmpty {
                let ordinal = day - CivilDay.days(y, 1, 1) + 1
                let length = CivilDay.isLeap(y) ? 366 : 365
                if !rule.byYearDay.contains(where: { $0 > 0 ? $0 == ordinal : length + $0 + 1 == ordinal }) { return false }
            }
            if !byMonthDay.isEmpty {
                let length = CivilDay.monthLength(y, m)
                if !byMonthDay.contains(where: { $0 > 0 ? $0 == d : length + $0 + 1 == d }) { return false }
            }
            return byDay.isEmpty || keepsWeekday(day, year: y, month: m)
        }

        /// Whether BYDAY keeps the day: a plain weekday, or the nth (from the end: -n) of its
        /// month or year.
        func keepsWeekday(_ day: Int, year y: Int, month m: Int) -> Bool {
            let weekday = CivilDay.weekday(day)
            if plainDays.contains(weekday) { return true }
            let (first, last) =
                ordinalsInMonth
                ? (CivilDay.days(y, m, 1), CivilDay.days(y, m, CivilDay.monthLength(y, m))) : (CivilDay.days(y, 1, 1), CivilDay.days(y, 12, 31))
            return ordinalDays.contains { entry in
                guard entry.weekday == weekday, let n = entry.ordinal else { return false }
                return n > 0 ? (day - first) / 7 + 1 == n : (last - day) / 7 + 1 == -n
            }
        }
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
}

/// Civil (proleptic Gregorian) dates as days since 1970-01-01, without Calendar: the
/// arithmetic of Howard Hinnant's `days_from_civil`.
enum CivilDay {
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Calendar's weekday: 1 = Sunday … 7 = Saturday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int) -> Int { ((days + 4) % 7 + 7) % 7 + 1 }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func monthLength(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The first day of week 1 of `year`: the week (from `weekStart`) holding at least four
    /// days of January (RFC 5545 BYWEEKNO, ISO 8601 when the week starts on Monday).
    static func firstWeek(_ year: Int, weekStart: Int) -> Int {
        let january1 = days(year, 1, 1)
        let offset = (weekday(january1) - weekStart + 7) % 7
        return offset <= 3 ? january1 - offset : january1 + 7 - offset
    }

    /// Whether `day` is in week `number` (negative: from the end) of its week-numbering year.
    static func inWeek(_ number: Int, day: Int, weekStart: Int) -> Bool {
        let (year, _, _) = civil(day)
        var weekYear = year
        if day >= firstWeek(year + 1, weekStart: weekStart) {
            weekYear = year + 1
        } else if day < firstWeek(year, weekStart: weekStart) {
            weekYear = year - 1
        }
        let first = firstWeek(weekYear, weekStart: weekStart)
        let week = (day - first) / 7 + 1
        let weeks = (firstWeek(weekYear + 1, weekStart: weekStart) - first) / 7
        return number > 0 ? week == number : weeks + number + 1 == week
    }
}
