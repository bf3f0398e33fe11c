import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport

/// Issue 36: an external importer's `plugin.json` read on its own, from real folders: every
/// field it may hold, every mistake named by its field, a plugins folder with names taken
/// twice or by a built-in importer, and a definition's options checked against a manifest.
@Suite struct PluginManifestTests {
    static let valid = """
        { "protocol": 1, "name": "js-calendar", "version": "1.2.0", "kinds": ["event", "announcement"],
          "summary": "calendar pages that build their events with JavaScript", "command": ["python3", "plugin.py", "--quiet"],
          "options": [{"name": "dataId", "type": "string", "required": true, "help": "the id of the script holding the events"},
                      {"name": "days", "type": "number"}, {"name": "tags", "type": "list"}, {"name": "strict", "type": "boolean"},
                      {"name": "map", "type": "object"}, {"name": "plain"}],
          "environment": ["PYTHONIOENCODING", "LANG"], "timeout": 90, "maxOutputMB": 2.5, "maxItems": 500 }
        """

    static func manifest(_ text: String, in folder: TemporaryDirectory, name: String = "plugin") throws -> PluginManifest {
        try folder.write("\(name)/plugin.json", text)
        return try PluginManifest(folder: folder.path(name))
    }

    @Test func everyFieldIsRead() throws {
        let folder = try TemporaryDirectory("manifest")
        defer { folder.remove() }
        let manifest = try Self.manifest(Self.valid, in: folder)
        #expect(manifest.info.name == "js-calendar" && manifest.info.version == "1.2.0")
        #expect(manifest.info.kinds == [.event, .announcement])
        #expect(manifest.info.summary.hasPrefix("calendar pages") && manifest.info.summary.contains("(external: \(folder.path("plugin")))"))
        #expect(manifest.command == ["python3", "plugin.py", "--quiet"])
        #expect(manifest.environment == ["PYTHONIOENCODING", "LANG"])
        #expect(manifest.timeout == 90 && manifest.maxOutput == 2_500_000 && manifest.maxItems == 500)
        #expect(manifest.info.options.map(\.name) == ["dataId", "days", "tags", "strict", "map", "plain"])
        #expect(manifest.info.options.first?.required == true)
        #expect(manifest.info.options.last?.type == "string")
    }

