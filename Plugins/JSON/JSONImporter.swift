import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `json` importer: any JSON answer (a CMS events API, a JSON:API `data[*].attributes`
/// document, WordPress REST, database rows exported as JSON) mapped to items by paths given in
/// the source definition, for one document or page after page.
///
/// Options (see docs/importers/json.md): `items` (a path to the items; default: the document
/// when it is a list), `fields` (required: field → path or spec), `key`, `where`, `next` or
/// `page` (pagination), `maxPages`, `maxItems`, `section`, `year`.
public struct JSONImporter: Importer, Sendable {
    public static let info = ImporterInfo(
        name: "json", version: "1.1.0", kinds: MappedFields.kinds,
        summary: "any JSON API or export: items and fields picked by paths (data[*].attributes, title.rendered), with pagination",
        options: [
            ImporterOption(
                "items", type: "path",
                help: "where the items are: \"data\", \"data[*].attributes\", \"$..events[*]\" (default: the document, when it is a list)"),
            ImporterOption(
                "fields", type: "object", required: true,
                help:
                    "field name → path (\"Title\", \"title.rendered\", \"$.meta.school\"), [fallbacks], or {select, exists, pattern, template, value,"
                    + " when, then, else}"
            ),
            ImporterOption(
                "key", type: "field spec", help: "what identifies an item across runs (default: its id, Id or ID, else link, url, or title and date)"),
            ImporterOption(
                "where", type: "condition",
                help:
                    "keep only items for which this holds: {\"field\": PATH, \"equals\"|\"contains\"|\"matches\"|\"present\": ...}, or a list that"
                    + " must all hold"
            ),
            ImporterOption("next", type: "path", help: "the next page's URL in each answer (\"links.next\", \"meta.next_page_url\")"),
            ImporterOption(
                "page", type: "object", help: "page by a query parameter: {\"param\": \"page\", \"start\": 1} (or just \"page\"); stops at an empty page"),
            ImporterOption("maxPages", type: "number", help: "pages to read with next or page, 1-100 (default 5)"),
            ImporterOption("maxItems", type: "number", help: "stop after this many items (default 5000)"),
            ImporterOption("section", type: "string", help: "School Info section when no field gives one"),
            ImporterOption("year", type: "number", help: "the year of dates written without one"),
            ImporterOption(
                "from", type: "selector",
                help: "the JSON is inside an HTML page: the element that holds it, and the attribute (\"script#__NEXT_DATA__\","
                    + " \"input#calendar-data@value\")"),
        ])

    let source: SourceDefinition
    let items: JSONPath?
    let fields: [(String, JSONFieldSpec)]
    let key: JSONFieldSpec?
    let conditions: [(path: JSONPath, condition: FieldCondition)]
    let next: JSONPath?
    let pageParam: (name: String, start: Int)?
    let maxPages: Int
    let maxItems: Int
    /// `from`: the element of an HTML page that holds the JSON, and the attribute (nil: its text).
    let embedded: (selector: Selector, attribute: String?)?

    public init(source: SourceDefinition) throws {
        self.source = source
        let options = source.options
        try source.checkOptions(JSONImporter.info)
        let known = try MappedFields.names(for: source, importer: "json")
        func path(_ name: String) throws -> JSONPath? {
            guard let value = options[name] else { return nil }
            guard let text = value.stringValue else { throw source.error("options.\(name)", "must be a path string, like \"data[*].attributes\"") }
            do { return try JSONPath(text) } catch let error as TimeTrackError { throw source.error("options.\(name)", error.message, fix: error.fix) }
        }
        items = try path("items")
        next = try path("next")
        guard let fieldObject = options["fields"]?.objectValue, !fieldObject.isEmpty else {
            throw source.error(
                "options.fields", "is required: an object of field → path", fix: "e.g. \"fields\": {\"title\": \"Title\", \"start\": \"Start\"}")
        }
        fields = FieldShape.order(
            try fieldObject.keys.sorted().map { name in
                guard known.contains(name) else {
                    throw source.error(
                        "options.fields.\(name)", "is not a field of \(source.kind.rawValue) items", fix: "fields: " + known.sorted().joined(separator: ", "))
                }
                return (name, try JSONFieldSpec(fieldObject[name] ?? .null, field: "options.fields.\(name)", source: source))
            }
        ) { $0.readsFields }
        try FieldShape.checkReferences(fields.map { ($0.0, $0.1.readsFields, $0.1.usesGroups) }, path: "options.fields", splitByPattern: false, source: source)
        key = try options["key"].map { try JSONFieldSpec($0, field: "options.key", source: source) }
        var conditions: [(JSONPath, FieldCondition)] = []
        let whereList: [JSONValue] = options["where"].map { $0.arrayValue ?? [$0] } ?? []
        for (index, entry) in whereList.enumerated() {
            let at = options["where"]?.arrayValue == nil ? "options.where" : "options.where[\(index)]"
            let condition = try FieldCondition(entry, path: at, source: source)
            guard let field = condition.field else { throw source.error("\(at).field", "is required: the path in each item to test, like \"post_status\"") }
            do { conditions.append((try JSONPath(field), condition)) } catch let error as TimeTrackError {
                throw source.error("\(at).field", error.message, fix: error.fix)
            }
        }
        self.conditions = conditions
        switch options["page"] {
        case nil: pageParam = nil
        case .string(let name)? where !name.isEmpty: pageParam = (name, 1)
        case .object(let object)?:
            guard let name = object["param"]?.stringValue, !name.isEmpty, Set(object.keys).isSubset(of: ["param", "start"]) else {
                throw source.error("options.page", "must be {\"param\": \"page\", \"start\": 1}")
            }
            let start = object["start"]?.numberValue ?? 1
            guard start.isFinite, start.rounded() == start, (0...1_000_000).contains(start) else {
                throw source.error("options.page.start", "must be a whole number from 0 to 1000000")
            }
            pageParam = (name, Int(start))
        default: throw source.error("options.page", "must be a parameter name or {\"param\": \"page\", \"start\": 1}")
        }
        if next != nil && pageParam != nil { throw source.error("options.page", "cannot go with options.next: give one way to find the next page") }
        maxPages = try source.intOption("maxPages", default: 5, range: 1...100)
        maxItems = try source.intOption("maxItems", default: 5000, range: 1...100_000)
        try source.checkYearOption()
        try MappedFields.check(Set(fields.map(\.0)), source: source)
        embedded = try JSONImporter.embedded(options["from"], source: source)
    }

    /// Reads `from`: a selector, and after an '@', the attribute that holds the JSON.
    static func embedded(_ value: JSONValue?, source: SourceDefinition) throws -> (selector: Selector, attribute: String?)? {
        guard let value else { return nil }
        guard var text = value.stringValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw source.error("options.from", "must be a selector, like \"script#__NEXT_DATA__\" or \"input#events@value\"")
        }
        var attribute: String?
        if let at = Selector.attributeSplit(text) {
            attribute = String(text[text.index(after: at)...]).lowercased()
            text = String(text[..<at])
            guard attribute?.isEmpty == false else { throw source.error("options.from", "ends with '@': name the attribute that holds the JSON, like @value") }
        }
        do { return (try Selector.compiled(text), attribute) } catch let error as TimeTrackError {
            throw source.error("options.from", error.message, fix: error.fix)
        }
    }

    /// The JSON text of a page: the page itself, or with `from`, what the element holds.
    func jsonData(_ page: FetchedPage, url: URL) throws -> Data {
        guard let embedded else { return page.data }
        let document = try HTMLDocument(data: page.data, url: url, declaredCharset: page.charset)
        guard let node = document.root.first(embedded.selector) else {
            throw TimeTrackError(
                .parse, "options.from '\(embedded.selector.source)' matched nothing on the page",
                fix: "open the page's source and name the element that holds the JSON",
                context: ["url": url.absoluteString])
        }
        var text = embedded.attribute.map { node.attribute($0) ?? "" } ?? node.childText
        guard !text.isEmpty else {
            throw TimeTrackError(
                .parse, "options.from '\(embedded.selector.source)' found an element with no \(embedded.attribute.map { "attribute \($0)" } ?? "text")",
                context: ["url": url.absoluteString])
        }
        // Next.js pushes its state in many scripts: all of those the selector names, in order
        // (`"from": "script"` matches other scripts first).
        let start = text.first { !$0.isWhitespace }
        if embedded.attribute == nil, start != "{", start != "[", !text.contains("__NUXT__") {
            let pushes = document.root.select(embedded.selector).map(\.childText).filter { $0.contains("self.__next_f.push(") }
            if !pushes.isEmpty { text = pushes.joined(separator: "\n") }
        }
        // Data in a script's own form (Nuxt 2's function, Nuxt 3's table, Next's pushes) as JSON.
        // Plain JSON goes on as it is, parsed once by the caller.
        let nuxtData = node.attribute("id") == "__NUXT_DATA__" || node.attribute("data-nuxt-data") != nil
        if nuxtData || PageData.isScriptState(text), let decoded = PageData.decode(text, nuxtData: nuxtData),
            let json = try? JSONCoding.compactString(decoded)
        {
            return Data(json.utf8)
        }
        return Data(text.utf8)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var result = ImportResult()
        let normalizer = Normalizer(source: source, now: context.now)
        var seen: [String: Int] = [:]
        var raws: [(key: String, raw: RawItem, page: FetchedPage, location: String)] = []
        var url: URL? = source.url
        var visited: Set<String> = []
        var pageNumber = 0
        var notObjects = 0
        let noKey =
            "skipped: no title, link, id or key found (options.fields.title"
            + " \(fields.first { $0.0 == "title" }.map { "'\($0.1.description)'" } ?? "") matched nothing)"
        while let current = url, pageNumber < maxPages, raws.count < maxItems, visited.insert(current.absoluteString).inserted {
            pageNumber += 1
            let page: FetchedPage
            do {
                page = try context.fetcher.fetch(current)
            } catch let error as TimeTrackError where pageNumber > 1 && error.code != .interrupted {
                // Past the last page a paged API answers 400 or 404 (a local copy: no such file).
                if pageParam != nil, let status = error.httpStatus, [400, 404].contains(status) { break }
                result.pageUnread(current, error, message: "page \(pageNumber) could not be read: \(error.description)")
                break
            }
            result.pagesFetched += 1
            let document = try JSONImporter.decode(page, data: try jsonData(page, url: current), url: current)
            let found = JSONImporter.itemsFound(items, in: document)
            if found.isEmpty {
                // An alert API (any source that may be empty) answering an empty list is a quiet day.
                if (pageNumber == 1 || pageParam == nil) && !(source.mayBeEmpty && pageNumber == 1) {
                    result.note(ImportProblem(.warning, JSONImporter.nothingFound(items, in: document), location: current.absoluteString))
                }
                break
            }
            let publicURL = pageNumber == 1 ? (source.baseURL ?? page.url) : page.url
            for (index, item) in found.enumerated() {
                guard raws.count < maxItems else {
                    result.note(ImportProblem(.warning, "stopped at \(maxItems) items (options.maxItems)", location: "page \(pageNumber)"))
                    break
                }
                // An entry that is not an object (a number, a string, null) has no fields to read:
                // counted, and said once for the run.
                // An empty object (BoardDocs ends its meetings list with `{}`) holds nothing either.
                guard case .object(let members) = item, !members.isEmpty else {
                    notObjects += 1
                    continue
                }
                let location = "page \(pageNumber) item \(index + 1)"
                guard let (key, raw) = keyed(item, document: document, publicURL: publicURL, normalizer: normalizer) else { continue }
                guard let key, !key.isEmpty else {
                    result.note(ImportProblem(.error, noKey, location: location))
                    continue
                }
                if let existing = seen[key] {
                    raws[existing].raw.merge(raw)
                    result.duplicatesMerged += 1
                    continue
                }
                seen[key] = raws.count
                raws.append((key, raw, page, location))
            }
            context.progress?(result.pagesFetched, raws.count)
            if let next {
                url = next.first(document).flatMap(JSONFieldSpec.text).flatMap { URL(string: $0, relativeTo: page.url)?.absoluteURL }
            } else if let pageParam {
                url = JSONImporter.url(source.url, param: pageParam.name, value: pageParam.start + pageNumber)
            } else {
                url = nil
            }
        }
        if notObjects > 0 { result.note(notObjectsProblem(notObjects, nothingRead: raws.isEmpty)) }
        result.noteFieldsNeverRead(fields.map(\.0), path: "options.fields", values: raws.map(\.raw.values))
        MappedFields.finish(
            raws.map { MappedFields.Found(key: $0.key, raw: $0.raw, page: $0.page, pageURL: $0.page.url.absoluteString, location: $0.location) },
            normalizer: normalizer, into: &result, context: context)
        return result
    }

    /// An entry's key and fields; nil when the definition's conditions leave it out (the key is
    /// nil when nothing gives one).
    func keyed(_ item: JSONValue, document: JSONValue, publicURL: URL, normalizer: Normalizer) -> (String?, RawItem)? {
        guard
            conditions.allSatisfy({ entry in
                entry.condition.holds(entry.condition.field.map { [$0: entry.path.first(item).flatMap(JSONFieldSpec.text) ?? ""] } ?? [:], text: { "" })
            })
        else { return nil }
        let raw = read(item, document: document, publicURL: publicURL)
        var inputs = FieldInputs(fields: raw.values, page: publicURL.absoluteString, text: { JSONFieldSpec.allText(item) })
        let key =
            key?.value(item, document: document, &inputs) ?? JSONImporter.idKey(item)
            ?? MappedFields.defaultKey(raw, kind: source.kind, normalizer: normalizer)
        return (key, raw)
    }

    /// The one problem that says how many entries were not objects.
    func notObjectsProblem(_ count: Int, nothingRead: Bool) -> ImportProblem {
        ImportProblem(
            nothingRead ? .error : .warning,
            "skipped \(count) entr\(count == 1 ? "y" : "ies") of options.items that \(count == 1 ? "is" : "are") not an object or empty (a number, a"
                + " string, null or {}): nothing to read in \(count == 1 ? "it" : "them")", location: source.urlText)
    }

    /// An item's fields: what the paths found, made fit for the field (HTML sanitized for
    /// `body`, reduced to text elsewhere, links resolved, timestamps made dates).
    func read(_ item: JSONValue, document: JSONValue, publicURL: URL) -> RawItem {
        var raw = RawItem()
        var inputs = FieldInputs(page: publicURL.absoluteString, text: { JSONFieldSpec.allText(item) })
        for (name, spec) in fields {
            guard let found = spec.value(item, document: document, &inputs), let value = JSONImporter.fit(found, field: name, base: publicURL) else { continue }
            raw[name] = value
            inputs.fields[name] = value
        }
        MappedFields.sanitizeBody(&raw, base: publicURL)
        return raw
    }

    static let dateFields: Set<String> = ["date", "start", "end", "expires"]

    /// The value as the field wants it.
    static func fit(_ value: String, field: String, base: URL) -> String? {
        if MappedFields.linkFields.contains(field) { return MappedFields.resolveLink(value, base: base) }
        if field == "body" { return value }
        if dateFields.contains(field), let instant = timestamp(value) { return instant }
        if value.contains("<") || value.contains("&") { return TextNormalizer.plainText(fromHTML: value) }
        return value
    }

    /// Seconds or milliseconds since 1970 (`1712878200`, `1712878200000`, `/Date(1712878200000)/`)
    /// as an ISO 8601 instant; nil for anything else.
    static func timestamp(_ text: String) -> String? {
        var digits = text.trimmingCharacters(in: .whitespaces)
        if digits.hasPrefix("/Date("), digits.hasSuffix(")/") {
            digits = String(digits.dropFirst(6).dropLast(2))
            // "/Date(1712878200000-0500)/": the offset only says how it was shown; the number is UTC.
            if let sign = digits.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) { digits = String(digits[..<sign]) }
        }
        guard digits.count >= 9, digits.count <= 13, digits.allSatisfy(\.isNumber), let number = Double(digits) else { return nil }
        let seconds = digits.count >= 12 ? number / 1000 : number
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The item's own `id` (or `Id`, `ID`, `_id`, `uid`): the most stable key there is.
    static func idKey(_ item: JSONValue) -> String? {
        guard let object = item.objectValue else { return nil }
        for name in ["id", "Id", "ID", "_id", "uid", "guid"] {
            if let value = object[name].flatMap(JSONFieldSpec.text), !value.isEmpty { return "\(name):\(value)" }
        }
        return nil
    }

    /// The page as JSON, or an error saying what it is instead.
    static func decode(_ page: FetchedPage, data: Data, url: URL) throws -> JSONValue {
        do {
            return try JSONValue(parsing: data)
        } catch {
            let head = String(decoding: page.data.prefix(300), as: UTF8.self).lowercased()
            let what =
                head.contains("<html") || head.contains("<!doctype") ? "this is an HTML page, not JSON" : "this is not JSON (or it is cut short): \(error)"
            throw TimeTrackError(
                .parse, what, fix: "point url at the API's JSON answer (open it in a browser: it starts with { or [)", context: ["url": url.absoluteString])
        }
    }

    /// The items `items` finds in `document`: a path that ends at a list (`"items": "data"`,
    /// where `data` is the list) means the list's elements, not the list as one item.
    static func itemsFound(_ items: JSONPath?, in document: JSONValue) -> [JSONValue] {
        guard let items else { return document.arrayValue ?? [] }
        let found = items.evaluate(document)
        if found.count == 1, let list = found[0].arrayValue { return list }
        return found
    }

    /// "0 items: options.items 'events' found nothing; the document's top level has: data, links".
    static func nothingFound(_ items: JSONPath?, in document: JSONValue) -> String {
        let top: String
        switch document {
        case .object(let object): top = "the document is an object with " + object.keys.sorted().prefix(12).joined(separator: ", ")
        case .array(let array): top = "the document is a list of \(array.count)"
        default: top = "the document is a single value"
        }
        guard let items else { return "0 items: the document is not a list; \(top): set options.items to the path of the items" }
        return "0 items: options.items '\(items.description)' found nothing; \(top)"
    }

    static func url(_ base: URL, param: String, value: Int) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        var query = (components.queryItems ?? []).filter { $0.name != param }
        query.append(URLQueryItem(name: param, value: String(value)))
        components.queryItems = query
        return components.url
    }
}

