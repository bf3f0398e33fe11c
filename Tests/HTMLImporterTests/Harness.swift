import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// Runs fixture sources through the real pipeline (files, importer, normalizer).
enum Harness {
    static var fixtures: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// A fixed run date, so yearless dates are stable.
    static let now = ISO8601DateFormatter().date(from: "2026-09-01T12:00:00Z") ?? Date()

    static func extract(_ id: String) throws -> ImportResult {
        let source = try SourceDefinition.load(file: fixtures.appendingPathComponent("\(id).json").path)
        var pipeline = ImportPipeline(importsRoot: fixtures)
        pipeline.now = { now }
        return try pipeline.extract(source)
    }
}
