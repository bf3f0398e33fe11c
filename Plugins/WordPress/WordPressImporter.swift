import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `wordpress` importer: the WordPress REST API's posts (`/wp-json/wp/v2/posts`) to
/// announcements, following `?page=N` up to `maxPages`.
public struct WordPressImporter: Importer {
    public static let info = ImporterInfo(
        name: "wordpress", version: "1.0.0", kinds: [.announcement],
        summary: "WordPress REST API posts JSON (title, excerpt, content, dates, link, featured image)",
        options: [ImporterOption("maxPages", type: "number", help: "pages of posts to follow with ?page=N (default 1)")])

    let source: SourceDefinition
    let maxPages: Int

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(WordPressImporter.info)
        maxPages = try source.intOption("maxPages", default: 1, range: 1...100)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var result = ImportResult()
        let normalizer = Normalizer(source: source, now: context.now)
        var seen: Set<String> = []
        for pageNumber in 1...maxPages {
            let url = pageNumber == 1 ? source.url : WordPressImporter.url(source.url, page: pageNumber)
            let page: FetchedPage
            do { page = try context.fetcher.fetch(url) } catch let error as TimeTrackError where pageNumber > 1 && error.code != .interrupted {
                // WordPress answers 400 past the last page (a local copy: no such file): the end.
                // Anything else: a page unread.
                let end = error.httpStatus == 400 || (url.isFileURL && error.httpStatus == 404)
                if !end {
                    result.pageUnread(url, error, severity: .warning, message: "page \(pageNumber) could not be read: \(error.message)")
                }
                break
            }
            result.pagesFetched += 1
            let value: JSONValue
            do {
                value = try JSONValue(parsing: page.data)
            } catch {
                let head = String(decoding: page.data.prefix(200), as: UTF8.self).lowercased()
                throw TimeTrackError(
                    .parse, head.contains("<html") || head.contains("<!doctype") ? "this is an HTML page, not WordPress REST JSON" : "this is not JSON",
                    fix: "use the site's /wp-json/wp/v2/posts URL", context: ["url": url.absoluteString])
            }
            guard let posts = value.arrayValue else {
                if let object = value.objectValue, let code = object["code"]?.stringValue {
                    if code == "rest_post_invalid_page_number" { break }
                    throw TimeTrackError(
                        .parse, "WordPress answered an error: \(code) \(object["message"]?.stringValue ?? "")", context: ["url": url.absoluteString])
                }
                throw TimeTrackError(
                    .parse, "this JSON is not a WordPress posts list (expected an array of posts)", fix: "use the site's /wp-json/wp/v2/posts URL",
                    context: ["url": url.absoluteString])
            }
            if posts.isEmpty { break }
            for (index, post) in posts.enumerated() {
                let location = "page \(pageNumber) post \(index + 1)"
                guard let object = post.objectValue, let title = object["title"]?.objectValue?["rendered"]?.stringValue ?? object["title"]?.stringValue else {
                    result.note(ImportProblem(.error, "skipped: not a WordPress post (no title.rendered)", location: location))
                    continue
                }
                var raw = RawItem()
                raw["title"] = TextNormalizer.plainText(fromHTML: title)
                raw["link"] = object["link"]?.stringValue
                // `date` is the site's local time, read in the source's zone (which knows daylight
                // saving); `date_gmt` follows the site's offset setting, often a fixed "UTC-8".
                if let local = object["date"]?.stringValue, !local.isEmpty {
                    raw["date"] = local
                } else if let gmt = object["date_gmt"]?.stringValue, !gmt.isEmpty {
                    raw["date"] = gmt.hasSuffix("Z") ? gmt : gmt + "Z"
                }
                if let excerpt = object["excerpt"]?.objectValue?["rendered"]?.stringValue {
                    raw["summary"] = TextNormalizer.removeReadMore(TextNormalizer.plainText(fromHTML: excerpt))
                }
                if let content = object["content"]?.objectValue?["rendered"]?.stringValue, !content.isEmpty {
                    raw["body"] = Sanitizer.sanitize(html: content, baseURL: raw["link"].flatMap(URL.init(string:)) ?? source.publicURL)
                }
                raw["image"] = WordPressImporter.image(object)
                let key = object["id"].map { $0.description } ?? raw["link"] ?? raw["title"] ?? ""
                guard seen.insert(key).inserted else { result.duplicatesMerged += 1; continue }
                switch normalizer.prepare(raw) {
                case .success(let prepared):
                    result.items.append(
                        ExtractedItem(
                            key: key, prepared: prepared, pageURL: url.absoluteString, pageHash: page.hash, fetchedAt: page.fetchedAt, location: location))
                case .failure(let error):
                    result.note(ImportProblem(.error, "skipped '\(raw["title"] ?? key)': \(error.message)", location: location))
                }
            }
            if posts.count < 10 { break }  // a short page is the last one
        }
        return result
    }

    /// The featured image: Jetpack's URL, else Yoast's og:image, else the first image in the embedded media.
    static func image(_ post: [String: JSONValue]) -> String? {
        if let jetpack = post["jetpack_featured_media_url"]?.stringValue, !jetpack.isEmpty { return jetpack }
        if let og = post["yoast_head_json"]?.objectValue?["og_image"]?.arrayValue?.first?.objectValue?["url"]?.stringValue { return og }
        if let head = post["yoast_head"]?.stringValue, let range = head.range(of: #"property="og:image" content="([^"]+)""#, options: .regularExpression) {
            let match = String(head[range])
            return match.components(separatedBy: "content=\"").last.map { String($0.dropLast()) }
        }
        if let media = post["_embedded"]?.objectValue?["wp:featuredmedia"]?.arrayValue?.first?.objectValue?["source_url"]?.stringValue { return media }
        return nil
    }

    static func url(_ base: URL, page: Int) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return base }
        var items = (components.queryItems ?? []).filter { $0.name != "page" }
        items.append(URLQueryItem(name: "page", value: String(page)))
        components.queryItems = items
        return components.url ?? base
    }
}
