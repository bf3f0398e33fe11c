import Foundation
import TestSupport
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
        for (text, expected) in [
            ("6h", Schedule.every(6 * 3600)), ("30m", .every(1800)), ("Hourly", .every(3600)), ("daily 05:30", .daily(hour: 5, minute: 30)),
        ] {
            for padded in [text, " \(text)", "\(text)\t", "\u{00A0}\(text)\u{2003}"] { #expect(Schedule(padded) == expected, "\(padded)") }
        }
        for bad in ["", " ", "\u{00A0}", "6 h", "1e300d", "inf", "nan", "daily", "4m"] where bad != "daily" { #expect(Schedule(bad) == nil, "\(bad)") }
        #expect(Schedule(" daily ") == .daily(hour: 0, minute: 0))
    }
}

/// A folder of definitions read on all cores gives what reading them one by one gives: sources
/// sorted by id, the first file (by name) keeping an id used twice, each bad file's error.
@Suite struct SourceDefinitionFolderTests {
    @Test func aFolderReadsAsOneFileAfterAnother() throws {
        let dir = try TemporaryDirectory("definitions")
        defer { dir.remove() }
        var expectedIDs: [String] = []
        for i in 0..<90 {
            let name = String(format: "f%03d.json", i)
            let id = i % 17 == 5 ? "dup" : "s\(89 - i)"
            if i % 13 == 7 {
                _ = try dir.write(name, #"{ "id": "bad\#(i)", "importer": "html", "kind": "announcement" }"#)  // no url
                continue
            }
            _ = try dir.write(name, #"{ "id": "\#(id)", "importer": "html", "kind": "announcement", "url": "p\#(i).html", "timeZone": "America/Denver" }"#)
            if id != "dup" || !expectedIDs.contains("dup") { expectedIDs.append(id) }
        }
        _ = try dir.write("_settings.json", "{}")
        _ = try dir.write("notes.txt", "x")
        let (sources, errors) = SourceDefinition.loadAll(folder: dir.url.path)
        #expect(sources.map(\.id) == expectedIDs.sorted())
        // The first file with "dup" (f005) keeps it; the later ones are refused, in file order.
        #expect(sources.first { $0.id == "dup" }?.file.hasSuffix("f005.json") == true)
        let messages = errors.map { "\(($0.context["file"] ?? "").split(separator: "/").last ?? ""): \($0.message)" }
        let dupFiles = (0..<90).filter { $0 % 17 == 5 && $0 % 13 != 7 }.dropFirst().map { String(format: "f%03d.json", $0) }
        let badFiles = (0..<90).filter { $0 % 13 == 7 }.map { String(format: "f%03d.json", $0) }
        #expect(messages.filter { $0.contains("already used") }.map { String($0.split(separator: ":")[0]) } == dupFiles)
        #expect(messages.filter { $0.hasSuffix("is required") }.map { String($0.split(separator: ":")[0]) } == badFiles)
        #expect(errors.count == dupFiles.count + badFiles.count)
    }
}
