import Foundation
import TimeTrackCore
import TimeTrackKit

/// A calendar's VEVENTs read one by one, without expanding recurrence: what the lms importer
/// maps to deadlines (an assignment is due once).
package struct CalendarFeed {
    /// One VEVENT.
    package struct Entry {
        package var uid: String
        package var summary: String
        /// DESCRIPTION as plain text.
        package var description: String?
        package var url: String?
        package var categories: [String]
        /// DTSTART (DTEND when it has no DTSTART): the instant, or local midnight of an all-day date.
        package var start: Date
        package var isAllDay: Bool
        /// The zone the date is read in (the TZID's, the calendar's, else the source's).
        package var zone: TimeZone
        package var status: String?
        /// The content line the VEVENT starts on.
        package var line: Int
    }

    /// X-WR-CALNAME: Google Classroom names each class's calendar after the class.
    package var name: String?
    package var entries: [Entry] = []
    package var problems: [ImportProblem] = []

    /// Reads `text`, which must start with BEGIN:VCALENDAR (else a parse error saying what it is).
    package init(_ text: String, fallback: TimeZone, url: String) throws {
        let document = try ICSDocument(text, fallback: fallback) { wrong in
            TimeTrackError(
                .parse,
                wrong == .htmlPage ? "this is an HTML page, not a calendar feed" : "this is not a calendar feed (it does not start with BEGIN:VCALENDAR)",
                fix:
                    "use the course calendar's iCal feed URL (Canvas: Calendar → Calendar Feed; Schoology: Calendar → Export; Google Classroom: the"
                    + " class calendar's secret address in iCal format; Moodle: Calendar → Export calendar)",
                context: ["url": url])
        }
        problems = document.problems
        name = document.calendars.lazy.compactMap { $0.first("X-WR-CALNAME") }.first.map { TextNormalizer.collapse(ICSParser.unescape($0.value)) }
        var zones = document.zones
        for event in document.events where event.terminated {
            let location = "line \(event.line)"
            let summary = TextNormalizer.collapse(ICSParser.unescape(event.first("SUMMARY")?.value ?? ""))
            guard let uid = event.first("UID")?.value, !uid.isEmpty else {
                problems.append(ImportProblem(.error, "skipped '\(summary)': VEVENT without a UID", location: location))
                continue
            }
            guard let property = event.first("DTSTART") ?? event.first("DTEND") ?? event.first("DUE"), let value = ICSDateTime(property) else {
                problems.append(ImportProblem(.error, "skipped '\(summary)': no valid DTSTART", location: location))
                continue
            }
            let zone = zones.displayZone(value)
            guard let start = zones.instant(value, allDayZone: zone) else {
                problems.append(ImportProblem(.error, "skipped '\(summary)': DTSTART is not a real date", location: location))
                continue
            }
            var description = event.first("DESCRIPTION").map { ICalImporter.plainText(ICSParser.unescape($0.value)) }
            if description?.isEmpty == true { description = nil }
            entries.append(
                Entry(
                    uid: uid, summary: summary, description: description, url: event.first("URL")?.value.trimmingCharacters(in: .whitespaces),
                    categories: event.all("CATEGORIES").flatMap { ICSParser.splitList($0.value) }.map { TextNormalizer.collapse(ICSParser.unescape($0)) },
                    start: start, isAllDay: value.isDate, zone: zone, status: event.first("STATUS")?.value.uppercased(), line: event.line))
        }
        problems += ICSDocument.unknownZones(zones)
    }
}

/// The keys of a feed that gives a UID more than once (some exports repeat events): both are
/// kept, distinctly, the second as `UID#2`, the third `UID#3` (and never a key the feed gives
/// of its own: a UID written `a#2` after two `a`s becomes `a#2#2`).
package struct DistinctKeys {
    private var counts: [String: Int] = [:]
    private var taken: Set<String> = []

    package init() {}

    /// `key` the first time it is given, then `key#2`, `key#3`…, each key handed out once.
    package mutating func key(for key: String) -> String {
        var count = counts[key] ?? 0
        var candidate = count == 0 ? key : "\(key)#\(count + 1)"
        while taken.contains(candidate) {
            count += 1
            candidate = "\(key)#\(count + 1)"
        }
        counts[key] = count + 1
        taken.insert(candidate)
        return candidate
    }
}
