import Foundation
import TimeTrackCore
import TimeTrackKit

/// The one front door for iCalendar text, shared by the `ical` importer and the course feeds
/// the `lms` importer reads (`CalendarFeed`): the text must start with BEGIN:VCALENDAR (a
/// byte-order mark and blank lines allowed), is parsed with its problems reported, and gives its
/// calendars, their VEVENTs in order and the zone resolver their times are read with.
struct ICSDocument {
    var calendars: [ICSComponent]
    /// Every VEVENT of every calendar, in order.
    var events: [ICSComponent]
    var zones: ZoneResolver
    /// What the parser met (an unterminated component is an error, a stray line a warning).
    var problems: [ImportProblem]

    /// What is wrong with text that is not a calendar: an HTML page, or anything else.
    enum NotACalendar {
        case htmlPage, other
    }

    /// Reads `text`; `refuse` makes the error for text that is not a calendar (each front says
    /// where its users find the right address).
    init(_ text: String, fallback: TimeZone, refuse: (NotACalendar) -> TimeTrackError) throws {
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard trimmed.prefix(15).uppercased() == "BEGIN:VCALENDAR" else { throw refuse(trimmed.hasPrefix("<") ? .htmlPage : .other) }
        let parsed = ICSParser.parse(text)
        problems = parsed.problems.map(\.imported)
        calendars = parsed.root.filter { $0.name == "VCALENDAR" }
        events = calendars.flatMap(\.children).filter { $0.name == "VEVENT" }
        zones = ZoneResolver(fallback: fallback, calendars: calendars)
    }

    /// A warning for each TZID no zone was found for, once the times were read.
    static func unknownZones(_ zones: ZoneResolver) -> [ImportProblem] {
        zones.unknownZones.sorted().map { tzid in
            ImportProblem(.warning, "unknown TZID '\(tzid)': its times were read in the source's zone \(zones.fallback.identifier)", location: "TZID")
        }
    }
}
