import Foundation
import TimeTrackCore

/// What importers that map fields by name (`html`, `json`) share: the names each kind takes,
/// the checks of a definition's fields, the default key, and the last step from raw values to
/// items.
public enum MappedFields {
    /// The field names of each kind (docs/importers/fields.md).
    public static let known: [ItemKind: Set<String>] = [
        .announcement: ["title", "link", "date", "summary", "body", "image", "imageAlt", "priority", "expires", "publishAt", "reviewBy"],
        .event: [
            "title", "start", "end", "date", "time", "allDay", "location", "address", "latitude", "longitude", "description", "category", "state", "link",
            "publishAt", "expires", "reviewBy",
        ],
        .schoolInfo: ["title", "url", "link", "section", "type", "group", "publishAt", "expires", "reviewBy"],
        .alert: ["title", "message", "summary", "body", "severity", "link", "date", "expires", "publishAt", "reviewBy"],
    ]

    /// The kinds built from field names, in the kinds table's order: what `html`, `json`, an
    /// external importer and `try` make.
    public static let kinds: [ItemKind] = ItemKind.allCases.filter { known[$0] != nil }

    /// Those kinds as people read them: "announcement, event or school-info".
    public static var kindWords: String {
        let words = kinds.map(\.rawValue)
        return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }

    /// The names the source's kind takes, or an error naming the importer's kinds.
    public static func names(for source: SourceDefinition, importer: String) throws -> Set<String> {
        guard let names = known[source.kind] else {
            throw source.error("kind", "the \(importer) importer makes \(kindWords) items, not \(source.kind.rawValue)")
        }
        return names
    }

