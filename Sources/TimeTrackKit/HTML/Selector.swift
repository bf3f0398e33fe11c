import CLibXML2
import Foundation
import TimeTrackCore

/// A CSS selector (a practical subset), matched natively against libxml2's tree.
///
/// Supported: `tag`, `*`, `#id`, `.class`, `[attr]`, `[attr=value]`, `[attr~=value]`,
/// `[attr^=value]`, `[attr$=value]`, `[attr*=value]`, `[attr|=value]`, descendant (space), child
/// (`>`), adjacent (`+`) and general (`~`) siblings, `,` lists, `:first-child`, `:last-child`,
/// `:only-child`, `:nth-child(an+b|odd|even)`, `:nth-last-child(...)`, `:nth-of-type(...)`,
/// `:nth-last-of-type(...)`, `:first-of-type`, `:last-of-type`, `:not(simple)`, `:is(list)`
/// (and its alias `:where`), `:has(relative list)` (`:has(img)`, `:has(> a.pdf)`). Matching is relative to the node you select from (its descendants), in
/// document order. A selector may also start with `xpath:` to give raw XPath instead.
///
/// Matching walks the tree once and compares names and attribute bytes in place: no XPath
/// context, no string copies per element.
///
/// Immutable once compiled, so one selector may match on several threads at once (each on its
/// own document); an `xpath:` selector's evaluations take turns inside `XPath`.
public final class Selector: CustomStringConvertible, @unchecked Sendable {
    /// The selector as written.
    public let source: String
    let list: [ComplexSelector]
    let xpath: XPath?

    /// Compiles a selector; errors name the selector and the problem.
    public init(_ source: String) throws {
        self.source = source
        let trimmed = source.trimmingCharacters(in: .whitespacesAndNewlines)
        try Selector.checkSize(trimmed, source: source)
        if trimmed.hasPrefix("xpath:") {
            xpath = try XPath(String(trimmed.dropFirst(6)))
            list = []
        } else {
            var parser = SelectorParser(trimmed, source: source)
            list = try parser.parseList()
            xpath = nil
        }
    }

    public var description: String { source }

    /// The longest selector read, in characters: real ones are a few dozen.
    public static let maxLength = 1_000
    /// The deepest nesting of brackets and parentheses (`:not(:has(…))`, `[…]`) read.
    public static let maxNesting = 16

    /// Refuses a selector too long or too deeply nested to be a real one, before it is parsed:
    /// parsing and matching cost grow with both, and a selector is read from a definition file
    /// anyone with the imports folder can write.
    static func checkSize(_ text: String, source: String) throws {
        let shown = source.count > 60 ? String(source.prefix(60)) + "…" : source
        guard text.count <= maxLength else {
            throw TimeTrackError(
                .selector, "invalid selector '\(shown)': it is \(text.count) characters long, more than the \(maxLength) a selector may have",
                fix: "select with a shorter selector (a class or an id near the content)", context: ["selector": shown])
        }
        var depth = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
                depth += 1
                guard depth <= maxNesting else {
                    throw TimeTrackError(
                        .selector, "invalid selector '\(shown)': brackets nested more than \(maxNesting) deep",
                        fix: "nest :not(), :has() and [...] at most \(maxNesting) deep", context: ["selector": shown])
                }
            } else if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            }
        }
    }

    /// The compiled selector for `text`, made once per process: the schools of a district share
    /// their CMS, and so their definitions' selectors, and each source's importer compiled them
    /// again on every run. (Selectors are immutable; the cache is cleared past 2,000 entries.)
    public static func compiled(_ text: String) throws -> Selector {
        try cache.value(text) { try Selector(text) }
    }

    private static let cache = ProcessCache<String, Selector>(limit: 2_000)

    /// Elements under `node` (not `node` itself) that match, in document order.
    func evaluate(on node: HTMLNode, firstOnly: Bool = false) -> [HTMLNode] {
        if let xpath { return xpath.evaluate(on: node) }
        var result: [HTMLNode] = []
        let scope = node.raw
        let alternatives = list.unretained
        // Iterative pre-order walk of the descendants (`self` keeps the list alive).
        return withExtendedLifetime(self) {
            var current = firstElementChild(scope)
            while let element = current {
                if alternatives.anyMatches(element, scope: scope) {
                    result.append(HTMLNode(raw: element, document: node.document))
                    if firstOnly { return result }
                }
                current = nextInPreOrder(element, within: scope)
            }
            return result
        }
    }
}

