import CLibXML2
import Foundation
import TimeTrackCore

/// The main content of an article page, found with no selector: the element whose paragraphs
/// carry the most sentence-like text (after Readability's scoring: text length, commas, the
/// names sites give content and boilerplate, link density), its siblings that continue it,
/// and inside them everything but the boilerplate (share bars, related links, captions of ads,
/// forms, navigation, hidden parts).
///
/// The page's own hints come first: an element marked `itemprop="articleBody"` with real text
/// is the body.
public struct ArticleExtractor {
    /// What was found.
    public struct Article: Sendable, Equatable {
        /// The body as plain text, one block (paragraph, heading, list item) a line.
        public var text: String
        /// The body as sanitized HTML (paragraphs, headings, lists, tables, links, images).
        public var html: String
        /// The headline, as the page states it.
        public var headline: String?
        /// The publication date as the page writes it (an ISO 8601 time, or a dateline's words):
        /// the importer's normalizer reads it in the source's zone.
        public var date: String?
        /// The lead image's address.
        public var image: String?
    }

    /// Parts of ids and class names that say content, that say it is not, and that mark
    /// boilerplate to leave out of the body whatever else the name says (Readability's lists,
    /// with names district CMSs use).
    static let positive = [
        "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text", "blog", "story", "fsbody",
        "fsarticle", "newsitem", "news-item",
    ]
    static let negative = [
        "hidden", "banner", "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "gdpr", "masthead", "media", "meta", "outbrain",
        "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping", "tags", "tool", "widget", "social",
        "subscribe", "newsletter", "signup", "cookie", "popup", "modal", "breadcrumb", "nav", "menu", "byline", "author", "dateline", "caption",
        "credit", "recirc", "trending", "popular", "readmore", "read-more", "more-stories", "taboola", "disqus", "print", "email", "follow",
        "toolbar", "rating", "video-player",
    ]
    static let boilerplate = [
        "share", "social", "related", "recirc", "newsletter", "subscribe", "signup", "sign-up", "promo", "advert", "sponsor", "outbrain", "taboola",
        "comment", "disqus", "cookie", "gdpr", "breadcrumb", "most-popular", "mostpopular", "trending", "more-stories", "read-more", "readmore",
        "author-bio", "authorbio", "byline", "tag-list", "tags-list", "post-tags", "toolbar", "print-only", "inline-ad", "ad-slot", "ad-container",
        "ad-wrapper", "navigation", "pagination", "skip-link", "visually-hidden", "sr-only", "screen-reader", "caption", "gallery", "slideshow",
        "carousel", "credit", "timestamp",
    ]
    /// Whole words of names that mark advertising and navigation ("ad" inside "header" does not).
    static let boilerplateWords: Set<Substring> = ["ad", "ads", "nav", "advertisement"]

    /// Whether `names` holds one of `parts`, or one of `words` as a whole word.
    static func mentions(_ names: String, _ parts: [String], words: Set<Substring> = []) -> Bool {
        if parts.contains(where: { names.contains($0) }) { return true }
        guard !words.isEmpty else { return false }
        return names.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { words.contains($0) }
    }

    /// Elements whose own text (not in a paragraph) counts as a paragraph of theirs.
    static let containerTags: Set<String> = ["div", "section", "article", "main", "td", "body", "blockquote", "center", "font"]
    static let paragraphTags: Set<String> = ["p", "pre", "td", "blockquote", "li", "dd", "h2", "h3", "h4"]
    static let blockTags: Set<String> = [
        "p", "div", "section", "article", "main", "ul", "ol", "li", "table", "tr", "td", "th", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6",
        "dl", "dt", "dd", "figure", "figcaption", "header", "footer", "aside", "nav", "form", "hr", "br", "address", "details", "summary",
    ]
    /// Tags dropped from the body with what they hold.
    static let droppedTags: Set<String> = ["nav", "aside", "footer", "header", "figcaption", "noscript", "dialog", "menu"]

    /// Whether a tag of boilerplate is left out: always, but for a `form` only when small (some
    /// sites wrap the whole page in one).
    static func dropped(_ element: ArticleTree.Element) -> Bool {
        droppedTags.contains(element.tag) || (element.tag == "form" && element.textLength < 1_000)
    }

    public init() {}

    /// The article of a parsed page; nil when nothing on it reads as one.
    public func extract(_ document: HTMLDocument) -> Article? {
        let tree = ArticleTree(document.root.raw)
        guard tree.count > 1 else { return nil }
        let roots = hinted(tree, document) ?? scored(tree)
        guard !roots.isEmpty else { return nil }
        var writer = ArticleWriter(tree: tree, document: document)
        for root in roots { writer.write(root, isRoot: true) }
        let text = writer.text
        guard text.count >= 20 else { return nil }
        let html = writer.html
        let metadata = ArticleExtractor.metadata(document, body: text, bodyHTML: html)
        return Article(text: text, html: html, headline: metadata.headline, date: metadata.date, image: metadata.image)
    }

