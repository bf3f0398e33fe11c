import Foundation
import TimeTrackCore
import TimeTrackKit

/// How to read one field from an item's element, as written in a source definition.
///
/// - `"h2 a"`: the text of the first match; `"h2 a@href"`: an attribute; `"@data-slug"`: the
///   item element's own attribute; `"."`: the item's own text; `".body@html"`: sanitized inner
///   HTML; `".body@lines"`: text with line breaks;
/// - `["time@datetime", ".date"]`: the first that gives a value;
/// - `{"select": "...", "exists": true, "heading": "h2, h3"}` with the keys every importer
///   shares (`FieldShape`: `pattern`, `template`, `value`, `when`/`then`/`else`, `group`).
struct FieldSpec: Sendable {
    enum Take: Sendable { case text, lines, html, attribute(String), exists, article }

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
    /// The values the field is built from (`parts`), by the names the template places.
    var parts: [(name: String, spec: FieldSpec)] = []
    /// What was read is JSON (a hidden input's `value`, a script's text): the value at this path.
    var json: JSONPath?

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
            let allowed = ["select", "exists", "heading", "json"] + FieldShape.keys
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
            parts = try FieldSpec.parts(object["parts"], field: field, source: source)
            if let path = object["json"] {
                guard let text = path.stringValue, !choices.isEmpty else {
                    throw source.error(
                        "\(field).json", "must be a JSON path, read from what select finds",
                        fix: "e.g. {\"select\": \"input#events@value\", \"json\": \"title\"}")
                }
                do { json = try JSONPath(text) } catch let error as TimeTrackError { throw source.error("\(field).json", error.message, fix: error.fix) }
            }
            if choices.isEmpty && heading == nil && !shape.givesOwnValue && parts.isEmpty {
                throw fail("needs select, value, then, group, heading or parts")
            }
        default:
            throw fail("must be a selector string, a list of selectors, or an object with select")
        }
    }

    /// The specs of `parts`, in the order of `shape.parts`' names: a list's by position, an
    /// object's by name.
    static func parts(_ value: JSONValue?, field: String, source: SourceDefinition) throws -> [(name: String, spec: FieldSpec)] {
        switch value {
        case .array(let list)?:
            return try list.enumerated().map { (String($0.offset + 1), try FieldSpec($0.element, field: "\(field).parts[\($0.offset)]", source: source)) }
        case .object(let named)?:
            return try named.keys.sorted().map { name in (name, try FieldSpec(named[name] ?? .null, field: "\(field).parts.\(name)", source: source)) }
        default:
            return []
        }
    }

    /// The spec and every spec inside it (alternatives, parts).
    var allSpecs: [FieldSpec] { [self] + alternatives.flatMap(\.allSpecs) + parts.flatMap(\.spec.allSpecs) }

    /// Every heading selector the spec uses (its own, its alternatives' and its parts').
    var headingSelectors: [Selector] { allSpecs.compactMap { $0.heading?.selector } }

    /// The fields its conditions read (`when` with `field`): those are read first.
    var readsFields: [String] { allSpecs.compactMap(\.shape.readsField) }
    /// Whether it, an alternative or a part reads a split pattern's groups.
    var usesGroups: Bool { allSpecs.contains { $0.shape.usesGroups } }

    static func choice(_ text: String, field: String, source: SourceDefinition) throws -> Choice {
        // `"body": "auto"`: the article's body found with no selector (`ArticleExtractor`).
        if text.trimmingSpaces() == "auto" {
            guard field.contains("fields.body") else {
                throw source.error(field, "\"auto\" finds an article's body: it is for the body field only", fix: "give a CSS selector")
            }
            return Choice(selector: nil, take: .article)
        }
        var selectorText = text.trimmingSpaces()
        var take = Take.text
        if let split = Selector.attributeSplit(selectorText) {
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
        guard !parts.isEmpty else { return shape.value(&inputs) { readJSON(item) } }
        var values: [String: String] = [:]
        for (name, spec) in parts { values[name] = spec.value(item, &inputs) }
        let selected = choices.isEmpty && heading == nil ? nil : readJSON(item)
        let composed = shape.compose(values, value: selected, page: inputs.page, groups: inputs.groups)
        return shape.value(&inputs) { composed }
    }

    /// What `read` finds, or with `json`, the value at that path of the JSON it finds.
    func readJSON(_ item: FieldTarget) -> String? {
        guard let json else { return read(item) }
        return read(item).flatMap { json.text(inJSON: $0) }.map(TextNormalizer.collapse)
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
        // A script is selected for what it holds (JSON, read with `json`): its text is skipped elsewhere.
        case .text: return node.name == "script" ? node.childText : node.text
        case .lines: return node.blockText
        case .html: return Sanitizer.sanitize(node)
        case .attribute(let name): return node.attribute(name).map(TextNormalizer.collapse)
        case .exists: return "true"
        case .article: return ArticleExtractor().extract(node.document)?.html
        }
    }

    /// Reads every field of an item into `raw`, in the order given (`FieldShape.order`: a field
    /// whose `when` reads another comes after it).
    ///
    /// URL fields are resolved against the page.
    static func fill(_ raw: inout RawItem, fields: [(String, FieldSpec)], item: FieldTarget, groups: [String?] = [], page: String, resolve: (String) -> String?)
    {
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
        for (_, spec) in fields {
            for inner in spec.allSpecs {
                for choice in inner.choices {
                    if let selector = choice.selector, seen.insert(ObjectIdentifier(selector)).inserted { selectors.append(selector) }
                }
            }
        }
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