extension Selector {
    /// The first element each selector matches under `node`, as `HTMLNode.first` gives it, found
    /// in one walk of the tree instead of a walk per selector (a page's fields: the menu before
    /// the article is walked once).
    ///
    /// XPath selectors are evaluated on their own.
    public static func firsts(_ selectors: [Selector], on node: HTMLNode) -> [HTMLNode?] {
        var found = [HTMLNode?](repeating: nil, count: selectors.count)
        // The alternatives still looking, each with the selector it belongs to, read unretained:
        // `selectors` keeps them alive for the walk (retaining each for every element of every
        // page was a tenth of the matching).
        var candidates: [(owner: Int, selector: Unmanaged<ComplexSelector>)] = []
        for (index, selector) in selectors.enumerated() {
            if selector.xpath != nil {
                found[index] = node.first(selector)
            } else {
                for complex in selector.list { candidates.append((index, Unmanaged.passUnretained(complex))) }
            }
        }
        let scope = node.raw
        withExtendedLifetime(selectors) {
            var current = candidates.isEmpty ? nil : firstElementChild(scope)
            while let element = current {
                var index = 0
                while index < candidates.count {
                    let candidate = candidates[index]
                    if candidate.selector._withUnsafeGuaranteedRef({ $0.matches(element, scope: scope) }) {
                        found[candidate.owner] = HTMLNode(raw: element, document: node.document)
                        candidates.removeAll { $0.owner == candidate.owner }
                    } else {
                        index += 1
                    }
                }
                if candidates.isEmpty { break }
                current = nextInPreOrder(element, within: scope)
            }
        }
        return found
    }
}

/// The element after `element` in a pre-order walk of `scope`'s descendants, or nil at the end.
@inline(__always) func nextInPreOrder(_ element: xmlNodePtr, within scope: xmlNodePtr) -> xmlNodePtr? {
    if let child = firstElementChild(element) { return child }
    var climb: xmlNodePtr? = element
    while let c = climb, c != scope {
        if let sibling = nextElementSibling(c) { return sibling }
        climb = c.pointee.parent
    }
    return nil
}

@inline(__always) func isElement(_ node: xmlNodePtr) -> Bool { node.pointee.type == XML_ELEMENT_NODE }

/// The first element among `start` and the nodes `step` leads to from it.
@inline(__always) func firstElement(from start: xmlNodePtr?, step: (xmlNodePtr) -> xmlNodePtr?) -> xmlNodePtr? {
    var node = start
    while let n = node {
        if isElement(n) { return n }
        node = step(n)
    }
    return nil
}

func firstElementChild(_ node: xmlNodePtr) -> xmlNodePtr? { firstElement(from: node.pointee.children) { $0.pointee.next } }
func nextElementSibling(_ node: xmlNodePtr) -> xmlNodePtr? { firstElement(from: node.pointee.next) { $0.pointee.next } }
func previousElementSibling(_ node: xmlNodePtr) -> xmlNodePtr? { firstElement(from: node.pointee.prev) { $0.pointee.prev } }

/// Bytes compared without copies.
extension Selector {
    /// The last '@' outside brackets, which splits a selector from what to take of the element
    /// it matches (`"input#events@value"`, `"a@href"`); nil when there is none.
    public static func attributeSplit(_ text: String) -> String.Index? {
        var depth = 0
        var split: String.Index?
        let bytes = text.utf8
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: "@") where depth == 0: split = index
            default: break
            }
        }
        return split
    }
}

@inline(__always) func equalBytes(_ c: UnsafePointer<xmlChar>?, _ bytes: [UInt8], caseInsensitive: Bool = false) -> Bool {
    guard let c else { return bytes.isEmpty }
    var i = 0
    while i < bytes.count {
        var a = c[i]
        if a == 0 { return false }
        if caseInsensitive && a >= 65 && a <= 90 { a += 32 }
        if a != bytes[i] { return false }
        i += 1
    }
    return c[i] == 0
}

