import Foundation
import TimeTrackCore

extension Exporter {
    /// A published deadline as the app reads it: its course's name, teacher and school, its
    /// category's weight and its reminder offsets resolved (its own, else its course's, else one
    /// day and two hours before).
    public struct ResolvedDeadline {
        public var item: PublishedItem
        public var deadline: Deadline
        public var course: Course?
        public var weight: Double?
        public var reminders: [Int]
    }

    /// Published deadlines with their courses resolved (`courses` from the store).
    public func resolvedDeadlines(school: String? = nil) throws -> [ResolvedDeadline] {
        let byCode = Dictionary(courses.map { ($0.code.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        return try published(.deadline, school: school).compactMap { item in
            guard case .deadline(let deadline) = item.content else { return nil }
            let course = byCode[deadline.course.lowercased()]
            return ResolvedDeadline(
                item: item, deadline: deadline, course: course, weight: deadline.weight ?? course?.weights[deadline.category.rawValue],
                reminders: deadline.reminders ?? course?.reminders ?? Deadline.defaultReminders)
        }
    }

    /// The JSON feed of deadlines: each with its weight and reminders resolved, and the courses
    /// with their category weights (what the app's grade helper needs).
    func deadlinesJSON(school: String?) throws -> Data {
        let iso = ISO8601DateFormatter()
        let resolved = try resolvedDeadlines(school: school)
        let rows: [JSONValue] = resolved.map { entry in
            var object = entry.item.content.fields()
            object["id"] = .string(entry.item.id)
            object["school"] = (entry.course?.school ?? entry.item.school).map { .string($0) } ?? .null
            object["courseName"] = .string(entry.course?.name ?? entry.deadline.courseName ?? entry.deadline.course)
            if let teacher = entry.deadline.teacher ?? entry.course?.teacher { object["teacher"] = .string(teacher) }
            object["weight"] = entry.weight.map { .number($0) } ?? .null
            object["reminders"] = .array(entry.reminders.map { .number(Double($0)) })
            object["remindAt"] = .array(entry.reminders.map { .string(iso.string(from: entry.deadline.due.addingTimeInterval(-Double($0) * 60))) })
            object["updatedAt"] = .string(iso.string(from: entry.item.updatedAt))
            return .object(object)
        }
        let used = Set(resolved.map { $0.deadline.course.lowercased() })
        let courseRows: [JSONValue] = courses.filter { used.contains($0.code.lowercased()) }.map { course in
            .object([
                "code": .string(course.code), "name": .string(course.name), "teacher": course.teacher.map { .string($0) } ?? .null,
                "school": course.school.map { .string($0) } ?? .null, "reminders": .array(course.reminders.map { .number(Double($0)) }),
                "weights": .object(course.weights.mapValues { .number($0) }),
            ])
        }
        let document = JSONValue.object([
            "schema": .string("timetrack-export/1"), "kind": .string(ItemKind.deadline.rawValue), "generatedAt": .string(iso.string(from: now)),
            "count": .number(Double(rows.count)), "items": .array(rows), "courses": .array(courseRows),
        ])
        return Data(((try? JSONCoding.prettyString(document)) ?? "{}").utf8)
    }

    /// One RFC 5545 calendar per course with published deadlines, by course code: each
    /// deadline a VEVENT at its due instant with a VALARM at each reminder offset.
    public func courseCalendars(school: String? = nil, course only: String? = nil) throws -> [(code: String, data: Data)] {
        let resolved = try resolvedDeadlines(school: school).filter { only == nil || $0.deadline.course.caseInsensitiveCompare(only ?? "") == .orderedSame }
        let groups = Dictionary(grouping: resolved, by: { $0.course?.code ?? $0.deadline.course })
        return groups.keys.sorted().map { code in
            let entries = groups[code] ?? []
            let name = entries.first.map { $0.course?.name ?? $0.deadline.courseName ?? code } ?? code
            return (code, courseICS(name: name, code: code, entries: entries))
        }
    }

    func courseICS(name: String, code: String, entries: [ResolvedDeadline]) -> Data {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Time Track//timetrack-admin deadlines//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + ICSWriter.escape("\(name) — deadlines"),
        ]
        var zones: [String: (Date, Date)] = [:]
        for entry in entries {
            let known = zones[entry.deadline.timeZone]
            zones[entry.deadline.timeZone] = (min(known?.0 ?? entry.deadline.due, entry.deadline.due), max(known?.1 ?? entry.deadline.due, entry.deadline.due))
        }
        if let common = zones.keys.sorted().first { lines.append("X-WR-TIMEZONE:\(common)") }
        for (id, range) in zones.sorted(by: { $0.key < $1.key }) {
            guard let zone = TimeZone(identifier: id) else { continue }
            lines += ICSWriter.vtimezone(zone, from: range.0, to: range.1)
        }
        let stamp = ICSWriter.utc(now)
        for entry in entries.sorted(by: { ($0.deadline.due, $0.item.id) < ($1.deadline.due, $1.item.id) }) {
            let d = entry.deadline
            let zone = TimeZone(identifier: d.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
            let due = ICSWriter.local(d.due, zone: zone)
            lines += [
                "BEGIN:VEVENT", "UID:\(entry.item.id)@timetrack", "DTSTAMP:\(stamp)", "LAST-MODIFIED:\(ICSWriter.utc(entry.item.updatedAt))",
                "DTSTART;TZID=\(zone.identifier):\(due)", "DTEND;TZID=\(zone.identifier):\(due)", "SUMMARY:" + ICSWriter.escape("\(d.title) [\(name)]"),
                "CATEGORIES:" + ICSWriter.escape(d.category.rawValue), "TRANSP:TRANSPARENT",
            ]
            var about: [String] = []
            if let weight = entry.weight { about.append("\(d.category.rawValue.capitalized): \(NumberText.percent(weight)) of the grade") }
            if let points = d.points { about.append("\(NumberText.plain(points)) points") }
            if d.dueTimeGuessed { about.append("No time was given: due at the end of the school day.") }
            if let description = d.description, d.sourceLine == nil { about.append(description) }
            if !about.isEmpty { lines.append("DESCRIPTION:" + ICSWriter.escape(about.joined(separator: "\n"))) }
            if let link = d.link { lines.append("URL:" + link) }
            lines.append("X-TIMETRACK-COURSE:" + ICSWriter.escape(code))
            if let weight = entry.weight { lines.append("X-TIMETRACK-WEIGHT:\(NumberText.plain(weight))") }
            if d.dueTimeGuessed { lines.append("X-TIMETRACK-TIME-GUESSED:TRUE") }
            for minutes in entry.reminders.sorted(by: >) {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=START:\(Self.trigger(minutes))",
                    "DESCRIPTION:" + ICSWriter.escape("\(d.title) is due in \(ReminderOffset.text(minutes))"), "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return Data(lines.map(ICSWriter.fold).joined(separator: "\r\n").appending("\r\n").utf8)
    }

    /// An RFC 5545 duration before the start: `-P1D`, `-PT2H`, `-P1DT12H`, `-PT30M`, `PT0S`.
    static func trigger(_ minutes: Int) -> String {
        if minutes == 0 { return "PT0S" }
        let days = minutes / 1440, hours = (minutes % 1440) / 60, rest = minutes % 60
        var text = "-P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || rest > 0 { text += "T" + (hours > 0 ? "\(hours)H" : "") + (rest > 0 ? "\(rest)M" : "") }
        return text
    }

    /// A course code as a file name: letters, digits, `-` and `_` kept, anything else `_`.
    public static func fileName(_ code: String) -> String {
        let name = String(code.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return name.isEmpty || name.allSatisfy({ $0 == "_" }) ? "course" : name
    }
}

extension Data {
    /// How many times `text` occurs (counting a calendar's events).
    public func count(of text: String) -> Int {
        String(decoding: self, as: UTF8.self).components(separatedBy: text).count - 1
    }
}
