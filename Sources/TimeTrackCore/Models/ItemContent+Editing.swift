import Foundation

/// The kind of value a model field holds, for turning `FIELD=VALUE` text into JSON.
public enum FieldType: Sendable, Equatable {
    case text, date, number, bool, list
    /// Texts that may hold commas (descriptions), separated by ` | `.
    case texts
    /// Reminder offsets: `1d, 2h, 30m`, stored as minutes.
    case offsets
    case choice([String])
}

extension ItemContent {
    /// Every field of a kind, with its type.
    ///
    /// Optional fields are included even when absent.
    public static func fieldTypes(of kind: ItemKind) -> [String: FieldType] {
        switch kind {
        case .announcement:
            return [
                "title": .text, "summary": .text, "body": .text, "imageURL": .text, "imageAlt": .text, "link": .text,
                "publishedAt": .date, "priority": .choice(Announcement.Priority.allCases.map(\.rawValue)), "expiresAt": .date,
            ].merging(timeFields) { a, _ in a }
        case .event:
            return [
                "title": .text, "category": .choice(Event.Category.allCases.map(\.rawValue)), "start": .date, "end": .date,
                "allDay": .bool, "timeZone": .text, "locationName": .text, "address": .text, "latitude": .number,
                "longitude": .number, "description": .text, "link": .text, "state": .choice(Event.State.allCases.map(\.rawValue)),
            ].merging(timeFields) { a, _ in a }
        case .schoolInfo:
            return [
                "section": .choice(SchoolInfoItem.Section.allCases.map(\.rawValue)), "title": .text, "url": .text,
                "documentType": .choice(SchoolInfoItem.DocumentType.allCases.map(\.rawValue)), "fingerprint": .text, "group": .text,
                "documentProblems": .list, "accessibleCopy": .text,
            ].merging(timeFields) { a, _ in a }
        case .post:
            return [
                "authorName": .text, "authorRole": .choice(Post.AuthorRole.allCases.map(\.rawValue)), "text": .text,
                "imageURLs": .list, "imageAlts": .texts, "createdAt": .date, "moderationNote": .text,
            ].merging(timeFields) { a, _ in a }
        case .absence:
            return [
                "student": .text, "reportedBy": .text, "dates": .list, "periods": .list,
                "reason": .choice(AbsenceReport.Reason.allCases.map(\.rawValue)), "note": .text,
                "outcome": .choice(AbsenceReport.Outcome.allCases.map(\.rawValue)),
            ]
        case .ticket:
            return ["from": .text, "kind": .choice(Ticket.Kind.allCases.map(\.rawValue)), "subject": .text, "message": .text, "closed": .bool]
        case .deadline:
            return [
                "title": .text, "course": .text, "courseName": .text, "teacher": .text, "due": .date, "timeZone": .text, "dueTimeGuessed": .bool,
                "category": .choice(Deadline.Category.allCases.map(\.rawValue)), "weight": .number, "points": .number, "reminders": .offsets, "link": .text,
                "description": .text, "sourceLine": .text, "score": .number,
            ].merging(timeFields) { a, _ in a }
        case .alert:
            return [
                "title": .text, "message": .text, "severity": .choice(Alert.Severity.allCases.map(\.rawValue)), "link": .text, "publishedAt": .date,
            ].merging(timeFields) { a, _ in a }
        }
    }

    /// The time fields every kind the app shows has (`publishAt`, `expiresAt`, `reviewBy`):
    /// absence reports and tickets are never shown, so they have none.
    public static let timeFields: [String: FieldType] = ["publishAt": .date, "expiresAt": .date, "reviewBy": .date]

    /// The names of a kind's fields.
    public static func fieldNames(of kind: ItemKind) -> [String] { fieldTypes(of: kind).keys.sorted() }

