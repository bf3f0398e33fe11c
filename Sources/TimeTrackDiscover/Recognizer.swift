import Foundation
import TimeTrackCore
import TimeTrackKit

/// A platform, recognized by its fingerprints, and the definitions that read its pages: data in
/// a JSON file (docs/discover.md), one per platform, so a district can add its own.
///
/// ```json
/// { "platform": "Finalsite",
///   "fingerprints": [{"selector": "div.fsElement", "why": "Finalsite's element classes"},
///                    {"markup": "resources.finalsite.net"}],
///   "pages": [{"name": "news", "kind": "announcement", "match": "article.fsPostElement",
///              "definition": {"importer": "html", "options": {...}}}] }
/// ```
public struct Recognizer: Sendable {
    /// How one fingerprint is tested on a page.
    enum Test: Sendable {
        /// An element matches the selector.
        case selector(Selector)
        /// The page's markup holds the text (case ignored): a script host, a class name.
        case markup(String)
        /// `<meta name="generator">` holds the text.
        case generator(String)
        /// The page's address holds the text.
        case url(String)
    }

    struct Fingerprint: Sendable {
        var test: Test
        var why: String
        /// Enough alone, whatever `minimum` says: a mark only this platform makes (a generator
        /// meta naming it, its own module's class).
        var alone = false
    }

    /// A kind of page the platform has, and the definition that reads it.
    public struct PageTemplate: Sendable {
        public var name: String
        public var kind: ItemKind
        /// The page is this kind when the selector matches at least `minimumItems` elements;
        /// nil: the template reads an address of the site (`url` with `{origin}`), once.
        var match: Selector?
        var minimumItems: Int
        /// The definition, without id, kind or time zone; `url` may hold `{page}` (the default)
        /// or `{origin}`.
        public var definition: [String: JSONValue]
    }

    public var platform: String
    public var file: String
    var fingerprints: [Fingerprint]
    /// Fingerprints that must match on one page (default 1).
    var minimum: Int
    public var pages: [PageTemplate]

