import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// `timetrack-bench --listing N`: one listing page of N items side by side (issue 37's
/// "items on the page x items kept"), extracted through the pipeline as an import reads it,
/// best and median of `repeats` runs, for each shape of item.
///
/// The target: 100,000 items in under 2 s.
enum ListingBench {
    /// What each item of the page holds.
    enum Shape: String, CaseIterable {
        /// The issue's reproduction: 40,000 articles in 2.4 MB, a title and a link each.
        case minimal
        /// A news listing's: title, link, a date in words and a summary.
        case dated
    }

    static func run(items: Int, repeats: Int, shape: Shape) throws -> (seconds: [Double], found: Int, bytes: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-listing-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try write(items: items, shape: shape, into: folder)
        let source = try SourceDefinition.load(file: folder.appendingPathComponent("listing.json").path)
        var seconds: [Double] = []
        var found = 0
        for _ in 0..<max(1, repeats) {
            var pipeline = ImportPipeline(importsRoot: folder)
            pipeline.now = { Date(timeIntervalSince1970: 1_790_000_000) }
            let start = Date()
            let result = try pipeline.extract(source)
            seconds.append(Date().timeIntervalSince(start))
            found = result.items.count
        }
        return (seconds.sorted(), found, bytes)
    }

    /// Writes the page (`page.html`) and its source (`listing.json`) into `folder`; the page's size.
    static func write(items: Int, shape: Shape, into folder: URL) throws -> Int {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        var page = "<html><body><h1>News</h1>"
        page.reserveCapacity(items * 200)
        for index in 0..<items {
            switch shape {
            case .minimal:
                page += "<article class=\"news\"><h2><a href=\"/n/\(index)\">Notice \(index)</a></h2></article>"
            case .dated:
                page += "<article class=\"news\"><h2><a href=\"/news/\(index)\">Board notice \(index)</a></h2>"
                page +=
                    "<span class=\"date\">\(months[index % 12]) \(index % 28 + 1), 2026</span><p class=\"excerpt\">Item \(index) of the listing.</p></article>"
            }
        }
        page += "</body></html>"
        try Data(page.utf8).write(to: folder.appendingPathComponent("page.html"))
        let definition = """
            { "id": "listing", "importer": "html", "kind": "announcement", "url": "page.html", "baseURL": "https://district.example/news/",
              "timeZone": "America/Denver", "options": { "item": "article.news", "fields": { "title": "h2 a", "link": "h2 a@href", "date": ".date",
              "summary": ".excerpt" }, "maxItems": \(max(items, 1)) } }
            """
        try Data(definition.utf8).write(to: folder.appendingPathComponent("listing.json"))
        try Data(#"{ "requestDelay": 0 }"#.utf8).write(to: folder.appendingPathComponent("_settings.json"))
        return page.utf8.count
    }
}