    /// Turns `FIELD=VALUE` texts into JSON values of the right type for `kind`.
    ///
    /// An empty value clears an optional field. Lists are comma-separated. Dates are read in
    /// `zone`, the item's own (an event's `timeZone`, else its source's): `2026-09-15 18:30`,
    /// `2026-09-15T18:30` (seconds optional), `18:30` (the same day as the field's current
    /// value), a plain day `2026-09-15` (local midnight, for all-day fields), or a full ISO 8601
    /// instant with its offset (`2026-09-15T18:30:00-06:00`, `…Z`). Anything only partly read is
    /// a usage error naming the field and the accepted forms.
    ///
    /// An event's `start` given as a day alone makes it all-day (`allDay` true, `end` the next
    /// day) unless `allDay` or `end` is given too; a timed event's new `start` moves its `end`
    /// only with `keepDuration` (`edit --keep-duration`). What follows from the fields given is
    /// in the result beside them: compare with the fields typed to tell the person.
    public static func parseEdits(
        _ assignments: [(String, String)], kind: ItemKind, current: ItemContent? = nil, zone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
        keepDuration: Bool = false
    ) throws -> [String: JSONValue] {
        let types = fieldTypes(of: kind)
        var result: [String: JSONValue] = [:]
        let currentFields = current?.fields() ?? [:]
        for (field, text) in assignments {
            guard let type = types[field] else {
                throw TimeTrackError(
                    .usage, "\(kind.rawValue) has no field '\(field)'", fix: "fields: " + fieldNames(of: kind).joined(separator: ", "),
                    context: ["field": field])
            }
            if text.isEmpty {
                result[field] = .null
                continue
            }
            switch type {
            case .text: result[field] = .string(text)
            case .date:
                let existing = currentFields[field]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) }
                guard let date = EditDate.parse(text, zone: zone, sameDayAs: existing) else {
                    throw TimeTrackError(
                        .usage, "'\(text)' is not a date and time \(field) can take",
                        fix: "in \(zone.identifier): 2026-09-15 18:30, 2026-09-15T18:30, 18:30 (same day), 2026-09-15 (all day), or 2026-09-15T18:30:00-06:00",
                        context: ["field": field])
                }
                result[field] = .string(ISO8601DateFormatter().string(from: date))
            case .number:
                // "nan", "inf" and "1e999" are Doubles, not numbers a field can hold.
                guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                    throw TimeTrackError(.usage, "'\(text.prefix(80))' is not a number", context: ["field": field])
                }
                result[field] = .number(number)
            case .bool:
                switch text.lowercased() {
                case "true", "yes", "1", "on": result[field] = .bool(true)
                case "false", "no", "0", "off": result[field] = .bool(false)
                default: throw TimeTrackError(.usage, "'\(text)' is not true or false", context: ["field": field])
                }
            case .list:
                result[field] = .array(text.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) })
            case .texts:
                result[field] = .array(text.components(separatedBy: "|").map { .string($0.trimmingCharacters(in: .whitespaces)) })
            case .offsets:
                var minutes: [JSONValue] = []
                for piece in text.split(separator: ",") {
                    guard let value = ReminderOffset.minutes(String(piece)) else {
                        throw TimeTrackError(
                            .usage, "'\(piece.trimmingCharacters(in: .whitespaces))' is not a reminder offset",
                            fix: "offsets before the due time, like 1d, 2h, 30m: \(field)=1d,2h", context: ["field": field])
                    }
                    minutes.append(.number(Double(value)))
                }
                result[field] = .array(minutes)
            case .choice(let choices):
                guard choices.contains(text) else {
                    throw TimeTrackError(.usage, "'\(text)' is not one of \(choices.joined(separator: ", "))", context: ["field": field])
                }
                result[field] = .string(text)
            }
        }
        // A due time a person typed is no longer a guess.
        if kind == .deadline, result["due"] != nil, result["dueTimeGuessed"] == nil { result["dueTimeGuessed"] = .bool(false) }
        if kind == .event { eventDates(&result, typed: assignments, current: currentFields, zone: zone, keepDuration: keepDuration) }
        return result
    }

    /// What an event's new start implies: a day alone is an all-day event; with `keepDuration`
    /// the end moves with the start.
    static func eventDates(_ result: inout [String: JSONValue], typed: [(String, String)], current: [String: JSONValue], zone: TimeZone, keepDuration: Bool) {
        let iso = ISO8601DateFormatter()
        guard let startText = typed.last(where: { $0.0 == "start" })?.1, let newStart = result["start"]?.stringValue.flatMap(iso.date(from:)) else { return }
        if EditDate.isDayAlone(startText), result["allDay"] == nil, result["end"] == nil {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            result["allDay"] = .bool(true)
            if let next = calendar.date(byAdding: .day, value: 1, to: newStart) { result["end"] = .string(iso.string(from: next)) }
            return
        }
        if keepDuration, result["end"] == nil, let oldStart = current["start"]?.stringValue.flatMap(iso.date(from:)),
            let oldEnd = current["end"]?.stringValue.flatMap(iso.date(from:))
        {
            result["end"] = .string(iso.string(from: newStart.addingTimeInterval(oldEnd.timeIntervalSince(oldStart))))
        }
    }
}

