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
    /// Pictures shown in the page, by their address: `data:` URIs of local files and of a local
    /// mirror's pictures (`PreviewCommand`).
    ///
    /// Any other picture is a link with its description, so opening the page loads nothing from the
    /// web.
    public var inlinePictures: [String: String] = [:]
    /// The schools' places: the events' map shows them, and pins events by them.
    public var places: [Place] = []
    /// Items' schools, by id (to pin an event at its own school's place).
    public var schools: [String: String] = [:]

    public init(items: [(id: String, content: ItemContent, zone: TimeZone)], zone: TimeZone) {
        self.items = items.filter { $0.content.kind.traits.exported }
        self.zone = zone
    }

    /// The page.
    public func html() -> String {
        var sections: [String] = alertsSection().map { [$0] } ?? []
        let announcements = items.compactMap { item -> (String, Announcement, TimeZone)? in
            if case .announcement(let a) = item.content { return (item.id, a, item.zone) }
            return nil
        }
        if !announcements.isEmpty {
            let cards = announcements.map { id, a, zone in
                """
                <article class="slide" data-id="\(e(id))">\(a.imageURL.map { picture($0, alt: a.imageAlt) } ?? "")
                <h3>\(e(a.title))</h3>\(a.summary.map { "<p>\(e($0))</p>" } ?? "")
                <footer>\(a.priority == .normal ? "" : "<span class=\"badge\">\(e(a.priority.rawValue))</span> ")\
                \(a.publishedAt.map { e(day($0, zone)) } ?? "")</footer></article>
                """
            }
            sections.append("<section id=\"announcements\"><h2>Announcements</h2><div class=\"slides\">\(cards.joined())</div></section>")
        }
        let events = items.compactMap { item -> (String, Event, TimeZone)? in
            if case .event(let event) = item.content { return (item.id, event, item.zone) }
            return nil
        }.sorted { $0.1.start < $1.1.start }
        if let section = eventsSection(events) { sections.append(section) }
        let infos = items.compactMap { item -> (String, SchoolInfoItem)? in
            if case .schoolInfo(let info) = item.content { return (item.id, info) }
            return nil
        }
        if !infos.isEmpty {
            let groups = SchoolInfoItem.Section.allCases.compactMap { section -> String? in
                let inSection = infos.filter { $0.1.section == section }
                guard !inSection.isEmpty else { return nil }
                let rows = inSection.map { id, info in
                    "<li data-id=\"\(e(id))\"><span class=\"icon\">\(Preview.icon(info.documentType))</span>"
                        + " \(e(info.title))\(info.group.map { " <small>\(e($0))</small>" } ?? "")</li>"
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
                <article class="post" data-id="\(e(id))"><header><strong>\(e(p.authorName))</strong> <small>\(e(p.authorRole.rawValue)) ·\
                 \(e(day(p.createdAt, zone)))</small></header>\
                <p>\(e(p.text))</p>\
                \(p.imageURLs.enumerated().map { picture($1, alt: $0 < (p.imageAlts?.count ?? 0) ? p.imageAlts?[$0] : nil) }.joined())</article>
                """
            }
            sections.append("<section id=\"posts\"><h2>Posts</h2>\(cards.joined())</section>")
        }
        if sections.isEmpty {
            sections.append("<p class=\"empty\">Nothing to show: no alerts, announcements, upcoming events, School Info or posts were chosen.</p>")
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title>
            <style>\(Preview.css)</style></head>
            <body><main>
            <h1>\(e(title))</h1><p class="meta">\(items.count) item\(items.count == 1 ? "" : "s") as families will see them · made\
             \(e(day(generatedAt, zone) + " " + clock(generatedAt, zone)))</p>
            \(sections.joined(separator: "\n"))
            </main></body></html>
            """
    }

    /// The alerts, most severe first, at the top of the page as the app shows them; nil when
    /// there are none.
    func alertsSection() -> String? {
        let alerts = items.compactMap { item -> (String, Alert, TimeZone)? in
            if case .alert(let alert) = item.content { return (item.id, alert, item.zone) }
            return nil
        }.sorted { ($0.1.severity, $0.0) < ($1.1.severity, $1.0) }
        guard !alerts.isEmpty else { return nil }
        let banners = alerts.map { id, alert, zone in
            "<article class=\"alert \(e(alert.severity.rawValue))\" data-id=\"\(e(id))\"><strong>\(e(alert.severity.rawValue.uppercased()))</strong> "
                + e(alert.title) + (alert.message.map { "<p>\(e($0))</p>" } ?? "")
                + "<footer>until \(e(day(alert.expiresAt, zone) + " " + clock(alert.expiresAt, zone)))</footer></article>"
        }
        return "<section id=\"alerts\"><h2>Alerts</h2>\(banners.joined())</section>"
    }

    /// The events, by day, under their map; nil when there are none.
    ///
    /// Passed events leave the upcoming ones: they follow, folded, under "passed".
    func eventsSection(_ events: [(String, Event, TimeZone)]) -> String? {
        guard !events.isEmpty else { return nil }
        let upcoming = events.filter { !$0.1.hasPassed(at: generatedAt) }
        let passed = events.filter { $0.1.hasPassed(at: generatedAt) }
        let map = eventMap(events.map { ($0.0, $0.1) })?.svg(escape: e) ?? ""
        let folded =
            passed.isEmpty
            ? "" : "<details class=\"passed\"><summary>\(passed.count) passed event\(passed.count == 1 ? "" : "s")</summary>\(eventDays(passed))</details>"
        return "<section id=\"events\"><h2>Events</h2>\(map)\(eventDays(upcoming))\(folded)</section>"
    }

    /// Events as lists by day.
    func eventDays(_ events: [(String, Event, TimeZone)]) -> String {
        var byDay: [(String, [String])] = []
        for (id, event, zone) in events {
            let eventZone = TimeZone(identifier: event.timeZone) ?? zone
            let label = day(event.start, eventZone)
            let time = event.allDay ? "all day" : clock(event.start, eventZone) + (event.end.map { "–" + clock($0, eventZone) } ?? "")
            let place = [event.locationName, event.address].compactMap { $0 }.joined(separator: ", ")
            let row = """
                <li class="event \(e(event.category.rawValue))\(event.state == .scheduled ? "" : " off")" data-id="\(e(id))"><span\
                 class="chip">\(e(event.category.rawValue))</span> \
                <span class="time">\(e(time))</span>\
                 <strong>\(e(event.title))</strong>\(event.state == .scheduled ? "" : " <em>\(e(event.state.rawValue))</em>")\
                \(place.isEmpty ? "" : "<div class=\"place\">at \(e(place))</div>")</li>
                """
            if byDay.last?.0 == label { byDay[byDay.count - 1].1.append(row) } else { byDay.append((label, [row])) }
        }
        return byDay.map { "<h3>\(e($0.0))</h3><ul>\($0.1.joined())</ul>" }.joined()
    }

    /// A picture as the page shows it: inline when its bytes are known, else a link that says
    /// what it shows; a picture without a description is marked so.
    func picture(_ url: String, alt: String?) -> String {
        let described = !(alt ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        let mark = described ? "" : "<span class=\"nodesc\">no description</span>"
        if let data = inlinePictures[url] {
            return "<div class=\"pic\"><img src=\"\(data)\" alt=\"\(e(alt ?? ""))\">\(mark)</div>"
        }
        let name = (URL(string: url)?.lastPathComponent).flatMap { $0.isEmpty ? nil : $0 } ?? url
        return "<div class=\"pic\"><a href=\"\(e(url))\">picture: \(e(described ? (alt ?? "") : name))</a>\(mark)</div>"
    }

    /// The events' pins (their own coordinates, or their place's) among the schools' places.
    func eventMap(_ events: [(String, Event)]) -> PreviewMap? {
        let gazetteer = Gazetteer(places)
        let dots = places.compactMap { place -> PreviewMap.Point? in
            guard let latitude = place.latitude, let longitude = place.longitude else { return nil }
            return PreviewMap.Point(latitude: latitude, longitude: longitude, label: place.name, category: nil)
        }
        let pins = events.compactMap { id, event -> PreviewMap.Point? in
            let pinned = gazetteer.pinned(event, school: schools[id]).event
            guard let latitude = pinned.latitude, let longitude = pinned.longitude else { return nil }
            let place = pinned.locationName.map { " at \($0)" } ?? ""
            return PreviewMap.Point(latitude: latitude, longitude: longitude, label: event.title + place, category: event.category)
        }
        return pins.isEmpty ? nil : PreviewMap(places: dots, pins: pins)
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
        h1{margin:0 0 4px}.meta{color:#555;margin:0 0 24px}section{background:#fff;border-radius:12px;padding:16px 20px;margin:0 0 20px;box-shadow:0\
         1px 3px #0002}
        .alert{border-left:6px solid #b91c1c;background:#fef2f2;padding:8px 12px;margin:6px 0}.alert.urgent{border-color:#c2410c;background:#fff7ed}\
        .alert.info{border-color:#1d4ed8;background:#eff6ff}.alert p{margin:4px 0}.alert footer{color:#555;font-size:14px}
        .slides{display:flex;flex-wrap:wrap;gap:12px}.slide{flex:1 1 220px;background:#1e3a8a;color:#fff;border-radius:10px;padding:14px}
        .pic{margin-bottom:8px}.pic img{display:block;max-width:100%;border-radius:6px}.slide .pic\
         a{color:#fff}.nodesc{display:inline-block;background:#fde68a;color:#111;border-radius:4px;padding:0 5px;font-size:12px;margin-top:4px}
        .map{margin:0 0 12px}.map svg{width:100%;height:auto;border-radius:8px}.ground{fill:#e5efe5}.place-dot{fill:#6b7280}.pin\
         circle{fill:#6b7280;stroke:#fff;stroke-width:2}.pin text{fill:#fff;font-size:11px;font-weight:700}
        .pin.academic circle{fill:#2563eb}.pin.athletics circle{fill:#15803d}.pin.arts circle{fill:#7e22ce}.pin.community\
         circle{fill:#c2410c}.pin.board circle{fill:#0f766e}.pin.no-school circle{fill:#b91c1c}.pins{font-size:14px;color:#333;margin:6px 0 0;\
        padding-left:22px;list-style:decimal}
        .slide footer{font-size:13px;opacity:.85}.badge{background:#f59e0b;color:#111;border-radius:4px;padding:0 5px}
        ul{list-style:none;padding:0;margin:0 0 8px}.event{padding:6px 0;border-bottom:1px solid\
         #eee}.chip{display:inline-block;border-radius:8px;padding:0 7px;color:#fff;background:#6b7280;font-size:12px}
        .academic .chip{background:#2563eb}.athletics .chip{background:#15803d}.arts .chip{background:#7e22ce}.community .chip{background:#c2410c}
        .board .chip{background:#0f766e}.no-school\
         .chip{background:#b91c1c}.off{color:#4b5563;text-decoration:line-through}.time{color:#444}.place{color:#555;font-size:14px;margin-left:4px}
        .docs li{padding:4px\
         0}.icon{display:inline-block;min-width:2.6em;text-align:center;font-size:11px;font-weight:600;background:#e0e7ff;color:#3730a3;\
        border-radius:4px;margin-right:6px}.post{border:1px solid #e5e7eb;border-radius:10px;padding:12px;margin:0 0 10px}.empty{color:#555}
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
