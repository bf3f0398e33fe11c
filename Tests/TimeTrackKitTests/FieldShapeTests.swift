import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// Issue 36: the field spec every mapping importer shares, on its own: conditions (`when`),
/// constants, groups, patterns, templates, parts and their brackets, the order fields are read
/// in, and the mistakes a definition can make, each named by its path.
@Suite struct FieldShapeTests {
    static let source: SourceDefinition = {
        let object: [String: JSONValue] = ["id": .string("s"), "importer": .string("json"), "kind": .string("event"), "url": .string("feed.json")]
        return (try? SourceDefinition.parse(object, file: "/imports/s.json")) ?? { fatalError("the test definition parses") }()
    }()

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    static func shape(_ text: String) throws -> FieldShape {
        try FieldShape(try json(text).objectValue ?? [:], field: "fields.title", source: source)
    }

    static func condition(_ text: String) throws -> FieldCondition {
        try FieldCondition(try json(text), path: "where", source: source)
    }

    static func value(_ shape: FieldShape, read: String?, fields: [String: String] = [:], groups: [String?] = [], text: String = "") -> String? {
        var inputs = FieldInputs(fields: fields, groups: groups, page: "https://d.example/news", text: { text })
        return shape.value(&inputs) { read }
    }

    // MARK: Conditions

