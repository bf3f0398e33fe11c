import Foundation
import TestSupport
import Testing
import TimeTrackKit

@testable import TimeTrackImport

/// docs/importers: a page per importer that names every option it has, and examples that are
/// definitions the importer accepts.
@Suite struct ImporterDocsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/importers")

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
}
