import Foundation
import TimeTrackCore
import TimeTrackKit

extension ImportResult {
    /// The announcements among the items.
    public var announcements: [Announcement] { items.compactMap { if case .announcement(let a) = $0.content { return a } else { return nil } } }
    /// The events among the items.
    public var events: [Event] { items.compactMap { if case .event(let e) = $0.content { return e } else { return nil } } }
    /// The School Info items among the items.
    public var infos: [SchoolInfoItem] { items.compactMap { if case .schoolInfo(let i) = $0.content { return i } else { return nil } } }
}

/// ISO 8601 text of a date in a zone (`2026-09-15T18:00:00-06:00`), for readable expectations.
public func isoString(_ date: Date?, _ zone: String) -> String? {
    guard let date, let tz = TimeZone(identifier: zone) else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = tz
    return formatter.string(from: date)
}