/// The value of an attribute, as a pointer into the tree when it is one text node (the usual case).
func attributeValue(_ node: xmlNodePtr, _ name: [UInt8]) -> (UnsafePointer<xmlChar>?, String?)? {
    var attribute = node.pointee.properties
    while let a = attribute {
        if equalBytes(a.pointee.name, name, caseInsensitive: true) {
            if let child = a.pointee.children {
                if child.pointee.next == nil, child.pointee.type == XML_TEXT_NODE { return (UnsafePointer(child.pointee.content), nil) }
                // Several children (entities): build the string once.
                if let value = xmlNodeGetContent(UnsafeMutableRawPointer(a).assumingMemoryBound(to: xmlNode.self)) {
                    defer { clibxml2_free(value) }
                    return (nil, String(cString: value))
                }
            }
            return (nil, "")
        }
        attribute = a.pointee.next
    }
    return nil
}

/// An attribute test.
struct AttributeTest {
    enum Operation { case exists, equals, word, prefix, suffix, contains, dash }
    var name: [UInt8]
    var operation: Operation
    var value: [UInt8]

    func matches(_ node: xmlNodePtr) -> Bool {
        guard let (pointer, string) = attributeValue(node, name) else { return false }
        if operation == .exists { return true }
        let bytes: [UInt8]
        if let string {
            bytes = Array(string.utf8)
        } else if let pointer {
            var length = 0
            while pointer[length] != 0 { length += 1 }
            bytes = Array(UnsafeBufferPointer(start: pointer, count: length))
        } else {
            bytes = []
        }
        return AttributeTest.test(operation, bytes, value)
    }

    static func test(_ operation: Operation, _ bytes: [UInt8], _ value: [UInt8]) -> Bool {
        switch operation {
        case .exists: return true
        case .equals: return bytes == value
        case .prefix: return !value.isEmpty && bytes.starts(with: value)
        case .suffix: return !value.isEmpty && bytes.count >= value.count && Array(bytes[(bytes.count - value.count)...]) == value
        case .contains:
            guard !value.isEmpty, bytes.count >= value.count else { return false }
            for start in 0...(bytes.count - value.count) where bytes[start] == value[0] && Array(bytes[start..<(start + value.count)]) == value { return true }
            return false
        case .word: return hasWord(bytes, value)
        case .dash: return bytes == value || bytes.starts(with: value + [UInt8(ascii: "-")])
        }
    }

    /// Whether whitespace-separated `bytes` contain the word `value`.
    static func hasWord(_ bytes: [UInt8], _ value: [UInt8]) -> Bool {
        guard !value.isEmpty else { return false }
        var start = 0
        let count = bytes.count
        while start < count {
            while start < count, isSpace(bytes[start]) { start += 1 }
            var end = start
            while end < count, !isSpace(bytes[end]) { end += 1 }
            if end - start == value.count {
                var same = true
                for i in 0..<value.count where bytes[start + i] != value[i] {
                    same = false
                    break
                }
                if same { return true }
            }
            start = end
        }
        return false
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 || b == 12 }
}

/// A class test straight on the `class` attribute's bytes.
let classAttribute = Array("class".utf8)
let idAttribute = Array("id".utf8)

func hasClass(_ node: xmlNodePtr, _ name: [UInt8]) -> Bool {
    guard let (pointer, string) = attributeValue(node, classAttribute) else { return false }
    if let string { return AttributeTest.hasWord(Array(string.utf8), name) }
    guard let p = pointer else { return false }
    var start = 0
    while true {
        while p[start] != 0, AttributeTest.isSpace(p[start]) { start += 1 }
        if p[start] == 0 { return false }
        var end = start
        while p[end] != 0, !AttributeTest.isSpace(p[end]) { end += 1 }
        if end - start == name.count {
            var same = true
            for i in 0..<name.count where p[start + i] != name[i] {
                same = false
                break
            }
            if same { return true }
        }
        start = end
    }
}

/// `tag.class#id[attr]:pseudo` — one element's tests.
///
/// An immutable class made by the parser: matching reads it in place (as a struct with five
/// arrays, each element matched against copied it, five retains and releases).
final class CompoundSelector: @unchecked Sendable {
    enum Pseudo {
        case firstChild, lastChild, onlyChild, firstOfType, lastOfType
        /// The element's position (from 1, counting siblings of its type only with `ofType`,
        /// from the last with `fromEnd`) is a·n+b for some n ≥ 0.
        case nth(a: Int, b: Int, ofType: Bool, fromEnd: Bool)
        case not(CompoundSelector)
        case isAny([ComplexSelector])
        /// `:has()`: a descendant (or with `>`, a child) matches one of the selectors.
        case has([ComplexSelector])
    }