    /// Checks that the fields given (`names`) include what the kind needs, and `options.section`.
    public static func check(_ names: Set<String>, source: SourceDefinition) throws {
        if !names.contains("title") { throw source.error("options.fields.title", "is required for \(source.kind.rawValue) items") }
        if source.kind == .event && !(names.contains("start") || names.contains("date")) {
            throw source.error("options.fields.start", "is required for events (or give \"date\")")
        }
        if source.kind == .schoolInfo && !(names.contains("url") || names.contains("link")) {
            throw source.error("options.fields.url", "is required for school-info items")
        }
        if let section = source.options["section"] {
            guard let text = section.stringValue, SchoolInfoItem.Section(rawValue: text) != nil else {
                throw source.error("options.section", "must be one of " + SchoolInfoItem.Section.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
    }

    /// The fields whose value is an address, resolved against the page.
    public static let linkFields: Set<String> = ["link", "url", "image"]

    /// A link as an importer found it, made absolute against `base` (`&amp;` in it is the
    /// page's escaping, not part of the address); nil when it is no URL at all.
    public static func resolveLink(_ value: String, base: URL) -> String? {
        let trimmed = TextNormalizer.decodeEntities(value).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(string: trimmed, relativeTo: base)?.absoluteURL.absoluteString
    }

    /// The item's `body` as sanitized HTML, its links resolved against the item's own link (or
    /// `base` when it has none).
    public static func sanitizeBody(_ raw: inout RawItem, base: URL) {
        guard let body = raw["body"] else { return }
        raw["body"] = Sanitizer.sanitize(html: body, baseURL: raw["link"].flatMap(URL.init(string:)) ?? base)
    }

    /// What identifies an item when the definition names no key: its link or url; for an event,
    /// its title and normalized start (`Normalizer.eventKey`); else the title with the date.
    public static func defaultKey(_ raw: RawItem, kind: ItemKind, normalizer: Normalizer) -> String? {
        if kind == .event, let key = normalizer.eventKey(raw) { return key }
        return legacyKey(raw, kind: kind)
    }

    /// The default key before events were keyed by their normalized start: title, date text and
    /// link.
    ///
    /// Kept to find, once, the stored event an older run keyed so (`ExtractedItem.formerKey`).
    static func legacyKey(_ raw: RawItem, kind: ItemKind) -> String? {
        // An empty link (`href=""`) is no key: the title (and date) stand in, as for no link.
        if kind != .event, let link = [raw["link"], raw["url"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) { return link }
        guard let title = raw["title"].map(TextNormalizer.collapse), !title.isEmpty else { return nil }
        return [title, raw["start"] ?? raw["date"] ?? "", raw["link"] ?? ""].joined(separator: "|")
    }

    /// The key an older version gave an event that now has the default key `key`, when it differs.
    static func formerKey(_ raw: RawItem, key: String, normalizer: Normalizer) -> String? {
        guard normalizer.source.kind == .event, let legacy = legacyKey(raw, kind: .event), legacy != key, normalizer.eventKey(raw) == key else { return nil }
        return legacy
    }

    /// One item found: its key, raw values, and where it was.
    public struct Found: Sendable {
        public var key: String
        public var raw: RawItem
        public var page: FetchedPage
        public var pageURL: String
        public var location: String
        /// The item memo digest when the importer computed it (from parts it read separately);
        /// nil: the digest of `raw`.
        public var digest: String?

        public init(key: String, raw: RawItem, page: FetchedPage, pageURL: String, location: String, digest: String? = nil) {
            (self.key, self.raw, self.page, self.pageURL, self.location, self.digest) = (key, raw, page, pageURL, location, digest)
        }
    }

    /// Normalizes what was found (on all cores, results in order) into the result's items, or
    /// problems naming the item and why it was skipped.
    ///
    /// With `context.items` (an import into a store), an item whose raw values are the ones its
    /// stored content was made from is settled without being normalized (`ItemMemo`), and each
    /// item normalized without a guess is remembered for the next run.
    public static func finish(_ found: [Found], normalizer: Normalizer, into result: inout ImportResult, context: ImportContext? = nil) {
        let memo = context?.items
        // Digests and the normalizing of what is not settled: pure work, on all cores.
        let built = Parallel.map(found, minimumPerWorker: 16) {
            entry -> (digest: String?, outcome: Result<(prepared: PreparedContent, guesses: [Guess]), TimeTrackError>?) in
            guard memo != nil else { return (nil, normalizer.prepareNoting(entry.raw)) }
            return (entry.digest ?? ItemMemo.digest(entry.raw), nil)
        }
        var work: [Int] = []
        for (index, entry) in found.enumerated() {
            if let memo, let digest = built[index].digest, let settled = memo.settled(key: entry.key, digest: digest) {
                result.settled.append(SettledItem(key: entry.key, dated: settled.dated, location: entry.location))
            } else {
                work.append(index)
            }
        }
        // One outcome per index of `work`, in its order (no dictionary: a listing of 100,000
        // items spent a tenth of its time hashing and copying them).
        let normalized: [Result<(prepared: PreparedContent, guesses: [Guess]), TimeTrackError>?] =
            memo == nil
            ? work.map { built[$0].outcome }
            : Parallel.map(work.map { found[$0].raw }, minimumPerWorker: 16) { raw in normalizer.prepareNoting(raw) }
        result.items.reserveCapacity(result.items.count + work.count)
        for (index, outcome) in zip(work, normalized) {
            let entry = found[index]
            guard let outcome else { continue }
            switch outcome {
            case .success(let made):
                var item = ExtractedItem(
                    key: entry.key, prepared: made.prepared, pageURL: entry.pageURL, pageHash: entry.page.hash, fetchedAt: entry.page.fetchedAt,
                    location: entry.location)
                item.guesses = made.guesses
                item.formerKey = formerKey(entry.raw, key: entry.key, normalizer: normalizer)
                result.items.append(item)
                if let context, let memo, made.guesses.isEmpty, let digest = built[index].digest,
                    let remember = memo.entry(key: entry.key, digest: digest, contentHash: made.prepared.hash, dated: made.prepared.content.sortDate != nil)
                {
                    context.memoEntries.append(remember)
                }
            case .failure(let error):
                let title = entry.raw["title"].map { " '\(TextNormalizer.truncate(TextNormalizer.collapse($0), to: 60))'" } ?? ""
                result.note(
                    ImportProblem(.error, "skipped\(title): \(error.message)" + (error.fix.map { "; \($0)" } ?? ""), location: entry.location))
            }
        }
    }
}
