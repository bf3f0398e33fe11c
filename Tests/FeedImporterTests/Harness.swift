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

    static func iso(_ date: Date?, _ zone: String) -> String? {
        guard let date, let tz = TimeZone(identifier: zone) else { return nil }
        let f = ISO8601DateFormatter()
        f.timeZone = tz
        return f.string(from: date)
    }

    static func events(_ r: ImportResult) -> [Event] { r.items.compactMap { if case .event(let e) = $0.content { return e } else { return nil } } }
    static func announcements(_ r: ImportResult) -> [Announcement] { r.items.compactMap { if case .announcement(let a) = $0.content { return a } else { return nil } } }
    static func infos(_ r: ImportResult) -> [SchoolInfoItem] { r.items.compactMap { if case .schoolInfo(let i) = $0.content { return i } else { return nil } } }
}
