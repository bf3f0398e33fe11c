import Foundation
import Testing
import TimeTrackImport
import TimeTrackKit

/// Schedules as source definitions write them, and when a source is due.
@Suite struct ScheduleTests {
    @Test func theWrittenForms() {
        #expect(Schedule("hourly") == .every(3600))
        #expect(Schedule("15m") == .every(900))
        #expect(Schedule(" 6H ") == .every(21_600))
        #expect(Schedule("1.5h") == .every(5400))
        #expect(Schedule("2d") == .every(172_800))
        #expect(Schedule("daily") == .daily(hour: 0, minute: 0))
        #expect(Schedule("daily 06:30") == .daily(hour: 6, minute: 30))
        #expect(Schedule("daily 6:05")?.description == "daily 06:05")
        #expect(Schedule("90m")?.description == "90m")
        #expect(Schedule("24h")?.description == "1d")
    }

    @Test(arguments: ["", "h", "4m", "367d", "weekly", "daily 25:00", "daily 7", "daily 07:60", "6 h", "infh", "nand", "1e300d", "-1h"])
    func whatIsNotASchedule(_ text: String) {
        #expect(Schedule(text) == nil)
    }

    @Test func anIntervalIsDueAMinuteEarlySoCronDoesNotMissByASecond() {
        let last = Date(timeIntervalSince1970: 1_790_000_000)
        let hourly = Schedule.every(3600)
        let utc = TimeZone(identifier: "UTC")!
        #expect(hourly.isDue(lastRun: nil, now: last, timeZone: utc))
        #expect(!hourly.isDue(lastRun: last, now: last.addingTimeInterval(3000), timeZone: utc))
        #expect(hourly.isDue(lastRun: last, now: last.addingTimeInterval(3545), timeZone: utc))
    }

    @Test func aDailyTimeIsInTheSourcesZone() throws {
        let denver = try #require(TimeZone(identifier: "America/Denver"))
        let daily = Schedule.daily(hour: 6, minute: 0)
        func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        // 06:00 in Denver on 2026-09-01 is 12:00Z.
        let lastRun = at("2026-08-31T12:05:00Z")
        #expect(!daily.isDue(lastRun: lastRun, now: at("2026-09-01T11:59:00Z"), timeZone: denver))
        #expect(daily.isDue(lastRun: lastRun, now: at("2026-09-01T12:00:00Z"), timeZone: denver))
        // Run after today's slot: not due again until tomorrow's.
        #expect(!daily.isDue(lastRun: at("2026-09-01T12:01:00Z"), now: at("2026-09-01T23:00:00Z"), timeZone: denver))
    }
}
