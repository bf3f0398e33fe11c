import Foundation
import TimeTrackCore
import TimeTrackKit

/// An external importer's `plugin.json`: what it is, its options, and how to run it.
///
/// docs/external-importers.md describes it and the protocol.
///
/// ```json
/// { "protocol": 1, "name": "js-calendar", "version": "1.0.0", "kinds": ["event"],
///   "summary": "calendar pages that build their events with JavaScript",
///   "command": ["python3", "plugin.py"],
///   "options": [{"name": "dataId", "type": "string", "help": "the id of the script holding the events"}],
///   "environment": ["PYTHONIOENCODING"], "timeout": 60, "maxOutputMB": 10, "maxItems": 10000 }
/// ```
public struct PluginManifest: Sendable {
    public static let protocolVersion = 1
    /// Kinds an external importer may make: those the normalizer builds from field names.
    public static let kinds: [ItemKind] = MappedFields.kinds

    public var info: ImporterInfo
    /// The program and its arguments, run in the plugin's folder.
    public var command: [String]
    /// Environment variables passed on from the tool's own environment (all others are cleared).
    public var environment: [String]
    /// Seconds a run may take (at most 3600).
    public var timeout: TimeInterval
    /// Bytes of output a run may print (at most 1 GB).
    public var maxOutput: Int
    /// Items a run may hand over (`maxItems`, default 10,000, at most 1,000,000): past it the
    /// plugin is stopped and the run keeps what came before, as a partial reading.
    public var maxItems: Int
    /// The plugin's folder.
    public var folder: String

    /// Reads `folder/plugin.json`; errors name the file and the field.
    public init(folder: String) throws {
        self.folder = folder
        let file = (folder as NSString).appendingPathComponent("plugin.json")
        func fail(_ field: String, _ message: String, fix: String? = nil) -> TimeTrackError {
            TimeTrackError(.configuration, message, fix: fix ?? "see docs/external-importers.md", context: ["file": file, "field": field])
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw fail("plugin.json", "no plugin.json in this plugin's folder") }
        guard let value = try? JSONValue(parsing: data), let object = value.objectValue else {
            throw fail("plugin.json", "is not a JSON object")
        }
        let known = ["protocol", "name", "version", "kinds", "summary", "command", "options", "environment", "timeout", "maxOutputMB", "maxItems"]
        for key in object.keys where !known.contains(key) { throw fail(key, "is not a manifest field", fix: "fields: " + known.joined(separator: ", ")) }
        guard object["protocol"]?.numberValue == Double(PluginManifest.protocolVersion) else {
            throw fail("protocol", "must be \(PluginManifest.protocolVersion) (the protocol this tool speaks)")
        }
        guard let name = object["name"]?.stringValue, name.range(of: #"^[a-z][a-z0-9-]{0,39}$"#, options: .regularExpression) != nil else {
            throw fail("name", "must be a lowercase name (letters, digits, -)")
        }
        guard let kindNames = object["kinds"]?.arrayValue, !kindNames.isEmpty else { throw fail("kinds", "must list the kinds it makes") }
        var kinds: [ItemKind] = []
        for entry in kindNames {
            guard let kind = entry.stringValue.flatMap({ ItemKind(rawValue: $0) }), PluginManifest.kinds.contains(kind) else {
                throw fail("kinds", "'\(entry.description)' is not a kind an external importer makes", fix: MappedFields.kindWords)
            }
            kinds.append(kind)
        }
        guard let command = object["command"]?.arrayValue?.compactMap(\.stringValue), !command.isEmpty, command.count == object["command"]?.arrayValue?.count
        else {
            throw fail("command", "must be a list: the program and its arguments, like [\"python3\", \"plugin.py\"]")
        }
        var options: [ImporterOption] = []
        for (index, entry) in (object["options"]?.arrayValue ?? []).enumerated() {
            guard let option = entry.objectValue, let optionName = option["name"]?.stringValue, !optionName.isEmpty else {
                throw fail("options[\(index)]", "must be {\"name\": ..., \"type\": ..., \"help\": ...}")
            }
            let type = option["type"]?.stringValue ?? "string"
            guard ["string", "number", "boolean", "list", "object"].contains(type) else {
                throw fail("options[\(index)].type", "'\(type)' is not a type", fix: "string, number, boolean, list or object")
            }
            options.append(ImporterOption(optionName, type: type, required: option["required"]?.boolValue ?? false, help: option["help"]?.stringValue ?? ""))
        }
        // A field given with the wrong type is a mistake, never its default.
        func number(_ key: String, _ fallback: Double) -> Double? { object[key].map { $0.numberValue ?? .nan } ?? fallback }
        func text(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else { throw fail(key, "must be a string") }
            return text
        }
        guard let timeout = number("timeout", 60), timeout.isFinite, (1...3600).contains(timeout) else {
            throw fail("timeout", "must be a number of seconds from 1 to 3600")
        }
        guard let maxOutputMB = number("maxOutputMB", 10), maxOutputMB.isFinite, (0.001...1000).contains(maxOutputMB) else {
            throw fail("maxOutputMB", "must be a number of megabytes up to 1000")
        }
        guard let maxItems = number("maxItems", 10_000), maxItems.isFinite, maxItems == maxItems.rounded(), (1...1_000_000).contains(maxItems) else {
            throw fail("maxItems", "must be a whole number of items from 1 to 1000000")
        }
        let environmentList = object["environment"].map { $0.arrayValue ?? [.null] } ?? []
        let environment = environmentList.compactMap(\.stringValue)
        guard environment.count == environmentList.count, environment.allSatisfy({ !$0.isEmpty && !$0.contains("=") }) else {
            throw fail("environment", "must be a list of variable names, like [\"LANG\"]")
        }
        let version = try text("version") ?? "0"
        let summary = try text("summary") ?? ""
        self.command = command
        self.environment = environment
        self.timeout = timeout
        self.maxOutput = Int(maxOutputMB * 1_000_000)
        self.maxItems = Int(maxItems)
        info = ImporterInfo(
            name: name, version: version, kinds: kinds, summary: summary + " (external: \(folder))",
            options: options)
    }

