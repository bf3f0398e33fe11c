import Foundation
import TimeTrackCore
import TimeTrackKit

/// A source a page declares or links: a feed, a calendar, an API.
public struct FoundFeed: Sendable, Equatable {
    public var url: String
    public var importer: ImporterName
    public var kind: ItemKind
    /// Where it was found ("<link rel=alternate> on /news", "an embedded Google Calendar").
    public var why: String
}

/// Finds the feeds a page declares or links: RSS and Atom (`<link rel="alternate">`, feed
/// links), iCalendar (`.ics`, `webcal:`, an embedded Google Calendar's public address) and
/// WordPress's REST API.
public enum FeedFinder {
    public static func feeds(in document: HTMLDocument, page: URL) -> [FoundFeed] {
        var out: [FoundFeed] = []
        func add(_ href: String?, _ importer: ImporterName, _ kind: ItemKind, _ why: String) {
            guard let href, let resolved = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: page)?.absoluteURL,
                ["http", "https"].contains(resolved.scheme?.lowercased() ?? "")
            else { return }
            let url = resolved.absoluteString
            guard !out.contains(where: { $0.url == url }) else { return }
            out.append(FoundFeed(url: url, importer: importer, kind: kind, why: why))
        }
        let path = page.path.isEmpty ? "/" : page.path
        for link in (try? document.root.select("link[rel~=alternate]")) ?? [] {
            let type = (link.attribute("type") ?? "").lowercased()
            guard type.contains("rss") || type.contains("atom") else { continue }
            let title = (link.attribute("title") ?? "").lowercased()
            // A WordPress site's comments feed is no source of news.
            guard !title.contains("comments") else { continue }
            add(
                link.attribute("href"), .feed, title.contains("calendar") || title.contains("event") ? .event : .announcement,
                "<link rel=alternate> on \(path)")
        }
        if let api = (try? document.root.select("link[rel=\"https://api.w.org/\"]"))?.first?.attribute("href") {
            add(api.hasSuffix("/") ? api + "wp/v2/posts" : api + "/wp/v2/posts", .wordpress, .announcement, "WordPress's REST API, declared on \(path)")
        }
        for anchor in (try? document.root.select("a[href]")) ?? [] {
            guard let href = anchor.attribute("href")?.trimmingCharacters(in: .whitespaces) else { continue }
            let lower = href.lowercased()
            if lower.hasPrefix("webcal://") {
                add("https://" + href.dropFirst("webcal://".count), .ical, .event, "a webcal: link on \(path)")
            } else if URL(string: href, relativeTo: page)?.path.lowercased().hasSuffix(".ics") == true || lower.contains("/ical/")
                || lower.contains("icalfeed.ashx") || lower.contains("/generate_ical")
            {
                add(href, .ical, .event, "an iCalendar link on \(path)")
            } else if lower.hasSuffix(".rss") || lower.hasSuffix("/rss") || lower.hasSuffix("/feed") || lower.hasSuffix("/feed/") || lower.contains("rss.xml") {
                add(href, .feed, .announcement, "a feed link on \(path)")
            }
        }
        for frame in (try? document.root.select("iframe[src*=\"calendar.google.com\"]")) ?? [] {
            guard let src = frame.attribute("src"), let components = URLComponents(string: src) else { continue }
            for calendar in components.queryItems?.filter({ $0.name == "src" }).compactMap(\.value) ?? [] {
                let id = calendar.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "@"))) ?? calendar
                add("https://calendar.google.com/calendar/ical/\(id)/public/basic.ics", .ical, .event, "an embedded Google Calendar on \(path)")
            }
        }
        // Google's own embed page (the iframe's address given to discover): its calendars are
        // named in its script (`"cids":{"…@group.calendar.google.com": …}`).
        for script in (try? document.root.select("script:not([src])")) ?? [] where script.childText.contains("@group.calendar.google.com") {
            let text = script.childText.prefix(500_000)
            let pattern = #"[A-Za-z0-9._%+-]{1,200}@group\.calendar\.google\.com"#
            var search = text.startIndex..<text.endIndex
            while let found = text.range(of: pattern, options: .regularExpression, range: search), out.count < 20 {
                let id = String(text[found])
                let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "@"))) ?? id
                add(
                    "https://calendar.google.com/calendar/ical/\(encoded)/public/basic.ics", .ical, .event,
                    "a Google Calendar embed on \(path) (calendar \(id))")
                search = found.upperBound..<text.endIndex
            }
        }
        // WordPress's REST API reads the posts its RSS feed would, with more of each.
        if out.contains(where: { $0.importer == .wordpress }) {
            out.removeAll { $0.importer == .feed && ($0.url.hasSuffix("/feed/") || $0.url.hasSuffix("/feed")) }
        }
        return out
    }
}