/// Dates as a person types them at the console, read strictly (the whole text, or nothing).
enum EditDate {
    /// Whether the text is a day without a time (`2026-09-14`).
    static func isDayAlone(_ raw: String) -> Bool {
        let text = raw.trimmingCharacters(in: .whitespaces)
        return text.count == 10 && !text.contains("T") && !text.contains(" ") && text.split(separator: "-").count == 3
    }

    static func parse(_ raw: String, zone: TimeZone, sameDayAs existing: Date?) -> Date? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        // An explicit offset must be a real one (the formatter takes +99:99).
        let tail = Array(text.suffix(6))
        if tail.count == 6, tail[0] == "+" || tail[0] == "-", tail[3] == ":" {
            guard let h = Int(String(tail[1...2])), let m = Int(String(tail[4...5])), h <= 14, m < 60 else { return nil }
        }
        // A full instant with its own offset.
        let instant = ISO8601DateFormatter()
        if let date = instant.date(from: text) { return date }
        // Minutes and a zone without seconds (`2026-09-15T18:30Z`, `…18:30-06:00`).
        if text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil {
            let withSeconds = String(text.prefix(16)) + ":00" + text.dropFirst(16)
            if let date = instant.date(from: withSeconds) { return date }
        }
        instant.formatOptions = [.withFullDate, .withTime, .withDashSeparatorInDate, .withColonSeparatorInTime, .withTimeZone]
        if text.count > 16, text.contains("T"), text.hasSuffix("Z") || text.dropFirst(16).contains(where: { $0 == "+" || $0 == "-" }),
            let date = instant.date(from: text)
        {
            return date
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func number(_ part: Substring, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        func time(_ part: Substring) -> (Int, Int, Int)? {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2 || pieces.count == 3, let h = number(pieces[0], digits: 1...2), let m = number(pieces[1], digits: 2...2),
                (0...23).contains(h), (0...59).contains(m)
            else { return nil }
            let s = pieces.count == 3 ? number(pieces[2], digits: 2...2) : 0
            guard let s, (0...59).contains(s) else { return nil }
            return (h, m, s)
        }
        func day(_ part: Substring) -> (Int, Int, Int)? {
            let pieces = part.split(separator: "-", omittingEmptySubsequences: false)
            guard pieces.count == 3, let y = number(pieces[0], digits: 4...4), let mo = number(pieces[1], digits: 2...2),
                let d = number(pieces[2], digits: 2...2),
                (1...12).contains(mo), (1...31).contains(d)
            else { return nil }
            return (y, mo, d)
        }
        func make(_ ymd: (Int, Int, Int), _ hms: (Int, Int, Int)) -> Date? {
            let components = DateComponents(year: ymd.0, month: ymd.1, day: ymd.2, hour: hms.0, minute: hms.1, second: hms.2)
            guard let date = calendar.date(from: components) else { return nil }
            // Refuse days that do not exist (2026-02-30 would roll over).
            let back = calendar.dateComponents([.year, .month, .day], from: date)
            guard back.year == ymd.0, back.month == ymd.1, back.day == ymd.2 else { return nil }
            return date
        }
        if let separator = text.firstIndex(where: { $0 == "T" || $0 == " " }) {
            guard let ymd = day(text[..<separator]), let hms = time(text[text.index(after: separator)...]) else { return nil }
            return make(ymd, hms)
        }
        if let ymd = day(Substring(text)) { return make(ymd, (0, 0, 0)) }
        if let hms = time(Substring(text)), let existing {
            let parts = calendar.dateComponents([.year, .month, .day], from: existing)
            guard let y = parts.year, let m = parts.month, let d = parts.day else { return nil }
            return make((y, m, d), hms)
        }
        return nil
    }
}
