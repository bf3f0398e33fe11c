import Foundation

/// A date (and maybe a time) read from page text.
public struct ParsedDate: Equatable, Sendable {
    /// The instant: local midnight in the source's zone when there was no time.
    public var date: Date
    /// Whether the text gave a time of day.
    public var hasTime: Bool
    /// Whether the text gave a year (otherwise it came from a year hint, or was guessed).
    public var hadYear: Bool
    /// Whether the year was guessed: the text gave none and no hint said it (the year that
    /// puts the date nearest the reference date was taken).
    public var yearGuessed = false
    /// What was read as digits that the text wrote with letters ("l4" read as 14, "2O" as 20,
    /// a scan's or a typist's slip): shown to the reviewer, never silently taken.
    public var misread: String?
}

/// Where a page says which year its yearless dates are in: a heading's "2022", or a range
/// like "October 2022 – January 2023" (a school year's calendar).
public struct YearHint: Sendable, Equatable {
    public var startYear: Int
    public var startMonth: Int
    public var endYear: Int
    public var endMonth: Int

    public init(year: Int) {
        (startYear, startMonth, endYear, endMonth) = (year, 1, year, 12)
    }

    public init(startYear: Int, startMonth: Int, endYear: Int, endMonth: Int) {
        (self.startYear, self.startMonth, self.endYear, self.endMonth) = (startYear, startMonth, endYear, endMonth)
    }

    /// The hint in a text, or nil when it names no year (1900–2199).
    public static func read(_ text: String) -> YearHint? {
        let tokens = DateParser.tokens(expandingShortYears(String(text.prefix(300))).lowercased())
        var found: [(year: Int, month: Int?)] = []
        for (index, token) in tokens.enumerated() where token.text.count == 4 {
            guard let year = Int(token.text), (1900...2199).contains(year) else { continue }
            // The month named just before the year ("October 2022"), if any.
            let month = index > 0 ? DateParser.month(tokens[index - 1].text) : nil
            found.append((year, month))
        }
        guard let first = found.first, let last = found.last else { return nil }
        if found.count == 1 { return YearHint(year: first.year) }
        // "2025–2026" with no months is a school year: July to December in the first, January
        // to June in the second.
        if last.year == first.year + 1, first.month == nil, last.month == nil {
            return YearHint(startYear: first.year, startMonth: 7, endYear: last.year, endMonth: 6)
        }
        return YearHint(startYear: first.year, startMonth: first.month ?? 1, endYear: last.year, endMonth: last.month ?? 12)
    }

    static let shortYearPattern = try? NSRegularExpression(pattern: #"(?<!\d)(\d{4})(\s*[-–—/]\s*)(\d{2})(?!\d)"#)

    /// `text` with a school year written short ("2025–26", "2025-26") written whole ("2025–2026"),
    /// when the short year is the next one; any other pair of numbers is left as it is.
    static func expandingShortYears(_ text: String) -> String {
        guard let pattern = shortYearPattern, text.utf8.count >= 7 else { return text }
        let ns = text as NSString
        var out = text
        for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).reversed() {
            guard let year = Int(ns.substring(with: match.range(at: 1))), let short = Int(ns.substring(with: match.range(at: 3))),
                (1900...2199).contains(year), short == (year + 1) % 100,
                let range = Range(match.range(at: 3), in: out)
            else { continue }
            out.replaceSubrange(range, with: String(year + 1))
        }
        return out
    }

    /// The year a month falls in: in a range across a new year, months from the start month on
    /// are in the first year, the others in the last.
    public func year(forMonth month: Int) -> Int {
        if startYear == endYear || month >= startMonth { return startYear }
        return month <= endMonth ? endYear : startYear
    }

    /// The years it names, as people write them ("2022–2023").
    public var description: String { startYear == endYear ? String(startYear) : "\(startYear)–\(endYear)" }
}

/// Reads dates in the forms real school pages use, in the source's time zone.
///
/// Understood: ISO 8601 with or without offset or time (`2026-09-11T17:11:00-04:00`,
/// `2026-09-18T14:00-04:00`, `2026-09-10`); month names (`September 14, 2026`, `Sept. 14`,
/// `14 Sep 2026`, `Monday, September 14, 2026 at 6:00 PM`); numeric US dates (`2/18/26 (Wed.)`,
/// `02-10-22 - 5 p.m.`, `9/14/2026`); times (`10:30am`, `5 p.m.`, `17:00`, `noon`); JavaScript's
/// `Wed Nov 05 2025 13:18:53 GMT-0500 (Eastern Standard Time)`; US zone abbreviations (EST, CDT...).
/// A date without a year takes the year that puts it nearest the reference date (the page's date
/// or the run's date).
public struct DateParser: Sendable {
    public var timeZone: TimeZone
    public var reference: Date

