import Foundation
import TimeTrackCore

/// A regular expression from a source definition, matched without backtracking.
///
/// Patterns come from files an administrator (or a plugin) wrote, and are run on text from pages
/// nobody controls. A backtracking engine (NSRegularExpression) takes exponential time on
/// patterns like `(x+x+)+y`, holding the import lock for minutes. This one compiles the pattern
/// to a small program and runs it as a Pike VM: every position of the text is visited once per
/// instruction, so a match costs at most `text length × program size` steps, whatever the pattern.
///
/// The syntax is the common subset: literals, `.`, classes `[a-z]` `[^…]` with `\d \w \s`,
/// `\d \D \w \W \s \S \b \B`, anchors `^ $`, groups `( )`, `(?: )`, `(?<name> )`, alternation
/// `|`, quantifiers `* + ? {n} {n,} {n,m}` and their lazy forms, and a leading `(?i)`.
/// Backreferences and lookaround cannot be matched without backtracking and are refused with a
/// message. Matching is leftmost-first, as in Perl, ICU and NSRegularExpression.
public struct SafePattern: Sendable {
    /// Why a pattern was refused.
    public struct SyntaxError: Error, Sendable {
        public var message: String
    }

    indirect enum Node {
        case empty
        case scalar(Unicode.Scalar)
        case any
        case set(CharSet)
        case group(Node, index: Int?)
        case concat([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?, greedy: Bool)
        case start, end
        case boundary(Bool)
    }

    struct CharSet: Sendable {
        enum Class: Sendable { case digit, word, space }
        var ranges: [(UInt32, UInt32)] = []
        var classes: [(Class, Bool)] = []  // (class, negated)
        var negated = false

        func contains(_ c: Unicode.Scalar, ignoreCase: Bool) -> Bool {
            var hit = containsExactly(c)
            if !hit && ignoreCase {
                for variant in SafePattern.caseVariants(c) where containsExactly(variant) {
                    hit = true
                    break
                }
            }
            return hit != negated
        }

        private func containsExactly(_ c: Unicode.Scalar) -> Bool {
            for (low, high) in ranges where c.value >= low && c.value <= high { return true }
            for (cls, negated) in classes where SafePattern.isClass(cls, c) != negated { return true }
            return false
        }
    }

    enum Instruction {
        case scalar(Unicode.Scalar)
        case any
        case set(CharSet)
        case split(Int, Int)  // try the first, then the second
        /// The head of an unbounded repetition: like `split`, and reached again at the same
        /// position (the body matched nothing) it leaves the loop, as backtracking engines do.
        case loop(Int, Int, exit: Int)
        case jump(Int)
        case save(Int)
        case assertStart, assertEnd
        case boundary(Bool)
        case match
    }

    let program: [Instruction]
    /// Capturing groups (not counting the whole match).
    public let groupCount: Int
    let ignoreCase: Bool
    /// The pattern as written.
    public let source: String

    /// The largest pattern accepted, in characters, and its compiled size.
    public static let maxPatternLength = 2_000
    static let maxProgram = 50_000
    static let maxNesting = 32

    /// Compiles a pattern; throws `SyntaxError` saying what is wrong or unsupported.
    public init(_ pattern: String, ignoreCase: Bool = true) throws {
        source = pattern
        guard pattern.unicodeScalars.count <= SafePattern.maxPatternLength else {
            throw SyntaxError(message: "is longer than \(SafePattern.maxPatternLength) characters")
        }
        var parser = Parser(Array(pattern.unicodeScalars))
        var caseless = ignoreCase
        if parser.consume("(?i)") { caseless = true }
        let tree = try parser.parseAlternation(depth: 0)
        guard parser.atEnd else {
            throw SyntaxError(message: "has an unmatched ')' at character \(parser.position + 1)")
        }
        var compiler = Compiler()
        compiler.emit(.save(0))
        try compiler.compile(tree)
        compiler.emit(.save(1))
        compiler.emit(.match)
        program = compiler.program
        groupCount = parser.groups
        self.ignoreCase = caseless
    }

    /// The first (leftmost-first) match in `text`: the whole match and each group (nil when a
    /// group took no part).
    public func firstMatch(in text: String) -> (whole: Range<String.Index>, groups: [Range<String.Index>?])? {
        let scalars = Array(text.unicodeScalars)
        guard let slots = run(scalars).slots else { return nil }
        // Scalar offsets to String indices.
        var indices: [String.Index] = []
        indices.reserveCapacity(scalars.count + 1)
        var index = text.unicodeScalars.startIndex
        for _ in 0..<scalars.count {
            indices.append(index)
            index = text.unicodeScalars.index(after: index)
        }
        indices.append(text.unicodeScalars.endIndex)
        func range(_ group: Int) -> Range<String.Index>? {
            let (a, b) = (slots[2 * group], slots[2 * group + 1])
            guard a >= 0, b >= a else { return nil }
            return indices[a]..<indices[b]
        }
        guard let whole = range(0) else { return nil }
        return (whole, (1...max(1, groupCount)).prefix(groupCount).map(range))
    }

    /// The text of group 1 when the pattern has groups and it took part, else the whole match.
    public func firstCapture(in text: String) -> String? {
        guard let match = firstMatch(in: text) else { return nil }
        if let first = match.groups.first, let range = first { return String(text[range]) }
        return String(text[match.whole])
    }

    // MARK: The VM

    private struct Thread {
        var pc: Int
        var slots: [Int]
    }

    /// The steps a search of `text` takes (threads followed): at most about
    /// `(text length + 1) × program size`, whatever the pattern.
    ///
    /// For tests of that bound.
    func cost(of text: String) -> (steps: Int, programSize: Int) {
        (run(Array(text.unicodeScalars)).steps, program.count)
    }

    private func run(_ input: [Unicode.Scalar]) -> (slots: [Int]?, steps: Int) {
        var machine = Machine(program: program, input: input, ignoreCase: ignoreCase)
        let slotCount = 2 * (groupCount + 1)
        var current: [Thread] = []
        var next: [Thread] = []
        var matched: [Int]?
        // `current` was built under the present generation, so a new attempt never duplicates
        // one of its threads.
        for position in 0...input.count {
            if matched == nil {
                // A new attempt starting here, after every older thread in priority.
                machine.add(&current, Thread(pc: 0, slots: [Int](repeating: -1, count: slotCount)), at: position)
            }
            machine.generation += 1
            if current.isEmpty {
                if matched != nil { break }
                continue
            }
            next.removeAll(keepingCapacity: true)
            if let found = machine.advance(current, into: &next, at: position) { matched = found }
            swap(&current, &next)
        }
        return (matched, machine.steps)
    }

    /// The Pike VM's state over one search: every thread at a position, in priority order,
    /// each program counter visited once a position (`marks`), so the work is bounded by
    /// the text's length times the program's size.
    private struct Machine {
        let program: [Instruction]
        let input: [Unicode.Scalar]
        let ignoreCase: Bool
        var steps = 0
        var marks: [Int]
        var generation = 0
        var stack: [Thread] = []

        init(program: [Instruction], input: [Unicode.Scalar], ignoreCase: Bool) {
            (self.program, self.input, self.ignoreCase) = (program, input, ignoreCase)
            marks = [Int](repeating: -1, count: program.count)
        }

        /// Follows jumps, splits, saves and assertions from `thread` at `position`, appending the
        /// threads that wait on a character (or match) to `list` in priority order.
        mutating func add(_ list: inout [Thread], _ thread: Thread, at position: Int) {
            stack.append(thread)
            while var t = stack.popLast() {
                steps += 1
                if marks[t.pc] == generation {
                    // An iteration that matched nothing ends the loop.
                    if case .loop(_, _, let exit) = program[t.pc], marks[exit] != generation {
                        t.pc = exit
                        stack.append(t)
                    }
                    continue
                }
                marks[t.pc] = generation
                switch program[t.pc] {
                case .loop(let first, let second, _):
                    stack.append(Thread(pc: second, slots: t.slots))
                    t.pc = first
                    stack.append(t)
                case .jump(let target):
                    t.pc = target
                    stack.append(t)
                case .split(let first, let second):
                    // The stack is last-in first-out: push the lower priority first.
                    stack.append(Thread(pc: second, slots: t.slots))
                    t.pc = first
                    stack.append(t)
                case .save(let slot):
                    t.slots[slot] = position
                    t.pc += 1
                    stack.append(t)
                case .assertStart:
                    if position == 0 { t.pc += 1; stack.append(t) }
                case .assertEnd:
                    if position == input.count { t.pc += 1; stack.append(t) }
                case .boundary(let wanted):
                    let before = position > 0 && SafePattern.isWord(input[position - 1])
                    let after = position < input.count && SafePattern.isWord(input[position])
                    if (before != after) == wanted { t.pc += 1; stack.append(t) }
                case .scalar, .any, .set, .match:
                    list.append(t)
                }
            }
        }

        /// Moves every thread of `current` over the character at `position` into `next`; the
        /// slots of a thread that matched (lower-priority threads lose), or nil.
        mutating func advance(_ current: [Thread], into next: inout [Thread], at position: Int) -> [Int]? {
            let c: Unicode.Scalar? = position < input.count ? input[position] : nil
            for thread in current {
                steps += 1
                switch program[thread.pc] {
                case .match:
                    return thread.slots
                case .scalar(let wanted):
                    if let c, c == wanted || (ignoreCase && SafePattern.caseVariants(c).contains(wanted)) {
                        add(&next, Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1)
                    }
                case .any:
                    if let c, c != "\n" { add(&next, Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1) }
                case .set(let set):
                    if let c, set.contains(c, ignoreCase: ignoreCase) {
                        add(&next, Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1)
                    }
                default:
                    break
                }
            }
            return nil
        }
    }

    // MARK: Character classes

    static func isWord(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic || c.properties.numericType == .decimal
    }

    static func isClass(_ cls: CharSet.Class, _ c: Unicode.Scalar) -> Bool {
        switch cls {
        case .digit: return c.properties.numericType == .decimal
        case .word: return isWord(c)
        case .space: return c.properties.isWhitespace
        }
    }

    /// The other cases of a letter (simple one-scalar mappings only).
    static func caseVariants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        if c.isASCII {
            let v = c.value
            if v >= 65 && v <= 90 { return [Unicode.Scalar(v + 32) ?? c] }
            if v >= 97 && v <= 122 { return [Unicode.Scalar(v - 32) ?? c] }
            return []
        }
        var variants: [Unicode.Scalar] = []
        for mapping in [c.properties.lowercaseMapping, c.properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let only = scalars.first, only != c { variants.append(only) }
        }
        return variants
    }

