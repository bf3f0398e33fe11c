import Foundation
import TimeTrackCore
import TimeTrackKit

/// How to read one field from an item's element, as written in a source definition:
///
/// - `"h2 a"`: the text of the first match; `"h2 a@href"`: an attribute; `"@data-slug"`: the
///   item element's own attribute; `"."`: the item's own text; `".body@html"`: sanitized inner
///   HTML; `".body@lines"`: text with line breaks;
/// - `["time@datetime", ".date"]`: the first that gives a value;
/// - `{"select": "...", "pattern": "regex with (group)", "template": "{page}#{value}",
///   "exists": true, "value": "constant", "heading": "h2, h3"}`.
struct FieldSpec: Sendable {
    enum Take: Sendable { case text, lines, html, attribute(String), exists }

    struct Choice: Sendable {
        var selector: Selector?
        var take: Take
    }

    var choices: [Choice] = []
    /// From a list: the first alternative that gives a value.
    var alternatives: [FieldSpec] = []
    /// Matched without backtracking (`SafePattern`): a pattern cannot stall an import.
    var pattern: SafePattern?
    var template: String?
    var constant: String?
    /// Take the nearest heading before the item that matches this selector.
    var heading: Selector?

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
            for key in object.keys where !["select", "pattern", "template", "exists", "value", "heading"].contains(key) {
                throw source.error("\(field).\(key)", "is not a field option", fix: "use select, pattern, template, exists, value or heading")
            }
            if let select = object["select"] {
                guard let text = select.stringValue else { throw source.error(field + ".select", "must be a selector string") }
                choices = [try FieldSpec.choice(text, field: field + ".select", source: source)]
            }
            if object["exists"]?.boolValue == true {
                choices = choices.map { Choice(selector: $0.selector, take: .exists) }
            }
            if let p = object["pattern"] {
                guard let text = p.stringValue else { throw source.error("\(field).pattern", "must be a regular expression string") }
                do {
                    pattern = try SafePattern(text)
                } catch let error as SafePattern.SyntaxError {
                    throw source.error("\(field).pattern", "'\(text.prefix(80))' \(error.message)", fix: "see \"Patterns\" in docs/source-definitions.md for what a pattern may use")
                }
            }
            if let t = object["template"] {
                guard let text = t.stringValue, text.contains("{value}") || text.contains("{page}") else {
                    throw source.error("\(field).template", "must be a string with {value} (and maybe {page})")
                }
                template = text
            }
            if let v = object["value"] {
                guard let text = v.stringValue ?? (v.boolValue.map { String($0) }) ?? (v.numberValue.map { String($0) }) else {
                    throw source.error("\(field).value", "must be a string, number or boolean")
                }
                constant = text
            }
            if let h = object["heading"] {
                guard let text = h.stringValue else { throw source.error("\(field).heading", "must be a selector string, like \"h2, h3\"") }
                do { heading = try Selector(text) } catch let error as TimeTrackError {
                    throw source.error("\(field).heading", error.message)
                }
            }
            if choices.isEmpty && constant == nil && heading == nil {
                throw fail("needs select, value or heading")
            }
        default:
            throw fail("must be a selector string, a list of selectors, or an object with select")
        }
    }

    static func choice(_ text: String, field: String, source: SourceDefinition) throws -> Choice {
        var selectorText = text.trimmingCharacters(in: .whitespaces)
        var take = Take.text
        // The last '@' outside brackets splits selector and what to take.
        var depth = 0
        var split: String.Index?
        for index in selectorText.indices {
            switch selectorText[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "@" where depth == 0: split = index
            default: break
            }
        }
        if let split {
            let what = String(selectorText[selectorText.index(after: split)...]).lowercased()
            selectorText = String(selectorText[..<split]).trimmingCharacters(in: .whitespaces)
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
            return Choice(selector: try Selector(selectorText), take: take)
        } catch let error as TimeTrackError {
            throw source.error(field, error.message, fix: error.fix)
        }
    }

    /// The field's value for an item element, or nil.
    func value(in element: HTMLNode, headings: HeadingIndex?) -> String? {
        if !alternatives.isEmpty {
            for alternative in alternatives {
                if let value = alternative.value(in: element, headings: headings), !value.isEmpty { return value }
            }
            return nil
        }
        if let constant { return constant }
        var result: String?
        if heading != nil, let headings {
            result = headings.nearest(before: element)?.text
        }
        if result == nil {
            for choice in choices {
                let node: HTMLNode?
                if let selector = choice.selector {
                    let match = element.first(selector)
                    if case .exists = choice.take {
                        if match != nil {
                            result = "true"
                            break
                        }
                        continue
                    }
                    node = match
                } else {
                    node = element
                }
                guard let node else { continue }
                let value: String?
                switch choice.take {
                case .text: value = node.text
                case .lines: value = node.blockText
                case .html: value = Sanitizer.sanitize(node)
                case .attribute(let name): value = node.attribute(name).map(TextNormalizer.collapse)
                case .exists: value = "true"
                }
                if let value, !value.isEmpty {
                    result = value
                    break
                }
            }
        }
        guard var value = result else { return nil }
        if let pattern {
            guard let captured = pattern.firstCapture(in: value) else { return nil }
            value = captured
        }
        if let template {
            value = template.replacingOccurrences(of: "{value}", with: value)
                .replacingOccurrences(of: "{page}", with: element.document.baseURL?.absoluteString ?? "")
        }
        return value
    }

    /// Whether the value is a link to resolve against the page.
    static func isURLField(_ name: String) -> Bool { ["link", "url", "image"].contains(name) }
}

/// The headings of a page in document order, for "nearest heading before this item".
final class HeadingIndex {
    let headings: [HTMLNode]

    init(document: HTMLDocument, selector: Selector) {
        headings = document.root.select(selector)
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
