import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

/// Issue 36: the JSON path checked on generated documents: random nested objects and arrays,
/// random paths written in each of the forms the importers accept (`$.a`, `a`, `['x y']`,
/// `[2]`, `[-1]`, `[*]`, `.*`, `..name`, `..*`), against a plain recursive evaluation of the
/// same steps.
@Suite struct JSONPathPropertyTests {
    static let keys = ["a", "b", "events", "x y", "wp:media"]

    static func document(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        // The document itself is an object, as an API's answer is; below it, anything.
        switch depth >= 4 ? random.int(0...1) : depth == 0 ? 4 : random.int(0...4) {
        case 0: return .string("s\(random.int(0...99))")
        case 1: return .number(Double(random.int(0...9)))
        case 2: return .array((0..<random.int(0...4)).map { _ in document(&random, depth: depth + 1) })
        default:
            var object: [String: JSONValue] = [:]
            for key in keys where random.chance(70) { object[key] = document(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    enum Step {
        case member(String), index(Int), all, descend(String?)
    }

    /// The steps written as text, in a form picked at random.
    static func text(_ steps: [Step], fromDocument: Bool, _ random: inout SplitMix64) -> String {
        var out = fromDocument ? "$" : ""
        for (position, step) in steps.enumerated() {
            switch step {
            case .member(let name):
                let plain = name.allSatisfy { $0.isLetter }
                if plain && random.chance(70) {
                    out += (out.isEmpty && position == 0 ? "" : ".") + name
                } else {
                    out += "['\(name)']"
                }
            case .index(let index): out += "[\(index)]"
            case .all: out += out.isEmpty || random.chance(50) ? "[*]" : ".*"
            case .descend(let name): out += ".." + (name ?? "*")
            }
        }
        return out
    }

    /// The reference: each step applied to every value so far, plainly.
    static func evaluate(_ steps: [Step], _ start: JSONValue) -> [JSONValue] {
        var current = [start]
        for step in steps {
            current = current.flatMap { value -> [JSONValue] in
                switch step {
                case .member(let name): return value.objectValue?[name].map { [$0] } ?? []
                case .index(let index):
                    guard let array = value.arrayValue else { return [] }
                    let position = index < 0 ? array.count + index : index
                    return array.indices.contains(position) ? [array[position]] : []
                case .all:
                    if let array = value.arrayValue { return array }
                    if let object = value.objectValue { return object.keys.sorted().compactMap { object[$0] } }
                    return []
                case .descend(let name):
                    var out: [JSONValue] = []
                    func visit(_ node: JSONValue) {
                        if let object = node.objectValue {
                            for key in object.keys.sorted() {
                                guard let child = object[key] else { continue }
                                if name == nil || key == name { out.append(child) }
                                visit(child)
                            }
                        } else if let array = node.arrayValue {
                            for child in array {
                                if name == nil { out.append(child) }
                                visit(child)
                            }
                        }
                    }
                    visit(value)
                    return out
                }
            }
        }
        return current
    }

    static func steps(_ random: inout SplitMix64) -> [Step] {
        (0..<random.int(1...4)).map { _ in
            switch random.int(0...5) {
            case 0, 1: return .member(keys[random.int(0...keys.count - 1)])
            case 2: return .index(random.int(-3...3))
            case 3: return .all
            case 4: return .descend(random.chance(70) ? ["a", "b", "events"][random.int(0...2)] : nil)
            default: return .member(keys[random.int(0...2)])
            }
        }
    }

    @Test func pathsReachWhatTheirStepsReach() throws {
        var random = SplitMix64(state: 0x0150_A7B)
        var compared = 0, reached = 0
        for _ in 0..<300 {
            let document = Self.document(&random)
            for _ in 0..<10 {
                let steps = Self.steps(&random)
                let fromDocument = random.chance(50)
                let text = Self.text(steps, fromDocument: fromDocument, &random)
                let path = try JSONPath(text)
                #expect(path.fromDocument == fromDocument, "\(text)")
                let got = path.evaluate(document), expected = Self.evaluate(steps, document)
                #expect(got == expected, "\(text) on \(document)")
                compared += 1
                if !expected.isEmpty { reached += 1 }
            }
        }
        #expect(compared == 3_000 && reached > 600, "\(reached) of \(compared) reached something")
    }
}
