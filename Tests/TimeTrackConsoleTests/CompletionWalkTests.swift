import Foundation
import TestSupport
import Testing

@testable import TimeTrackConsole

/// Issue 35: every command's options, their values and its words complete in bash, zsh and
/// fish from what the commands declare (`OptionSpec.completes`, `CommandSpec.arguments`): the
/// test walks them all, asking the real shells with the generated scripts.
@Suite struct CompletionWalkTests {
    /// One question: the words typed (the last one being completed) and what must be offered.
    struct Ask {
        var label: String
        var words: [String]
        var expected: Set<String>
    }

    static var asks: [Ask] {
        var asks: [Ask] = []
        for command in Console.commands where command.name != "quit" {
            for option in command.options {
                asks.append(Ask(label: "\(command.name) --\(option.name)", words: [command.name, "--" + option.name], expected: ["--" + option.name]))
                if case .words(let words) = option.completes, option.value != nil {
                    asks.append(Ask(label: "\(command.name) --\(option.name) VALUE", words: [command.name, "--" + option.name, ""], expected: Set(words)))
                }
            }
            if let first = command.arguments.first, !first.words.isEmpty {
                asks.append(Ask(label: "\(command.name) WORD", words: [command.name, ""], expected: Set(first.words)))
            }
        }
        return asks
    }

    static func check(_ output: String, shell: String) {
        let answers = CompletionTests.sections(output)
        var checked = 0
        for ask in asks {
            let offered = Set((answers[ask.label] ?? []).map { String($0.split(separator: "\t").first ?? "") })
            #expect(
                ask.expected.isSubset(of: offered),
                "\(shell): `timetrack-admin \(ask.words.joined(separator: " "))` offered \(offered.sorted()), not \(ask.expected.subtracting(offered).sorted())"
            )
            checked += 1
        }
        #expect(checked > 100, "\(shell): \(checked) questions")
    }

    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test func bashOffersEveryOptionAndValue() throws {
        guard let bash = CompletionTests.shell("bash") else { Issue.record("bash is missing"); return }
        let dir = try TemporaryDirectory("complete-walk")
        defer { dir.remove() }
        try dir.write("c.bash", try Binaries.run("timetrack-admin", ["completions", "bash"]).stdout)
        var script = """
            source \(dir.path("c.bash"))
            ask() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _timetrack_admin; printf '%s\\n' "${COMPREPLY[@]}"; }

            """
        for ask in Self.asks { script += "echo \(Self.quoted("== " + ask.label)); ask timetrack-admin \(ask.words.map(Self.quoted).joined(separator: " "))\n" }
        let result = try Binaries.runPath(bash, ["-c", script], environment: CompletionTests.environment, currentDirectory: dir.url.path)
        #expect(result.status == 0, "\(result.stderr)")
        Self.check(result.stdout, shell: "bash")
    }

    @Test func zshOffersEveryOptionAndValue() throws {
        guard let zsh = CompletionTests.shell("zsh") else {
            Issue.record("zsh is missing: .ci/run installs it (apt-get install zsh)")
            return
        }
        let dir = try TemporaryDirectory("complete-walk")
        defer { dir.remove() }
        try dir.write("c.zsh", try Binaries.run("timetrack-admin", ["completions", "zsh"]).stdout)
        var script = """
            compdef() { : }
            compadd() { while [[ $1 == -* ]]; do if [[ $1 == -- ]]; then shift; break; fi; shift; done; print -l -- "$@" | grep -F -- "${words[CURRENT]}" }
            _files() { print -l -- ${words[CURRENT]}*(N) }
            _groups() { print -l -- root }
            source \(dir.path("c.zsh"))
            ask() { words=("$@"); CURRENT=$#words; _timetrack_admin }

            """
        for ask in Self.asks { script += "echo \(Self.quoted("== " + ask.label)); ask timetrack-admin \(ask.words.map(Self.quoted).joined(separator: " "))\n" }
        let result = try Binaries.runPath(zsh, ["-f", "-c", script], environment: CompletionTests.environment, currentDirectory: dir.url.path)
        #expect(result.status == 0, "\(result.stderr)")
        Self.check(result.stdout, shell: "zsh")
    }

    @Test func fishOffersEveryOptionAndValue() throws {
        guard let fish = CompletionTests.shell("fish") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("fish is missing: .ci/run installs it (apt-get install fish)") }
            return
        }
        let dir = try TemporaryDirectory("complete-walk")
        defer { dir.remove() }
        try dir.write("c.fish", try Binaries.run("timetrack-admin", ["completions", "fish"]).stdout)
        var script = "source \(dir.path("c.fish"))\n"
        for ask in Self.asks {
            script += "echo \(Self.quoted("== " + ask.label)); complete -C \(Self.quoted("timetrack-admin " + ask.words.joined(separator: " ")))\n"
        }
        var environment = CompletionTests.environment
        environment["HOME"] = dir.url.path
        let result = try Binaries.runPath(fish, ["-c", script], environment: environment, currentDirectory: dir.url.path)
        #expect(result.status == 0, "\(result.stderr)")
        Self.check(result.stdout, shell: "fish")
    }
}
