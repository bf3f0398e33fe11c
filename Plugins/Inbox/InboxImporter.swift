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
    static let locationKeys: Set<String> = [
        "latitude", "longitude", "lat", "lng", "lon", "long", "location", "geo", "geolocation", "coordinates", "coords", "gps", "position", "place",
    ]

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
                result.note(ImportProblem(.error, "skipped: not a JSON object", location: location))
                continue
            }
            guard let key = fields.removeValue(forKey: "id")?.description, !key.isEmpty, key != "null" else {
                result.note(ImportProblem(.error, "skipped: no \"id\"", location: location))
                continue
            }
            guard seen.insert(key).inserted else {
                result.duplicatesMerged += 1
                result.note(ImportProblem(.warning, "id '\(key)' appears again; the first entry was kept", location: location))
                continue
            }
            if case .array(let images)? = fields["imageURLs"] {
                fields["imageURLs"] = .array(photos(images, page: page.url, location: location, problems: &result.problems))
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
                var decoded = try ItemContent.decode(kind: source.kind, fields: fields)
                // What staff decide (an outcome, replies, the closed state, a moderation note) is
                // never taken from a submission.
                let staffOwned = decoded.operatorFieldsSet
                if !staffOwned.isEmpty {
                    decoded = decoded.sourceOwned
                    result.note(
                        ImportProblem(
                            .warning, "ignored \(staffOwned.joined(separator: ", ")) of '\(key)': staff set these, a submission cannot", location: location))
                }
                let content = try decoded.validated()
                var item = ExtractedItem(
                    key: key, content: content, pageURL: source.publicURL.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt, location: location)
                item.guesses = notes.map { Guess($0) }
                result.items.append(item)
            } catch let error as TimeTrackError {
                result.note(ImportProblem(.error, "skipped '\(key)': \(error.message)", location: location))
            }
        }
        if entries.count > maxItems {
            result.note(ImportProblem(.warning, "stopped at \(maxItems) entries (options.maxItems)", location: "entry \(maxItems + 1)"))
        }
        return result
    }

    /// A submission's photos as the store may keep them: web addresses (http, https) as they
    /// are; for an inbox on the web, names relative to it resolved against it; for a local inbox,
    /// names of regular files that really lie inside the imports folder (links resolved).
    ///
    /// Any other value (a `file:` URL, an absolute path, `..` or a link out of the folder, another
    /// scheme) is dropped with a problem: a submission never points the export at a local file.
    func photos(_ images: [JSONValue], page: URL, location: String, problems: inout [ImportProblem]) -> [JSONValue] {
        images.enumerated().compactMap { index, image in
            guard let text = image.stringValue else { return image }
            func refuse(_ why: String) -> JSONValue? {
                problems.append(ImportProblem(.warning, "imageURLs[\(index)] '\(text.prefix(200))' dropped: \(why)", location: location))
                return nil
            }
            if let scheme = URLComponents(string: text)?.scheme?.lowercased() {
                return scheme == "http" || scheme == "https" ? image : refuse("a photo is a web address or a file name inside the inbox's folder")
            }
            if text.hasPrefix("/") || text.hasPrefix("~") || text.contains(":") { return refuse("a photo is never an absolute path") }
            guard page.isFileURL else {
                guard let resolved = URL(string: text, relativeTo: page) else { return refuse("not a valid relative address") }
                return .string(resolved.absoluteURL.absoluteString)
            }
            let root = URL(fileURLWithPath: source.file).deletingLastPathComponent().path
            let named = URL(fileURLWithPath: text, relativeTo: page.deletingLastPathComponent()).path
            guard let real = LocalPath.regularFile(named, inside: root) else {
                return refuse("no such file inside the imports folder \(root) (links out of it are not followed)")
            }
            return .string(URL(fileURLWithPath: real).absoluteString)
        }
    }
}