    static let conditionCases: [(String, [String: String], String, Bool)] = [
        (#"{"field": "title", "contains": "board"}"#, ["title": "Regular BOARD  Meeting"], "", true),
        (#"{"field": "title", "contains": "board meeting"}"#, ["title": "Board    meeting"], "", true),
        (#"{"field": "title", "contains": "board"}"#, ["title": "School dance"], "", false),
        (#"{"field": "title", "contains": "board", "not": true}"#, ["title": "School dance"], "", true),
        (#"{"field": "title", "equals": "Publish"}"#, ["title": " publish "], "", true),
        (#"{"field": "title", "equals": "Publish"}"#, ["title": "publish now"], "", false),
        (#"{"field": "count", "equals": 3}"#, ["count": "3"], "", true),
        (#"{"field": "flag", "equals": true}"#, ["flag": "TRUE"], "", true),
        (#"{"matches": "^Board\\b"}"#, [:], "Board of Education", true),
        (#"{"matches": "^Board\\b"}"#, [:], "Boardwalk", false),
        (#"{"field": "end", "present": true}"#, ["end": "x"], "", true),
        (#"{"field": "end", "present": true}"#, ["end": ""], "", false),
        (#"{"field": "end", "present": false}"#, [:], "", true),
        (#"{"field": "end", "present": false, "not": true}"#, ["end": "x"], "", true),
        (#"{"field": "missing", "contains": "x"}"#, [:], "x", false),
        (#"{"field": "missing", "contains": "x", "not": true}"#, [:], "x", true),
        (#"{"contains": "canceled"}"#, [:], "Game CANCELED today", true),
    ]

    @Test(arguments: conditionCases)
    func conditions(_ text: String, _ fields: [String: String], _ itemText: String, _ expected: Bool) throws {
        #expect(try Self.condition(text).holds(fields, text: { itemText }) == expected, "\(text)")
    }

    @Test func theItemsTextIsReadOnlyWhenAConditionNeedsIt() throws {
        var reads = 0
        let onField = try Self.condition(#"{"field": "title", "contains": "x"}"#)
        _ = onField.holds(["title": "x"]) {
            reads += 1
            return ""
        }
        #expect(reads == 0)
        var inputs = FieldInputs(text: {
            reads += 1
            return "Board"
        })
        #expect(inputs.text() == "Board" && inputs.text() == "Board")
        #expect(reads == 1)
    }

    @Test(arguments: [
        (#""board""#, "where"), (#"{"field": "title"}"#, "where"), (#"{"contains": "a", "equals": "b"}"#, "where"),
        (#"{"contains": "a", "colour": "red"}"#, "where.colour"), (#"{"field": 3, "contains": "a"}"#, "where.field"),
        (#"{"field": "", "contains": "a"}"#, "where.field"), (#"{"present": "yes"}"#, "where.present"), (#"{"matches": 3}"#, "where.matches"),
        (#"{"matches": "(a"}"#, "where.matches"), (#"{"matches": "(a+)+\\1"}"#, "where.matches"), (#"{"contains": ["a"]}"#, "where.contains"),
    ])
    func conditionMistakesNameTheirPath(_ text: String, _ field: String) throws {
        let error = try #require(throws: TimeTrackError.self) { try Self.condition(text) }
        #expect(error.context["field"] == field, "\(text): \(error.message)")
    }

    // MARK: One value

    @Test func whenThenAndElse() throws {
        let shape = try Self.shape(#"{"when": {"field": "kind", "equals": "closing"}, "then": "No School", "else": "Event"}"#)
        #expect(Self.value(shape, read: "read", fields: ["kind": "Closing"]) == "No School")
        #expect(Self.value(shape, read: "read", fields: ["kind": "game"]) == "Event")
        let noElse = try Self.shape(#"{"when": {"contains": "cancel"}}"#)
        #expect(Self.value(noElse, read: "Game", text: "Cancelled game") == "Game")
        #expect(Self.value(noElse, read: "Game", text: "Game on") == nil)
    }

    @Test func constantsGroupsAndWhatWasRead() throws {
        #expect(Self.value(try Self.shape(#"{"value": "Athletics"}"#), read: "ignored") == "Athletics")
        #expect(Self.value(try Self.shape(#"{"value": 42}"#), read: nil) == "42")
        #expect(Self.value(try Self.shape(#"{"value": true}"#), read: nil) == "true")
        let group = try Self.shape(#"{"group": 2}"#)
        #expect(Self.value(group, read: nil, groups: ["a", "b"]) == "b")
        #expect(Self.value(group, read: nil, groups: ["a"]) == nil)
        #expect(Self.value(group, read: nil, groups: ["a", nil]) == nil)
        #expect(Self.value(FieldShape(), read: "as read") == "as read")
        #expect(Self.value(FieldShape(), read: "") == nil)
    }

    @Test func patternsKeepTheirFirstGroupOrTheMatch() throws {
        let room = try Self.shape(#"{"pattern": "Room (\\d+)"}"#)
        #expect(Self.value(room, read: "Meet in Room 104 at noon") == "104")
        #expect(Self.value(room, read: "Meet in the gym") == nil)
        let whole = try Self.shape(#"{"pattern": "\\d{1,2}:\\d\\d [AP]M"}"#)
        #expect(Self.value(whole, read: "Doors at 6:30 PM sharp") == "6:30 PM")
    }

    @Test func templatesPlaceTheValueThePageAndGroups() throws {
        let shape = try Self.shape(#"{"template": "{value}, Room 100 ({page}) {1}-{2}"}"#)
        #expect(Self.value(shape, read: "Gym", groups: ["a"]) == "Gym, Room 100 (https://d.example/news) a-")
        let braces = try Self.shape(#"{"template": "{value} {unknown}"}"#)
        #expect(Self.value(braces, read: "x") == "x {unknown}")
    }

    /// What a page wrote is a value, never a placeholder.
    @Test func aValueHoldingPlaceholdersIsKeptAsWritten() throws {
        let shape = try Self.shape(#"{"template": "{value} ({1})"}"#)
        #expect(Self.value(shape, read: "Use {page} and {1}", groups: ["grp"]) == "Use {page} and {1} (grp)")
        #expect(FieldShape.fill("{value}", value: "{value}", page: "p", groups: []) == "{value}")
        #expect(FieldShape.fill("open { brace", value: "v", page: "p", groups: []) == "open { brace")
    }

    static let specMistakes: [(String, String)] = [
        (#"{"pattern": 3}"#, "fields.title.pattern"), (#"{"pattern": "(unclosed"}"#, "fields.title.pattern"),
        (#"{"template": "no braces"}"#, "fields.title.template"), (#"{"template": 3}"#, "fields.title.template"),
        (#"{"value": []}"#, "fields.title.value"), (#"{"then": "x"}"#, "fields.title"), (#"{"else": "x"}"#, "fields.title"),
        (#"{"group": 0}"#, "fields.title.group"), (#"{"group": 10}"#, "fields.title.group"), (#"{"group": 1.5}"#, "fields.title.group"),
        (#"{"group": "1"}"#, "fields.title.group"), (#"{"join": ", "}"#, "fields.title.join"), (#"{"parts": ["a"]}"#, "fields.title.parts"),
        (#"{"parts": {}}"#, "fields.title.parts"), (#"{"parts": {"a": "x"}}"#, "fields.title.parts"),
        (#"{"parts": {"a b": "x"}, "template": "{a b}"}"#, "fields.title.parts.a b"),
        (#"{"parts": {"value": "x"}, "template": "{value}"}"#, "fields.title.parts.value"),
        (#"{"parts": {"a": "x"}, "template": "{a} {b}"}"#, "fields.title.template"), (#"{"parts": "a"}"#, "fields.title.parts"),
        (#"{"parts": {"a": "x"}, "template": "{a}", "join": "-"}"#, "fields.title.join"), (#"{"parts": ["a", "b"], "join": 3}"#, "fields.title.join"),
    ]

    @Test(arguments: specMistakes)
    func specMistakesNameTheirPath(_ text: String, _ field: String) throws {
        let error = try #require(throws: TimeTrackError.self) { try Self.shape(text) }
        #expect(error.context["field"] == field, "\(text): \(error.message)")
    }

    // MARK: Parts

    static let partCases: [(String, [String: String], String?)] = [
        ("{row} — {text}", ["row": "March 10", "text": "Agenda"], "March 10 — Agenda"),
        ("{row} — {text}", ["text": "Agenda"], "Agenda"),
        ("{row} — {text}", ["row": "March 10"], "March 10"),
        ("{text} ({row})", ["text": "Agenda"], "Agenda"),
        ("{text} ({row})", ["text": "Agenda", "row": "PDF"], "Agenda (PDF)"),
        ("{text} [{row}] more", ["text": "Agenda"], "Agenda more"),
        // The separator before the missing part goes; the words and the next separator stay.
        ("Meeting: {row} | {text}", ["text": "Minutes"], "Meeting | Minutes"),
        ("{row}, {text}, {row}", ["row": "A"], "A, A"),
        ("{row} {text}", [:], nil),
    ]

    @Test(arguments: partCases)
    func namedPartsLeaveNoEmptyBrackets(_ template: String, _ values: [String: String], _ expected: String?) throws {
        let shape = try Self.shape(#"{"parts": {"row": "h3", "text": "a"}, "template": "\#(template)"}"#)
        #expect(shape.parts == ["row", "text"])
        #expect(shape.compose(values, value: nil, page: "", groups: []) == expected, "\(template) \(values)")
    }

    @Test func listedPartsAreJoined() throws {
        let shape = try Self.shape(#"{"parts": ["h3", "a"], "join": " · "}"#)
        #expect(shape.parts == ["1", "2"])
        #expect(shape.compose(["1": "March 10", "2": "Agenda"], value: nil, page: "", groups: []) == "March 10 · Agenda")
        #expect(shape.compose(["1": "", "2": "Agenda"], value: nil, page: "", groups: []) == "Agenda")
        #expect(try Self.shape(#"{"parts": ["h3", "a"]}"#).join == " ")
    }

    @Test(arguments: [("{a} and {b}", ["a", "b"]), ("{1}{value}{page}", ["1", "value", "page"]), ("none", []), ("{open", []), ("}{x}", ["x"])])
    func placeholders(_ template: String, _ expected: [String]) {
        #expect(FieldShape.placeholders(template) == expected)
    }

    // MARK: Reading order and references

    @Test func aFieldReadsAfterTheFieldsItsConditionReads() {
        let fields: [(String, [String])] = [("title", ["category"]), ("category", ["kind"]), ("kind", []), ("date", [])]
        let order = FieldShape.order(fields) { $0 }.map(\.0)
        #expect(order.firstIndex(of: "kind")! < order.firstIndex(of: "category")!)
        #expect(order.firstIndex(of: "category")! < order.firstIndex(of: "title")!)
        #expect(Set(order) == ["title", "category", "kind", "date"])
    }

    @Test func aCycleKeepsNameOrderAndLosesNoField() {
        let fields: [(String, [String])] = [("b", ["a"]), ("a", ["b"]), ("c", ["c"])]
        #expect(FieldShape.order(fields) { $0 }.map(\.0) == ["c", "a", "b"])
    }

    @Test func theOrderOfGeneratedFieldsRespectsEveryReadThatIsNotInACycle() {
        var random = SplitMix64(state: 777)
        for _ in 0..<300 {
            let count = random.int(1...8)
            let names = (0..<count).map { "f\($0)" }
            // Reads only of earlier names: no cycles, so every read must come first.
            let fields: [(String, [String])] = names.enumerated().map { index, name in
                (name, index == 0 ? [] : (0..<random.int(0...2)).map { _ in names[random.int(0...(index - 1))] })
            }
            let order = FieldShape.order(fields.shuffled(using: &random)) { $0 }.map(\.0)
            #expect(order.count == count && Set(order).count == count)
            for (name, reads) in fields {
                for read in reads { #expect(order.firstIndex(of: read)! < order.firstIndex(of: name)!, "\(fields) → \(order)") }
            }
        }
    }

    @Test func referencesAreCheckedWhenTheDefinitionIsRead() throws {
        try FieldShape.checkReferences(
            [("title", [], false), ("category", ["title"], false)], path: "fields", splitByPattern: false, source: Self.source)
        let unknown = try #require(throws: TimeTrackError.self) {
            try FieldShape.checkReferences([("category", ["kind"], false)], path: "fields", splitByPattern: false, source: Self.source)
        }
        #expect(unknown.context["field"] == "fields.category.when.field")
        try FieldShape.checkReferences([("category", ["kind"], false)], path: "fields", splitByPattern: false, alsoKnown: ["kind"], source: Self.source)
        let groups = try #require(throws: TimeTrackError.self) {
            try FieldShape.checkReferences([("title", [], true)], path: "fields", splitByPattern: false, source: Self.source)
        }
        #expect(groups.context["field"] == "fields.title")
        try FieldShape.checkReferences([("title", [], true)], path: "fields", splitByPattern: true, source: Self.source)
    }

    @Test func whatASpecReads() throws {
        #expect(try Self.shape(#"{"group": 1}"#).usesGroups)
        #expect(try Self.shape(#"{"template": "{value} {3}"}"#).usesGroups)
        #expect(try !Self.shape(#"{"template": "{value}"}"#).usesGroups)
        #expect(try Self.shape(#"{"value": "x"}"#).givesOwnValue)
        #expect(try Self.shape(#"{"when": {"contains": "a"}, "then": "b"}"#).givesOwnValue)
        #expect(try !Self.shape(#"{"when": {"contains": "a"}}"#).givesOwnValue)
        #expect(try Self.shape(#"{"when": {"field": "kind", "contains": "a"}}"#).readsField == "kind")
    }
}

extension Array {
    /// The array in an order drawn from `random` (Fisher–Yates).
    fileprivate func shuffled(using random: inout SplitMix64) -> [Element] {
        var out = self
        guard out.count > 1 else { return out }
        for index in stride(from: out.count - 1, to: 0, by: -1) { out.swapAt(index, random.int(0...index)) }
        return out
    }
}