    /// The element name, lowercased; empty: any element.
    ///
    /// (Not optional, and `id` beside a flag: unwrapping an optional array copies it, a retain and
    /// a release for every element of
    /// every page.)
    /// All `let`: a `var` of a class is checked for exclusive access on every read.
    let tag: [UInt8]
    let id: [UInt8]
    let hasID: Bool
    let classes: [[UInt8]]
    let attributes: [AttributeTest]
    let pseudos: [Pseudo]

    init(tag: [UInt8], id: [UInt8]?, classes: [[UInt8]], attributes: [AttributeTest], pseudos: [Pseudo]) {
        self.tag = tag
        self.id = id ?? []
        self.hasID = id != nil
        self.classes = classes
        self.attributes = attributes
        self.pseudos = pseudos
    }

    func matches(_ node: xmlNodePtr) -> Bool {
        if !tag.isEmpty, !equalBytes(node.pointee.name, tag, caseInsensitive: true) { return false }
        if hasID {
            guard let (pointer, string) = attributeValue(node, idAttribute) else { return false }
            if let string { if Array(string.utf8) != id { return false } } else if !equalBytes(pointer, id) { return false }
        }
        var index = 0
        while index < classes.count {
            if !hasClass(node, classes[index]) { return false }
            index += 1
        }
        index = 0
        while index < attributes.count {
            if !attributes[index].matches(node) { return false }
            index += 1
        }
        for pseudo in pseudos {
            switch pseudo {
            case .firstChild: if previousElementSibling(node) != nil { return false }
            case .lastChild: if nextElementSibling(node) != nil { return false }
            case .onlyChild: if previousElementSibling(node) != nil || nextElementSibling(node) != nil { return false }
            case .nth(let a, let b, let ofType, let fromEnd):
                var position = 1
                var sibling = fromEnd ? nextElementSibling(node) : previousElementSibling(node)
                while let s = sibling {
                    if !ofType || xmlStrEqual(s.pointee.name, node.pointee.name) == 1 { position += 1 }
                    sibling = fromEnd ? nextElementSibling(s) : previousElementSibling(s)
                }
                if !CompoundSelector.isNth(position, a: a, b: b) { return false }
            case .firstOfType:
                var sibling = previousElementSibling(node)
                while let s = sibling {
                    if xmlStrEqual(s.pointee.name, node.pointee.name) == 1 { return false }
                    sibling = previousElementSibling(s)
                }
            case .lastOfType:
                var sibling = nextElementSibling(node)
                while let s = sibling {
                    if xmlStrEqual(s.pointee.name, node.pointee.name) == 1 { return false }
                    sibling = nextElementSibling(s)
                }
            case .not(let inner): if inner.matches(node) { return false }
            case .isAny(let list):
                guard let document = node.pointee.doc else { return false }
                let root = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
                if !list.anyMatches(node, scope: root) { return false }
            case .has(let list):
                if !CompoundSelector.has(node, list) { return false }
            }
        }
        return true
    }

    /// Whether `position` is a·n+b for some n ≥ 0.
    static func isNth(_ position: Int, a: Int, b: Int) -> Bool {
        if a == 0 { return position == b }
        let difference = position - b
        return difference % a == 0 && difference / a >= 0
    }

    /// Whether an element below `node` (a child, for `> ...`) matches one of the selectors,
    /// which are read relative to `node`.
    ///
    /// Walks without recursion.
    static func has(_ node: xmlNodePtr, _ list: [ComplexSelector]) -> Bool {
        var stack: [xmlNodePtr] = []
        var child = firstElementChild(node)
        while let c = child {
            stack.append(c)
            child = nextElementSibling(c)
        }
        while let element = stack.popLast() {
            if list.anyMatches(element, scope: node) { return true }
            var grandchild = firstElementChild(element)
            while let g = grandchild {
                stack.append(g)
                grandchild = nextElementSibling(g)
            }
        }
        return false
    }
}

/// Compounds joined by combinators, matched right to left within a scope.
///
/// Compounds and combinators (a class for the same reason as `CompoundSelector`).
final class ComplexSelector: @unchecked Sendable {
    enum Combinator { case descendant, child, adjacent, sibling }