    // MARK: Parsing

    struct Parser {
        let text: [Unicode.Scalar]
        var position = 0
        var groups = 0

        init(_ text: [Unicode.Scalar]) { self.text = text }

        var atEnd: Bool { position >= text.count }
        func peek(_ offset: Int = 0) -> Unicode.Scalar? { position + offset < text.count ? text[position + offset] : nil }

        mutating func consume(_ literal: String) -> Bool {
            let wanted = Array(literal.unicodeScalars)
            guard position + wanted.count <= text.count, Array(text[position..<(position + wanted.count)]) == wanted else { return false }
            position += wanted.count
            return true
        }

        func error(_ message: String) -> SyntaxError { SyntaxError(message: message + " (at character \(position + 1))") }

        mutating func parseAlternation(depth: Int) throws -> Node {
            guard depth <= SafePattern.maxNesting else { throw error("nests groups more than \(SafePattern.maxNesting) deep") }
            var branches = [try parseConcatenation(depth: depth)]
            while peek() == "|" {
                position += 1
                branches.append(try parseConcatenation(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseConcatenation(depth: Int) throws -> Node {
            var items: [Node] = []
            while let c = peek(), c != "|", c != ")" {
                var atom = try parseAtom(depth: depth)
                while let quantifier = try parseQuantifier() {
                    if case .start = atom { throw error("a quantifier follows an anchor") }
                    if case .end = atom { throw error("a quantifier follows an anchor") }
                    atom = .repetition(atom, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
        }

        mutating func parseQuantifier() throws -> (min: Int, max: Int?, greedy: Bool)? {
            guard let c = peek() else { return nil }
            var result: (Int, Int?)
            switch c {
            case "*": result = (0, nil); position += 1
            case "+": result = (1, nil); position += 1
            case "?": result = (0, 1); position += 1
            case "{":
                guard let counted = try parseCount() else { return nil }
                result = counted
            default: return nil
            }
            var greedy = true
            if peek() == "?" {
                greedy = false; position += 1
            } else if peek() == "+" {
                throw error("possessive quantifiers are not supported")
            }
            return (result.0, result.1, greedy)
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (and nothing consumed) when the brace is a literal.
        mutating func parseCount() throws -> (Int, Int?)? {
            var index = position + 1
            func number() -> Int? {
                var value = 0, digits = 0
                while index < text.count, text[index].value >= 48, text[index].value <= 57 {
                    value = value * 10 + Int(text[index].value - 48)
                    digits += 1
                    index += 1
                    if value > 100_000 { return 100_001 }
                }
                return digits > 0 ? value : nil
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if index < text.count, text[index] == "," {
                index += 1
                high = number()
            }
            guard index < text.count, text[index] == "}" else { return nil }
            position = index + 1
            guard low <= 1_000, (high ?? low) <= 1_000 else { throw error("counts above 1000 in {n,m} are not supported") }
            if let high, high < low { throw error("{\(low),\(high)} counts down") }
            return (low, high)
        }

        mutating func parseAtom(depth: Int) throws -> Node {
            guard let c = peek() else { throw error("ends too early") }
            position += 1
            switch c {
            case ".": return .any
            case "^": return .start
            case "$": return .end
            case "[": return .set(try parseSet())
            case "(":
                var index: Int?
                if consume("?:") {
                    index = nil
                } else if peek() == "?" {
                    if consume("?<") || consume("?P<") {
                        if let n = peek(), n == "=" || n == "!" { throw error("lookbehind cannot be matched without backtracking; use a group instead") }
                        while let n = peek(), n != ">" { position += 1 }
                        guard consume(">") else { throw error("a group name is not closed with '>'") }
                        groups += 1
                        index = groups
                    } else if consume("?=") || consume("?!") {
                        throw error("lookahead cannot be matched without backtracking; match the text and take a group instead")
                    } else {
                        throw error("this group syntax is not supported (use ( ), (?: ) or (?<name> ))")
                    }
                } else {
                    groups += 1
                    index = groups
                }
                let inner = try parseAlternation(depth: depth + 1)
                guard consume(")") else { throw error("a group is not closed with ')'") }
                return .group(inner, index: index)
            case ")": throw error("has an unmatched ')'")
            case "*", "+", "?": throw error("'\(c)' has nothing to repeat")
            case "\\": return try parseEscape(inSet: false).node
            default: return .scalar(c)
            }
        }

        /// After a backslash: a class, an assertion, or a literal.
        mutating func parseEscape(inSet: Bool) throws -> (node: Node, set: CharSet?) {
            guard let c = peek() else { throw error("ends with a lone backslash") }
            position += 1
            func cls(_ kind: CharSet.Class, negated: Bool) -> (Node, CharSet?) {
                var set = CharSet()
                set.classes = [(kind, negated)]
                return (.set(set), set)
            }
            switch c {
            case "d": return cls(.digit, negated: false)
            case "D": return cls(.digit, negated: true)
            case "w": return cls(.word, negated: false)
            case "W": return cls(.word, negated: true)
            case "s": return cls(.space, negated: false)
            case "S": return cls(.space, negated: true)
            case "b" where !inSet: return (.boundary(true), nil)
            case "B" where !inSet: return (.boundary(false), nil)
            case "t": return (.scalar("\t"), nil)
            case "n": return (.scalar("\n"), nil)
            case "r": return (.scalar("\r"), nil)
            case "f": return (.scalar("\u{0C}"), nil)
            case "v": return (.scalar("\u{0B}"), nil)
            case "u":
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let h = peek(), let digit = Int(String(h), radix: 16) else { throw error("\\u needs four hex digits") }
                    value = value * 16 + UInt32(digit)
                    position += 1
                }
                guard let scalar = Unicode.Scalar(value) else { throw error("\\u\(String(value, radix: 16)) is not a character") }
                return (.scalar(scalar), nil)
            case "1"..."9":
                throw error("backreferences cannot be matched without backtracking")
            default:
                if c.properties.isAlphabetic && c.isASCII { throw error("\\\(c) is not a supported escape") }
                return (.scalar(c), nil)
            }
        }

        mutating func parseSet() throws -> CharSet {
            var set = CharSet()
            if peek() == "^" { set.negated = true; position += 1 }
            var first = true
            while true {
                guard let c = peek() else { throw error("a class '[' is not closed with ']'") }
                if c == "]" && !first { position += 1; break }
                first = false
                position += 1
                var low: Unicode.Scalar
                if c == "\\" {
                    let escaped = try parseEscape(inSet: true)
                    if let inner = escaped.set {
                        set.classes += inner.classes
                        continue
                    }
                    guard case .scalar(let s) = escaped.node else { continue }
                    low = s
                } else {
                    low = c
                }
                if peek() == "-", let after = peek(1), after != "]" {
                    position += 1
                    var high = after
                    position += 1
                    if after == "\\" {
                        guard case .scalar(let s) = try parseEscape(inSet: true).node else { throw error("a class range ends in a class") }
                        high = s
                    }
                    guard high.value >= low.value else { throw error("the class range \(low)-\(high) runs backwards") }
                    set.ranges.append((low.value, high.value))
                } else {
                    set.ranges.append((low.value, low.value))
                }
            }
            return set
        }
    }

    // MARK: Compiling

    struct Compiler {
        var program: [Instruction] = []

        mutating func emit(_ instruction: Instruction) { program.append(instruction) }

        mutating func compile(_ node: Node) throws {
            guard program.count <= SafePattern.maxProgram else {
                throw SyntaxError(message: "is too large once its counted repetitions are written out")
            }
            switch node {
            case .empty: break
            case .scalar(let c): emit(.scalar(c))
            case .any: emit(.any)
            case .set(let set): emit(.set(set))
            case .start: emit(.assertStart)
            case .end: emit(.assertEnd)
            case .boundary(let wanted): emit(.boundary(wanted))
            case .group(let inner, let index):
                if let index { emit(.save(2 * index)) }
                try compile(inner)
                if let index { emit(.save(2 * index + 1)) }
            case .concat(let items):
                for item in items { try compile(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        emit(.split(split + 1, -1))
                        try compile(branch)
                        jumps.append(program.count)
                        emit(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try compile(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let inner, let min, let max, let greedy):
                for _ in 0..<min { try compile(inner) }
                if let max {
                    // Each optional copy: split over it.
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        emit(.split(-1, -1))
                        try compile(inner)
                    }
                    let end = program.count
                    for split in splits { program[split] = greedy ? .split(split + 1, end) : .split(end, split + 1) }
                } else {
                    let loop = program.count
                    emit(.split(-1, -1))
                    try compile(inner)
                    emit(.jump(loop))
                    let end = program.count
                    program[loop] = greedy ? .loop(loop + 1, end, exit: end) : .loop(end, loop + 1, exit: end)
                }
            }
        }
    }
}
