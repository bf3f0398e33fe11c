import Foundation
import TimeTrackCore

extension Exporter {
    /// Published announcements as RSS 2.0, newest first.
    public func rss(school: String? = nil) throws -> Data {
        let items = try published(.announcement, school: school).reversed()
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">"# + "\n<channel>\n"
        out += "  <title>\(RSSWriter.escape(calendarName))</title>\n  <link>\(RSSWriter.escape(siteURL))</link>\n"
        out += "  <description>\(RSSWriter.escape(calendarName)) announcements</description>\n"
        out += "  <lastBuildDate>\(RSSWriter.rfc822(now))</lastBuildDate>\n  <generator>timetrack-admin</generator>\n"
        for item in items {
            guard case .announcement(let a) = item.content else { continue }
            out += "  <item>\n"
            out += "    <title>\(RSSWriter.escape(a.title))</title>\n"
            if let link = a.link { out += "    <link>\(RSSWriter.escape(link))</link>\n" }
            out += "    <guid isPermaLink=\"false\">\(RSSWriter.escape(item.id))@timetrack</guid>\n"
            out += "    <pubDate>\(RSSWriter.rfc822(a.publishedAt ?? item.createdAt))</pubDate>\n"
            if let summary = a.summary { out += "    <description>\(RSSWriter.escape(summary))</description>\n" }
            if let body = a.body { out += "    <content:encoded>\(RSSWriter.escape(body))</content:encoded>\n" }
            if let image = a.imageURL { out += "    <enclosure url=\"\(RSSWriter.escape(image))\" length=\"0\" type=\"\(RSSWriter.imageType(image))\"/>\n" }
            if a.priority == .urgent { out += "    <category>urgent</category>\n" }
            out += "  </item>\n"
        }
        out += "</channel>\n</rss>\n"
        return Data(out.utf8)
    }
}

enum RSSWriter {
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // XML 1.0 forbids most control characters.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    static func imageType(_ url: String) -> String {
        switch (URL(string: url)?.pathExtension ?? "").lowercased() {
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        default: return "image/jpeg"
        }
    }
}
