import Foundation
import TimeTrackCore

/// A condition on an item, as written in a field spec's `when` or an importer's `where`:
/// `{"field": "title", "contains": "BOE"}`, `{"matches": "^Board\\b"}`, `{"equals": "publish"}`,
/// `{"field": "end", "present": true}`; `"not": true` turns it around.
///
/// Without `field` it looks at the item's whole text. `contains` and `equals` ignore case and extra
/// spaces;
/// `matches` is a pattern (no backtracking, see `SafePattern`).
public struct FieldCondition: Sendable {
    public enum Test: Sendable {
        case contains(String)
        case equals(String)
        case matches(SafePattern)
        case present
    }

    /// The field it reads; nil reads the item's text.
    public var field: String?
    public var test: Test
    public var negated: Bool

    static let keys = ["field", "contains", "equals", "matches", "present", "not"]

    /// Parses a condition; errors name the definition's file and `path`.
    public init(_ value: JSONValue, path: String, source: SourceDefinition) throws {
        guard let object = value.objectValue else {
            throw source.error(path, "must be an object like {\"field\": \"title\", \"contains\": \"Board\"}")
        }
        for key in object.keys where !FieldCondition.keys.contains(key) {
            throw source.error("\(path).\(key)", "is not a condition option", fix: "use field, contains, equals, matches, present or not")
        }
        if let field = object["field"] {
            guard let name = field.stringValue, !name.isEmpty else { throw source.error("\(path).field", "must be a field name") }
            self.field = name
        }
        negated = object["not"]?.boolValue ?? false
        let tests = ["contains", "equals", "matches", "present"].filter { object[$0] != nil }
        guard tests.count == 1, let which = tests.first, let argument = object[which] else {
            throw source.error(
                path, tests.isEmpty ? "needs contains, equals, matches or present" : "has \(tests.joined(separator: " and ")): give one test per condition")
        }
        switch which {
        case "present":
            guard argument.boolValue != nil else { throw source.error("\(path).present", "must be true or false") }
            test = .present
            if argument.boolValue == false { negated.toggle() }
        case "matches":
            guard let text = argument.stringValue else { throw source.error("\(path).matches", "must be a regular expression string") }
            do { test = .matches(try SafePattern(text)) } catch let error as SafePattern.SyntaxError {
                throw source.error(
                    "\(path).matches", "'\(text.prefix(80))' \(error.message)", fix: "see \"Patterns\" in docs/source-definitions.md for what a pattern may use"
                )
            }
        default:
            guard let text = argument.stringValue ?? argument.numberValue.map({ JSONValue.number($0).description }) ?? argument.boolValue.map({ String($0) })
            else {
                throw source.error("\(path).\(which)", "must be a string")
            }
            let folded = FieldCondition.fold(text)
            test = which == "contains" ? .contains(folded) : .equals(folded)
        }
    }

    /// Case and runs of spaces do not count.
    static func fold(_ text: String) -> String { TextNormalizer.collapse(text).lowercased() }

    /// Whether it holds for an item whose fields so far are `fields` and whose text is `text()`.
    public func holds(_ fields: [String: String], text: () -> String) -> Bool {
        let subject: String? = field.map { fields[$0].flatMap { $0.isEmpty ? nil : $0 } } ?? text()
        let result: Bool
        switch test {
        case .present: result = subject != nil
        case .contains(let needle): result = subject.map { FieldCondition.fold($0).contains(needle) } ?? false
        case .equals(let wanted): result = subject.map { FieldCondition.fold($0) == wanted } ?? false
        case .matches(let pattern): result = subject.map { pattern.firstMatch(in: $0) != nil } ?? false
        }
        return result != negated
    }
}

/// What an item offers a field spec besides its element or value: the fields read so far (for
/// `when`), the groups of the pattern that split it out (`group`), its text and its page.
public struct FieldInputs {
    public var fields: [String: String]
    public var groups: [String?]
    public var page: String
    let textReader: () -> String
    private var cachedText: String?

    public init(fields: [String: String] = [:], groups: [String?] = [], page: String = "", text: @escaping () -> String) {
        self.fields = fields
        self.groups = groups
        self.page = page
        self.textReader = text
    }

