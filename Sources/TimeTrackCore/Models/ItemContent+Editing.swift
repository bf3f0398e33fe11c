import Foundation

/// The kind of value a model field holds, for turning `FIELD=VALUE` text into JSON.
public enum FieldType: Sendable, Equatable {
    case text, date, number, bool, list
    case choice([String])
}

extension ItemContent {
    /// Every field of a kind, with its type. Optional fields are included even when absent.
    public static func fieldTypes(of kind: ItemKind) -> [String: FieldType] {
        switch kind {
        case .announcement:
            return ["title": .text, "summary": .text, "body": .text, "imageURL": .text, "imageAlt": .text, "link": .text,
                    "publishedAt": .date, "priority": .choice(Announcement.Priority.allCases.map(\.rawValue)), "expiresAt": .date]
        case .event:
            return ["title": .text, "category": .choice(Event.Category.allCases.map(\.rawValue)), "start": .date, "end": .date,
                    "allDay": .bool, "timeZone": .text, "locationName": .text, "address": .text, "latitude": .number,
                    "longitude": .number, "description": .text, "link": .text, "state": .choice(Event.State.allCases.map(\.rawValue))]
        case .schoolInfo:
            return ["section": .choice(SchoolInfoItem.Section.allCases.map(\.rawValue)), "title": .text, "url": .text,
                    "documentType": .choice(SchoolInfoItem.DocumentType.allCases.map(\.rawValue)), "fingerprint": .text, "group": .text]
        case .post:
            return ["authorName": .text, "authorRole": .choice(Post.AuthorRole.allCases.map(\.rawValue)), "text": .text,
                    "imageURLs": .list, "createdAt": .date, "moderationNote": .text]
        case .absence:
            return ["student": .text, "reportedBy": .text, "dates": .list, "periods": .list,
                    "reason": .choice(AbsenceReport.Reason.allCases.map(\.rawValue)), "note": .text,
                    "outcome": .choice(AbsenceReport.Outcome.allCases.map(\.rawValue))]
        case .ticket:
            return ["from": .text, "kind": .choice(Ticket.Kind.allCases.map(\.rawValue)), "subject": .text, "message": .text, "closed": .bool]
        }
    }

    /// The names of a kind's fields.
    public static func fieldNames(of kind: ItemKind) -> [String] { fieldTypes(of: kind).keys.sorted() }

    /// Turns `FIELD=VALUE` texts into JSON values of the right type for `kind`.
    ///
    /// An empty value clears an optional field. Dates take ISO 8601 (`2026-09-14T18:00:00-06:00`,
    /// `2026-09-14T18:00:00Z`) or a plain day (`2026-09-14`, UTC midnight). Lists are comma-separated.
    public static func parseEdits(_ assignments: [(String, String)], kind: ItemKind) throws -> [String: JSONValue] {
        let types = fieldTypes(of: kind)
        var result: [String: JSONValue] = [:]
        for (field, text) in assignments {
            guard let type = types[field] else {
                throw TimeTrackError(.usage, "\(kind.rawValue) has no field '\(field)'", fix: "fields: " + fieldNames(of: kind).joined(separator: ", "), context: ["field": field])
            }
            if text.isEmpty {
                result[field] = .null
                continue
            }
            switch type {
            case .text: result[field] = .string(text)
            case .date:
                guard let date = parseEditDate(text) else {
                    throw TimeTrackError(.usage, "'\(text)' is not a date", fix: "use ISO 8601, like 2026-09-14T18:00:00-06:00 or 2026-09-14", context: ["field": field])
                }
                result[field] = .string(ISO8601DateFormatter().string(from: date))
            case .number:
                guard let number = Double(text) else {
                    throw TimeTrackError(.usage, "'\(text)' is not a number", context: ["field": field])
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
            case .choice(let choices):
                guard choices.contains(text) else {
                    throw TimeTrackError(.usage, "'\(text)' is not one of \(choices.joined(separator: ", "))", context: ["field": field])
                }
                result[field] = .string(text)
            }
        }
        return result
    }

    private static func parseEditDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return formatter.date(from: text)
    }
}
