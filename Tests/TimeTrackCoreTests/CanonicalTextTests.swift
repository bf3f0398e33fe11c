import Foundation
import Testing
import TimeTrackCore

/// `JSONValue.canonicalText`: valid compact JSON, the same text for the same value.
@Suite struct CanonicalTextTests {
    @Test func theSameValueGivesTheSameTextAndReadsBack() throws {
        let value = JSONValue.object([
            "item": .string("ul.news li"), "fields": .object(["title": .string("h2 \"a\""), "link": .string("a@href")]), "maxPages": .number(9),
            "ratio": .number(0.5), "flags": .array([.bool(true), .null, .string("tab\there\\ é 😀")]),
        ])
        let text = value.canonicalText
        #expect(text.hasPrefix("{\"fields\":{\"link\":\"a@href\",\"title\":\"h2 \\\"a\\\"\"},\"flags\":[true,null,"), "\(text)")
        #expect(text.contains("\"maxPages\":9,") && text.contains("\"ratio\":0.5"))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
        // Built in another order: the same text.
        var members: [String: JSONValue] = [:]
        for key in ["ratio", "maxPages", "flags", "fields", "item"] { members[key] = value.objectValue?[key] }
        #expect(JSONValue.object(members).canonicalText == text)
        #expect(JSONValue.string("\u{01}").canonicalText == "\"\\u0001\"")
    }
}
