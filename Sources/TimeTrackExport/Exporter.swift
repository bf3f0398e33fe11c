import Foundation
import TimeTrackCore

/// Published items in the formats the app and other tools read.
///
/// - JSON: one document per kind (`announcements.json`, `events.json`, `school-info.json`,
///   `posts.json`), schema in docs/exports.md;
/// - iCalendar: events, RFC 5545 with a VTIMEZONE for every zone used;
/// - RSS 2.0: announcements.
/// Only published items are exported; absence reports and tickets never are (they are private).
public struct Exporter {
    let store: any ItemStore
    public var now: Date = Date()
    public var calendarName = "Time Track"
    public var siteURL = "https://timetrack.example/"
    /// Called with the number of items read so far (for a progress line on a terminal).
    public var progress: ((Int) -> Void)?

    public init(store: any ItemStore) { self.store = store }

    /// Every published item of a kind, oldest first by the list order reversed (stable by id).
    public func published(_ kind: ItemKind, school: String? = nil) throws -> [Item] {
        var result: [Item] = []
        var offset = 0
        while true {
            let page = try store.list(ItemQuery(kind: kind, status: .published, limit: 1000, offset: offset))
            if page.isEmpty { break }
            for summary in page where school == nil || summary.school == school { result.append(try store.item(summary.id)) }
            offset += page.count
            progress?(offset)
        }
        return result.sorted { ($0.content.sortDate ?? .distantPast, $0.id) < ($1.content.sortDate ?? .distantPast, $1.id) }
    }

    /// The JSON document for a kind.
    ///
    /// Private kinds (absence reports, tickets) are never exported: asking for one is refused.
    public func json(_ kind: ItemKind, school: String? = nil) throws -> Data {
        guard kind.traits.exported else {
            throw TimeTrackError(
                .usage, "\(kind.plural) are private and never exported", fix: "exports carry " + Exporter.jsonKinds.map(\.plural).joined(separator: ", "))
        }
        let items = try published(kind, school: school)
        let iso = ISO8601DateFormatter()
        let rows: [JSONValue] = items.map { item in
            var object = item.content.fields()
            object["id"] = .string(item.id)
            object["school"] = item.school.map { .string($0) } ?? .null
            object["updatedAt"] = .string(iso.string(from: item.updatedAt))
            return .object(object)
        }
        let document = JSONValue.object([
            "schema": .string("timetrack-export/1"), "kind": .string(kind.rawValue), "generatedAt": .string(iso.string(from: now)),
            "count": .number(Double(rows.count)), "items": .array(rows),
        ])
        return Data(((try? JSONCoding.prettyString(document)) ?? "{}").utf8)
    }

    /// Kinds the app reads as JSON.
    public static var jsonKinds: [ItemKind] { ItemKind.allCases.filter(\.traits.exported) }
}