    /// Left to right: compounds[0] combinator[0] compounds[1] ...
    let compounds: [CompoundSelector]
    let combinators: [Combinator]
    /// In `:has(> ...)`: the leftmost compound must be a child of the scope.
    let anchored: Bool

    init(compounds: [CompoundSelector], combinators: [Combinator], anchored: Bool = false) {
        self.compounds = compounds
        self.combinators = combinators
        self.anchored = anchored
    }

    func matches(_ node: xmlNodePtr, scope: xmlNodePtr) -> Bool {
        guard !compounds.isEmpty, compounds[compounds.count - 1].matches(node) else { return false }
        var failed = Set<FailedStep>()
        return matchLeft(from: compounds.count - 1, node: node, scope: scope, failed: &failed)
    }

    /// A (compound index, node) pair already known not to lead to a match.
    ///
    /// Remembering them keeps
    /// `a b c d e` over thousands of nested elements polynomial instead of exponential.
    struct FailedStep: Hashable {
        var index: Int
        var node: UInt
    }

    /// Whether compounds[0..<index] can be satisfied to the left of `node` (which matched compounds[index]).
    private func matchLeft(from index: Int, node: xmlNodePtr, scope: xmlNodePtr, failed: inout Set<FailedStep>) -> Bool {
        guard index > 0 else { return !anchored || node.pointee.parent == scope }
        switch combinators[index - 1] {
        case .child:
            guard let parent = node.pointee.parent, parent != scope, isElement(parent), compounds[index - 1].matches(parent) else { return false }
            return matchLeft(from: index - 1, node: parent, scope: scope, failed: &failed)
        case .descendant:
            var ancestor = node.pointee.parent
            while let a = ancestor, a != scope, isElement(a) {
                let step = FailedStep(index: index - 1, node: UInt(bitPattern: a))
                if !failed.contains(step), compounds[index - 1].matches(a) {
                    if matchLeft(from: index - 1, node: a, scope: scope, failed: &failed) { return true }
                    failed.insert(step)
                }
                ancestor = a.pointee.parent
            }
            return false
        case .adjacent:
            guard let previous = previousElementSibling(node), compounds[index - 1].matches(previous) else { return false }
            return matchLeft(from: index - 1, node: previous, scope: scope, failed: &failed)
        case .sibling:
            var previous = previousElementSibling(node)
            while let p = previous {
                let step = FailedStep(index: index - 1, node: UInt(bitPattern: p))
                if !failed.contains(step), compounds[index - 1].matches(p) {
                    if matchLeft(from: index - 1, node: p, scope: scope, failed: &failed) { return true }
                    failed.insert(step)
                }
                previous = previousElementSibling(p)
            }
            return false
        }
    }
}

/// A recursive-descent parser for the CSS subset.
struct SelectorParser {
    let chars: [Character]
    let source: String
    var index = 0
    /// How deep in `:is()`/`:has()` this parser is (a limit keeps a hostile selector from
    /// exhausting the stack).
    var depth = 0

