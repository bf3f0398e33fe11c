import CLibXML2
import Foundation

/// Reduces HTML to an allowlist the app can show safely: no script, style, iframes, forms,
/// event handlers or `javascript:` URLs; links and images made absolute.
public enum Sanitizer {
    static let allowedTags: Set<String> = [
        "p", "br", "a", "strong", "b", "em", "i", "u", "ul", "ol", "li", "h2", "h3", "h4", "h5", "h6", "blockquote",
        "img", "figure", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "hr", "pre", "code", "sup", "sub",
    ]
    /// Tags removed with everything inside them.
    static let droppedTags: Set<String> = [
        "script", "style", "iframe", "object", "form", "button", "select", "textarea", "noscript",
        "template", "svg", "math", "head", "title", "frame", "frameset", "applet", "audio", "video", "canvas",
    ]
    /// Void elements that are dropped: they hold nothing of their own, so anything found under
    /// one is a sibling the parser misplaced and is walked as such.
    static let voidDroppedTags: Set<String> = ["embed", "input", "link", "meta", "base", "source", "track", "param", "wbr", "area", "col"]
    static let allowedAttributes: [String: [String]] = [
        "a": ["href", "title"], "img": ["src", "alt", "width", "height"], "td": ["colspan", "rowspan"], "th": ["colspan", "rowspan"],
    ]

    /// The sanitized inner HTML of a node; URLs resolved against its document.
    ///
    /// `renaming`:
    /// links whose text is replaced, by their resolved address (`LinkNames`).
    public static func sanitize(_ node: HTMLNode, renaming: [String: String] = [:]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        var child = node.raw.pointee.children
        while let c = child {
            write(c, document: node.document, renaming: renaming, into: &out)
            child = c.pointee.next
        }
        // Trim surrounding whitespace and newlines.
        var start = 0, end = out.count
        while start < end, out[start] == 10 || out[start] == 32 { start += 1 }
        while end > start, out[end - 1] == 10 || out[end - 1] == 32 { end -= 1 }
        return String(decoding: out[start..<end], as: UTF8.self)
    }

    /// Sanitizes an HTML string (a feed's `content`, a WordPress `content.rendered`).
    public static func sanitize(html: String, baseURL: URL?, renaming: [String: String] = [:]) -> String {
        guard let document = try? HTMLDocument(html: "<html><body>" + html + "</body></html>", url: baseURL),
            let body = try? document.root.select("body").first
        else { return "" }
        return sanitize(body, renaming: renaming)
    }

    /// Appends a newline unless the output already ends a line.
    private static func breakLine(_ out: inout [UInt8]) {
        if let last = out.last, last != 10 { out.append(10) }
    }

    private static func write(_ start: xmlNodePtr, document: HTMLDocument, renaming: [String: String], into out: inout [UInt8]) {
        // Iterative walk: (node, closing tag to emit after children).
        var stack: [(xmlNodePtr?, [UInt8]?)] = [(start, nil)]
        while let (nodeOrNil, closing) = stack.popLast() {
            if let closing {
                if closing == [10] { breakLine(&out) } else { out += closing }
                continue
            }
            guard let node = nodeOrNil else { continue }
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { appendEscapedText(content, into: &out) }
                continue
            case XML_ELEMENT_NODE:
                break
            default:
                continue
            }
            let tag = node.pointee.name.map { String(cString: $0) } ?? ""
            if droppedTags.contains(tag) { continue }
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let c = child {
                children.append(c)
                child = c.pointee.next
            }
            if voidDroppedTags.contains(tag) {
                // A void element has no content; what the parser hung under it (libxml2 does so
                // after an <embed>) is the page's next siblings, and is kept.
                for c in children.reversed() { stack.append((c, nil)) }
                continue
            }
            let element = HTMLNode(raw: node, document: document)
            if allowedTags.contains(tag) || tag == "h1" {
                let name = tag == "h1" ? "h2" : tag
                var attributes = ""
                for attribute in allowedAttributes[tag] ?? [] {
                    guard var value = element.attribute(attribute) else { continue }
                    if attribute == "href" || attribute == "src" {
                        guard let resolved = safeURL(value, document: document) else { continue }
                        value = resolved
                    }
                    attributes += " \(attribute)=\"\(escape(value, attribute: true))\""
                }
                if tag == "a" && attributes.isEmpty {
                    // A link with nothing safe left is just its text.
                } else if tag == "img" && !attributes.contains("src=") {
                    continue
                } else {
                    if blockTags.contains(name) { breakLine(&out) }
                    out += Array("<\(name)\(attributes)>".utf8)
                    if tag == "br" || tag == "hr" || tag == "img" { continue }
                    if tag == "a", !renaming.isEmpty, let href = element.attribute("href").flatMap({ safeURL($0, document: document) }),
                        let text = renaming[href]
                    {
                        out += Array((escape(text) + "</a>").utf8)
                        continue
                    }
                    if blockTags.contains(name) { stack.append((nil, [10])) }
                    stack.append((nil, Array("</\(name)>".utf8)))
                }
            } else if HTMLNode.blockNames.contains(tag) {
                // div, section...: keep the content, as a paragraph break.
                breakLine(&out)
                stack.append((nil, [10]))
            }
            for c in children.reversed() { stack.append((c, nil)) }
        }
    }

    static let blockTags: Set<String> = ["p", "ul", "ol", "li", "h2", "h3", "h4", "h5", "h6", "blockquote", "figure", "table", "tr", "pre"]

    /// Appends UTF-8 text with &, <, > escaped and runs of whitespace collapsed (as a browser shows them).
    private static func appendEscapedText(_ text: UnsafePointer<xmlChar>, into out: inout [UInt8]) {
        var pointer = text
        var space = false
        while pointer.pointee != 0 {
            // A run of bytes that are neither white space nor escaped is copied whole.
            var end = pointer
            while true {
                switch end.pointee {
                case 0, 32, 9, 10, 13, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0xC2: break
                default:
                    end += 1
                    continue
                }
                break
            }
            if end != pointer {
                if space {
                    if let last = out.last, last != 10 && last != 32 { out.append(32) }
                    space = false
                }
                out.append(contentsOf: UnsafeBufferPointer(start: pointer, count: end - pointer))
                pointer = end
                continue
            }
            let byte = pointer.pointee
            switch byte {
            case 32, 9, 10, 13:
                space = true
            default:
                if space {
                    if let last = out.last, last != 10 && last != 32 { out.append(32) }
                    space = false
                }
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case 0xC2 where pointer[1] == 0xA0:
                    out.append(contentsOf: "&nbsp;".utf8)
                    pointer += 1
                default: out.append(byte)
                }
            }
            pointer += 1
        }
        if space, let last = out.last, last != 10 && last != 32 { out.append(32) }
    }

    /// An absolute http(s) or mailto URL, or nil for anything else (`javascript:`, `data:`, `file:`).
    static func safeURL(_ value: String, document: HTMLDocument) -> String? {
        guard let resolved = document.resolve(value) else { return nil }
        let lower = resolved.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") else { return nil }
        return resolved
    }

    /// Text as HTML: `&`, `<`, `>` (and `"` in an attribute) escaped.
    public static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\u{A0}": out += "&nbsp;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
