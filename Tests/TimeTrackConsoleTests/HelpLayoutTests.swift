import Foundation
import TestSupport
import Testing

/// Issue 48: `help COMMAND` readable at 80 columns: every option's name whole (it was cut at
/// 20 characters and run into its help: `--due-within DURATIOdeadlines`), help wrapped between
/// words.
@Suite struct HelpLayoutTests {
    /// The commands `help` lists.
    static func commandNames() throws -> [String] {
        let help = try Binaries.run("timetrack-admin", ["help"], environment: ["COLUMNS": "300"]).stdout
        let section = help.components(separatedBy: "commands:").dropFirst().first?.components(separatedBy: "global options:").first ?? ""
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let first = line.dropFirst(2).split(separator: " ").first, first.first?.isLetter == true else { return nil }
            return String(first)
        }
    }

    @Test func everyCommandsHelpFitsEightyColumnsWithItsOptionsWhole() throws {
        let names = Set(try Self.commandNames())
        #expect(names.count >= 30, "\(names)")
        for name in names.sorted() {
            let help = try Binaries.run("timetrack-admin", ["help", name], environment: ["COLUMNS": "80"]).stdout
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            // The usage line is what a person types: it is never broken; the rest fits.
            for line in lines.dropFirst() { #expect(line.count <= 80, "help \(name): \(line)") }
            let options = help.components(separatedBy: "\noptions:\n").dropFirst().first ?? ""
            for line in options.split(separator: "\n") where line.hasPrefix("  --") {
                // The option (and its value) then two spaces or the line's end: nothing run into it.
                let option = line.dropFirst(2)
                let parts = option.components(separatedBy: "  ")
                #expect(parts.count >= 2 || !option.contains("  "), "help \(name): \(line)")
                let name = parts[0].split(separator: " ")
                #expect(name.count <= 2, "help \(name): the option runs into its help: \(line)")
            }
        }
        let list = try Binaries.run("timetrack-admin", ["help", "list"], environment: ["COLUMNS": "80"]).stdout
        #expect(list.contains("--due-within DURATION  "), "\(list)")
    }
}
