import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackImport

/// docs/importers: a page per importer that names every option it has, and examples that are
/// definitions the importer accepts.
@Suite struct ImporterDocsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/importers")

    @Test func everyImporterHasAPageNamingEveryOption() throws {
        for type in ImporterRegistry.all {
            let info = type.info
            let page = try String(contentsOf: Self.folder.appendingPathComponent("\(info.name).md"), encoding: .utf8)
            for option in info.options {
                #expect(page.contains("`\(option.name)`"), "docs/importers/\(info.name).md does not document options.\(option.name)")
            }
            let index = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
            #expect(index.contains("(\(info.name).md)"), "docs/importers/README.md does not link \(info.name)")
        }
    }

    @Test func everyExampleIsADefinitionItsImporterAccepts() throws {
        let dir = try TemporaryDirectory("doc-examples")
        defer { dir.remove() }
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) where name.hasSuffix(".md") {
            let page = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for block in page.components(separatedBy: "```json\n").dropFirst() {
                let json = block.components(separatedBy: "```").first ?? ""
                guard json.contains("\"importer\"") else { continue }
                let path = try dir.write("example.json", json)
                let source = try SourceDefinition.load(file: path)
                _ = try ImporterRegistry.make(for: source)
                checked += 1
            }
        }
        #expect(checked >= 8)
    }

    /// A fenced block of a page: its info string (`json`, `html materials.html`, `items`) and text.
    struct Block {
        var info: String
        var text: String
    }

    static func blocks(_ page: String) -> [Block] {
        var out: [Block] = []
        var current: Block?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let open = current {
                    out.append(open)
                    current = nil
                } else {
                    current = Block(info: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), text: "")
                }
            } else if current != nil {
                current?.text += line + "\n"
            }
        }
        return out
    }

    /// Every example with a page and its items: a `json` definition, then a block whose info
    /// string names the page's file (`html materials.html`), then an `items` block: each line a
    /// title, then `| field: value` (a stored field; dates in the source's zone, `yyyy-MM-dd HH:mm`).
    @Test func everyExampleWithAPageGivesTheItemsItShows() throws {
        var ran = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted() where name.hasSuffix(".md") {
            let blocks = Self.blocks(try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8))
            for index in blocks.indices.dropLast(2) where blocks[index].info == "json" && blocks[index + 2].info == "items" {
                let pageInfo = blocks[index + 1].info.split(separator: " ")
                guard pageInfo.count == 2 else { continue }
                let dir = try TemporaryDirectory("doc-run")
                defer { dir.remove() }
                let definition = try dir.write("example.json", blocks[index].text)
                let source = try SourceDefinition.load(file: definition)
                try FileManager.default.moveItem(atPath: definition, toPath: dir.path("\(source.id).json"))
                try dir.write(String(pageInfo[1]), blocks[index + 1].text)
                let result = try ImporterFixtures.extract(source.id, folder: dir.url)
                let place = "docs/importers/\(name), example \(source.id)"
                #expect(result.problems.isEmpty, "\(place): \(result.problems)")
                let expected = blocks[index + 2].text.split(separator: "\n").map(String.init)
                #expect(result.items.count == expected.count, "\(place): \(result.items.map(\.content.title))")
                for (item, line) in zip(result.items, expected) {
                    // The title may hold " | " itself: the fields are the parts from the first "name: " on.
                    let parts = line.components(separatedBy: " | ")
                    let firstField =
                        parts.indices.dropFirst().first { parts[$0].range(of: #"^[A-Za-z]+: "#, options: .regularExpression) != nil } ?? parts.count
                    #expect(item.content.title == parts[..<firstField].joined(separator: " | "), "\(place)")
                    let fields = item.content.fields()
                    for part in parts[firstField...] {
                        guard let colon = part.range(of: ": ") else {
                            Issue.record("\(place): '\(part)' is not 'field: value'")
                            continue
                        }
                        let field = String(part[..<colon.lowerBound])
                        #expect(Self.shown(fields[field], zone: source.timeZone) == String(part[colon.upperBound...]), "\(place): \(field)")
                    }
                }
                ran += 1
            }
        }
        #expect(ran >= 8, "runnable examples found: \(ran)")
    }

    /// A stored field's value as the docs write it: text as it is, an instant in the zone.
    static func shown(_ value: JSONValue?, zone: TimeZone) -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue else { return value.description }
        let iso = ISO8601DateFormatter()
        guard text.count >= 20, let date = iso.date(from: text) else { return text }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