    /// A selector list's parts at its top level (commas inside parentheses or quotes stay).
    static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for c in text {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "(" {
                depth += 1
            } else if c == ")" {
                depth -= 1
            } else if c == ",", depth == 0 {
                parts.append(current)
                current = ""
                continue
            }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    init(_ text: String, source: String) {
        chars = Array(text)
        self.source = source
    }

    func error(_ message: String) -> TimeTrackError {
        TimeTrackError(
            .selector, "invalid selector '\(source)': \(message)", fix: "see docs/source-definitions.md for the selectors supported",
            context: ["selector": source])
    }

    var atEnd: Bool { index >= chars.count }
    var current: Character? { atEnd ? nil : chars[index] }

    mutating func skipSpaces() -> Bool {
        var skipped = false
        while let c = current, c.isWhitespace {
            index += 1
            skipped = true
        }
        return skipped
    }

    mutating func parseList() throws -> [ComplexSelector] {
        guard !chars.isEmpty else { throw error("it is empty") }
        var parts: [ComplexSelector] = []
        repeat {
            _ = skipSpaces()
            parts.append(try parseComplex())
            _ = skipSpaces()
            if current == "," { index += 1 } else { break }
        } while true
        if !atEnd { throw error("unexpected '\(chars[index])' at position \(index + 1)") }
        return parts
    }

    mutating func parseComplex() throws -> ComplexSelector {
        var compounds = [try parseCompound()]
        var combinators: [ComplexSelector.Combinator] = []
        while true {
            let hadSpace = skipSpaces()
            guard let c = current, c != "," else { break }
            let combinator: ComplexSelector.Combinator
            switch c {
            case ">": combinator = .child; index += 1
            case "+": combinator = .adjacent; index += 1
            case "~": combinator = .sibling; index += 1
            default:
                guard hadSpace else { throw error("unexpected '\(c)' at position \(index + 1)") }
                combinator = .descendant
            }
            _ = skipSpaces()
            combinators.append(combinator)
            compounds.append(try parseCompound())
        }
        return ComplexSelector(compounds: compounds, combinators: combinators)
    }

    mutating func parseCompound() throws -> CompoundSelector {
        var tag: [UInt8] = []
        var id: [UInt8]?
        var classes: [[UInt8]] = []
        var attributes: [AttributeTest] = []
        var pseudos: [CompoundSelector.Pseudo] = []
        var any = false
        if let c = current, c == "*" {
            index += 1
            any = true
        } else if let c = current, isNameStart(c) {
            tag = Array(parseName().lowercased().utf8)
            any = true
        }
        loop: while let c = current {
            switch c {
            case "#":
                index += 1
                let name = parseName()
                guard !name.isEmpty else { throw error("'#' needs an id") }
                id = Array(name.utf8)
            case ".":
                index += 1
                let name = parseName()
                guard !name.isEmpty else { throw error("'.' needs a class name") }
                classes.append(Array(name.utf8))
            case "[":
                index += 1
                attributes.append(try parseAttribute())
            case ":":
                index += 1
                pseudos.append(try parsePseudo())
            default:
                break loop
            }
            any = true
        }
        guard any else {
            if let c = current { throw error("unexpected '\(c)' at position \(index + 1)") }
            throw error("a selector is missing after a combinator")
        }
        return CompoundSelector(tag: tag, id: id, classes: classes, attributes: attributes, pseudos: pseudos)
    }

    mutating func parseAttribute() throws -> AttributeTest {
        _ = skipSpaces()
        let name = parseName().lowercased()
        guard !name.isEmpty else { throw error("'[' needs an attribute name") }
        _ = skipSpaces()
        if current == "]" {
            index += 1
            return AttributeTest(name: Array(name.utf8), operation: .exists, value: [])
        }
        var op = ""
        while let c = current, "~|^$*=".contains(c) {
            op.append(c)
            index += 1
        }
        _ = skipSpaces()
        let value = try parseValue()
        _ = skipSpaces()
        if current == "i" || current == "s" { index += 1; _ = skipSpaces() }  // case flag: accepted, ignored
        guard current == "]" else { throw error("']' expected after [\(name)\(op)\(value)") }
        index += 1
        let operation: AttributeTest.Operation
        switch op {
        case "=": operation = .equals
        case "~=": operation = .word
        case "^=": operation = .prefix
        case "$=": operation = .suffix
        case "*=": operation = .contains
        case "|=": operation = .dash
        default: throw error("unknown attribute operator '\(op)'")
        }
        return AttributeTest(name: Array(name.utf8), operation: operation, value: Array(value.utf8))
    }

    mutating func parseValue() throws -> String {
        if let quote = current, quote == "\"" || quote == "'" {
            index += 1
            var value = ""
            while let c = current, c != quote {
                value.append(c)
                index += 1
            }
            guard current == quote else { throw error("unterminated quoted value") }
            index += 1
            return value
        }
        let value = parseName()
        guard !value.isEmpty else { throw error("an attribute value is missing") }
        return value
    }

    mutating func parsePseudo() throws -> CompoundSelector.Pseudo {
        let name = parseName().lowercased()
        let argument = try parseArgument(of: name)
        switch name {
        case "first-child": return .firstChild
        case "last-child": return .lastChild
        case "only-child": return .onlyChild
        case "first-of-type": return .firstOfType
        case "last-of-type": return .lastOfType
        case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
            let (a, b) = try formula(argument, of: name)
            return .nth(a: a, b: b, ofType: name.hasSuffix("of-type"), fromEnd: name.contains("last"))
        case "is", "where", "matches":
            return .isAny(try list(argument, of: name, allowRelative: false))
        case "has":
            return .has(try list(argument, of: name, allowRelative: true))
        case "not":
            guard let argument, !argument.isEmpty else { throw error(":not needs a simple selector, like :not(.hidden)") }
            var inner = SelectorParser(argument, source: source)
            let compound = try inner.parseCompound()
            guard inner.atEnd else { throw error(":not takes one simple selector") }
            return .not(compound)
        default:
            throw error("unsupported pseudo-class ':\(name.prefix(40))'")
        }
    }

    /// The text in a pseudo-class's parentheses (nested ones kept), or nil without parentheses.
    mutating func parseArgument(of name: String) throws -> String? {
        guard current == "(" else { return nil }
        index += 1
        var depth = 1
        var text = ""
        while let c = current {
            index += 1
            if c == "(" { depth += 1 }
            if c == ")" {
                depth -= 1
                if depth == 0 { break }
            }
            text.append(c)
        }
        guard depth == 0 else { throw error("unclosed '(' after :\(name.prefix(40))") }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// `an+b`, `odd`, `even`, or a number.
    func formula(_ argument: String?, of name: String) throws -> (Int, Int) {
        let fail = error(":\(name) takes a position like 2, odd, even, 2n+1 or -n+3")
        guard let text = argument?.lowercased().replacingOccurrences(of: " ", with: ""), !text.isEmpty else { throw fail }
        if text == "odd" { return (2, 1) }
        if text == "even" { return (2, 0) }
        if let n = Int(text) {
            guard n > 0, n < 1_000_000 else { throw fail }
            return (0, n)
        }
        guard let nIndex = text.firstIndex(of: "n") else { throw fail }
        let aText = String(text[..<nIndex])
        let a: Int
        switch aText {
        case "", "+": a = 1
        case "-": a = -1
        default:
            guard let value = Int(aText), abs(value) < 1_000_000 else { throw fail }
            a = value
        }
        let rest = String(text[text.index(after: nIndex)...])
        guard rest.isEmpty || rest.first == "+" || rest.first == "-", let b = rest.isEmpty ? 0 : Int(rest), abs(b) < 1_000_000 else { throw fail }
        return (a, b)
    }

    /// The selector list in `:is()`, `:where()` or `:has()` (which may start a selector with `>`).
    func list(_ argument: String?, of name: String, allowRelative: Bool) throws -> [ComplexSelector] {
        guard let argument, !argument.isEmpty else { throw error(":\(name) needs selectors inside its parentheses") }
        guard depth < 8 else { throw error("pseudo-classes are nested too deeply") }
        var out: [ComplexSelector] = []
        for part in SelectorParser.splitTopLevel(argument) {
            var text = part.trimmingCharacters(in: .whitespaces)
            var childOnly = false
            if allowRelative, text.hasPrefix(">") {
                childOnly = true
                text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces)
            }
            var inner = SelectorParser(text, source: source)
            inner.depth = depth + 1
            out += try inner.parseList().map { complex in
                ComplexSelector(compounds: complex.compounds, combinators: complex.combinators, anchored: childOnly)
            }
        }
        return out
    }

    func isNameStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "-" || c.isNumber }

