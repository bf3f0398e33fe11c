import Foundation
import TimeTrackCore

/// `timetrack-bench --memory [--listing-items N] [--plugin-items N]`: peak memory of imports.
///
/// Each in a fresh process run exactly as `timetrack-admin import` runs, into a new SQLite
/// store:
/// - one listing page of N news items (default 100,000), beside libxml2's tree of the same page
///   alone (the floor no extraction over that tree can go under);
/// - an external importer (a Python plugin) printing N items (default 1,000,000) at the
///   manifest's largest caps.
///
/// Figures, not a test: printed for the closing note and the issue.
enum MemoryBench {
    struct Figure {
        var what: String
        var peakMB: Double
        var seconds: Double
        var note: String
    }

    static func run(listingItems: Int, pluginItems: Int, in work: URL) throws -> [Figure] {
        var figures: [Figure] = []
        if listingItems > 0 {
            let folder = work.appendingPathComponent("listing")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bytes = try ListingBench.write(items: listingItems, shape: .dated, into: folder)
            let (floor, floorWall) = try runChild(["--child", "floor", folder.path])
            let store = work.appendingPathComponent("listing.sqlite").path
            let (imported, wall) = try runChild(["--child", "console", "--store", store, "--imports", folder.path, "--as", "bench", "import", "listing"])
            let page = Double(bytes) / 1_048_576
            figures.append(
                Figure(
                    what: "listing page of \(listingItems) items (\(String(format: "%.1f", page)) MB), parsed alone (libxml2's tree)",
                    peakMB: Double(floor.maxRSSKB) / 1024, seconds: floorWall, note: String(format: "%.1fx the page", Double(floor.maxRSSKB) / 1024 / page)))
            figures.append(
                Figure(
                    what: "listing page of \(listingItems) items, imported into a new store", peakMB: Double(imported.maxRSSKB) / 1024, seconds: wall,
                    note: String(format: "%.1fx the page", Double(imported.maxRSSKB) / 1024 / page)))
        }
        if pluginItems > 0 {
            let (plugins, imports) = try writePlugin(items: pluginItems, in: work)
            let store = work.appendingPathComponent("plugin.sqlite").path
            let (imported, wall) = try runChild([
                "--child", "console", "--store", store, "--plugins", plugins, "--imports", imports, "--as", "bench", "import", "million",
            ])
            figures.append(
                Figure(
                    what: "\(pluginItems) items from an external importer, imported into a new store", peakMB: Double(imported.maxRSSKB) / 1024,
                    seconds: wall, note: String(format: "%.0f bytes an item", Double(imported.maxRSSKB) * 1024 / Double(pluginItems))))
        }
        return figures
    }

    /// A Python plugin that prints `items` news items, its manifest at the largest caps, and a
    /// source that uses it; (plugins folder, imports folder).
    static func writePlugin(items: Int, in work: URL) throws -> (String, String) {
        let plugin = work.appendingPathComponent("plugins/million")
        let imports = work.appendingPathComponent("imports")
        for folder in [plugin, imports] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data(
            #"""
            { "protocol": 1, "name": "million", "version": "1", "kinds": ["announcement"], "command": ["python3", "plugin.py"], "timeout": 3600,
              "maxOutputMB": 1000, "maxItems": 1000000 }
            """#.utf8
        ).write(to: plugin.appendingPathComponent("plugin.json"))
        try Data(
            """
            import sys
            sys.stdin.readline()
            write = sys.stdout.write
            for i in range(\(items)):
                write('{"item": {"title": "Board notice %d", "link": "https://district.example/news/%d", "date": "2026-%02d-%02d",'
                      ' "summary": "Item %d of a long feed, with a sentence or two of summary as district feeds have."}}\\n'
                      % (i, i, i % 12 + 1, i % 28 + 1, i))
            """.utf8
        ).write(to: plugin.appendingPathComponent("plugin.py"))
        try Data(
            #"""
            { "id": "million", "importer": "million", "kind": "announcement", "url": "https://district.example/news", "timeZone": "America/Denver" }
            """#.utf8
        ).write(to: imports.appendingPathComponent("million.json"))
        return (work.appendingPathComponent("plugins").path, imports.path)
    }
}