/// How to read one field from a JSON item: a path (`"Title"`, `"attributes.start"`,
/// `"$.meta.school"` from the document), a list of fallbacks, or an object with `select` (the
/// path), `exists`, and the keys every importer shares (`FieldShape`).
struct JSONFieldSpec: Sendable, CustomStringConvertible {
    var paths: [JSONPath] = []
    var alternatives: [JSONFieldSpec] = []
    var exists = false
    var shape = FieldShape()
    /// The values the field is built from (`parts`), by the names the template places.
    var parts: [(name: String, spec: JSONFieldSpec)] = []

    init(_ value: JSONValue, field: String, source: SourceDefinition) throws {
        func path(_ text: String, at: String) throws -> JSONPath {
            do { return try JSONPath(text) } catch let error as TimeTrackError { throw source.error(at, error.message, fix: error.fix) }
        }
        switch value {
        case .string(let text):
            paths = [try path(text, at: field)]
        case .array(let list):
            guard !list.isEmpty else { throw source.error(field, "needs at least one path") }
            for (index, entry) in list.enumerated() {
                if case .array = entry { throw source.error(field, "a list of fallbacks cannot hold another list") }
                alternatives.append(try JSONFieldSpec(entry, field: "\(field)[\(index)]", source: source))
            }
        case .object(let object):
            let allowed = ["select", "exists"] + FieldShape.keys
            for key in object.keys where !allowed.contains(key) {
                throw source.error("\(field).\(key)", "is not a field option", fix: "use " + allowed.joined(separator: ", "))
            }
            if let select = object["select"] {
                guard let text = select.stringValue else { throw source.error("\(field).select", "must be a path string") }
                paths = [try path(text, at: "\(field).select")]
            }
            exists = object["exists"]?.boolValue ?? false
            shape = try FieldShape(object, field: field, source: source)
            switch object["parts"] {
            case .array(let list)?:
                parts = try list.enumerated().map {
                    (String($0.offset + 1), try JSONFieldSpec($0.element, field: "\(field).parts[\($0.offset)]", source: source))
                }
            case .object(let named)?:
                parts = try named.keys.sorted().map { name in (name, try JSONFieldSpec(named[name] ?? .null, field: "\(field).parts.\(name)", source: source)) }
            default: break
            }
            if paths.isEmpty && !shape.givesOwnValue && parts.isEmpty { throw source.error(field, "needs select, value, then or parts") }
        default:
            throw source.error(field, "must be a path string, a list of paths, or an object with select")
        }
    }

