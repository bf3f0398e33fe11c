import Foundation
import TimeTrackCore
import TimeTrackKit

extension Schedule {
    /// Whether a source last run at `lastRun` is due at `now` (in the source's time zone for daily times).
    public func isDue(lastRun: Date?, now: Date, timeZone: TimeZone) -> Bool {
        guard let lastRun else { return true }
        switch self {
        case .every(let seconds):
            // A minute of slack so an hourly cron line does not miss by seconds.
            return now.timeIntervalSince(lastRun) >= seconds - 60
        case .daily(let hour, let minute):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            guard var slot = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now) else { return false }
            if slot > now { slot = calendar.date(byAdding: .day, value: -1, to: slot) ?? slot }
            return lastRun < slot
        }
    }
}
