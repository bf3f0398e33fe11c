import Foundation
import TestSupport
import Testing

/// `--format csv` gives CSV for every command that prints a table or a record (issue 35: show,
/// history, plugins and import --dry-run printed plain text), read back by Python's csv module.
@Suite struct CSVOutputTests {
    /// Rows of a CSV text as Python's csv module reads them (one JSON list a row).
    static func rows(_ csv: String) throws -> [[String]] {
        let read = try Binaries.runPath(
            "/usr/bin/python3", ["-c", "import csv, json, sys\nfor row in csv.reader(sys.stdin): print(json.dumps(row))"], stdin: csv)
        return read.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] }
    }

    @Test func showHistoryPluginsAndDryRunsAreCSV() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let id = try #require(try fixture.ids("announcements").first)
        let show = try Self.rows(try fixture.run(["--format", "csv", "show", id]).stdout)
        #expect(show.first == ["field", "value"] && show.contains(["id", id]) && show.contains(["status", "pending"]), "\(show)")
        #expect(show.allSatisfy { $0.count == 2 })
        let history = try Self.rows(try fixture.run(["--format", "csv", "history", id]).stdout)
        #expect(history.first == ["when", "what", "number", "state", "by", "note"] && history.contains { $0[1] == "revision" && $0[2] == "1" }, "\(history)")
        let plugins = try Self.rows(try fixture.run(["--format", "csv", "plugins"]).stdout)
        #expect(plugins.first?.first == "importer" && plugins.contains { $0[0] == "html" && $0[3] == "xml" }, "\(plugins.prefix(3))")
        #expect(plugins.allSatisfy { $0.count == 6 })
        let dry = try Self.rows(try fixture.run(["--format", "csv", "import", "--all", "--dry-run"]).stdout)
        #expect(dry.first == ["source", "would", "id", "title"], "\(dry)")
    }
}