    /// The item's text, read once.
    public mutating func text() -> String {
        if let cachedText { return cachedText }
        let text = textReader()
        cachedText = text
        return text
    }
}

/// The part of a field spec every importer that maps fields shares: a constant (`value`), a
/// condition with what to give when it holds or not (`when`, `then`, `else`), a group of the
/// split pattern (`group`), and the shaping of what was read (`pattern`, `template`).
///
/// The order: a `when` that does not hold gives `else` (or nothing, so a fallback list goes on
/// to its next entry); one that holds gives `then` when there is one. Then `value` is the
/// answer if given; else the `group`, else what the importer's own selector or path read.
/// `pattern` keeps its first group (or the whole match) and `template` puts the result in
/// `{value}`, with `{page}` the page's URL and `{1}`…`{9}` the split pattern's groups.
public struct FieldShape: Sendable {
    public static let keys = ["pattern", "template", "value", "when", "then", "else", "group", "parts", "join"]

    public var pattern: SafePattern?
    public var template: String?
    public var constant: String?
    public var condition: FieldCondition?
    public var then: String?
    public var otherwise: String?
    /// 1-based group of the pattern that split the item.
    public var group: Int?
    /// The names of the values the field is built from (`parts`), in the order they are joined;
    /// the importer's spec reads each one.
    ///
    /// Empty: the field reads one value.
    public var parts: [String] = []
    /// What joins a list of parts (`"parts": [A, B]`), when no template places them.
    public var join = " "

    public init() {}

    /// Reads the shared keys of a field spec object; errors name the file and `field`.
    public init(_ object: [String: JSONValue], field: String, source: SourceDefinition) throws {
        func constant(_ key: String) throws -> String? {
            guard let v = object[key] else { return nil }
            guard let text = v.stringValue ?? v.boolValue.map({ String($0) }) ?? v.numberValue.map({ JSONValue.number($0).description }) else {
                throw source.error("\(field).\(key)", "must be a string, number or boolean")
            }
            return text
        }
        if let p = object["pattern"] {
            guard let text = p.stringValue else { throw source.error("\(field).pattern", "must be a regular expression string") }
            do {
                pattern = try SafePattern(text)
            } catch let error as SafePattern.SyntaxError {
                throw source.error(
                    "\(field).pattern", "'\(text.prefix(80))' \(error.message)",
                    fix: "see \"Patterns\" in docs/source-definitions.md for what a pattern may use")
            }
        }
        if let t = object["template"] {
            guard let text = t.stringValue, text.contains("{") else {
                throw source.error(
                    "\(field).template", "must be a string with {value} (and maybe {page} or {1}…{9})", fix: "e.g. \"template\": \"{value}, Room 100\"")
            }
            template = text
        }
        self.constant = try constant("value")
        then = try constant("then")
        otherwise = try constant("else")
        if let w = object["when"] { condition = try FieldCondition(w, path: "\(field).when", source: source) }
        if condition == nil, then != nil || otherwise != nil {
            throw source.error(field, "has then/else without when", fix: "add \"when\": {\"contains\": \"...\"}")
        }
        try readParts(object, field: field, source: source)
        if let g = object["group"] {
            guard let n = g.numberValue, n.isFinite, n.rounded() == n, (1...9).contains(n) else {
                throw source.error("\(field).group", "must be a group number from 1 to 9")
            }
            group = Int(n)
        }
    }

