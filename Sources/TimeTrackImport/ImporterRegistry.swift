import DocumentsImporter
import FeedImporter
import Foundation
import HTMLImporter
import ICalImporter
import InboxImporter
import JSONImporter
import LMSImporter
import MetadataImporter
import PhotoImporter
import TimeTrackCore
import TimeTrackKit
import WordPressImporter

/// The importers this build knows, by name, and the external ones of the plugins folder.
public enum ImporterRegistry {
    /// Every built-in importer type, in `plugins` order.
    public static var all: [any Importer.Type] { builtIn }

    static var builtIn: [any Importer.Type] {
        [
            HTMLImporter.self, ICalImporter.self, FeedImporter.self, WordPressImporter.self, MetadataImporter.self, DocumentsImporter.self, InboxImporter.self,
            JSONImporter.self, LMSImporter.self, PhotoImporter.self,
        ]
    }

    private static let externalBox = ExternalBox()

    /// The external importers in use (`usePlugins`).
    public static var external: PluginFolder { externalBox.get() }

    /// Uses the external importers of a plugins folder (each `NAME/plugin.json`): they stand
    /// beside the built-in ones from then on.
    ///
    /// The folder is read when an importer is first looked up, so commands that need none start as
    /// fast as before.
    public static func usePlugins(folder: String) {
        externalBox.use(folder)
    }

    /// What every importer is, built-in and external, in `plugins` order.
    public static var infos: [ImporterInfo] { builtIn.map { $0.info } + external.manifests.map(\.info) }

    /// The built-in importer named `name`, or nil.
    public static func type(named name: String) -> (any Importer.Type)? {
        builtIn.first { $0.info.name == name }
    }

    /// What the importer named `name` is, built-in or external.
    public static func info(named name: String) -> ImporterInfo? {
        type(named: name)?.info ?? external.manifests.first { $0.info.name == name }?.info
    }

    /// Builds the importer a source names, checking its options.
    public static func make(for source: SourceDefinition) throws -> any Importer {
        guard let info = info(named: source.importer) else {
            throw source.error("importer", "'\(source.importer)' is not an installed importer", fix: "installed: " + infos.map(\.name).joined(separator: ", "))
        }
        guard info.kinds.contains(source.kind) else {
            throw source.error(
                "kind", "the \(source.importer) importer does not make \(source.kind.rawValue) items",
                fix: "it makes: " + info.kinds.map(\.rawValue).joined(separator: ", "))
        }
        if let type = type(named: source.importer) { return try type.init(source: source) }
        return try ExternalImporter(source: source)
    }
}

/// The plugins folder's importers, read once on first use, shared by every thread.
final class ExternalBox: @unchecked Sendable {
    private let lock = NSLock()
    private var path: String?
    private var folder: PluginFolder?

    func get() -> PluginFolder {
        lock.lock()
        defer { lock.unlock() }
        if let folder { return folder }
        let read = path.map(PluginFolder.init(path:)) ?? PluginFolder()
        folder = read
        return read
    }

    func use(_ path: String) {
        lock.lock()
        self.path = path
        folder = nil
        lock.unlock()
    }
}
