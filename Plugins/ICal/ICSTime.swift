import Foundation

/// A DATE or DATE-TIME value as written: local fields plus how to place them in time.
struct ICSDateTime {
    enum Zone {
        case utc
        case named(String)
        case floating
    }

    var year: Int, month: Int, day: Int
    var hour: Int, minute: Int, second: Int
    var isDate: Bool
    var zone: Zone

    /// Parses `20260909`, `20260909T180000`, `20260909T220000Z`; TZID from the parameters.
    init?(_ property: ICSProperty) {
        self.init(property.value, tzid: property.parameters["TZID"], valueType: property.parameters["VALUE"])
    }

    init?(_ raw: String, tzid: String?, valueType: String?) {
        let value = raw.trimmingCharacters(in: .whitespaces)
        let digits = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var n = 0
            for b in digits[range] {
                guard b >= 48 && b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8), (1...12).contains(m), (1...31).contains(d) else { return nil }
        (year, month, day) = (y, m, d)
        if digits.count == 8 || valueType?.uppercased() == "DATE" {
            (hour, minute, second, isDate, zone) = (0, 0, 0, true, .floating)
            return
        }
        guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let h = number(9..<11), let mi = number(11..<13), let s = number(13..<15),
            (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s)
        else { return nil }
        (hour, minute, second, isDate) = (h, mi, min(s, 59), false)
        if digits.count >= 16 && digits[15] == UInt8(ascii: "Z") {
            zone = .utc
        } else if let tzid, !tzid.isEmpty {
            zone = .named(tzid)
        } else {
            zone = .floating
        }
    }

    var components: DateComponents { DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second) }
}

/// A duration (`P1D`, `PT1H30M`, `-PT15M`, `P2W`), in seconds and whole days.
struct ICSDuration {
    /// The longest duration read (about 274 years); a longer one is refused.
    static let maxDays = 100_000
    var days = 0
    var seconds = 0

    init?(_ text: String) {
        var t = text.trimmingCharacters(in: .whitespaces).uppercased()
        var sign = 1
        if t.hasPrefix("-") { sign = -1; t.removeFirst() } else if t.hasPrefix("+") { t.removeFirst() }
        guard t.hasPrefix("P") else { return nil }
        t.removeFirst()
        var number = ""
        var inTime = false
        var any = false
        for c in t {
            if c.isNumber { number.append(c); continue }
            if c == "T" { inTime = true; continue }
            // Checked: a duration from a feed is input, never a trap. Limits: 100,000 days.
            guard let n = Int(number), n <= ICSDuration.maxDays * 86_400 else { return nil }
            number = ""
            any = true
            switch (c, inTime) {
            case ("W", false): days += 7 * n
            case ("D", false): days += n
            case ("H", true): seconds += 3600 * n
            case ("M", true): seconds += 60 * n
            case ("S", true): seconds += n
            default: return nil
            }
            guard days <= ICSDuration.maxDays, seconds <= ICSDuration.maxDays * 86_400 else { return nil }
        }
        guard any, number.isEmpty else { return nil }
        days *= sign
        seconds *= sign
    }
}