    public init(timeZone: TimeZone, reference: Date = Date()) {
        self.timeZone = timeZone
        self.reference = reference
    }

    static let isoPattern = try? NSRegularExpression(
        pattern: #"^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?"#)
    static let timePattern = try? NSRegularExpression(
        pattern: #"(?<![\d/.:-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?)?(?![\d/])"#, options: [.caseInsensitive])
    static let offsetPattern = try? NSRegularExpression(
        pattern:
            #"(?:\b(?:gmt|utc)\s*|(?<=\d\d:\d\d:\d\d\s)|(?<=\d\d:\d\d\s))([+-])(\d{2}):?(\d{2})\b"#
            + #"|\b(est|edt|cst|cdt|mst|mdt|pst|pdt|akst|akdt|hst|gmt|utc|ut|z)\b"#,
        options: [.caseInsensitive])
    static let numericPattern = try? NSRegularExpression(
        pattern: #"(?<!\d)(\d{1,4})([/.-])(\d{1,2})(?:\2(\d{2,4}))?(?!\d)"#)

    /// Whether lowercased `text` holds something `offsetPattern` could match (a sign, or a
    /// zone's letters): most dates hold neither, and the pattern is the costlier test.
    static func mayHoldZone(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.contains(UInt8(ascii: "+")) || bytes.contains(UInt8(ascii: "-")) || bytes.contains(UInt8(ascii: "z")) { return true }
        let words: [[UInt8]] = ["gmt", "ut", "st", "dt"].map { Array($0.utf8) }
        return words.contains { word in
            bytes.count >= word.count && (0...(bytes.count - word.count)).contains { bytes[$0..<($0 + word.count)].elementsEqual(word) }
        }
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    static let zoneOffsets: [String: Int] = [
        "gmt": 0, "utc": 0, "ut": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "akst": -9, "akdt": -8,
        "hst": -10,
    ]

    /// The longest text searched for a date.
    ///
    /// A date field holds a few words; a longer value means its selector matched a whole block, and
    /// only its start is read (which keeps a
    /// 50 KB value from costing seconds).
    public static let maxLength = 512

    /// Parses the first date in `text` (its first `maxLength` characters); nil when there is none.
    ///
    /// - Parameter hint: where the page says the year of dates that give none; without it,
    ///   such a date takes the year nearest the reference and is marked `yearGuessed`.
    public func parse(_ rawText: String, hint: YearHint? = nil) -> ParsedDate? {
        // A number typed with a letter l, I or O for a digit ("Sept l4", "Oct 2O"): read with
        // digits when that parses (as written, "2O" would be the 2nd), and say so.
        if let (fixed, words) = DateParser.digitsForLetters(rawText), var parsed = parseAsWritten(fixed, hint: hint) {
            parsed.misread = words
            return parsed
        }
        return parseAsWritten(rawText, hint: hint)
    }

    /// `text` with the letters l, I, | and O, o that stand among digits in a word read as 1 and 0
    /// ("Sept l4", "Oct 2O, 2O26"), and the words changed ("'l4' as 14"); nil when none does.
    static func digitsForLetters(_ text: String) -> (String, String)? {
        // Most dates have no lookalike beside a digit: one pass over the bytes says so.
        let bytes = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool { bytes.indices.contains(index) && (48...57).contains(bytes[index]) }
        let lookalike: Set<UInt8> = [UInt8(ascii: "l"), UInt8(ascii: "I"), UInt8(ascii: "|"), UInt8(ascii: "O"), UInt8(ascii: "o")]
        guard bytes.indices.contains(where: { lookalike.contains(bytes[$0]) && (isDigit($0 - 1) || isDigit($0 + 1)) }) else { return nil }
        var changed: [String] = []
        var out = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let core = word.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:()"))
            let lookalikes: Set<Character> = ["l", "I", "|", "O", "o"]
            guard core.count <= 4, core.contains(where: \.isNumber), core.contains(where: lookalikes.contains),
                core.allSatisfy({ $0.isNumber || lookalikes.contains($0) })
            else {
                out += word + " "
                continue
            }
            let digits = String(core.map { "lI|".contains($0) ? "1" : "Oo".contains($0) ? "0" : $0 })
            changed.append("'\(core)' as \(digits)")
            out += word.replacingOccurrences(of: core, with: digits) + " "
        }
        guard !changed.isEmpty else { return nil }
        return (String(out.dropLast()), changed.joined(separator: ", "))
    }

    /// `parse` of the text as it is written.
    func parseAsWritten(_ rawText: String, hint: YearHint?) -> ParsedDate? {
        let text = rawText.utf8.count > DateParser.maxLength ? String(rawText.prefix(DateParser.maxLength)) : rawText
        if let fields = DateParser.isoFields(text) ?? DateParser.isoFieldsByPattern(text) ?? DateParser.isoBasicFields(text) {
            return parseISO(fields)
        }
        var working = text.lowercased()
        let zone = DateParser.takeZone(from: &working) ?? timeZone
        // The date part first, then the time in what is left.
        var (year, month, day) = DateParser.takeNumericDate(from: &working)
        if month == nil { (year, month, day) = DateParser.takeWordDate(from: &working) }
        guard let month, let day, (1...12).contains(month), (1...31).contains(day) else { return nil }
        let time = DateParser.findTime(working)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func make(_ y: Int) -> Date? {
            var components = DateComponents(year: y, month: month, day: day, hour: time?.hour ?? 0, minute: time?.minute ?? 0, second: time?.second ?? 0)
            components.timeZone = zone
            guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
            return date
        }
        if let year {
            guard let date = make(year) else { return nil }
            return ParsedDate(date: date, hasTime: time != nil, hadYear: true)
        }
        if let hint {
            guard let date = make(hint.year(forMonth: month)) else { return nil }
            return ParsedDate(date: date, hasTime: time != nil, hadYear: false)
        }
        let referenceYear = calendar.component(.year, from: reference)
        let candidates = [referenceYear - 1, referenceYear, referenceYear + 1].compactMap(make)
        guard let best = candidates.min(by: { abs($0.timeIntervalSince(reference)) < abs($1.timeIntervalSince(reference)) }) else { return nil }
        return ParsedDate(date: best, hasTime: time != nil, hadYear: false, yearGuessed: true)
    }

    /// The zone an offset or abbreviation in lowercased `working` names ("gmt-0500", "edt"),
    /// taken out of the text with a trailing "(Eastern Standard Time)"; nil when there is none.
    static func takeZone(from working: inout String) -> TimeZone? {
        guard mayHoldZone(working), let match = offsetPattern?.firstMatch(in: working, range: NSRange(location: 0, length: (working as NSString).length))
        else { return nil }
        let w = working as NSString
        var zone: TimeZone?
        if match.range(at: 1).location != NSNotFound, let hours = Int(w.substring(with: match.range(at: 2))),
            let minutes = Int(w.substring(with: match.range(at: 3)))
        {
            let sign = w.substring(with: match.range(at: 1)) == "-" ? -1 : 1
            zone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        } else if match.range(at: 4).location != NSNotFound, let hours = zoneOffsets[w.substring(with: match.range(at: 4))] {
            zone = TimeZone(secondsFromGMT: hours * 3600)
        }
        working = w.replacingCharacters(in: match.range, with: " ")
        // Drop a trailing "(Eastern Standard Time)" so its words are not read as anything.
        if let paren = working.firstIndex(of: "("), working[paren...].contains("time") { working = String(working[..<paren]) }
        return zone
    }

    /// A numeric date in `working`, taken out of the text; nils when there is none.
    ///
    /// `2026-09-14`, `9/14/26`, `9.14.2026`: with a year or a slash (`10.30` is a time).
    static func takeNumericDate(from working: inout String) -> (year: Int?, month: Int?, day: Int?) {
        guard working.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
            let match = numericPattern?.firstMatch(in: working, range: NSRange(location: 0, length: (working as NSString).length))
        else { return (nil, nil, nil) }
        let w = working as NSString
        let a = w.substring(with: match.range(at: 1))
        let b = Int(w.substring(with: match.range(at: 3))) ?? 0
        let c = match.range(at: 4).location != NSNotFound ? w.substring(with: match.range(at: 4)) : nil
        let separator = w.substring(with: match.range(at: 2))
        var year: Int?, month: Int?, day: Int?
        // "10.30" or "5-6" are times or ranges, not dates: require a year or a slash.
        if a.count == 4, let c, let y = Int(a), let d = Int(c) {
            (year, month, day) = (y, b, d)
        } else if a.count <= 2, let m = Int(a), c != nil || separator == "/" {
            (month, day) = (m, b)
            if let c, let y = Int(c) { year = c.count == 2 ? 2000 + y : y }
        }
        if month != nil { working = w.replacingCharacters(in: match.range, with: " ") }
        return (year, month, day)
    }

    /// A date with a month's name in `working` (`sept. 14`, `14 sep 2026`, `monday, september
    /// 14`), taken out of the text; nils when there is none.
    static func takeWordDate(from working: inout String) -> (year: Int?, month: Int?, day: Int?) {
        let tokens = tokens(working)
        for (index, token) in tokens.enumerated() where token.isWord {
            guard let month = month(token.text) else { continue }
            var year: Int?, day: Int?
            // Day: a number right after the month name, else right before it.
            if index + 1 < tokens.count, let d = tokens[index + 1].dayNumber {
                day = d
                if index + 2 < tokens.count, let y = tokens[index + 2].yearNumber { year = y }
            } else if index > 0, let d = tokens[index - 1].dayNumber {
                day = d
                if index + 1 < tokens.count, let y = tokens[index + 1].yearNumber { year = y }
            }
            guard let day else { continue }
            if year == nil, let y = tokens.first(where: { $0.yearNumber != nil && $0.text.count == 4 })?.yearNumber { year = y }
            // Remove the date tokens from the text before looking for a time.
            var pieces = working
            for t in tokens where t.text.count == 4 && t.yearNumber == year {
                pieces = String(decoding: replacingAll(Array(t.text.utf8), in: Array(pieces.utf8)), as: UTF8.self)
            }
            working = removeDay(pieces, month: token.text, day: day)
            return (year, month, day)
        }
        return (nil, nil, nil)
    }

    /// A time of day in `text` (`5:30 PM`, `17:00`, `noon`), as hour, minute, second.
    public static func findTime(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        let lower = text.lowercased()
        if lower.contains("noon") { return (12, 0, 0) }
        if lower.contains("midnight") { return (0, 0, 0) }
        // A time has minutes (a colon) or a meridian (a.m., pm: an "m"); without either, the
        // pattern cannot match, and most dates in words have neither.
        guard lower.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "m") }) else { return nil }
        let ns = lower as NSString
        for match in timePattern?.matches(in: lower, range: NSRange(location: 0, length: ns.length)) ?? [] {
            let hasMinutes = match.range(at: 2).location != NSNotFound
            let meridian = match.range(at: 4).location != NSNotFound ? ns.substring(with: match.range(at: 4)).filter(\.isLetter) : nil
            guard hasMinutes || meridian != nil, var hour = Int(ns.substring(with: match.range(at: 1))) else { continue }
            let minute = hasMinutes ? Int(ns.substring(with: match.range(at: 2))) ?? 0 : 0
            let second = match.range(at: 3).location != NSNotFound ? Int(ns.substring(with: match.range(at: 3))) ?? 0 : 0
            if let meridian {
                guard (1...12).contains(hour) else { continue }
                if meridian.hasPrefix("p") && hour < 12 { hour += 12 }
                if meridian.hasPrefix("a") && hour == 12 { hour = 0 }
            }
            guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { continue }
            return (hour, minute, second)
        }
        return nil
    }

