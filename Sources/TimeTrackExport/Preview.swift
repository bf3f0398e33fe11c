import Foundation
import TimeTrackCore

/// A static HTML page showing items as the app shows them, for a reviewer to see before
/// families do: the announcements slideshow as cards, events by day with category colours and
/// the place, School Info grouped by section with document icons, posts as cards.
///
/// One self-contained file (inline CSS, no script, no remote fonts); every text from the store
/// is HTML-escaped; links open nothing on load. Private kinds (absence reports, tickets) are
/// never shown. Dates are in each item's own zone (an event's, else its source's, given with it).
public struct Preview {
    /// What to show: each item with the content the page shows (pending content for `--pending`)
    /// and the zone its dates are read in (its source's; an event's own zone wins).
    public var items: [(id: String, content: ItemContent, zone: TimeZone)]
    /// The zone of the page's own "made at" line (the machine's).
    public var zone: TimeZone
    public var title = "Time Track preview"
    public var generatedAt = Date()

    public init(items: [(id: String, content: ItemContent, zone: TimeZone)], zone: TimeZone) {
        self.items = items.filter { $0.content.kind.traits.exported }
        self.zone = zone
    }

    /// The page.
    public func html() -> String {
        var sections: [String] = []
        let announcements = items.compactMap { item -> (String, Announcement, TimeZone)? in
            if case .announcement(let a) = item.content { return (item.id, a, item.zone) }
            return nil
        }
        if !announcements.isEmpty {
            let cards = announcements.map { id, a, zone in
                """
                <article class="slide" data-id="\(e(id))">\(a.imageURL.map { "<div class=\"img\" role=\"img\" aria-label=\"\(e(a.imageAlt ?? ""))\">image: \(e(($0 as NSString).lastPathComponent))</div>" } ?? "")
                <h3>\(e(a.title))</h3>\(a.summary.map { "<p>\(e($0))</p>" } ?? "")
                <footer>\(a.priority == .normal ? "" : "<span class=\"badge\">\(e(a.priority.rawValue))</span> ")\(a.publishedAt.map { e(day($0, zone)) } ?? "")</footer></article>
                """
            }
            sections.append("<section id=\"announcements\"><h2>Announcements</h2><div class=\"slides\">\(cards.joined())</div></section>")
        }
        let events = items.compactMap { item -> (String, Event, TimeZone)? in
            if case .event(let event) = item.content { return (item.id, event, item.zone) }
            return nil
        }.sorted { $0.1.start < $1.1.start }
        if !events.isEmpty {
            var byDay: [(String, [String])] = []
            for (id, event, zone) in events {
                let eventZone = TimeZone(identifier: event.timeZone) ?? zone
                let label = day(event.start, eventZone)
                let time = event.allDay ? "all day" : clock(event.start, eventZone) + (event.end.map { "–" + clock($0, eventZone) } ?? "")
                let place = [event.locationName, event.address].compactMap { $0 }.joined(separator: ", ")
                let row = """
                    <li class="event \(e(event.category.rawValue))\(event.state == .scheduled ? "" : " off")" data-id="\(e(id))"><span class="chip">\(e(event.category.rawValue))</span> \
                    <span class="time">\(e(time))</span> <strong>\(e(event.title))</strong>\(event.state == .scheduled ? "" : " <em>\(e(event.state.rawValue))</em>")\
                    \(place.isEmpty ? "" : "<div class=\"place\">at \(e(place))</div>")</li>
                    """
                if byDay.last?.0 == label { byDay[byDay.count - 1].1.append(row) } else { byDay.append((label, [row])) }
            }
            let days = byDay.map { "<h3>\(e($0.0))</h3><ul>\($0.1.joined())</ul>" }.joined()
            sections.append("<section id=\"events\"><h2>Events</h2>\(days)</section>")
        }
        let infos = items.compactMap { item -> (String, SchoolInfoItem)? in
            if case .schoolInfo(let info) = item.content { return (item.id, info) }
            return nil
        }
        if !infos.isEmpty {
            let groups = SchoolInfoItem.Section.allCases.compactMap { section -> String? in
                let inSection = infos.filter { $0.1.section == section }
                guard !inSection.isEmpty else { return nil }
                let rows = inSection.map { id, info in
                    "<li data-id=\"\(e(id))\"><span class=\"icon\">\(Preview.icon(info.documentType))</span> \(e(info.title))\(info.group.map { " <small>\(e($0))</small>" } ?? "")</li>"
                }
                return "<h3>\(e(section.rawValue.capitalized))</h3><ul class=\"docs\">\(rows.joined())</ul>"
            }
            sections.append("<section id=\"school-info\"><h2>School Info</h2>\(groups.joined())</section>")
        }
        let posts = items.compactMap { item -> (String, Post, TimeZone)? in
            if case .post(let post) = item.content { return (item.id, post, item.zone) }
            return nil
        }
        if !posts.isEmpty {
            let cards = posts.map { id, p, zone in
                """
                <article class="post" data-id="\(e(id))"><header><strong>\(e(p.authorName))</strong> <small>\(e(p.authorRole.rawValue)) · \(e(day(p.createdAt, zone)))</small></header>\
                <p>\(e(p.text))</p>\(p.imageURLs.map { "<div class=\"img\">photo: \(e(($0 as NSString).lastPathComponent))</div>" }.joined())</article>
                """
            }
            sections.append("<section id=\"posts\"><h2>Posts</h2>\(cards.joined())</section>")
        }
        if sections.isEmpty { sections.append("<p class=\"empty\">Nothing to show: no announcements, events, School Info or posts were chosen.</p>") }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title>
            <style>\(Preview.css)</style></head>
            <body><main>
            <h1>\(e(title))</h1><p class="meta">\(items.count) item\(items.count == 1 ? "" : "s") as families will see them · made \(e(day(generatedAt, zone) + " " + clock(generatedAt, zone)))</p>
            \(sections.joined(separator: "\n"))
            </main></body></html>
            """
    }

    static func icon(_ type: SchoolInfoItem.DocumentType) -> String {
        switch type {
        case .pdf: return "PDF"
        case .image: return "IMG"
        case .page: return "WEB"
        case .video: return "VID"
        case .document: return "DOC"
        case .spreadsheet: return "XLS"
        case .other: return "FILE"
        }
    }

    static let css = """
        body{margin:0;background:#f3f4f6;font:16px/1.4 system-ui,sans-serif;color:#111}main{max-width:760px;margin:0 auto;padding:24px}
        h1{margin:0 0 4px}.meta{color:#555;margin:0 0 24px}section{background:#fff;border-radius:12px;padding:16px 20px;margin:0 0 20px;box-shadow:0 1px 3px #0002}
        .slides{display:flex;gap:12px;overflow-x:auto}.slide{min-width:260px;background:#1e3a8a;color:#fff;border-radius:10px;padding:14px}
        .slide .img,.post .img{background:#cbd5e1;color:#334155;border-radius:6px;padding:30px 8px;text-align:center;margin-bottom:8px}
        .slide footer{font-size:13px;opacity:.85}.badge{background:#f59e0b;color:#111;border-radius:4px;padding:0 5px}
        ul{list-style:none;padding:0;margin:0 0 8px}.event{padding:6px 0;border-bottom:1px solid #eee}.chip{display:inline-block;border-radius:8px;padding:0 7px;color:#fff;background:#6b7280;font-size:12px}
        .academic .chip{background:#2563eb}.athletics .chip{background:#15803d}.arts .chip{background:#7e22ce}.community .chip{background:#c2410c}
        .board .chip{background:#0f766e}.no-school .chip{background:#b91c1c}.off{color:#4b5563;text-decoration:line-through}.time{color:#444}.place{color:#555;font-size:14px;margin-left:4px}
        .docs li{padding:4px 0}.icon{display:inline-block;min-width:2.6em;text-align:center;font-size:11px;font-weight:600;background:#e0e7ff;color:#3730a3;border-radius:4px;margin-right:6px}.post{border:1px solid #e5e7eb;border-radius:10px;padding:12px;margin:0 0 10px}.empty{color:#555}
        """

    func e(_ text: String) -> String { RSSWriter.escape(SafeText.visible(text)) }

    func day(_ date: Date, _ zone: TimeZone) -> String { format(date, zone, "EEEE, MMMM d, yyyy") }
    func clock(_ date: Date, _ zone: TimeZone) -> String { format(date, zone, "h:mm a") }

    func format(_ date: Date, _ zone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
