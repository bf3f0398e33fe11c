import Foundation
import TimeTrackCore

/// The typed per-kind row of an item: what an app backend reads without parsing JSON.
struct Projection {
    let table: String
    let columns: [String]
    let values: [SQLValue]

    init(_ content: ItemContent) {
        func json(_ value: some Encodable) -> SQLValue { .text((try? JSONCoding.compactString(value)) ?? "[]") }
        switch content {
        case .announcement(let a):
            table = "announcements"
            // The body is the revision's only (published_announcements reads it from there).
            columns = ["title", "summary", "image_url", "image_alt", "link", "published_at", "priority", "expires_at"]
            values = [.text(a.title), .text(a.summary), .text(a.imageURL), .text(a.imageAlt), .text(a.link), .date(a.publishedAt), .text(a.priority.rawValue), .date(a.expiresAt)]
        case .event(let e):
            table = "events"
            columns = ["title", "category", "starts_at", "ends_at", "all_day", "time_zone", "location_name", "address", "latitude", "longitude", "description", "link", "state", "place_key"]
            values = [
                .text(e.title), .text(e.category.rawValue), .date(e.start), .date(e.end), .bool(e.allDay), .text(e.timeZone), .text(e.locationName), .text(e.address), .real(e.latitude), .real(e.longitude), .text(e.description), .text(e.link),
                .text(e.state.rawValue), .text(PlaceKey.make(e.locationName)),
            ]
        case .schoolInfo(let i):
            table = "school_info"
            columns = ["section", "title", "url", "document_type", "fingerprint", "group_name"]
            values = [.text(i.section.rawValue), .text(i.title), .text(i.url), .text(i.documentType.rawValue), .text(i.fingerprint), .text(i.group)]
        case .post(let p):
            table = "posts"
            columns = ["author_name", "author_role", "text", "image_urls", "created_at", "moderation_note"]
            values = [.text(p.authorName), .text(p.authorRole.rawValue), .text(p.text), json(p.imageURLs), .date(p.createdAt), .text(p.moderationNote)]
        case .absence(let r):
            table = "absence_reports"
            columns = ["student", "reported_by", "first_date", "dates", "periods", "reason", "note", "outcome"]
            values = [.text(r.student), .text(r.reportedBy), .text(r.dates.sorted().first), json(r.dates), json(r.periods), .text(r.reason.rawValue), .text(r.note), .text(r.outcome?.rawValue)]
        case .ticket(let t):
            table = "tickets"
            columns = ["from_name", "kind", "subject", "message", "replies", "reply_count", "closed"]
            values = [.text(t.from), .text(t.kind.rawValue), .text(t.subject), .text(t.message), json(t.replies), .integer(t.replies.count), .bool(t.closed)]
        case .deadline(let d):
            table = "deadlines"
            columns = ["title", "course", "course_name", "teacher", "due_at", "time_zone", "due_time_guessed", "category", "weight", "points", "reminders", "link", "description", "source_line"]
            values = [
                .text(d.title), .text(d.course), .text(d.courseName), .text(d.teacher), .date(d.due), .text(d.timeZone), .bool(d.dueTimeGuessed), .text(d.category.rawValue), .real(d.weight),
                .real(d.points), d.reminders.map(json) ?? .null, .text(d.link), .text(d.description), .text(d.sourceLine),
            ]
        }
    }

    /// The insert of this row for a new item (`item_seq` first, then the values).
    var insert: String {
        "INSERT INTO \(table) (item_seq, \(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))"
    }

    /// Writes this row for the item, inserted or replacing the one it had.
    func write(itemSeq: Int64, in db: any SQLSession) throws {
        let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        let updates = columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try db.run(
            "INSERT INTO \(table) (item_seq, \(columns.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT (item_seq) DO UPDATE SET \(updates)",
            [.integer(itemSeq)] + values)
    }
}
