import Foundation
import Testing
import TimeTrackCore
import TimeTrackImport

@testable import TimeTrackConsole

/// Issue 36: docs/architecture.md's recipes (an importer, a store engine, a command, a kind),
/// followed: every file they name exists, and what each says to do was done for what is there.
@Suite struct ArchitectureRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    static func files(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { ($0 as? URL).map { String($0.path.dropFirst(root.path.count + 1)) } }
    }

    /// Whether a path the doc names exists: as it is, under `Sources/`, or (with `NAME`) as a
    /// pattern some file matches.
    static func exists(_ path: String) -> Bool {
        let candidates = [path, "Sources/" + path]
        guard path.contains("NAME") else { return candidates.contains { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) } }
        let pattern = "^" + NSRegularExpression.escapedPattern(for: path).replacingOccurrences(of: "NAME", with: "[A-Za-z0-9]+") + "$"
        let top = String(path.prefix { $0 != "/" })
        return files(under: top).contains { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    /// Issue 48: the README's layout names every module under `Sources/` and every importer
    /// under `Plugins/`, and the architecture doc's table every library module.
    @Test func theLayoutTablesNameEveryModule() throws {
        let readme = try Self.read("README.md")
        let layout = try #require(readme.range(of: "## Layout").map { String(readme[$0.upperBound...]) }?.components(separatedBy: "\n## ").first)
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        for module in sources { #expect(layout.contains(module), "README's layout does not name Sources/\(module)") }
        for plugin in try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Plugins").path) {
            #expect(layout.contains("`\(plugin.lowercased())`"), "README's layout does not name the \(plugin) importer")
        }
        let architecture = try Self.read("docs/architecture.md")
        for module in sources where module.hasPrefix("TimeTrack") {
            #expect(architecture.contains("| `\(module)` |"), "docs/architecture.md's table has no row for \(module)")
        }
    }

    @Test func everyPathTheRecipesNameExists() throws {
        let doc = try Self.read("docs/architecture.md")
        let section = try #require(doc.range(of: "## Where to add").map { String(doc[$0.lowerBound...]) })
        let named = section.matches(of: /`([A-Za-z0-9_.+\/-]+\.(swift|md)|[A-Za-z0-9_+-]+\/[A-Za-z0-9_.+\/-]*\/)`/).map { String($0.output.1) }
        #expect(named.count > 15, "\(named)")
        for path in named where path.contains("/") {
            #expect(Self.exists(path), "docs/architecture.md names \(path), which is not there")
        }
    }

    @Test func everyImporterHasItsTargetRegistryLineAndPage() throws {
        let package = try Self.read("Package.swift")
        let registry = try Self.read("Sources/TimeTrackImport/ImporterRegistry.swift")
        let importers = Self.files(under: "Plugins").filter { $0.hasSuffix("Importer.swift") && $0.split(separator: "/").count == 3 }
        #expect(importers.count >= 10, "\(importers)")
        for file in importers {
            let folder = file.split(separator: "/")[1]
            let type = String(file.split(separator: "/")[2].dropLast(6))
            #expect(package.contains("path: \"Plugins/\(folder)\""), "no target with path Plugins/\(folder) in Package.swift")
            #expect(registry.contains("\(type).self"), "\(type) is not in ImporterRegistry")
        }
        for importer in ImporterRegistry.all {
            let name = importer.info.name
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("docs/importers/\(name).md").path), "no docs/importers/\(name).md")
        }
    }

    @Test func everyCommandInCommandsIsListed() throws {
        let listed = Set(Console.commands.map(\.name))
        var declared = 0
        for file in Self.files(under: "Sources/TimeTrackConsole/Commands") where file.hasSuffix(".swift") {
            let text = try Self.read(file)
            for match in text.matches(of: /static var ([a-zA-Z0-9]+)Command: CommandSpec/) {
                let name = String(match.output.1)
                if name == "complete" { continue }  // the scripts' helper, hidden from help
                declared += 1
                #expect(listed.contains(name), "\(name)Command in \(file) is not in Console.commands (\(listed.sorted()))")
            }
        }
        #expect(declared >= 40, "\(declared) commands found")
    }

    @Test func everyKindHasItsModelAndTheStoreRecipesPlacesAreThere() throws {
        for kind in ItemKind.allCases {
            let model = [
                "announcement": "Announcement", "event": "Event", "school-info": "SchoolInfoItem", "post": "Post", "absence": "AbsenceReport",
                "ticket": "Ticket", "deadline": "Deadline", "alert": "Alert",
            ][kind.rawValue]
            let name = try #require(model, "no model name for \(kind)")
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/TimeTrackCore/Models/\(name).swift").path),
                "\(kind): no model file \(name).swift")
        }
        #expect(try Self.read("Tests/TimeTrackReviewTests/LifecycleSuiteTests.swift").contains("enum Backend"))
        #expect(try Self.read("Tests/TimeTrackStoreTests/StoreSuiteTests.swift").contains("enum Engine"))
        let door = try Self.read("Sources/TimeTrackStore/StoreLocation.swift")
        #expect(door.contains("public enum Engine") && door.contains("case .sqlite:") && door.contains("case .postgres:"))
        #expect(try Self.read("Sources/TimeTrackCore/Store/RunLock.swift").contains("public protocol RunLock"))
    }
}

/// Issue 35: the console stays readable: no file over 300 lines, no function (or command's
/// body) over 80.
@Suite struct ConsoleSizeTests {
    @Test func noFileOver300LinesNoFunctionOver80() throws {
        var found: [String] = []
        for file in ArchitectureRecipeTests.files(under: "Sources/TimeTrackConsole") where file.hasSuffix(".swift") {
            let lines = try ArchitectureRecipeTests.read(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.count > 300 { found.append("\(file): \(lines.count) lines") }
            for (start, length) in Self.functions(lines) where length > 80 { found.append("\(file):\(start + 1): a function of \(length) lines") }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Issue 48: the size rule over all product code: no function over 80 lines in any module,
    /// importer or tool (a file may grow past 300 lines when it holds one type).
    @Test func noFunctionOver80AnywhereInTheProduct() throws {
        var found: [String] = []
        for root in ["Sources", "Plugins"] {
            for file in ArchitectureRecipeTests.files(under: root) where file.hasSuffix(".swift") {
                let lines = try ArchitectureRecipeTests.read(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (start, length) in Self.functions(lines) where length > 80 { found.append("\(file):\(start + 1): a function of \(length) lines") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Each function, initializer or command definition: where it starts and how many lines
    /// it spans (braces counted outside string literals).
    static func functions(_ lines: [String]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for (index, line) in lines.enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), code.range(of: #"\bfunc |\binit\(|\binit<|var \w+: CommandSpec \{"#, options: .regularExpression) != nil else {
                continue
            }
            var depth = 0, started = false, end = index
            scan: for (offset, text) in lines[index...].enumerated() {
                let stripped = text.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
                for character in stripped {
                    if character == "{" {
                        depth += 1
                        started = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                end = index + offset
                if started && depth <= 0 { break scan }
                if !started && offset > 6 { break scan }
            }
            if started { out.append((index, end - index + 1)) }
        }
        return out
    }

    @Test func theCounterCountsWhatItIsFor() {
        let body = ["    func f() {"] + Array(repeating: "        let x = \"}\"", count: 90) + ["    }"]
        #expect(Self.functions(body).first?.1 == 92)
    }
}
