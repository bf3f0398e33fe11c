import Foundation
import TestSupport
import Testing

@testable import TimeTrackConsole

/// Issue 48: commands as types.
///
/// Every command is a `ConsoleCommand` whose options and arguments
/// are typed properties; usage, help, completions and the man page come from those
/// declarations; the words are parsed and validated before `run`.
@Suite struct CommandTypesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file of Sources and Plugins, with its text.
    static func productFiles() throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for folder in ["Sources", "Plugins"] {
            let base = root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(atPath: base.path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                files.append(("\(folder)/\(relative)", try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return files
    }

    @Test func noOptionIsReadByItsNameAndNoCommandIsBuiltByHand() throws {
        let byName = try NSRegularExpression(pattern: #"args\.(option|flag|values)\(""#)
        var found: [String] = []
        for (path, text) in try Self.productFiles() {
            let range = NSRange(text.startIndex..., in: text)
            if byName.firstMatch(in: text, range: range) != nil { found.append("\(path): an option read by its name") }
            // The one place a CommandSpec is made: from a command type's declarations.
            if text.contains("CommandSpec(") && !path.hasSuffix("ConsoleCommand.swift") && !path.hasSuffix("CommandSpec.swift") {
                found.append("\(path): a CommandSpec written by hand")
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    /// What `help CMD` prints, at the widest terminal (no wrapping).
    static func help(_ name: String) throws -> String {
        try Binaries.run("timetrack-admin", ["--no-pager", "help", name], environment: ["COLUMNS": "400"]).stdout
    }

    @Test func helpShowsEveryDeclaredOptionAndTheUsageComesFromTheDeclarations() throws {
        #expect(Console.commands.count >= 44)
        for command in Console.commands {
            let help = try Self.help(command.name)
            #expect(help.hasPrefix("usage: \(command.usageLine)\n"), "\(command.name): \(help.prefix(200))")
            for option in command.options {
                let left = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
                #expect(command.usageLine.contains(left), "\(command.name): the usage line lacks \(left)")
                #expect(help.contains("  " + left), "\(command.name): help lacks \(left)")
                #expect(help.contains(String(option.help.prefix(30))), "\(command.name): help lacks the help of \(left)")
            }
            // And nothing else: every --word of the usage line is a declared option.
            let words = command.usageLine.split(separator: " ").filter { $0.hasPrefix("[--") || $0.hasPrefix("--") }
            for word in words {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
                #expect(command.options.contains { "--\($0.name)" == name }, "\(command.name): \(name) in the usage is not declared")
            }
        }
    }

    @Test func valuesAreCheckedBeforeTheCommandRuns() throws {
        let dir = try TemporaryDirectory("types")
        defer { dir.remove() }
        let store = dir.path("never.sqlite")
        // A typed number out of range, an unknown option, a value missing: refused, exit 2, and
        // nothing ran (no store made).
        for (words, said) in [
            (["list", "--limit", "0"], "--limit must be a whole number from 1 to 100000, not '0'"),
            (["runs", "--limit", "lots"], "--limit must be a whole number from 1 to 100000, not 'lots'"),
            (["agenda", "--days", "-1"], "--days must be a whole number from 1 to 3660"),
            (["revert", "a1", "--to", "x"], "--to must be a whole number"),
            (["approve", "a1", "--anyhow"], "unknown option --anyhow"),
            (["reject", "a1", "--reason"], "--reason needs a value (R)"),
        ] {
            let result = try Binaries.run("timetrack-admin", ["--store", store] + words)
            #expect(result.status == 2 && result.stderr.contains(said), "\(words): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(words) ran")
        }
    }

    @Test func aCommandTypeDeclaresItsParametersOnce() throws {
        let spec = Console.ListCommand.spec
        #expect(spec.name == "list" && spec.positional == 0...1 && spec.pages)
        #expect(spec.options.map(\.name) == ["status", "due-within", "source", "limit", "offset", "flag"])
        #expect(spec.usageLine.hasPrefix("list [KIND] [--status S]"))
        let place = Console.PlaceCommand.spec
        #expect(place.options.first { $0.name == "alias" }?.repeats == true && place.usageLine.contains("[--alias NAME]..."))
        // Bound into a fresh instance: the typed values, defaults where nothing was given.
        let command = Console.ListCommand()
        for parameter in Console.ListCommand.parameters(of: command) {
            try parameter.bind(try spec.parse(["events", "--limit", "7", "--status", "published"]), spec: spec)
        }
        #expect(command.words == ["events"] && command.limit == 7 && command.status == "published" && command.offset == 0 && command.flag == nil)
    }
}
