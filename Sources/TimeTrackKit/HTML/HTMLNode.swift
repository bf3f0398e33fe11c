import CLibXML2
import Foundation
import TimeTrackCore

/// An element (or the document) in a parsed page.
///
/// Holds its document alive.
public struct HTMLNode {
    let raw: xmlNodePtr
    /// The document the node belongs to.
    public let document: HTMLDocument

    /// The same for every `HTMLNode` of one element of one document: a key for caches.
    public var identity: Int { Int(bitPattern: raw) }

    init(raw: xmlNodePtr, document: HTMLDocument) {
        self.raw = raw
        self.document = document
    }

    /// The lowercase tag name (`""` for the document node).
    public var name: String {
        guard raw.pointee.type == XML_ELEMENT_NODE, let name = raw.pointee.name else { return "" }
        return String(cString: name)
    }

    /// An attribute's value, or nil when absent.
    public func attribute(_ name: String) -> String? {
        guard raw.pointee.type == XML_ELEMENT_NODE, let value = xmlGetProp(raw, name) else { return nil }
        defer { clibxml2_free(value) }
        return String(cString: value)
    }

    /// Whether the node has a class (space-separated `class` attribute).
    public func hasClass(_ name: String) -> Bool {
        attribute("class")?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains { $0 == name } ?? false
    }

    /// The parent element, if any.
    public var parent: HTMLNode? {
        guard let parent = raw.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return HTMLNode(raw: parent, document: document)
    }

