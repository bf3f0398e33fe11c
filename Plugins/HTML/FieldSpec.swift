import Foundation
import TimeTrackCore
import TimeTrackKit

/// How to read one field from an item's element, as written in a source definition:
///
/// - `"h2 a"`: the text of the first match; `"h2 a@href"`: an attribute; `"@data-slug"`: the
///   item element's own attribute; `"."`: the item's own text; `".body@html"`: sanitized inner
///   HTML; `".body@lines"`: text with line breaks;
/// - `["time@datetime", ".date"]`: the first that gives a value;
/// - `{"select": "...", "exists": true, "heading": "h2, h3"}` with the keys every importer
///   shares (`FieldShape`: `pattern`, `template`, `value`, `when`/`then`/`else`, `group`).
struct FieldSpec: Sendable {
    enum Take: Sendable { case text, lines, html, attribute(String), exists }

    struct Choice: Sendable {
        var selector: Selector?
        var take: Take
    }

    var choices: [Choice] = []
    /// From a list: the first alternative that gives a value.
    var alternatives: [FieldSpec] = []
    var shape = FieldShape()
    /// Take the nearest heading before the item that matches this selector (and what of it:
    /// `"h2@id"` reads an attribute).
    var heading: Choice?

    /// Parses a field spec; errors name the definition's file and `options.fields.NAME`.
    init(_ value: JSONValue, field: String, source: SourceDefinition) throws {
        func fail(_ message: String) -> TimeTrackError { source.error(field, message) }
        switch value {
        case .string(let text):
            choices = [try FieldSpec.choice(text, field: field, source: source)]
        case .array(let list):
            guard !list.isEmpty else { throw fail("needs at least one selector") }
            for (index, entry) in list.enumerated() {
                if case .array = entry { throw fail("a list of fallbacks cannot hold another list") }
                alternatives.append(try FieldSpec(entry, field: "\(field)[\(index)]", source: source))
            }
        case .object(let object):
            let allowed = ["select", "exists", "heading"] + FieldShape.keys
            for key in object.keys where !allowed.contains(key) {
                throw source.error("\(field).\(key)", "is not a field option", fix: "use " + allowed.joined(separator: ", "))
            }
            if let select = object["select"] {
                guard let text = select.stringValue else { throw source.error(field + ".select", "must be a selector string") }
                choices = [try FieldSpec.choice(text, field: field + ".select", source: source)]
            }
            if object["exists"]?.boolValue == true {
                choices = choices.map { Choice(selector: $0.selector, take: .exists) }
            }
            shape = try FieldShape(object, field: field, source: source)
            if let h = object["heading"] {
                guard let text = h.stringValue, !text.trimmingCharacters(in: .whitespaces).hasPrefix("@") else {
                    throw source.error("\(field).heading", "must be a selector string, like \"h2, h3\" or \"h2@id\"")
                }
                heading = try FieldSpec.choice(text, field: "\(field).heading", source: source)
            }
            if choices.isEmpty && heading == nil && !shape.givesOwnValue {
                throw fail("needs select, value, then, group or heading")
            }
        default:
            throw fail("must be a selector string, a list of selectors, or an object with select")
        }
    }

    /// Every heading selector the spec uses (its own and its alternatives').
    var headingSelectors: [Selector] {
        (heading?.selector.map { [$0] } ?? []) + alternatives.flatMap(\.headingSelectors)
    }

    /// The fields its conditions read (`when` with `field`): those are read first.
    var readsFields: [String] { (shape.readsField.map { [$0] } ?? []) + alternatives.flatMap(\.readsFields) }
    /// Whether it or an alternative reads a split pattern's groups.
    var usesGroups: Bool { shape.usesGroups || alternatives.contains(where: \.usesGroups) }

