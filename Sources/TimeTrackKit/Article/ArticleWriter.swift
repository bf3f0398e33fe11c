import CLibXML2
import Foundation

/// Writes the chosen part of a page as the article's text (a block a line) and as plain HTML
/// (sanitized after), leaving out the boilerplate inside it: hidden parts, navigation, forms,
/// share bars and related links (by their names), blocks that are mostly links, the headline.
struct ArticleWriter {
    let tree: ArticleTree
    let document: HTMLDocument
    private var lines: [String] = []
    private var line = ""
    private var rawHTML = ""
    /// Element indices by node, to look counts up while walking libxml2's tree.
    private let index: [xmlNodePtr: Int]

    init(tree: ArticleTree, document: HTMLDocument) {
        self.tree = tree
        self.document = document
        var index: [xmlNodePtr: Int] = [:]
        index.reserveCapacity(tree.count)
        for position in 0..<tree.count { index[tree[position].node] = position }
        self.index = index
    }

    var text: String {
        (lines + [line]).map { TextNormalizer.collapse($0) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    var html: String { Sanitizer.sanitize(html: rawHTML, baseURL: document.baseURL) }

    static let keptTags: Set<String> = [
        "p", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody", "tr", "td", "th", "blockquote", "pre", "a", "img", "br",
        "strong", "em", "b", "i", "dl", "dt", "dd", "figure",
    ]

    /// Whether an element inside the body is boilerplate to leave out.
    func leftOut(_ position: Int, isRoot: Bool) -> Bool {
        let element = tree[position]
        if element.hidden { return true }
        if isRoot { return false }
        if ArticleExtractor.dropped(element) || element.tag == "h1" { return true }
        if !element.names.isEmpty, ArticleExtractor.mentions(element.names, ArticleExtractor.boilerplate, words: ArticleExtractor.boilerplateWords) {
            return true
        }
        // A block that is mostly links (a list of related stories, tags, a menu).
        if ["div", "ul", "ol", "section", "table", "p", "li"].contains(element.tag), element.textLength > 0 {
            let density = element.linkDensity
            if density > 0.65 && element.textLength < 1_000 { return true }
            if density > 0.4 && element.textLength < 200 && element.tag != "p" && element.tag != "li" { return true }
        }
        return false
    }

    mutating func write(_ root: Int, isRoot: Bool) {
        // Iterative walk: (node, closing tag to write).
        var stack: [(xmlNodePtr, String?)] = [(tree[root].node, nil)]
        var first = isRoot
        while let (node, closing) = stack.popLast() {
            if let closing {
                if ArticleExtractor.blockTags.contains(closing) { breakLine() }
                if ArticleWriter.keptTags.contains(closing) && closing != "img" && closing != "br" { rawHTML += "</\(closing)>" }
                continue
            }
            let type = node.pointee.type
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
                if let content = node.pointee.content {
                    let text = String(cString: content)
                    line += text
                    rawHTML += Sanitizer.escape(text)
                }
                continue
            }
            guard type == XML_ELEMENT_NODE, let position = index[node] else { continue }
            let tag = tree[position].tag
            if leftOut(position, isRoot: first) { continue }
            first = false
            if ArticleExtractor.blockTags.contains(tag) { breakLine() }
            if ArticleWriter.keptTags.contains(tag) { rawHTML += openTag(node, tag) }
            stack.append((node, tag))
            for c in HTMLNode.childNodes(node).reversed() { stack.append((c, nil)) }
        }
        breakLine()
    }

    private mutating func breakLine() {
        if !line.isEmpty {
            lines.append(line)
            line = ""
        }
    }

    private func openTag(_ node: xmlNodePtr, _ tag: String) -> String {
        switch tag {
        case "a":
            guard let href = ArticleTree.attribute(node, "href") else { return "<a>" }
            return "<a href=\"\(Sanitizer.escape(href, attribute: true))\">"
        case "img":
            let source = ArticleTree.attribute(node, "src") ?? ArticleTree.attribute(node, "data-src") ?? ""
            let alt = ArticleTree.attribute(node, "alt") ?? ""
            return "<img src=\"\(Sanitizer.escape(source, attribute: true))\" alt=\"\(Sanitizer.escape(alt, attribute: true))\">"
        default:
            return "<\(tag)>"
        }
    }
}
