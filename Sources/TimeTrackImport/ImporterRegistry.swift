import DocumentsImporter
import FeedImporter
import HTMLImporter
import ICalImporter
import InboxImporter
import JSONImporter
import MetadataImporter
import TimeTrackCore
import TimeTrackKit
import WordPressImporter

/// The importer plugins this build knows, by name.
public enum ImporterRegistry {
    /// Every importer type, in `plugins` order.
    public static var all: [any Importer.Type] {
        [HTMLImporter.self, ICalImporter.self, FeedImporter.self, WordPressImporter.self, MetadataImporter.self, DocumentsImporter.self, InboxImporter.self, JSONImporter.self]
    }

    /// The importer named `name`, or nil.
    public static func type(named name: String) -> (any Importer.Type)? {
        all.first { $0.info.name == name }
    }

    /// Builds the importer a source names, checking its options.
    public static func make(for source: SourceDefinition) throws -> any Importer {
        guard let type = type(named: source.importer) else {
            throw source.error("importer", "'\(source.importer)' is not an installed importer", fix: "installed: " + all.map { $0.info.name }.joined(separator: ", "))
        }
        guard type.info.kinds.contains(source.kind) else {
            throw source.error("kind", "the \(source.importer) importer does not make \(source.kind.rawValue) items", fix: "it makes: " + type.info.kinds.map(\.rawValue).joined(separator: ", "))
        }
        return try type.init(source: source)
    }
}
