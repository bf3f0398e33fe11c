import Foundation
import TestSupport
import Testing
import TimeTrackCore

/// `StoreDate`: the text `ISO8601DateFormatter` writes (since 1583: before, it counts in the
/// Julian calendar, `gmtime` in the proleptic Gregorian), read back to the second.
@Suite struct StoreDateTests {
    @Test func writesWhatTheFormatterWritesAndReadsItBack() throws {
        let formatter = ISO8601DateFormatter()
        var random = SplitMix64(state: 20261125)
        // The epoch, a second before it, 2000-02-29, a fraction, 9999-12-31T23:59:59.
        let fixed: [TimeInterval] = [0, -1, 951_782_400, 1_790_000_000.999, 253_402_300_799]
        let dates =
            fixed.map(Date.init(timeIntervalSince1970:))
            + (0..<2_000).map { _ in Date(timeIntervalSince1970: TimeInterval(random.int(-2_000_000_000...4_000_000_000)) + 0.5) }
        for date in dates {
            let text = StoreDate.format(date)
            #expect(text == formatter.string(from: date), "\(date.timeIntervalSince1970)")
            #expect(StoreDate.parse(text) == Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)), "\(text)")
        }
        #expect(StoreDate.parse("2026-13-01T00:00:00") == nil && StoreDate.parse("2026-01-01 00:00:00Z") == nil)
    }

    /// A store file is input too: a day or a time that does not exist is no date, never
    /// rolled over into another one.
    @Test(arguments: [
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T23:60:00Z", "2026-01-01T23:59:60Z", "2026-01-01T00:00:00+", "２０２６-01-01T00:00:00Z", "2026-01-01T00:00:00z", "",
    ])
    func daysThatDoNotExistAreNoDates(_ text: String) {
        #expect(StoreDate.parse(text) == nil, "\(text)")
    }

    @Test(arguments: [("2028-02-29T12:00:00Z", 1_835_438_400.0), ("2000-02-29T00:00:00Z", 951_782_400), ("1900-03-01T00:00:00Z", -2_203_891_200)])
    func leapDaysThatExistAreRead(_ text: String, _ seconds: Double) {
        #expect(StoreDate.parse(text)?.timeIntervalSince1970 == seconds, "\(text)")
    }
}