    /// Applies a time of day (`6:00 PM`) to the local day of `day`, in this parser's zone.
    public func time(_ text: String, on day: Date) -> Date? {
        if let full = parse(text), full.hasTime, full.hadYear { return full.date }
        guard let (hour, minute, second) = DateParser.findTime(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var components = calendar.dateComponents([.year, .month, .day], from: day)
        components.hour = hour
        components.minute = minute
        components.second = second
        return calendar.date(from: components)
    }

    /// The parts of an ISO 8601 date at the start of a text, as `isoPattern` captures them.
    ///
    /// A text's bytes read by position, as the date scanners read them (out of range is no digit).
    struct ASCIIBytes {
        let b: UnsafeBufferPointer<UInt8>
        init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }
        func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 48 && b[i] <= 57 }
        func digits(_ i: Int, _ count: Int) -> Bool { (0..<count).allSatisfy { digit(i + $0) } }
        func string(_ i: Int, _ count: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[i..<(i + count)]), as: UTF8.self) }
    }

    struct ISOFields: Equatable {
        var year: String, month: String, day: String
        var hour: String?, minute: String?, second: String?, offset: String?
    }

    /// `isoPattern` by hand over ASCII, for the common case (every `time@datetime`).
    ///
    /// nil when the text does not start that way or holds anything beyond ASCII where it looks: the
    /// pattern
    /// (which knows Unicode digits and spaces) decides those.
    static func isoFields(_ text: String) -> ISOFields? {
        var text = text
        return text.withUTF8 { b -> ISOFields? in
            let n = b.count
            let r = ASCIIBytes(b)
            let (digit, digits, string) = (r.digit, r.digits, r.string)
            func isSpace(_ i: Int) -> Bool { i < n && (b[i] == 32 || (b[i] >= 9 && b[i] <= 13)) }
            var i = 0
            while isSpace(i) { i += 1 }
            guard i < n, b[i] < 0x80 else { return nil }
            guard digits(i, 4), i + 4 < n, b[i + 4] == 45, digits(i + 5, 2), i + 7 < n, b[i + 7] == 45, digits(i + 8, 2) else { return nil }
            var fields = ISOFields(year: string(i, 4), month: string(i + 5, 2), day: string(i + 8, 2))
            i += 10
            // (?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?
            guard i < n, b[i] == 84 || b[i] == 32, digits(i + 1, 2), i + 3 < n, b[i + 3] == 58, digits(i + 4, 2) else { return fields }
            fields.hour = string(i + 1, 2)
            fields.minute = string(i + 4, 2)
            i += 6
            if i < n, b[i] == 58, digits(i + 1, 2) {
                fields.second = string(i + 1, 2)
                i += 3
                if i < n, b[i] == 46, digit(i + 1) {
                    i += 1
                    while digit(i) { i += 1 }
                }
            }
            while isSpace(i) { i += 1 }
            guard i < n else { return fields }
            if b[i] >= 0x80 { return nil }  // a Unicode space may come before the offset
            if b[i] == 90 {
                fields.offset = "Z"
            } else if b[i] == 43 || b[i] == 45, digits(i + 1, 2) {
                if i + 3 < n, b[i + 3] == 58, digits(i + 4, 2) {
                    fields.offset = string(i, 6)
                } else if digits(i + 3, 2) {
                    fields.offset = string(i, 5)
                }
            }
            return fields
        }
    }

    /// ISO 8601 basic format, which the extended form's scanner and pattern leave alone:
    /// `20260417`, `20260417T1830`, `20260417T183000Z`, `20260417T183000-0600` (a year from 1900
    /// to 2200, so an ordinary eight-digit number is not taken for a date).
    static func isoBasicFields(_ text: String) -> ISOFields? {
        var text = text
        return text.withUTF8 { b -> ISOFields? in
            let n = b.count
            let r = ASCIIBytes(b)
            let (digit, digits, string) = (r.digit, r.digits, r.string)
            var i = 0
            while i < n && (b[i] == 32 || (b[i] >= 9 && b[i] <= 13)) { i += 1 }
            guard digits(i, 8), !digit(i + 8), let year = Int(string(i, 4)), (1900...2200).contains(year) else { return nil }
            var fields = ISOFields(year: string(i, 4), month: string(i + 4, 2), day: string(i + 6, 2))
            var j = i + 8
            guard j < n, b[j] == 84, digits(j + 1, 4) else { return fields }
            (fields.hour, fields.minute) = (string(j + 1, 2), string(j + 3, 2))
            j += 5
            if digits(j, 2) {
                fields.second = string(j, 2)
                j += 2
            }
            if j < n, b[j] == 90 {
                fields.offset = "Z"
            } else if j < n, b[j] == 43 || b[j] == 45, digits(j + 1, 4) {
                fields.offset = string(j, 5)
            }
            return fields
        }
    }

    /// The same parts by `isoPattern`, for what `isoFields` leaves to it.
    static func isoFieldsByPattern(_ text: String) -> ISOFields? {
        // The pattern needs the date's hyphens: most dates in words have none.
        guard text.utf8.contains(UInt8(ascii: "-")) else { return nil }
        let ns = text as NSString
        guard let match = isoPattern?.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        func group(_ i: Int) -> String? { match.range(at: i).location == NSNotFound ? nil : ns.substring(with: match.range(at: i)) }
        guard let year = group(1), let month = group(2), let day = group(3) else { return nil }
        return ISOFields(year: year, month: month, day: day, hour: group(4), minute: group(5), second: group(6), offset: group(7))
    }

    private func parseISO(_ fields: ISOFields) -> ParsedDate? {
        guard let y = Int(fields.year), let m = Int(fields.month), let d = Int(fields.day) else { return nil }
        var zone = timeZone
        if let offset = fields.offset {
            if offset == "Z" {
                zone = TimeZone(secondsFromGMT: 0) ?? zone
            } else {
                let digits = offset.dropFirst().filter(\.isNumber)
                let hours = Int(digits.prefix(2)) ?? 0, minutes = Int(digits.suffix(2)) ?? 0
                zone = TimeZone(secondsFromGMT: (offset.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60)) ?? zone
            }
        }
        let hour = fields.hour.flatMap { Int($0) }, minute = fields.minute.flatMap { Int($0) }, second = fields.second.flatMap { Int($0) }
        guard (1...12).contains(m), (1...31).contains(d), (0...23).contains(hour ?? 0), (0...59).contains(minute ?? 0), (0...60).contains(second ?? 0) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = DateComponents(year: y, month: m, day: d, hour: hour ?? 0, minute: minute ?? 0, second: second ?? 0)
        components.timeZone = zone
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == d else { return nil }
        return ParsedDate(date: date, hasTime: hour != nil, hadYear: true)
    }

    struct Token {
        var text: String
        var isWord: Bool { text.first?.isLetter ?? false }
        var dayNumber: Int? {
            var digits = text
            for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits = String(digits.dropLast(2)) }
            guard digits.count <= 2, let n = Int(digits), (1...31).contains(n) else { return nil }
            return n
        }
        var yearNumber: Int? {
            guard text.count == 4, let n = Int(text), (1900...2200).contains(n) else { return nil }
            return n
        }
    }

    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var currentIsDigit = false
        for c in text {
            let isDigit = c.isNumber, isLetter = c.isLetter
            if isDigit || isLetter {
                // "sept14" splits here; "14th" and "1sept" stay whole until the end (below).
                if !current.isEmpty && !currentIsDigit && isDigit {
                    tokens.append(Token(text: current))
                    current = ""
                }
                if current.isEmpty { currentIsDigit = isDigit }
                current.append(c)
            } else if !current.isEmpty {
                tokens.append(Token(text: current))
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(Token(text: current)) }
        // A day glued to a month name ("1sept", "3dec", "9nov") is two tokens; an ordinal
        // ("14th", "2nd") stays one.
        return tokens.flatMap { token -> [Token] in
            guard let first = token.text.first, first.isNumber, let split = token.text.firstIndex(where: { $0.isLetter }) else { return [token] }
            let letters = String(token.text[split...])
            if ["st", "nd", "rd", "th"].contains(letters) { return [token] }
            return [Token(text: String(token.text[..<split])), Token(text: letters)]
        }
    }

    static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        for (index, name) in monthNames.enumerated() where name.hasPrefix(word) || (word == "sept" && index == 8) {
            return index + 1
        }
        return nil
    }

    static func removeDay(_ text: String, month: String, day: Int) -> String {
        // Replace "month day" / "day month" so the day number is not read as an hour. Done on
        // the UTF-8 bytes: Foundation's string search cost a third of a listing's date parsing.
        var bytes = replacingAll(Array(month.utf8), in: Array(text.utf8))
        for form in ["\(day)st", "\(day)nd", "\(day)rd", "\(day)th", day < 10 ? "0\(day)" : "\(day)", "\(day)"] {
            if let at = standalone(Array(form.utf8), in: bytes) {
                bytes.replaceSubrange(at..<(at + form.utf8.count), with: [UInt8(ascii: " ")])
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `haystack` with every `needle` replaced by one space.
    static func replacingAll(_ needle: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return haystack }
        var out: [UInt8] = []
        out.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if index + needle.count <= haystack.count, haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                out.append(UInt8(ascii: " "))
                index += needle.count
            } else {
                out.append(haystack[index])
                index += 1
            }
        }
        return out
    }

    /// Where the first `form` in `text` starts with no digit or colon right before or after it
    /// (what the pattern `(?<![\d:])FORM(?![\d:])` finds), by a scan: no pattern per date.
    static func standalone(_ form: [UInt8], in text: [UInt8]) -> Int? {
        func joins(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ":") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard !form.isEmpty, text.count >= form.count else { return nil }
        for start in 0...(text.count - form.count) where text[start] == form[0] && text[start..<(start + form.count)].elementsEqual(form) {
            let before = start > 0 ? text[start - 1] : 0
            let after = start + form.count < text.count ? text[start + form.count] : 0
            if !joins(before) && !joins(after) { return start }
        }
        return nil
    }
}