    static func choice(_ text: String, field: String, source: SourceDefinition) throws -> Choice {
        var selectorText = text.trimmingSpaces()
        var take = Take.text
        // The last '@' outside brackets splits selector and what to take (ASCII: read as bytes).
        var depth = 0
        var split: String.Index?
        let bytes = selectorText.utf8
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: "@") where depth == 0: split = index
            default: break
            }
        }
        if let split {
            let what = String(selectorText[selectorText.index(after: split)...]).lowercased()
            selectorText = selectorText[..<split].trimmingSpaces()
            switch what {
            case "html": take = .html
            case "text": take = .text
            case "lines": take = .lines
            case "": throw source.error(field, "'\(text)' ends with '@': name an attribute, like @href")
            default: take = .attribute(what)
            }
        }
        if selectorText.isEmpty || selectorText == "." { return Choice(selector: nil, take: take) }
        do {
            return Choice(selector: try Selector.compiled(selectorText), take: take)
        } catch let error as TimeTrackError {
            throw source.error(field, error.message, fix: error.fix)
        }
    }

    /// The field's value for an item, or nil.
    func value(_ item: FieldTarget, _ inputs: inout FieldInputs) -> String? {
        if !alternatives.isEmpty {
            for alternative in alternatives {
                if let value = alternative.value(item, &inputs), !value.isEmpty { return value }
            }
            return nil
        }
        return shape.value(&inputs) { read(item) }
    }

    /// What the selectors (or heading) read, before shaping.
    func read(_ item: FieldTarget) -> String? {
        if let heading, let selector = heading.selector, let node = item.headings[selector.source]?.nearest(before: item.anchor) {
            if let value = FieldSpec.take(heading.take, of: node), !value.isEmpty { return value }
        }
        for choice in choices {
            let node: HTMLNode?
            if let selector = choice.selector {
                let match = item.first(selector)
                if case .exists = choice.take {
                    if match != nil { return "true" }
                    continue
                }
                node = match
            } else {
                node = item.element
            }
            guard let node else { continue }
            if let value = FieldSpec.take(choice.take, of: node), !value.isEmpty { return value }
        }
        return nil
    }

    static func take(_ take: Take, of node: HTMLNode) -> String? {
        switch take {
        case .text: return node.text
        case .lines: return node.blockText
        case .html: return Sanitizer.sanitize(node)
        case .attribute(let name): return node.attribute(name).map(TextNormalizer.collapse)
        case .exists: return "true"
        }
    }

    /// Reads every field of an item into `raw`, in the order given (`FieldShape.order`: a field
    /// whose `when` reads another comes after it). URL fields are resolved against the page.
    static func fill(_ raw: inout RawItem, fields: [(String, FieldSpec)], item: FieldTarget, groups: [String?] = [], page: String, resolve: (String) -> String?) {
        var inputs = FieldInputs(fields: raw.values, groups: groups, page: page, text: { item.element.text })
        for (name, spec) in fields {
            guard var value = spec.value(item, &inputs) else { continue }
            if isURLField(name) {
                guard let resolved = resolve(value) else { continue }
                value = resolved
            }
            raw[name] = value
            inputs.fields[name] = value
        }
    }

    /// Whether the value is a link to resolve against the page.
    static func isURLField(_ name: String) -> Bool { ["link", "url", "image"].contains(name) }
}

/// What a field is read from: the element (or the piece split out of it), the element itself
/// for "nearest before" questions, and the page's heading indexes by selector.
struct FieldTarget {
    var element: HTMLNode
    var anchor: HTMLNode
    var headings: [String: HeadingIndex]
    /// The first match of each selector under `element`, when found beforehand in one walk
    /// (`prefetch`); a selector not here is looked up on its own.
    var firsts: [ObjectIdentifier: HTMLNode?] = [:]

    init(element: HTMLNode, anchor: HTMLNode? = nil, headings: [String: HeadingIndex] = [:]) {
        self.element = element
        self.anchor = anchor ?? element
        self.headings = headings
    }

    /// Finds the first match of every selector `fields` use in one walk of `element`.
    mutating func prefetch(_ fields: [(String, FieldSpec)]) {
        var selectors: [Selector] = []
        var seen: Set<ObjectIdentifier> = []
        func collect(_ spec: FieldSpec) {
            for choice in spec.choices {
                if let selector = choice.selector, seen.insert(ObjectIdentifier(selector)).inserted { selectors.append(selector) }
            }
            spec.alternatives.forEach(collect)
        }
        for (_, spec) in fields { collect(spec) }
        for (selector, match) in zip(selectors, Selector.firsts(selectors, on: element)) { firsts[ObjectIdentifier(selector)] = .some(match) }
    }

    /// The first element `selector` matches under the element.
    func first(_ selector: Selector) -> HTMLNode? {
        if let known = firsts[ObjectIdentifier(selector)] { return known }
        return element.first(selector)
    }

    /// One index per heading selector the fields use.
    static func headings(_ document: HTMLDocument, _ selectors: [Selector]) -> [String: HeadingIndex] {
        var out: [String: HeadingIndex] = [:]
        for selector in selectors where out[selector.source] == nil { out[selector.source] = HeadingIndex(document: document, selector: selector) }
        return out
    }
}

/// The headings of a page in document order, for "nearest heading before this item".
final class HeadingIndex {
    let headings: [HTMLNode]

    init(document: HTMLDocument, selector: Selector) {
        headings = document.root.select(selector)
    }

    /// The headings of `index` that `keep` keeps, in the same order.
    init(_ index: HeadingIndex, keeping keep: (HTMLNode) -> Bool) {
        headings = index.headings.filter(keep)
    }

    /// The last heading that comes before `node` in the document.
    func nearest(before node: HTMLNode) -> HTMLNode? {
        // Binary search on document order.
        var low = 0, high = headings.count
        while low < high {
            let mid = (low + high) / 2
            if HTMLNode.precedes(headings[mid], node) { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? headings[low - 1] : nil
    }
}