    // MARK: the page's hints

    /// The element the page marks as the article's body (`itemprop="articleBody"`), when it
    /// holds text.
    func hinted(_ tree: ArticleTree, _ document: HTMLDocument) -> [Int]? {
        let marked = (0..<tree.count).filter { index in
            let element = tree[index]
            guard element.textLength >= 200, !element.hidden else { return false }
            return (ArticleTree.attribute(element.node, "itemprop") ?? "").split(separator: " ").contains("articleBody")
        }
        // Several marked parts of one body (a paywall split): each, in order, the outermost only.
        let outer = marked.filter { index in !marked.contains { other in other != index && isAncestor(other, of: index, in: tree) } }
        return outer.isEmpty ? nil : outer
    }

    func isAncestor(_ ancestor: Int, of index: Int, in tree: ArticleTree) -> Bool {
        var current = tree[index].parent
        while let parent = current {
            if parent == ancestor { return true }
            current = tree[parent].parent
        }
        return false
    }

    // MARK: scoring

    /// The weight of an element's id and class names: content names up, boilerplate down.
    static func classWeight(_ names: String) -> Double {
        guard !names.trimmingCharacters(in: .whitespaces).isEmpty else { return 0 }
        var weight = 0.0
        if mentions(names, negative, words: boilerplateWords) { weight -= 25 }
        if mentions(names, positive) { weight += 25 }
        return weight
    }

    static func tagWeight(_ tag: String) -> Double {
        switch tag {
        case "div", "article", "main", "section": return 5
        case "pre", "td", "blockquote": return 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": return -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": return -5
        default: return 0
        }
    }

    /// Whether an element is left out before scoring: hidden, or named and placed as
    /// boilerplate.
    func unlikely(_ element: ArticleTree.Element) -> Bool {
        if element.hidden || ArticleExtractor.dropped(element) { return true }
        guard !element.names.isEmpty, element.tag != "body", element.tag != "article", element.tag != "main" else { return false }
        return ArticleExtractor.mentions(element.names, ArticleExtractor.boilerplate, words: ArticleExtractor.boilerplateWords)
            && !ArticleExtractor.mentions(element.names, ArticleExtractor.positive)
    }

    /// The best candidate by Readability's scoring and the siblings that continue it.
    func scored(_ tree: ArticleTree) -> [Int] {
        var excluded = [Bool](repeating: false, count: tree.count)
        for index in 0..<tree.count {
            if let parent = tree[index].parent, excluded[parent] {
                excluded[index] = true
            } else if unlikely(tree[index]) {
                excluded[index] = true
            }
        }
        var scores: [Int: Double] = [:]
        for index in 0..<tree.count where !excluded[index] {
            let element = tree[index]
            let paragraphLike =
                ArticleExtractor.paragraphTags.contains(element.tag)
                || (element.tag == "div" && !element.children.contains { ArticleExtractor.blockTags.contains(tree[$0].tag) })
            // A paragraph scores its parent and the two above; text written straight into a
            // container (between `<br>`s) is a paragraph of the container itself.
            let length = paragraphLike ? element.textLength : element.ownLength
            guard length >= 25, paragraphLike || ArticleExtractor.containerTags.contains(element.tag) else { continue }
            let score = 1 + Double(paragraphLike ? element.commas : element.ownCommas) + min(Double(length / 100), 3)
            var level = 0
            var ancestor = paragraphLike ? element.parent : index
            while let current = ancestor, level < 3 {
                if scores[current] == nil {
                    scores[current] = ArticleExtractor.tagWeight(tree[current].tag) + ArticleExtractor.classWeight(tree[current].names)
                }
                let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level) * 3
                scores[current, default: 0] += score / divider
                level += 1
                ancestor = tree[current].parent
            }
        }
        var best: (index: Int, score: Double)?
        for (index, score) in scores where !excluded[index] {
            let final = score * (1 - tree[index].linkDensity)
            scores[index] = final
            if let current = best, final < current.score || (final == current.score && index > current.index) { continue }
            best = (index, final)
        }
        guard let top = best else { return [] }
        // Siblings that continue the article: scored well, or plain paragraphs of text.
        guard let parent = tree[top.index].parent else { return [top.index] }
        let threshold = max(10, top.score * 0.2)
        return tree[parent].children.filter { sibling in
            if sibling == top.index { return true }
            guard !excluded[sibling] else { return false }
            let element = tree[sibling]
            var bonus = 0.0
            if !element.names.isEmpty, element.names == tree[top.index].names { bonus = top.score * 0.2 }
            if (scores[sibling] ?? 0) + bonus >= threshold { return true }
            guard element.tag == "p" else { return false }
            if element.textLength > 80 && element.linkDensity < 0.25 { return true }
            return element.textLength > 0 && element.linkDensity == 0 && element.commas > 0
        }
    }
}
