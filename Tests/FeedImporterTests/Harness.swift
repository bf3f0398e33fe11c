import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

enum Harness {
    static var fixtures: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil) ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// The run date the fixtures assume (recurrence windows, yearless dates).
    static let now = ISO8601DateFormatter().date(from: "2026-09-01T12:00:00Z") ?? Date()

    static func extract(_ id: String, folder: URL? = nil) throws -> ImportResult {
        let root = folder ?? fixtures
        let source = try SourceDefinition.load(file: root.appendingPathComponent("\(id).json").path)
        var pipeline = ImportPipeline(importsRoot: root)
        pipeline.now = { now }
        return try pipeline.extract(source)
    }
}
