import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// Runs fixture sources through the real pipeline (files, importer, normalizer).
enum Harness {
    static var fixtures: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil) ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// A fixed run date, so yearless dates are stable.
    static let now = ISO8601DateFormatter().date(from: "2026-09-01T12:00:00Z") ?? Date()

    static func extract(_ id: String) throws -> ImportResult {
        let source = try SourceDefinition.load(file: fixtures.appendingPathComponent("\(id).json").path)
        var pipeline = ImportPipeline(importsRoot: fixtures)
        pipeline.now = { now }
        return try pipeline.extract(source)
    }

    static func iso(_ date: Date?, _ zone: String) -> String? {
        guard let date, let tz = TimeZone(identifier: zone) else { return nil }
        let f = ISO8601DateFormatter()
        f.timeZone = tz
        return f.string(from: date)
    }

    static func announcements(_ result: ImportResult) -> [Announcement] {
        result.items.compactMap { if case .announcement(let a) = $0.content { return a } else { return nil } }
    }

    static func events(_ result: ImportResult) -> [Event] {
        result.items.compactMap { if case .event(let e) = $0.content { return e } else { return nil } }
    }

    static func infos(_ result: ImportResult) -> [SchoolInfoItem] {
        result.items.compactMap { if case .schoolInfo(let i) = $0.content { return i } else { return nil } }
    }
}
