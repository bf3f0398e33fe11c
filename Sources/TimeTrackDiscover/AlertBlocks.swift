import Foundation
import TimeTrackCore
import TimeTrackKit

/// An emergency banner on a page no recognizer knows: the block a district's template keeps for
/// its alerts, found by what marks it in real pages: its class or id (`emergency`, `alert`), the
/// template's comment before it (`<!-- Red emergency banner -->`), or a red background of its own.
enum AlertBlocks {
    struct Found {
        var selector: String
        var why: String
    }

    /// The page's alert block, or nil.
    ///
    /// Navigation, headers and footers are not searched; the first block found is the banner.
    static func find(in document: HTMLDocument) -> Found? {
        guard let any = BlockGroups.any else { return nil }
        for element in document.root.select(any).prefix(20_000) where ["div", "section", "aside", "p", "article"].contains(element.name) {
            guard let why = mark(element), !BlockGroups.inChrome(element), element.text.count <= 2_000 else { continue }
            let step = BlockGroups.step(element)
            let id = element.attribute("id").flatMap {
                $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && $0.first?.isLetter == true ? $0 : nil
            }
            let selector = id.map { "\(element.name)#\($0)" } ?? step
            // The selector must find this block alone: a class every card has is no banner.
            guard (try? document.root.select(selector).count) == 1 else { continue }
            return Found(selector: selector, why: why)
        }
        return nil
    }

    /// Names a banner for alerts has (a block merely named "emergency", as emergency contacts
    /// are, is not one).
    static let words = [
        "emergency-banner", "emergencybanner", "emergency_banner", "emergency-alert", "emergencyalert", "emergency_alert", "emergency-notice",
        "alert-banner", "alertbanner", "alert_banner", "site-alert", "sitealert", "urgent-alert", "closing-alert",
    ]

    /// Why an element is an alert block: its name, the comment before it, or its red background.
    static func mark(_ element: HTMLNode) -> String? {
        let names = ((element.attribute("class") ?? "") + " " + (element.attribute("id") ?? "")).lowercased()
        if let word = words.first(where: { names.contains($0) }), element.text.count >= 10 { return "a block named '\(word)'" }
        if let comment = element.precedingComment?.lowercased(), comment.contains("emergency") || (comment.contains("alert") && comment.contains("banner")),
            element.text.count >= 10
        {
            return "the template's comment before it: '\(TextNormalizer.truncate(TextNormalizer.collapse(comment), to: 60))'"
        }
        if let style = element.attribute("style")?.lowercased(), let red = redBackground(style), (20...600).contains(element.text.count) {
            return "a banner with a red background (\(red))"
        }
        return nil
    }

    /// A `background(-color): #rrggbb` that is red (much red, little green and blue).
    static func redBackground(_ style: String) -> String? {
        guard let range = style.range(of: #"background(-color)?\s*:\s*#[0-9a-f]{6}"#, options: .regularExpression) else { return nil }
        let hex = String(style[range].suffix(6))
        guard let value = Int(hex, radix: 16) else { return nil }
        let (red, green, blue) = (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
        return red >= 0x99 && green <= 0x50 && blue <= 0x60 ? "#" + hex : nil
    }
}

/// A page that is one event.
///
/// Its microformat (`h-event`'s `dt-start`, as the All-in-One Event
/// Calendar writes it) or its "add to Google Calendar" link, which carries the start and end
/// (`dates=20230520T090000/20230520T120000`). Read by the html importer, the page as one item.
enum EventPages {
    static let googleLink = #"a[href*="calendar/event?action=TEMPLATE"], a[href*="calendar/render?action=TEMPLATE"]"#

    /// The definition options that read the page's event, and why; nil when it is no event page.
    static func detect(_ document: HTMLDocument) -> (options: [String: JSONValue], why: String)? {
        let title: JSONValue = .array([.string("h1.entry-title"), .string("h1"), .string("meta[property=\"og:title\"]@content")])
        let link: JSONValue = .array([.string("link[rel=canonical]@href"), .string("meta[property=\"og:url\"]@content")])
        if ((try? document.root.select(".dt-start")) ?? []).count == 1 {
            let fields: [String: JSONValue] = [
                "title": title, "link": link, "start": .array([.string(".dt-start@datetime"), .string(".dt-start")]),
                "end": .array([.string(".dt-end@datetime"), .string(".dt-end")]), "location": .string(".p-location@lines"),
            ]
            return (["item": .string("html"), "fields": .object(fields)], "one event (its h-event microformat: .dt-start)")
        }
        guard let selector = try? Selector.compiled(googleLink) else { return nil }
        let links = document.root.select(selector)
        guard let first = links.first, let href = first.attribute("href"), href.contains("dates=") else { return nil }
        // Every such link of the page is this event's (a page may repeat it).
        guard Set(links.compactMap { $0.attribute("href") }).count == 1 else { return nil }
        let fields: [String: JSONValue] = [
            "title": title, "link": link,
            "start": .object(["select": .string("a[href*=\"action=TEMPLATE\"]@href"), "pattern": .string(#"dates=(\d{8}(?:T\d{6}Z?)?)"#)]),
            "end": .object(["select": .string("a[href*=\"action=TEMPLATE\"]@href"), "pattern": .string(#"dates=\d{8}(?:T\d{6}Z?)?/(\d{8}(?:T\d{6}Z?)?)"#)]),
        ]
        return (["item": .string("html"), "fields": .object(fields)], "one event (its \"add to Google Calendar\" link gives the start and end)")
    }
}
