import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// A selector shell, as `scrapy shell` is for Scrapy: load a page once, try selectors and field
/// specs against it, see the items the html importer makes of them, save the definition.
final class Trial {
    /// Where the page came from (a URL, or a file's path), and its bytes saved for re-reading.
    let target: String
    let saved: String
    let document: HTMLDocument
    var kind: ItemKind
    var zone: TimeZone
    var item: JSONValue?
    var fields: [String: JSONValue] = [:]
    /// The next-page link (`options.next`): shown on this page, followed by `extract` once saved.
    var next: JSONValue?
    /// Fields read on each item's own page (`options.detail.fields`), and the field whose
    /// address that page is (`options.detail.link`).
    var detailFields: [String: JSONValue] = [:]
    var detailLink = "link"
    /// Options beside item and fields (`yearFrom` from `--suggest`).
    var extraOptions: [String: JSONValue] = [:]
    /// `--allow-private`: the page lives on a private or loopback address, and the saved
    /// definition says so (`allowPrivateNetwork`).
    let allowPrivate: Bool
    /// The page's public URL, which its relative links resolve against (a URL target is its own).
    let baseURL: String?
    let folder: TemporaryFolder
    /// The imports folder: its `_settings.json` (contact, request delay) holds for the shell's
    /// fetches as for imports.
    let importsPath: String

    /// Items read with detail pages in the shell: each is a fetch, so only the first few.
    static let detailItems = 5

    init(target: String, kind: ItemKind, zone: TimeZone, baseURL: String?, allowPrivate: Bool, importsPath: String) throws {
        self.importsPath = importsPath
        self.target = target
        self.baseURL = baseURL
        self.kind = kind
        self.zone = zone
        self.allowPrivate = allowPrivate
        folder = try TemporaryFolder()
        let data: Data
        if let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            let probe = try SourceDefinition.parse(
                Trial.object(id: "probe", target: target, kind: kind, zone: zone, baseURL: nil, allowPrivate: allowPrivate),
                file: (importsPath as NSString).appendingPathComponent("try.json"))
            do {
                data = try WebClient.forSource(probe, cache: nil, version: Console.version).get(url, maxBytes: 20_000_000).data
            } catch let error as TimeTrackError where !allowPrivate && error.code == .refusedAddress {
                throw TimeTrackError(
                    .refusedAddress, "try: \(error.message)",
                    fix: "if the page really lives on your network, run try \(target) --allow-private (the saved definition allows it too)",
                    context: error.context)
            }
        } else {
            guard let bytes = FileManager.default.contents(atPath: target) else {
                throw TimeTrackError(.notFound, "try: no page at '\(target)'", fix: "give an http(s) URL or the path of a saved page")
            }
            data = bytes
        }
        saved = folder.path + "/page.html"
        try data.write(to: URL(fileURLWithPath: saved))
        document = try HTMLDocument(
            data: data, url: baseURL.flatMap(URL.init(string:)) ?? URL(string: target).flatMap { $0.scheme == nil ? nil : $0 } ?? URL(fileURLWithPath: target))
    }

    /// A source's page with its definition loaded (an html source: `discover`'s proposals), to
    /// change it and `save` it under a new id.
    convenience init(editing source: SourceDefinition, importsPath: String) throws {
        guard source.importerName == .html else {
            throw TimeTrackError(
                .usage, "try: \(source.id) is read by the \(source.importer) importer; try edits html definitions",
                fix: "extract \(source.id) shows what it reads")
        }
        let target = source.url.isFileURL ? source.url.path : source.url.absoluteString
        try self.init(
            target: target, kind: source.kind, zone: source.timeZone, baseURL: source.baseURL?.absoluteString,
            allowPrivate: source.allowPrivateNetwork != .none,
            importsPath: importsPath)
        var options = source.options
        item = options.removeValue(forKey: "item")
        fields = options.removeValue(forKey: "fields")?.objectValue ?? [:]
        next = options.removeValue(forKey: "next")
        if let detail = options.removeValue(forKey: "detail")?.objectValue {
            detailFields = detail["fields"]?.objectValue ?? [:]
            detailLink = detail["link"]?.stringValue ?? "link"
        }
        extraOptions = options
    }

    /// A definition's top level, without options.
    static func object(id: String, target: String, kind: ItemKind, zone: TimeZone, baseURL: String?, allowPrivate: Bool) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "id": .string(id), "importer": .string("html"), "kind": .string(kind.rawValue), "url": .string(target), "timeZone": .string(zone.identifier),
        ]
        if let baseURL {
            object["baseURL"] = .string(baseURL)
        } else if let url = URL(string: target), url.scheme != nil {
            object["baseURL"] = .string(target)
        }
        if allowPrivate { object["allowPrivateNetwork"] = .bool(true) }
        return object
    }

    /// The definition built so far, as JSON (`forShell`: the limits the shell reads with).
    func definitionObject(id: String, target: String? = nil, forShell: Bool = false) -> [String: JSONValue] {
        var options: [String: JSONValue] = extraOptions
        options["fields"] = .object(fields)
        if let item { options["item"] = item }
        if let next { options["next"] = next }
        if !detailFields.isEmpty { options["detail"] = .object(["link": .string(detailLink), "fields": .object(detailFields)]) }
        if forShell {
            // One page: the next link is shown, not followed; detail pages for the first items.
            options["maxPages"] = .number(1)
            if !detailFields.isEmpty { options["maxItems"] = .number(Double(Trial.detailItems)) }
        }
        var object = Trial.object(id: id, target: target ?? self.target, kind: kind, zone: zone, baseURL: baseURL, allowPrivate: allowPrivate)
        object["options"] = .object(options)
        return object
    }

    /// What the html importer makes of the page with the definition so far.
    ///
    /// Detail pages (and nothing else) are fetched: from the web, or beside a local page.
    func extract() throws -> ImportResult {
        let source = try SourceDefinition.parse(definitionObject(id: "try", forShell: true), file: (importsPath as NSString).appendingPathComponent("try.json"))
        let local = URL(string: target)?.scheme == nil
        let page = local ? URL(fileURLWithPath: target).standardizedFileURL.path : saved
        var pipeline = ImportPipeline(importsRoot: URL(fileURLWithPath: (page as NSString).deletingLastPathComponent))
        guard !detailFields.isEmpty else { return try pipeline.extract(source, file: page) }
        pipeline.http = try WebClient.forSource(source, cache: nil, version: Console.version)
        // A page read from a file has its site's links read as files beside it: a web page's
        // detail pages are read from the web, the listing with them.
        return try local ? pipeline.extract(source, file: page) : pipeline.extract(source)
    }

    /// A spec as typed: JSON (`{"select": ...}`, `[...]`, `"..."`) or a bare selector.
    static func spec(_ text: String) -> JSONValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let first = trimmed.first, "{[\"".contains(first), let value = try? JSONValue(parsing: trimmed) { return value }
        return .string(trimmed)
    }

    /// Checks a field name for the trial's kind: `next` and `detail` are options of their own.
    func checkField(_ name: String) throws {
        if name == "next" || name == "detail" {
            throw TimeTrackError(
                .usage, "field: \(name) is not a field but an option of its own", fix: name == "next" ? "next SPEC, like next a.next@href" : "detail NAME=SPEC")
        }
        let known = MappedFields.known[kind] ?? []
        guard known.contains(name) else {
            throw TimeTrackError(.usage, "field: '\(name)' is not a field of \(kind.rawValue) items", fix: "fields: " + known.sorted().joined(separator: ", "))
        }
    }
}

/// A folder under the system's temporary folder, removed when released.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("timetrack-try-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
