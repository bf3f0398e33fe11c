import Foundation
import TimeTrackCore
import TimeTrackKit

/// An importer that is a program in the plugins folder (`PluginManifest`), in any language.
///
/// It gets the source definition and the run's context as one JSON line on stdin and answers with
/// JSON lines on stdout: items, problems, progress, and requests for pages, which the tool
/// fetches itself (robots.txt, the per-host schedule, the cache, size caps and the
/// private-network rule hold for plugins too) and answers on stdin. docs/external-importers.md.
///
/// Guarded as untrusted code: its environment is cleared but for what the manifest names; it
/// runs in its own process group, which is killed (TERM, then KILL) at the time limit, past the
/// output cap, or on Ctrl-C; stderr is kept (its end) as a problem of the run; a line that is
/// not the protocol is a problem, never a crash. It never sees the store.
public struct ExternalImporter: Importer {
    public static let info = ImporterInfo(name: "external", version: "1", kinds: PluginManifest.kinds, summary: "a program in the plugins folder", options: [])

    let manifest: PluginManifest
    let source: SourceDefinition

    public init(source: SourceDefinition) throws {
        guard let manifest = ImporterRegistry.external.manifests.first(where: { $0.info.name == source.importer }) else {
            throw source.error("importer", "'\(source.importer)' is not an installed importer")
        }
        try manifest.check(source)
        self.manifest = manifest
        self.source = source
    }

    /// The first line the plugin reads.
    func startLine(now: Date) -> Data {
        let iso = ISO8601DateFormatter()
        var definition: [String: JSONValue] = [
            "id": .string(source.id), "kind": .string(source.kind.rawValue), "url": .string(source.urlText), "timeZone": .string(source.timeZone.identifier),
            "options": .object(source.options),
        ]
        if let base = source.baseURL { definition["baseURL"] = .string(base.absoluteString) }
        if let school = source.school { definition["school"] = .string(school) }
        let line = JSONValue.object([
            "protocol": .number(Double(PluginManifest.protocolVersion)), "source": .object(definition),
            "run": .object(["now": .string(iso.string(from: now)), "importer": .string(manifest.info.name), "version": .string(manifest.info.version)]),
        ])
        return Data(((try? JSONCoding.compactString(line)) ?? "{}").utf8) + Data([10])
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TIMETRACK_PLUGIN_PROTOCOL": String(PluginManifest.protocolVersion)]
        let own = ProcessInfo.processInfo.environment
        for name in manifest.environment { if let value = own[name] { environment[name] = value } }
        let process = try PluginProcess(command: manifest.command, directory: manifest.folder, environment: environment)
        defer { process.stop() }
        var run = PluginRun(importer: self, context: context, process: process)
        return try run.run()
    }
}
