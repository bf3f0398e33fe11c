import CLibXML2
import Foundation

/// A page's elements as the article extractor reads them: one entry per element in document
/// order, with the counts its scoring needs summed over each subtree in one pass.
///
/// Built from libxml2's tree iteratively (no recursion: a deep page cannot overflow the stack);
/// `script`, `style` and other elements that hold no reading text are left out with everything
/// under them.
struct ArticleTree {
    /// One element.
    struct Element {
        var node: xmlNodePtr
        var tag: String
        /// `id` and `class`, lowercased, space-joined: what the class-weight patterns read.
        var names: String
        var parent: Int?
        var children: [Int] = []
        /// Characters of text in the subtree (whitespace runs count as one).
        var textLength = 0
        /// Characters of that text inside links.
        var linkLength = 0
        /// Commas in the subtree's text (a sign of sentences).
        var commas = 0
        /// Characters and commas of the element's own text (its text children, not its
        /// elements'): text written between `<br>`s straight in a `<div>`.
        var ownLength = 0
        var ownCommas = 0
        /// Whether the element is hidden (`hidden`, `aria-hidden`, `display:none`), itself or
        /// through an ancestor.
        var hidden = false

        var linkDensity: Double { textLength == 0 ? 0 : Double(linkLength) / Double(textLength) }
    }

    private(set) var elements: [Element] = []

    /// Tags whose content is never reading text.
    static let skipped: Set<String> = [
        "script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed", "canvas", "select", "option", "button", "textarea",
        "input", "head", "title", "meta", "link",
    ]

    init(_ root: xmlNodePtr) {
        // Pass 1: elements in document order with their own text.
        var stack: [(xmlNodePtr, Int?)] = [(root, nil)]
        var ownText: [(length: Int, commas: Int)] = []
        var inLink: [Bool] = []
        while let (node, parent) = stack.popLast() {
            let type = node.pointee.type
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
                guard let parent, let content = node.pointee.content else { continue }
                let (length, commas) = ArticleTree.measure(content)
                ownText[parent].length += length
                ownText[parent].commas += commas
                continue
            }
            guard type == XML_ELEMENT_NODE || type == XML_DOCUMENT_NODE || type == XML_HTML_DOCUMENT_NODE else { continue }
            let tag = type == XML_ELEMENT_NODE ? node.pointee.name.map { String(cString: $0).lowercased() } ?? "" : ""
            if ArticleTree.skipped.contains(tag) { continue }
            let index = elements.count
            var element = Element(node: node, tag: tag, names: "", parent: parent)
            if type == XML_ELEMENT_NODE {
                let id = ArticleTree.attribute(node, "id") ?? ""
                let cls = ArticleTree.attribute(node, "class") ?? ""
                element.names = (id + " " + cls).lowercased()
                // Hidden with its ancestors: nothing under a hidden element shows.
                element.hidden = (parent.map { elements[$0].hidden } ?? false) || ArticleTree.isHidden(node)
            }
            elements.append(element)
            ownText.append((0, 0))
            inLink.append(tag == "a" || (parent.map { inLink[$0] } ?? false))
            if let parent { elements[parent].children.append(index) }
            for c in HTMLNode.childNodes(node).reversed() { stack.append((c, index)) }
        }
        // Pass 2: sums up the tree (children come after their parent in document order).
        for index in elements.indices.reversed() {
            elements[index].textLength += ownText[index].length
            elements[index].commas += ownText[index].commas
            elements[index].ownLength = ownText[index].length
            elements[index].ownCommas = ownText[index].commas
            if inLink[index] { elements[index].linkLength = elements[index].textLength }
            if let parent = elements[index].parent, !elements[index].hidden {
                elements[parent].textLength += elements[index].textLength
                elements[parent].linkLength += elements[index].linkLength
                elements[parent].commas += elements[index].commas
            }
        }
    }

    subscript(_ index: Int) -> Element { elements[index] }
    var count: Int { elements.count }

    /// The length of a text node's content with whitespace runs counted once, and its commas.
    static func measure(_ content: UnsafePointer<xmlChar>) -> (Int, Int) {
        var length = 0, commas = 0
        var space = true
        var pointer = content
        while pointer.pointee != 0 {
            let byte = pointer.pointee
            pointer += 1
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                if !space { length += 1 }
                space = true
                continue
            }
            space = false
            // UTF-8 continuation bytes are part of the character before.
            if byte & 0xC0 != 0x80 { length += 1 }
            if byte == 0x2C { commas += 1 }
        }
        return (length, commas)
    }

    static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { clibxml2_free(value) }
        return String(cString: value)
    }

    static func isHidden(_ node: xmlNodePtr) -> Bool {
        if xmlHasProp(node, "hidden") != nil { return true }
        if attribute(node, "aria-hidden") == "true" { return true }
        guard let style = attribute(node, "style")?.lowercased().replacingOccurrences(of: " ", with: "") else { return false }
        return style.contains("display:none") || style.contains("visibility:hidden")
    }
}