    /// Reads `parts` (their names: the importer reads the specs) and `join`, and checks that a
    /// template places only parts it has.
    mutating func readParts(_ object: [String: JSONValue], field: String, source: SourceDefinition) throws {
        switch object["parts"] {
        case nil:
            if object["join"] != nil { throw source.error("\(field).join", "joins parts, and the field has none", fix: "add \"parts\": [SPEC, SPEC]") }
            return
        case .array(let list)?:
            guard list.count >= 2 else { throw source.error("\(field).parts", "needs two or more values to combine") }
            parts = list.indices.map { String($0 + 1) }
        case .object(let named)?:
            guard !named.isEmpty else { throw source.error("\(field).parts", "needs at least one named value") }
            guard let template else {
                throw source.error(
                    "\(field).parts", "names its parts, so it needs a template that places them",
                    fix: "e.g. \"template\": \"{\(named.keys.sorted()[0])} — {value}\"")
            }
            for name in named.keys
            where name.isEmpty || name.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) || ["value", "page"].contains(name) {
                throw source.error("\(field).parts.\(name)", "is not a part name: use letters, digits and _, other than value and page")
            }
            parts = named.keys.sorted()
            for placed in FieldShape.placeholders(template) where !parts.contains(placed) && !["value", "page"].contains(placed) && Int(placed) == nil {
                throw source.error(
                    "\(field).template", "places {\(placed)}, which is not one of its parts",
                    fix: "name one of " + parts.map { "{\($0)}" }.joined(separator: ", "))
            }
        default:
            throw source.error("\(field).parts", "must be a list of values to join, or an object of named values for the template")
        }
        if let j = object["join"] {
            guard let text = j.stringValue, case .array? = object["parts"] else {
                throw source.error("\(field).join", "must be a string, and joins a list of parts (named parts are placed by the template)")
            }
            join = text
        }
    }

    /// The names inside braces in a template: `{row} — {text}` → row, text.
    static func placeholders(_ template: String) -> [String] {
        var out: [String] = []
        var current: String?
        for character in template {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                out.append(name)
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return out
    }

    /// A field's value built from its parts (`values`, by part name; nil or empty: the part gave
    /// nothing): placed by the template, or joined.
    ///
    /// A part that gave nothing is left out, with the separator and any brackets it leaves empty;
    /// nil when no part gave a value.
    public func compose(_ values: [String: String], value: String?, page: String, groups: [String?]) -> String? {
        let given = parts.filter { !(values[$0] ?? "").isEmpty }
        guard !given.isEmpty else { return nil }
        guard let template else { return given.compactMap { values[$0] }.joined(separator: join) }
        var out = ""
        var pendingLiteral = ""
        var wroteValue = false
        var current: String?
        // A bracket opened before a part that gave nothing: its closing one goes too.
        var dropClose = false
        func place(_ text: String?) {
            guard let text, !text.isEmpty else {
                let kept = FieldShape.unbracketed(pendingLiteral)
                dropClose = pendingLiteral.dropFirst(kept.count).contains { $0 == "(" || $0 == "[" }
                pendingLiteral = kept
                return
            }
            out += wroteValue || !out.isEmpty ? pendingLiteral : FieldShape.leadingKept(pendingLiteral)
            out += text
            pendingLiteral = ""
            wroteValue = true
        }
        for character in template {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                current = nil
                switch name {
                case "value": place(value)
                case "page": place(page)
                default:
                    if let number = Int(name), (1...9).contains(number) {
                        place(groups.indices.contains(number - 1) ? groups[number - 1] : nil)
                    } else {
                        place(values[name])
                    }
                }
            } else if current != nil {
                current?.append(character)
            } else if dropClose && (character == ")" || character == "]") {
                dropClose = false
            } else {
                if character != " " { dropClose = false }
                pendingLiteral.append(character)
            }
        }
        if wroteValue { out += FieldShape.trailingKept(pendingLiteral) }
        return TextNormalizer.collapse(out)
    }

    /// Literal text before a placeholder that gave nothing: a separator goes with it, an
    /// opening bracket it would leave empty goes too.
    static func unbracketed(_ literal: String) -> String {
        var kept = literal
        while let last = kept.last, " -–—:|,/([".contains(last) { kept.removeLast() }
        return kept
    }

    /// Text before the first value: only words stay (a leading separator goes).
    static func leadingKept(_ literal: String) -> String {
        var kept = Substring(literal)
        while let first = kept.first, " -–—:|,/)]".contains(first) { kept.removeFirst() }
        return String(kept)
    }

    /// Text after the last value: a separator left hanging goes, a closing bracket stays only
    /// when its opening one was written.
    static func trailingKept(_ literal: String) -> String {
        var kept = literal
        while let last = kept.last, " -–—:|,/".contains(last) { kept.removeLast() }
        return kept
    }

    /// Whether the spec reads the groups of a split pattern (`group`, or `{1}`…`{9}` in its template).
    public var usesGroups: Bool {
        group != nil || (template.map { text in (1...9).contains { text.contains("{\($0)}") } } ?? false)
    }

    /// Checks, when a definition is read, what its fields refer to (issue 34: both were silent at
    /// run time): a `when` reads a field the definition has, and split groups are read only
    /// where items are split by a pattern.
    ///
    /// `fields` are each field's name, the fields its
    /// `when`s read, and whether it reads groups; errors name `path.NAME`.
    public static func checkReferences(
        _ fields: [(name: String, reads: [String], usesGroups: Bool)], path: String, splitByPattern: Bool, alsoKnown: Set<String> = [],
        source: SourceDefinition
    ) throws {
        let names = Set(fields.map(\.name)).union(alsoKnown)
        for field in fields {
            for read in field.reads where !names.contains(read) {
                throw source.error(
                    "\(path).\(field.name).when.field", "'\(read)' is not a field of this definition: a condition reads the value of one of its fields",
                    fix: "name one of \(names.sorted().joined(separator: ", ")), or read '\(read)' into a field of its own first")
            }
            if field.usesGroups && !splitByPattern {
                throw source.error(
                    "\(path).\(field.name)", "reads {1}…{9} or group, the groups of a split pattern, but the items are not split by one",
                    fix: "split the item with {\"select\": SEL, \"split\": {\"pattern\": RE}}, or take the value with pattern and {value}")
            }
        }
    }

    /// True when the spec gives a value without reading the element (`value`, `then`, `group`).
    public var givesOwnValue: Bool { constant != nil || then != nil || group != nil }

    /// The field its condition reads, if any (that field is read first).
    public var readsField: String? { condition?.field }

    /// The order to read fields in: one whose `when` reads another field comes after that
    /// field; otherwise by name. (A cycle keeps name order for the fields in it.)
    @inlinable  // specialized where it is called: unspecialized, its tuples went through value witnesses
    public static func order<Spec>(_ fields: [(String, Spec)], reads: (Spec) -> [String]) -> [(String, Spec)] {
        let sorted = fields.sorted { $0.0 < $1.0 }
        var placed: Set<String> = []
        var out: [(String, Spec)] = []
        var waiting = sorted
        while !waiting.isEmpty {
            let names = Set(waiting.map(\.0))
            let ready = waiting.filter { entry in reads(entry.1).allSatisfy { !names.contains($0) || $0 == entry.0 } }
            let next = ready.isEmpty ? [waiting[0]] : ready
            for entry in next where !placed.contains(entry.0) {
                placed.insert(entry.0)
                out.append(entry)
            }
            waiting.removeAll { placed.contains($0.0) }
        }
        return out
    }

    /// The field's value: `read` gives what the importer's selector or path found.
    public func value(_ inputs: inout FieldInputs, read: () -> String?) -> String? {
        if let condition {
            guard condition.holds(inputs.fields, text: { inputs.text() }) else { return otherwise }
            if let then { return then }
        }
        var found: String?
        if let constant {
            found = constant
        } else if let group {
            found = inputs.groups.indices.contains(group - 1) ? inputs.groups[group - 1] : nil
        } else {
            found = read()
        }
        guard var value = found, !value.isEmpty else { return nil }
        if let pattern {
            guard let captured = pattern.firstCapture(in: value) else { return nil }
            value = captured
        }
        if let template, parts.isEmpty { value = FieldShape.fill(template, value: value, page: inputs.page, groups: inputs.groups) }
        return value
    }

    /// `template` with `{value}`, `{page}` and `{1}`…`{9}` placed, in one pass: what a page
    /// wrote is never read as a placeholder (a value "{page}" stays as written).
    ///
    /// Any other braces stay as they are.
    static func fill(_ template: String, value: String, page: String, groups: [String?]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            out += rest[..<open]
            let name = rest[rest.index(after: open)..<close]
            switch name {
            case "value": out += value
            case "page": out += page
            default:
                if let number = Int(name), (1...9).contains(number) {
                    out += groups.indices.contains(number - 1) ? groups[number - 1] ?? "" : ""
                } else {
                    out += rest[open...close]
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