    /// Checks a definition's options against the manifest: known names, types, required ones.
    func check(_ source: SourceDefinition) throws {
        try source.checkOptions(info)
        for option in info.options {
            guard let value = source.options[option.name] else {
                if option.required { throw source.error("options.\(option.name)", "is required by the \(info.name) importer: \(option.help)") }
                continue
            }
            let fits: Bool
            switch (option.type, value) {
            case ("string", .string), ("number", .number), ("boolean", .bool), ("list", .array), ("object", .object): fits = true
            default: fits = false
            }
            if !fits { throw source.error("options.\(option.name)", "must be a \(option.type)") }
            if case .number(let n) = value, !n.isFinite { throw source.error("options.\(option.name)", "must be a finite number") }
        }
    }
}

/// The external importers found in a plugins folder (each `NAME/plugin.json`), and the
/// manifests that could not be read.
public struct PluginFolder: Sendable {
    public var manifests: [PluginManifest] = []
    public var errors: [TimeTrackError] = []

    public init() {}

    public init(path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let folder = (path as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            do {
                let manifest = try PluginManifest(folder: folder)
                if ImporterRegistry.builtIn.contains(where: { $0.info.name == manifest.info.name })
                    || manifests.contains(where: { $0.info.name == manifest.info.name })
                {
                    errors.append(
                        TimeTrackError(
                            .configuration, "the name '\(manifest.info.name)' is taken", fix: "rename the plugin",
                            context: ["file": folder + "/plugin.json", "field": "name"]))
                    continue
                }
                manifests.append(manifest)
            } catch let error as TimeTrackError {
                errors.append(error)
            } catch {
                errors.append(TimeTrackError(.configuration, "\(error)", context: ["file": folder]))
            }
        }
    }
}
