import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// The importers' shared fixtures (`Tests/Fixtures/Importers`): small feeds, calendars and pages
/// written for these tests, each with its source definition, read through the real pipeline.
public enum ImporterFixtures {
    public static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/Importers")
    }

    /// The run date the fixtures assume (recurrence windows, yearless dates).
    public static let now = ISO8601DateFormatter().date(from: "2026-09-01T12:00:00Z") ?? Date()

    /// Reads fixture source `id` (its `id.json` definition) and returns what the importer found.
    ///
    /// With `web`, http(s) URLs are fetched by the real web client (its politeness and address
    /// rules, the folder's fetch settings).
    public static func extract(_ id: String, folder: URL? = nil, web: Bool = false) throws -> ImportResult {
        let root = folder ?? fixtures
        let source = try SourceDefinition.load(file: root.appendingPathComponent("\(id).json").path)
        var pipeline = ImportPipeline(importsRoot: root)
        pipeline.now = { now }
        if web { pipeline.http = try WebClient.forSource(source, cache: nil, version: "test") }
        return try pipeline.extract(source)
    }
}
