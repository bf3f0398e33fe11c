import Foundation
import TimeTrackCore

extension Exporter {
    /// Published events as one RFC 5545 calendar (CRLF, folded at 75 octets, VTIMEZONE per zone).
    public func ics(school: String? = nil) throws -> Data {
        let items = try published(.event, school: school)
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Time Track//timetrack-admin//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + ICSWriter.escape(calendarName),
        ]
        if let common = Dictionary(
            grouping: items.compactMap { item -> String? in
                if case .event(let e) = item.content { return e.timeZone } else { return nil }
            }, by: { $0 }
        ).max(by: { $0.value.count < $1.value.count })?.key {
            lines.append("X-WR-TIMEZONE:\(common)")
        }
        var zones: [String: (Date, Date)] = [:]
        var events: [(PublishedItem, Event)] = []
        for item in items {
            guard case .event(let stored) = item.content else { continue }
            let event = gazetteer?.pinned(stored, school: item.school).event ?? stored
            events.append((item, event))
            if !event.allDay {
                let end = event.end ?? event.start
                let known = zones[event.timeZone]
                zones[event.timeZone] = (min(known?.0 ?? event.start, event.start), max(known?.1 ?? end, end))
            }
        }
        for (id, range) in zones.sorted(by: { $0.key < $1.key }) {
            guard let zone = TimeZone(identifier: id) else { continue }
            lines += ICSWriter.vtimezone(zone, from: range.0, to: range.1)
        }
        let stamp = ICSWriter.utc(now)
        for (item, event) in events {
            let zone = TimeZone(identifier: event.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
            lines.append("BEGIN:VEVENT")
            lines.append("UID:\(item.id)@timetrack")
            lines.append("DTSTAMP:\(stamp)")
            lines.append("LAST-MODIFIED:\(ICSWriter.utc(item.updatedAt))")
            if event.allDay {
                // Dates float; the zone they belong to travels in an extension property.
                lines.append("X-TIMETRACK-TZID:\(zone.identifier)")
                lines.append("DTSTART;VALUE=DATE:\(ICSWriter.date(event.start, zone: zone))")
                if let end = event.end { lines.append("DTEND;VALUE=DATE:\(ICSWriter.date(end, zone: zone))") }
            } else {
                lines.append("DTSTART;TZID=\(zone.identifier):\(ICSWriter.local(event.start, zone: zone))")
                if let end = event.end { lines.append("DTEND;TZID=\(zone.identifier):\(ICSWriter.local(end, zone: zone))") }
            }
            lines.append("SUMMARY:" + ICSWriter.escape(event.title))
            if let location = [event.locationName, event.address].compactMap({ $0 }).joined(separator: ", ").nilIfEmpty {
                lines.append("LOCATION:" + ICSWriter.escape(location))
            }
            if let lat = event.latitude, let lon = event.longitude { lines.append("GEO:\(lat);\(lon)") }
            if let description = event.description { lines.append("DESCRIPTION:" + ICSWriter.escape(description)) }
            if let link = event.link { lines.append("URL:" + link) }
            lines.append("CATEGORIES:" + ICSWriter.escape(event.category.rawValue))
            switch event.state {
            case .scheduled: lines.append("STATUS:CONFIRMED")
            case .cancelled: lines.append("STATUS:CANCELLED")
            case .postponed:
                lines.append("STATUS:TENTATIVE")
                lines.append("X-TIMETRACK-STATE:postponed")
            }
            if let school = item.school { lines.append("X-TIMETRACK-SCHOOL:" + ICSWriter.escape(school)) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return Data(lines.map(ICSWriter.fold).joined(separator: "\r\n").appending("\r\n").utf8)
    }
}

/// Small RFC 5545 writing helpers.
enum ICSWriter {
    /// TEXT as RFC 5545 writes it: `\\`, `;`, `,` escaped, a line break as `\n`.
    ///
    /// Read by Unicode scalar: as a `Character`, "\r\n" is one grapheme that is neither
    /// "\r" nor "\n", and was written raw (a line break inside a content line).
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Folds a content line at 75 octets, between characters as people see them (an emoji
    /// sequence or an accented letter stays on one line), and between scalars only inside a
    /// character longer than a line.
    static func fold(_ line: String) -> String {
        var result = ""
        var count = 0
        func breakLine() {
            result += "\r\n "
            count = 1
        }
        for character in line {
            let size = character.utf8.count
            if size <= 74 {
                if count + size > 75 { breakLine() }
                result.append(character)
                count += size
                continue
            }
            for scalar in character.unicodeScalars {
                let scalarSize = String(scalar).utf8.count
                if count + scalarSize > 75 { breakLine() }
                result.unicodeScalars.append(scalar)
                count += scalarSize
            }
        }
        return result
    }

    static func format(_ date: Date, zone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    static func utc(_ date: Date) -> String { format(date, zone: TimeZone(secondsFromGMT: 0) ?? .current, "yyyyMMdd'T'HHmmss'Z'") }
    static func local(_ date: Date, zone: TimeZone) -> String { format(date, zone: zone, "yyyyMMdd'T'HHmmss") }
    static func date(_ date: Date, zone: TimeZone) -> String { format(date, zone: zone, "yyyyMMdd") }

    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        return String(format: "%@%02d%02d", sign, a / 3600, (a % 3600) / 60)
    }

    /// A VTIMEZONE listing the zone's real transitions from a year before `from` to a year after `to`.
    static func vtimezone(_ zone: TimeZone, from: Date, to: Date) -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)"]
        let start = from.addingTimeInterval(-366 * 86_400)
        let end = to.addingTimeInterval(366 * 86_400)
        var transitions: [Date] = []
        var cursor = start
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end, transitions.count < 200 {
            transitions.append(next)
            cursor = next
        }
        if transitions.isEmpty {
            let offset = zone.secondsFromGMT(for: from)
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(Self.offset(offset))", "TZOFFSETTO:\(Self.offset(offset))", "END:STANDARD"]
        }
        for transition in transitions {
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: transition)
            let kind = zone.isDaylightSavingTime(for: transition) ? "DAYLIGHT" : "STANDARD"
            // DTSTART is the local time of the onset, in the offset in force before it.
            let onset = local(transition, zone: TimeZone(secondsFromGMT: before) ?? zone)
            lines += ["BEGIN:\(kind)", "DTSTART:\(onset)", "TZOFFSETFROM:\(Self.offset(before))", "TZOFFSETTO:\(Self.offset(after))", "END:\(kind)"]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
