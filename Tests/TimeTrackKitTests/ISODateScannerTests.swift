import Foundation
import Testing

@testable import TimeTrackKit

/// The hand-written ISO 8601 scanner gives exactly the parts the regular expression gives, or
/// leaves the text to it.
@Suite struct ISODateScannerTests {
    @Test func scannerAgreesWithThePattern() {
        let leads = ["", " ", "\t ", "\u{00A0}", "x"]
        let dates = ["2026-09-11", "2026-9-11", "2026-09-1", "20260911", "٢٠٢٦-09-11", "2026/09/11"]
        let times = ["", "T17:11", " 17:11", "T17:11:05", "T17:11:05.123", "T17:11:05.", "T17:11:5", "T7:11", "T17:1", "t17:11", "T17-11"]
        let offsets = ["", "Z", "z", "+04:00", "-0400", "+04:0", "+4:00", " -04:00", "  Z", "\u{00A0}+02:00", " (MDT)", "-04:00 trailing"]
        var checked = 0, scanned = 0
        for lead in leads {
            for date in dates {
                for time in times {
                    for offset in offsets {
                        let text = lead + date + time + offset
                        let byPattern = DateParser.isoFieldsByPattern(text)
                        if let fields = DateParser.isoFields(text) {
                            #expect(fields == byPattern, "\(text.debugDescription)")
                            scanned += 1
                        }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 5 * 6 * 11 * 12)
        // The well-formed ones never reach the pattern: 3 ASCII leads × 1 good date × 11 × 12,
        // less the 12 whose offset follows a no-break space (left to the pattern).
        #expect(scanned == 3 * 11 * 12 - 12)
        #expect(
            DateParser.isoFields("2026-09-11T17:11:00-04:00")
                == .init(year: "2026", month: "09", day: "11", hour: "17", minute: "11", second: "00", offset: "-04:00"))
    }
}
