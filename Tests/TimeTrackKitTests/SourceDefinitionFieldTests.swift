import Foundation
import Testing
import TimeTrackCore
@testable import TimeTrackKit

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

/// The folder a definition's relative `url` is read from, kept per folder, against
/// `URL(fileURLWithPath:).deletingLastPathComponent()` computed for every file; and schedules
/// with and without spaces around them.
@Suite struct SourceDefinitionPathTests {
    @Test func aFolderKeptByPathIsTheFolderOfEachFile() throws {
        let files = [
            "/imports/a.json", "/imports/b.json", "/imports/sub/../c.json", "/imports/./d.json", "/tmp/x y/é.json", "/a.json", "/imports//e.json",
            "relative/f.json", "g.json", "/imports/a b/../h.json",
        ]
        for file in files + files {
            #expect(SourceDefinition.folderURL(of: file) == URL(fileURLWithPath: file).deletingLastPathComponent(), "\(file)")
            for url in ["page.html", "site/p.html", "../up.html", "./here.html", "/abs/p.html", "a b/é.html"] {
                let definition = try SourceDefinition.parse(
                    ["id": .string("s1"), "importer": .string("html"), "kind": .string("announcement"), "url": .string(url)], file: file)
                let expected = URL(fileURLWithPath: url, relativeTo: URL(fileURLWithPath: file).deletingLastPathComponent()).standardizedFileURL
                #expect(definition.url == expected, "\(file) \(url)")
                #expect(definition.url.absoluteString == expected.absoluteString)
            }
        }
    }

    @Test func schedulesReadTheSameWithOrWithoutSpaces() {
        for (text, expected) in [("6h", Schedule.every(6 * 3600)), ("30m", .every(1800)), ("Hourly", .every(3600)), ("daily 05:30", .daily(hour: 5, minute: 30))] {
            for padded in [text, " \(text)", "\(text)\t", "\u{00A0}\(text)\u{2003}"] { #expect(Schedule(padded) == expected, "\(padded)") }
        }
        for bad in ["", " ", "\u{00A0}", "6 h", "1e300d", "inf", "nan", "daily", "4m"] where bad != "daily" { #expect(Schedule(bad) == nil, "\(bad)") }
        #expect(Schedule(" daily ") == .daily(hour: 0, minute: 0))
    }
}