    /// Child elements with this local name (namespace prefix ignored, case-insensitive).
    public func children(named name: String) -> [HTMLNode] {
        children.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The first child element with this local name.
    public func child(named name: String) -> HTMLNode? {
        children.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The namespace prefix of the element (`media` for `media:content`), if any.
    public var prefix: String? {
        guard raw.pointee.type == XML_ELEMENT_NODE, let ns = raw.pointee.ns, let p = ns.pointee.prefix else { return nil }
        return String(cString: p)
    }

    /// The text content without normalization (CDATA and entities resolved), for XML values.
    public var rawContent: String {
        guard let content = xmlNodeGetContent(raw) else { return "" }
        defer { clibxml2_free(content) }
        return String(cString: content)
    }

    /// The comment just before the element (blank text between them skipped): a template's
    /// note such as `<!-- Red emergency banner -->`; nil when an element or text comes first.
    public var precedingComment: String? {
        var node = raw.pointee.prev
        while let here = node {
            if here.pointee.type == XML_COMMENT_NODE {
                guard let content = xmlNodeGetContent(here) else { return nil }
                defer { clibxml2_free(content) }
                return String(cString: content)
            }
            guard here.pointee.type == XML_TEXT_NODE, let content = xmlNodeGetContent(here) else { return nil }
            let blank = String(cString: content).allSatisfy(\.isWhitespace)
            clibxml2_free(content)
            guard blank else { return nil }
            node = here.pointee.prev
        }
        return nil
    }

    /// Child elements in order.
    public var children: [HTMLNode] {
        var result: [HTMLNode] = []
        var child = raw.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE { result.append(HTMLNode(raw: node, document: document)) }
            child = node.pointee.next
        }
        return result
    }

    /// The text inside, whitespace (and `&nbsp;`) collapsed to single spaces, trimmed; block
    /// boundaries and `<br>` count as spaces.
    ///
    /// Script and style contents are skipped.
    public var text: String { TextNormalizer.collapse(rawText(blocks: false)) }

    /// The text inside with block elements (p, div, li, br, headings) as line breaks;
    /// spaces collapsed within lines, empty lines dropped.
    public var blockText: String {
        rawText(blocks: true).split(separator: "\n").map { TextNormalizer.collapse(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static let blockNames: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "section", "article", "header",
        "footer", "blockquote", "pre", "dd", "dt", "figure", "figcaption", "hr",
    ]

    /// The text of the node's own text children, as written (a `<script>`'s JSON, which `text`
    /// skips), without collapsing spaces.
    public var childText: String {
        var out = ""
        var child = raw.pointee.children
        while let node = child {
            if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE, let content = node.pointee.content {
                out += String(cString: content)
            }
            child = node.pointee.next
        }
        return out
    }

    /// Every child node of `node` (text, elements, comments), in order.
    static func childNodes(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var children: [xmlNodePtr] = []
        var child = node.pointee.children
        while let c = child {
            children.append(c)
            child = c.pointee.next
        }
        return children
    }

    /// Concatenated text, iteratively (deep trees cannot overflow the stack).
    func rawText(blocks: Bool) -> String {
        var out = ""
        var stack: [(xmlNodePtr, Bool)] = [(raw, false)]  // (node, closing)
        while let (node, closing) = stack.popLast() {
            let type = node.pointee.type
            if closing {
                out += blocks ? "\n" : " "
                continue
            }
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
                if let content = node.pointee.content { out += String(cString: content) }
                continue
            }
            guard type == XML_ELEMENT_NODE || type == XML_DOCUMENT_NODE || type == XML_HTML_DOCUMENT_NODE else { continue }
            let tag = type == XML_ELEMENT_NODE ? node.pointee.name.map { String(cString: $0) } ?? "" : ""
            if tag == "script" || tag == "style" || tag == "noscript" || tag == "template" { continue }
            // Block boundaries (and <br>) separate words: a line break in block text, a space in
            // plain text ("Office<br>42 W. Main" is "Office 42 W. Main", never "Office42").
            if HTMLNode.blockNames.contains(tag) {
                out += blocks ? "\n" : " "
                stack.append((node, true))
            }
            for c in HTMLNode.childNodes(node).reversed() { stack.append((c, false)) }
        }
        return out
    }

    /// The node's own HTML (outer), as libxml2 serializes it.
    public var outerHTML: String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        htmlNodeDump(buffer, document.doc, raw)
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    /// The HTML of the node's children.
    public var innerHTML: String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        var child = raw.pointee.children
        while let node = child {
            htmlNodeDump(buffer, document.doc, node)
            child = node.pointee.next
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    /// The node's content cut at each `<br>` (and, with `atBlocks`, around each block element
    /// such as `p`, `li` or `div`): the HTML of each piece that has text, in order.
    ///
    /// What a
    /// `split` item spec makes one item of.
    public func pieces(atBlocks: Bool) -> [String] {
        var pieces: [String] = []
        var current = ""
        var hasText = false
        func flush() {
            if hasText { pieces.append(current) }
            current = ""
            hasText = false
        }
        func walk(_ parent: xmlNodePtr, depth: Int) {
            var child = parent.pointee.children
            while let node = child {
                child = node.pointee.next
                let type = node.pointee.type
                let tag = type == XML_ELEMENT_NODE ? node.pointee.name.map { String(cString: $0).lowercased() } ?? "" : ""
                if tag == "br" {
                    flush()
                    continue
                }
                // A block's content is cut too: around it by lines, only at its <br>s otherwise.
                if depth < 64, HTMLNode.blockNames.contains(tag) {
                    if atBlocks { flush() }
                    walk(node, depth: depth + 1)
                    if atBlocks { flush() }
                    continue
                }
                // An inline element with a <br> inside (`<b>Sept 14<br>Sept 21</b>`) is cut at it
                // too: its pieces are its text, without its own tag.
                if depth < 64, type == XML_ELEMENT_NODE, HTMLNode.holdsBreak(node) {
                    walk(node, depth: depth + 1)
                    continue
                }
                guard let buffer = xmlBufferCreate() else { continue }
                htmlNodeDump(buffer, document.doc, node)
                if let content = xmlBufferContent(buffer) { current += String(cString: content) }
                xmlBufferFree(buffer)
                if !hasText, !HTMLNode(raw: node, document: document).rawText(blocks: false).allSatisfy(\.isWhitespace) { hasText = true }
            }
        }
        walk(raw, depth: 0)
        flush()
        return pieces
    }

    /// Whether an element holds a `<br>` among its descendants (a bounded walk).
    static func holdsBreak(_ element: xmlNodePtr) -> Bool {
        var stack: [xmlNodePtr] = [element]
        var visited = 0
        while let node = stack.popLast(), visited < 10_000 {
            visited += 1
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE {
                    if let name = current.pointee.name, xmlStrcasecmp(name, "br") == 0 { return true }
                    stack.append(current)
                }
                child = current.pointee.next
            }
        }
        return false
    }

    /// Elements matching a CSS selector, in document order.
    public func select(_ selector: String) throws -> [HTMLNode] {
        try select(Selector(selector))
    }

    /// Elements matching a compiled selector, in document order.
    public func select(_ selector: Selector) -> [HTMLNode] {
        selector.evaluate(on: self)
    }

    /// The first element matching a compiled selector, or nil; stops at the first match.
    public func first(_ selector: Selector) -> HTMLNode? {
        selector.evaluate(on: self, firstOnly: true).first
    }

    /// The first element matching a CSS selector, or nil (also for an invalid selector).
    public func first(_ selector: String) -> HTMLNode? {
        (try? select(selector))?.first
    }

    /// Elements matching an XPath expression relative to this node.
    public func xpath(_ expression: String) throws -> [HTMLNode] {
        try XPath(expression).evaluate(on: self)
    }

    /// Whether `ancestor` is `node` or contains it.
    public static func contains(_ ancestor: HTMLNode, _ node: HTMLNode) -> Bool {
        var current: xmlNodePtr? = node.raw
        while let c = current {
            if c == ancestor.raw { return true }
            current = c.pointee.parent
        }
        return false
    }

    /// Whether `a` comes before `b` in document order (an ancestor comes before its descendants).
    public static func precedes(_ a: HTMLNode, _ b: HTMLNode) -> Bool {
        xmlXPathCmpNodes(a.raw, b.raw) == 1
    }
}
