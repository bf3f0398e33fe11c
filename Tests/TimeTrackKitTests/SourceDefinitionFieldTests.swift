import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

/// A definition's text fields and time zone, read the way an administrator writes them.
@Suite struct SourceDefinitionFieldTests {
    static func parse(_ fields: [String: JSONValue]) throws -> SourceDefinition {
        var object: [String: JSONValue] = ["id": .string("s1"), "importer": .string("html"), "kind": .string("announcement"), "url": .string("page.html")]
        for (key, value) in fields { object[key] = value }
        return try SourceDefinition.parse(object, file: "/imports/s1.json")
    }

    /// Blank is blank whatever the spaces (tabs, no-break and other Unicode spaces); a value that
    /// only starts with one is kept as written.
    @Test func blankTextIsRefusedAndPaddedTextKept() throws {
        for blank in ["", " ", "\t", "\u{00A0}", "\u{2003}\u{3000}", "  \t "] {
            let error = try #require(throws: TimeTrackError.self) { try Self.parse(["name": .string(blank)]) }
            #expect(error.message == "must be a non-empty string", "\(Array(blank.unicodeScalars))")
            #expect(error.context["field"] == "name")
        }
        for kept in [" Hillcrest", "\u{00A0}News", "Ünïcode", "\t1"] {
            #expect(try Self.parse(["name": .string(kept)]).name == kept)
        }
    }

    /// A zone named again is the same zone; an unknown one is refused every time it is named.
    @Test func zonesAreLookedUpByNameEveryTime() throws {
        for _ in 0..<3 {
            #expect(try Self.parse(["timeZone": .string("America/Denver")]).timeZone == TimeZone(identifier: "America/Denver"))
            #expect(try Self.parse(["timeZone": .string("Europe/Paris")]).timeZone.identifier == "Europe/Paris")
            let error = try #require(throws: TimeTrackError.self) { try Self.parse(["timeZone": .string("Mars/Olympus")]) }
            #expect(error.message == "'Mars/Olympus' is not a known time zone")
        }
        #expect(try Self.parse([:]).timeZone == TimeZone(identifier: "UTC"))
    }
}
