import Foundation

/// Dates as the store writes them: UTC ISO 8601 to the second (`2026-09-14T16:00:00Z`), which sorts as
/// text.
///
/// Made with `gmtime_r`, not `ISO8601DateFormatter`, whose first use loads ICU (1.5 ms).
public enum StoreDate {
    /// The date as `2026-09-14T16:00:00Z` (seconds rounded down).
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Twenty bytes written in place (string interpolation of six padded numbers cost more
        // than the row it went into).
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else {
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
        }
        return String(unsafeUninitializedCapacity: 20) { text in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var value = value
                for place in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[place] = UInt8(48 + value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            put(Int(parts.tm_mon) + 1, 2, at: 5)
            put(Int(parts.tm_mday), 2, at: 8)
            put(Int(parts.tm_hour), 2, at: 11)
            put(Int(parts.tm_min), 2, at: 14)
            put(Int(parts.tm_sec), 2, at: 17)
            (text[4], text[7], text[10], text[13], text[16], text[19]) = (45, 45, 84, 58, 58, 90)
            return 20
        }
    }

    /// A date written by `format`; nil for any other text.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[19] == 90 else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int32(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        // A day or time that does not exist ("2026-02-30", "25:00") is no date: `timegm` would
        // roll it over into another one (a store file is input too).
        let monthLengths: [Int32] = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, day <= monthLengths[Int(month) - 1], hour <= 23, minute <= 59, second <= 59 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