    /// The recognizers that come with the tool, then those of a folder (a district's own, which
    /// replace a bundled one of the same platform); files that cannot be read are reported.
    public static func load(folder: String?) -> (recognizers: [Recognizer], errors: [TimeTrackError]) {
        var byPlatform: [String: Recognizer] = [:]
        var order: [String] = []
        var errors: [TimeTrackError] = []
        let folders = [Bundle.module.url(forResource: "Recognizers", withExtension: nil)?.path, folder].compactMap { $0 }
        for path in folders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            for name in names {
                let file = (path as NSString).appendingPathComponent(name)
                do {
                    let recognizer = try Recognizer(file: file)
                    if byPlatform[recognizer.platform] == nil { order.append(recognizer.platform) }
                    byPlatform[recognizer.platform] = recognizer
                } catch let error as TimeTrackError {
                    errors.append(error)
                } catch {
                    errors.append(TimeTrackError(.configuration, "\(error)", context: ["file": file]))
                }
            }
        }
        return (order.compactMap { byPlatform[$0] }, errors)
    }

    /// Reads a recognizer file; errors name the file and the field.
    public init(file: String) throws {
        func fail(_ field: String, _ message: String) -> TimeTrackError {
            TimeTrackError(.configuration, message, fix: "see docs/discover.md for the recognizer format", context: ["file": file, "field": field])
        }
        guard let data = FileManager.default.contents(atPath: file), data.count <= 1_000_000 else {
            throw fail("", "cannot read the recognizer (or it is over 1 MB)")
        }
        guard let object = (try? JSONValue(parsing: data))?.objectValue else { throw fail("", "is not a JSON object") }
        guard let platform = object["platform"]?.stringValue, !platform.isEmpty else { throw fail("platform", "is required: the platform's name") }
        self.platform = platform
        self.file = file
        minimum = Recognizer.count(object["minimum"], default: 1)
        fingerprints = try (object["fingerprints"]?.arrayValue ?? []).enumerated().map { index, entry in
            try Recognizer.fingerprint(entry, at: "fingerprints[\(index)]", fail: fail)
        }
        guard !fingerprints.isEmpty else { throw fail("fingerprints", "needs at least one fingerprint") }
        pages = try (object["pages"]?.arrayValue ?? []).enumerated().map { index, entry in
            let at = "pages[\(index)]"
            guard let page = entry.objectValue, let name = page["name"]?.stringValue, let kindWord = page["kind"]?.stringValue,
                let kind = ItemKind(word: kindWord),
                let definition = page["definition"]?.objectValue, definition["importer"]?.stringValue != nil
            else { throw fail(at, "needs name, kind and a definition with its importer") }
            var match: Selector?
            if let text = page["match"]?.stringValue {
                do { match = try Selector(text) } catch let error as TimeTrackError { throw fail("\(at).match", error.message) }
            }
            return PageTemplate(name: name, kind: kind, match: match, minimumItems: Recognizer.count(page["minimumItems"], default: 2), definition: definition)
        }
    }

    /// A count from a recognizer file, 1 to 1000 (a huge or fractional number cannot trap).
    static func count(_ value: JSONValue?, default fallback: Int) -> Int {
        guard let number = value?.numberValue, number.isFinite else { return fallback }
        return Int(min(1000, max(1, number.rounded())))
    }

    static func fingerprint(_ entry: JSONValue, at: String, fail: (String, String) -> TimeTrackError) throws -> Fingerprint {
        guard let object = entry.objectValue else { throw fail(at, "must be an object like {\"selector\": \"div.fsElement\"}") }
        var found = try test(object, at: at, fail: fail)
        found.alone = object["alone"]?.boolValue ?? false
        return found
    }

    static func test(_ object: [String: JSONValue], at: String, fail: (String, String) -> TimeTrackError) throws -> Fingerprint {
        let why = object["why"]?.stringValue
        if let text = object["selector"]?.stringValue {
            do { return Fingerprint(test: .selector(try Selector(text)), why: why ?? "elements \(text)") } catch let error as TimeTrackError {
                throw fail("\(at).selector", error.message)
            }
        }
        if let text = object["markup"]?.stringValue, !text.isEmpty {
            return Fingerprint(test: .markup(text.lowercased()), why: why ?? "'\(text)' in the markup")
        }
        if let text = object["generator"]?.stringValue, !text.isEmpty {
            return Fingerprint(test: .generator(text.lowercased()), why: why ?? "generator \(text)")
        }
        if let text = object["url"]?.stringValue, !text.isEmpty { return Fingerprint(test: .url(text.lowercased()), why: why ?? "'\(text)' in the address") }
        throw fail(at, "needs selector, markup, generator or url")
    }

    /// Why the page is this platform's (the fingerprints that matched), or nil when too few did.
    public func recognizes(_ document: HTMLDocument, markup: String, url: URL) -> [String]? {
        var reasons: [String] = []
        // A generator meta naming the platform is the page's own statement: enough alone.
        var stated = false
        let generator =
            (try? document.root.select("meta[name=generator], meta[name=Generator]"))?.compactMap { $0.attribute("content") }.joined(separator: " ")
            .lowercased() ?? ""
        for fingerprint in fingerprints {
            let holds: Bool
            switch fingerprint.test {
            case .selector(let selector): holds = document.root.first(selector) != nil
            case .markup(let text): holds = markup.contains(text)
            case .generator(let text): holds = generator.contains(text)
            case .url(let text): holds = url.absoluteString.lowercased().contains(text)
            }
            if holds { reasons.append(fingerprint.why) }
            if holds, case .generator = fingerprint.test { stated = true }
            if holds, fingerprint.alone { stated = true }
        }
        return stated || reasons.count >= max(1, minimum) ? reasons : nil
    }

    /// The templates whose `match` this page answers (enough elements).
    public func templates(for document: HTMLDocument) -> [PageTemplate] {
        pages.filter { template in
            guard let match = template.match else { return false }
            return document.root.select(match).count >= template.minimumItems
        }
    }

    /// The templates that read an address of the site rather than a page of a kind.
    public var siteTemplates: [PageTemplate] { pages.filter { $0.match == nil } }
}