    var description: String { alternatives.isEmpty ? paths.map(\.description).joined() : "[" + alternatives.map(\.description).joined(separator: ", ") + "]" }

    var readsFields: [String] { (shape.readsField.map { [$0] } ?? []) + alternatives.flatMap(\.readsFields) + parts.flatMap(\.spec.readsFields) }
    /// Whether it, an alternative or a part reads split groups (a JSON item is never split).
    var usesGroups: Bool { shape.usesGroups || alternatives.contains(where: \.usesGroups) || parts.contains { $0.spec.usesGroups } }

    func value(_ item: JSONValue, document: JSONValue, _ inputs: inout FieldInputs) -> String? {
        if !alternatives.isEmpty {
            for alternative in alternatives {
                if let value = alternative.value(item, document: document, &inputs), !value.isEmpty { return value }
            }
            return nil
        }
        if !parts.isEmpty {
            var values: [String: String] = [:]
            for (name, spec) in parts { values[name] = spec.value(item, document: document, &inputs) }
            let selected = paths.isEmpty ? nil : read(item, document: document)
            let composed = shape.compose(values, value: selected, page: inputs.page, groups: inputs.groups)
            return shape.value(&inputs) { composed }
        }
        return shape.value(&inputs) { read(item, document: document) }
    }

    /// What the paths find: the first that gives a value (with `exists`, "true").
    func read(_ item: JSONValue, document: JSONValue) -> String? {
        for path in paths {
            let found = path.first(path.fromDocument ? document : item)
            if exists {
                if let found, found != .null { return "true" }
                continue
            }
            if let text = found.flatMap(JSONFieldSpec.text), !text.isEmpty { return text }
        }
        return nil
    }

    /// A value as text (`JSONPath.text`).
    static func text(_ value: JSONValue) -> String? { JSONPath.text(value) }

    /// Every string in the item, for conditions on its text (at most 10,000 characters).
    static func allText(_ item: JSONValue) -> String {
        var out: [String] = []
        var length = 0
        var stack = [item]
        while let top = stack.popLast(), length < 10_000 {
            switch top {
            case .string(let s):
                out.append(s)
                length += s.count
            case .array(let list): stack.append(contentsOf: list.reversed())
            case .object(let object): stack.append(contentsOf: object.keys.sorted().reversed().compactMap { object[$0] })
            default: break
            }
        }
        return out.joined(separator: " ")
    }
}
