import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `inbox` importer: app submissions (photo posts, absence reports, help desk tickets) as a
/// JSON array, one object per submission with an `id` and the model's fields.
///
/// ```json
/// [{ "id": "post-1041", "authorName": "Maya R.", "authorRole": "student", "text": "Go Huskies!",
///    "imageURLs": ["https://..."], "createdAt": "2026-09-18T19:42:00-06:00" }]
/// ```
public struct InboxImporter: Importer {
    public static let info = ImporterInfo(
        name: "inbox", version: "1.0.0", kinds: ItemKind.allCases,
        summary: "app submissions as a JSON array of model objects, each with an id",
        options: [ImporterOption("maxItems", type: "number", help: "stop after this many entries (default 10000)")])

    let source: SourceDefinition
    let maxItems: Int

    /// Fields that say where a person was (phones add them to submissions).
    static let locationKeys: Set<String> = ["latitude", "longitude", "lat", "lng", "lon", "long", "location", "geo", "geolocation", "coordinates", "coords", "gps", "position", "place"]

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(InboxImporter.info)
        maxItems = try source.intOption("maxItems", default: 10_000, range: 1...1_000_000)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        let page = try context.fetcher.fetch(source.url)
        var result = ImportResult()
        result.pagesFetched = 1
        let value: JSONValue
        do {
            value = try JSONValue(parsing: page.data)
        } catch {
            throw TimeTrackError(.parse, "the inbox is not valid JSON: \(error)", fix: "it must be a JSON array of objects", context: ["url": source.urlText])
        }
        guard let entries = value.arrayValue else {
            throw TimeTrackError(.parse, "the inbox must be a JSON array of objects", context: ["url": source.urlText])
        }
        var seen: Set<String> = []
        for (index, entry) in entries.prefix(maxItems).enumerated() {
            let location = "entry \(index + 1)"
            guard var fields = entry.objectValue else {
                result.problems.append(ImportProblem(.error, "skipped: not a JSON object", location: location))
                continue
            }
            guard let key = fields.removeValue(forKey: "id")?.description, !key.isEmpty, key != "null" else {
                result.problems.append(ImportProblem(.error, "skipped: no \"id\"", location: location))
                continue
            }
            guard seen.insert(key).inserted else {
                result.duplicatesMerged += 1
                result.problems.append(ImportProblem(.warning, "id '\(key)' appears again; the first entry was kept", location: location))
                continue
            }
            // Photos named relative to the inbox (a local folder of submissions) become full URLs.
            if case .array(let images)? = fields["imageURLs"] {
                fields["imageURLs"] = .array(
                    images.map { image in
                        guard let text = image.stringValue, !text.contains(":"), let resolved = URL(string: text, relativeTo: page.url) else { return image }
                        return .string(resolved.absoluteURL.absoluteString)
                    })
            }
            // A person's submission never keeps where they were: coordinates are dropped here,
            // where they enter, and the item says so.
            var notes: [String] = []
            if source.kind.traits.review != .importedContent {
                let found = fields.keys.filter { InboxImporter.locationKeys.contains($0.lowercased()) }.sorted()
                if !found.isEmpty {
                    for name in found { fields[name] = nil }
                    notes.append("location removed: the submission carried \(found.joined(separator: ", ")); it was not stored")
                }
            }
            do {
                let content = try ItemContent.decode(kind: source.kind, fields: fields).validated()
                var item = ExtractedItem(key: key, content: content, pageURL: source.publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt, location: location)
                item.guesses = notes
                result.items.append(item)
            } catch let error as TimeTrackError {
                result.problems.append(ImportProblem(.error, "skipped '\(key)': \(error.message)", location: location))
            }
        }
        if entries.count > maxItems {
            result.problems.append(ImportProblem(.warning, "stopped at \(maxItems) entries (options.maxItems)", location: "entry \(maxItems + 1)"))
        }
        return result
    }
}
