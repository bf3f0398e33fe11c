import Foundation
import TimeTrackCore

/// The typed per-kind row of an item: what an app backend reads without parsing JSON.
struct Projection {
    /// A kind's table and columns, and its two statements, made once.
    struct Layout: Sendable {
        let table: String
        let columns: [String]
        /// The insert of a row for a new item (`item_seq` first, then the values).
        let insert: String
        /// The same, replacing the row the item had.
        let upsert: String

        init(_ table: String, _ columns: [String]) {
            self.table = table
            self.columns = columns
            insert =
                "INSERT INTO \(table) (item_seq, \(columns.joined(separator: ", "))) VALUES"
                + " (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))"
            upsert = insert + " ON CONFLICT (item_seq) DO UPDATE SET " + columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }

        static let announcements = Layout("announcements", ["title", "summary", "image_url", "image_alt", "link", "published_at", "priority", "expires_at"])
        static let events = Layout(
            "events",
            [
                "title", "category", "starts_at", "ends_at", "all_day", "time_zone", "location_name", "address", "latitude", "longitude", "description", "link",
                "state", "place_key",
            ])
        static let schoolInfo = Layout("school_info", ["section", "title", "url", "document_type", "fingerprint", "group_name"])
        static let posts = Layout("posts", ["author_name", "author_role", "text", "image_urls", "created_at", "moderation_note"])
        static let absences = Layout("absence_reports", ["student", "reported_by", "first_date", "dates", "periods", "reason", "note", "outcome"])
        static let tickets = Layout("tickets", ["from_name", "kind", "subject", "message", "replies", "reply_count", "closed"])
        static let deadlines = Layout(
            "deadlines",
            [
                "title", "course", "course_name", "teacher", "due_at", "time_zone", "due_time_guessed", "category", "weight", "points", "reminders", "link",
                "description", "source_line",
            ])
        static let alerts = Layout("alerts", ["title", "message", "severity", "link", "published_at", "expires_at"])
    }

    let layout: Layout
    let values: [SQLValue]
    var table: String { layout.table }
    var columns: [String] { layout.columns }

    /// A kind's layout: the one table per kind, from which every list of kind tables is made.
    static func layout(of kind: ItemKind) -> Layout {
        switch kind {
        case .announcement: return .announcements
        case .event: return .events
        case .schoolInfo: return .schoolInfo
        case .post: return .posts
        case .absence: return .absences
        case .ticket: return .tickets
        case .deadline: return .deadlines
        case .alert: return .alerts
        }
    }

    /// The kinds' typed tables, in the kinds' order.
    static var kindTables: [String] { ItemKind.allCases.map { layout(of: $0).table } }

    init(_ content: ItemContent) {
        func json(_ value: some Encodable) -> SQLValue { .text((try? JSONCoding.compactString(value)) ?? "[]") }
        switch content {
        case .announcement(let a):
            // The body is the revision's only (published_announcements reads it from there).
            layout = .announcements
            values = [
                .text(a.title), .text(a.summary), .text(a.imageURL), .text(a.imageAlt), .text(a.link), .date(a.publishedAt), .text(a.priority.rawValue),
                .date(a.expiresAt),
            ]
        case .event(let e):
            layout = .events
            values = [
                .text(e.title), .text(e.category.rawValue), .date(e.start), .date(e.end), .bool(e.allDay), .text(e.timeZone), .text(e.locationName),
                .text(e.address), .real(e.latitude), .real(e.longitude), .text(e.description), .text(e.link),
                .text(e.state.rawValue), .text(PlaceKey.make(e.locationName)),
            ]
        case .schoolInfo(let i):
            layout = .schoolInfo
            values = [.text(i.section.rawValue), .text(i.title), .text(i.url), .text(i.documentType.rawValue), .text(i.fingerprint), .text(i.group)]
        case .post(let p):
            layout = .posts
            values = [.text(p.authorName), .text(p.authorRole.rawValue), .text(p.text), json(p.imageURLs), .date(p.createdAt), .text(p.moderationNote)]
        case .absence(let r):
            layout = .absences
            values = [
                .text(r.student), .text(r.reportedBy), .text(r.dates.sorted().first), json(r.dates), json(r.periods), .text(r.reason.rawValue), .text(r.note),
                .text(r.outcome?.rawValue),
            ]
        case .ticket(let t):
            layout = .tickets
            values = [.text(t.from), .text(t.kind.rawValue), .text(t.subject), .text(t.message), json(t.replies), .integer(t.replies.count), .bool(t.closed)]
        case .deadline(let d):
            layout = .deadlines
            values = [
                .text(d.title), .text(d.course), .text(d.courseName), .text(d.teacher), .date(d.due), .text(d.timeZone), .bool(d.dueTimeGuessed),
                .text(d.category.rawValue), .real(d.weight),
                .real(d.points), d.reminders.map(json) ?? .null, .text(d.link), .text(d.description), .text(d.sourceLine),
            ]
        case .alert(let a):
            layout = .alerts
            values = [.text(a.title), .text(a.message), .text(a.severity.rawValue), .text(a.link), .date(a.publishedAt), .date(a.expiresAt)]
        }
    }

    /// The insert of this row for a new item (`item_seq` first, then the values).
    var insert: String { layout.insert }

    /// Writes this row for the item, inserted or replacing the one it had.
    func write(itemSeq: Int64, in db: any SQLSession) throws {
        try db.run(layout.upsert, [.integer(itemSeq)] + values)
    }
}