    mutating func parseName() -> String {
        var name = ""
        while let c = current, c.isLetter || c.isNumber || c == "-" || c == "_" || c == "\\" {
            if c == "\\" {
                index += 1
                if let escaped = current { name.append(escaped) }
                index += 1
                continue
            }
            name.append(c)
            index += 1
        }
        return name
    }
}

extension Array where Element == ComplexSelector {
    /// Whether any selector of the list matches (an index loop: `contains(where:)` with a
    /// closure copied the selectors it passed over, for every element of every page).
    @inline(__always)
    func anyMatches(_ element: xmlNodePtr, scope: xmlNodePtr) -> Bool {
        var index = 0
        while index < count {
            if self[index].matches(element, scope: scope) { return true }
            index += 1
        }
        return false
    }

    /// The list read unretained, for a walk over many elements (the list must outlive it).
    var unretained: [Unmanaged<ComplexSelector>] { map { Unmanaged.passUnretained($0) } }
}

extension Array where Element == Unmanaged<ComplexSelector> {
    /// `anyMatches` without a retain and release of each selector per element.
    @inline(__always)
    func anyMatches(_ element: xmlNodePtr, scope: xmlNodePtr) -> Bool {
        var index = 0
        while index < count {
            if self[index]._withUnsafeGuaranteedRef({ $0.matches(element, scope: scope) }) { return true }
            index += 1
        }
        return false
    }
}