    @Test func theDefaults() throws {
        let folder = try TemporaryDirectory("manifest")
        defer { folder.remove() }
        let manifest = try Self.manifest(#"{"protocol": 1, "name": "tiny", "kinds": ["school-info"], "command": ["./run"]}"#, in: folder)
        #expect(manifest.timeout == 60 && manifest.maxOutput == 10_000_000 && manifest.maxItems == 10_000)
        #expect(manifest.info.version == "0" && manifest.environment.isEmpty && manifest.info.options.isEmpty)
    }

    static let base = #""protocol": 1, "name": "p", "kinds": ["event"], "command": ["./run"]"#

    static let mistakes: [(String, String)] = [
        ("[]", "plugin.json"), ("not json", "plugin.json"), ("{\(base), \"colour\": \"red\"}", "colour"),
        (#"{"name": "p", "kinds": ["event"], "command": ["./run"]}"#, "protocol"),
        (#"{"protocol": 2, "name": "p", "kinds": ["event"], "command": ["./run"]}"#, "protocol"),
        (#"{"protocol": 1, "name": "Bad Name", "kinds": ["event"], "command": ["./run"]}"#, "name"),
        (#"{"protocol": 1, "name": "9lives", "kinds": ["event"], "command": ["./run"]}"#, "name"),
        (#"{"protocol": 1, "name": "a-very-long-name-that-goes-on-and-on-and-on", "kinds": ["event"], "command": ["./run"]}"#, "name"),
        (#"{"protocol": 1, "name": "p", "kinds": [], "command": ["./run"]}"#, "kinds"),
        (#"{"protocol": 1, "name": "p", "kinds": ["absence"], "command": ["./run"]}"#, "kinds"),
        (#"{"protocol": 1, "name": "p", "kinds": ["events"], "command": ["./run"]}"#, "kinds"),
        (#"{"protocol": 1, "name": "p", "kinds": ["event"], "command": "python3 plugin.py"}"#, "command"),
        (#"{"protocol": 1, "name": "p", "kinds": ["event"], "command": []}"#, "command"),
        (#"{"protocol": 1, "name": "p", "kinds": ["event"], "command": ["python3", 3]}"#, "command"),
        ("{\(base), \"options\": [{\"type\": \"string\"}]}", "options[0]"),
        ("{\(base), \"options\": [{\"name\": \"a\"}, {\"name\": \"b\", \"type\": \"date\"}]}", "options[1].type"),
        ("{\(base), \"timeout\": 0}", "timeout"), ("{\(base), \"timeout\": 3601}", "timeout"), ("{\(base), \"timeout\": \"60\"}", "timeout"),
        ("{\(base), \"maxOutputMB\": 0}", "maxOutputMB"), ("{\(base), \"maxOutputMB\": 1001}", "maxOutputMB"),
        ("{\(base), \"maxItems\": 0}", "maxItems"), ("{\(base), \"maxItems\": \"5\"}", "maxItems"), ("{\(base), \"maxOutputMB\": true}", "maxOutputMB"),
        ("{\(base), \"environment\": \"LANG\"}", "environment"), ("{\(base), \"environment\": [\"LANG\", 3]}", "environment"),
        ("{\(base), \"environment\": [\"A=1\"]}", "environment"), ("{\(base), \"version\": 2}", "version"), ("{\(base), \"summary\": []}", "summary"),
        ("{\(base), \"maxItems\": 1.5}", "maxItems"), ("{\(base), \"maxItems\": 1e300}", "maxItems"),
    ]

    @Test(arguments: mistakes)
    func mistakesNameTheirField(_ text: String, _ field: String) throws {
        let folder = try TemporaryDirectory("manifest")
        defer { folder.remove() }
        let error = try #require(throws: TimeTrackError.self) { try Self.manifest(text, in: folder) }
        #expect(error.context["field"] == field, "\(text): \(error.message)")
        #expect(error.context["file"] == folder.path("plugin/plugin.json"))
    }

    @Test func aFolderWithoutAManifestSaysSo() throws {
        let folder = try TemporaryDirectory("manifest")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        let error = try #require(throws: TimeTrackError.self) { try PluginManifest(folder: folder.path("empty")) }
        #expect(error.message == "no plugin.json in this plugin's folder")
    }

    @Test func aPluginsFolderKeepsTheGoodOnesAndNamesTheRest() throws {
        let folder = try TemporaryDirectory("plugins")
        defer { folder.remove() }
        let good = #"{"protocol": 1, "name": "NAME", "kinds": ["event"], "command": ["./run"]}"#
        try folder.write("a-first/plugin.json", good.replacingOccurrences(of: "NAME", with: "scraper"))
        try folder.write("b-again/plugin.json", good.replacingOccurrences(of: "NAME", with: "scraper"))
        try folder.write("c-builtin/plugin.json", good.replacingOccurrences(of: "NAME", with: "html"))
        try folder.write("d-broken/plugin.json", "{")
        try folder.write("e-other/plugin.json", good.replacingOccurrences(of: "NAME", with: "other"))
        try folder.write(".hidden/plugin.json", good.replacingOccurrences(of: "NAME", with: "hidden"))
        try folder.write("README.md", "not a plugin")
        let plugins = PluginFolder(path: folder.url.path)
        #expect(plugins.manifests.map(\.info.name) == ["scraper", "other"])
        #expect(plugins.errors.count == 3)
        #expect(
            plugins.errors.map { $0.context["file"] ?? "" }.map { ($0 as NSString).deletingLastPathComponent.components(separatedBy: "/").last ?? "" } == [
                "b-again", "c-builtin", "d-broken",
            ])
        #expect(plugins.errors.prefix(2).allSatisfy { $0.message.contains("is taken") })
        #expect(PluginFolder(path: folder.path("no-such-folder")).manifests.isEmpty)
    }

    // MARK: A definition's options

    static func definition(_ options: [String: JSONValue]) throws -> SourceDefinition {
        let object: [String: JSONValue] = [
            "id": .string("cal"), "importer": .string("js-calendar"), "kind": .string("event"), "url": .string("https://d.example/cal"),
            "options": .object(options),
        ]
        return try SourceDefinition.parse(object, file: "/imports/cal.json")
    }

    @Test func optionsAreCheckedAgainstTheManifest() throws {
        let folder = try TemporaryDirectory("manifest")
        defer { folder.remove() }
        let manifest = try Self.manifest(Self.valid, in: folder)
        try manifest.check(
            try Self.definition([
                "dataId": .string("events"), "days": .number(30), "tags": .array([]), "strict": .bool(true), "map": .object([:]), "plain": .string("x"),
            ]))
        try manifest.check(try Self.definition(["dataId": .string("events")]))
        let cases: [([String: JSONValue], String)] = [
            ([:], "options.dataId"), (["dataId": .number(3)], "options.dataId"), (["dataId": .string("e"), "days": .string("30")], "options.days"),
            (["dataId": .string("e"), "days": .number(.infinity)], "options.days"), (["dataId": .string("e"), "tags": .string("a")], "options.tags"),
            (["dataId": .string("e"), "strict": .string("yes")], "options.strict"), (["dataId": .string("e"), "map": .array([])], "options.map"),
            (["dataId": .string("e"), "unknown": .bool(true)], "options.unknown"),
        ]
        for (options, field) in cases {
            let error = try #require(throws: TimeTrackError.self) { try manifest.check(try Self.definition(options)) }
            #expect(error.context["field"] == field, "\(options): \(error.message)")
        }
    }

    @Test func externalImportersMakeOnlyKindsTheNormalizerBuildsFromFieldNames() {
        #expect(PluginManifest.kinds == [.announcement, .event, .schoolInfo, .alert])
        #expect(MappedFields.kindWords == "announcement, event, school-info or alert")
    }
}
