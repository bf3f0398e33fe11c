import Foundation
import TestSupport
import Testing

/// The pager as people meet it: the real binary typed into an interactive shell with job control
/// (`bash -i`, `zsh -i`) on an 80x24 pseudo-terminal, the real `less`.
///
/// Long output pages; `q` and Ctrl-C return to the shell (or the console's prompt); nothing is ever
/// stopped.
@Suite(.serialized) struct RealPagerTests {
    static let shells: [(path: String, arguments: [String])] = [("/bin/bash", ["--norc", "--noprofile", "-i"]), ("/usr/bin/zsh", ["-f", "-i"])]

    /// A shell on an 80x24 terminal with its prompt set to `READY> `.
    static func shell(_ path: String, _ arguments: [String]) throws -> PseudoTerminal {
        let pty = try PseudoTerminal(
            path, arguments,
            environment: ["PS1": "READY> ", "PROMPT": "READY> ", "PAGER": "less -FRX", "LESS": "", "LINES": "", "COLUMNS": "", "HISTFILE": "/dev/null"],
            rows: 24,
            columns: 80)
        #expect(pty.expect("READY> ") != nil, "\(path) gave no prompt: \(pty.transcript)")
        return pty
    }

    static var available: [(path: String, arguments: [String])] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/less") else { return [] }
        return shells.filter { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func longOutputPagesAndQuitsBackToTheShell() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        #expect(Self.available.count == 2 || ProcessInfo.processInfo.environment["CI"] == nil, "bash, zsh and less are all needed in CI")
        for (path, arguments) in Self.available {
            for (keys, label) in [("q", "q"), ("\u{3}", "Ctrl-C")] {
                // Each prints 38 to 70 lines: more than the screen's 24.
                for (command, firstScreen) in [("list --limit 1000", "source"), ("plugins", "html"), ("help", "import")] {
                    let pty = try Self.shell(path, arguments)
                    pty.send("\(Binaries.path("timetrack-admin")) --store '\(fixture.store)' --imports '\(ConsoleFixture.root.path)/Imports' \(command)\r")
                    // less shows the first screen and waits for a key.
                    #expect(pty.expect(firstScreen, timeout: 10) != nil, "\(path), \(command): nothing shown: \(pty.transcript.suffix(400))")
                    usleep(500_000)
                    pty.send(keys)
                    if label == "Ctrl-C" { usleep(200_000); pty.send("q") }
                    pty.send("echo \"back-$((40+2))\"\r")
                    let back = pty.expect("back-42", timeout: 10)
                    #expect(back != nil, "\(path), \(command), \(label): \(pty.transcript.suffix(600))")
                    #expect(
                        !pty.transcript.contains("Stopped") && !pty.transcript.contains("suspended"),
                        "\(path), \(command): the pager was stopped: \(pty.transcript.suffix(600))")
                    pty.send("exit\r")
                    _ = pty.waitForExit(timeout: 5)
                }
            }
        }
    }

    /// At the console's prompt: `\?` and `list` page, `q` comes back to the prompt.
    @Test func theConsolesPromptPagesToo() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        for (path, arguments) in Self.available {
            let pty = try Self.shell(path, arguments)
            pty.send("\(Binaries.path("timetrack-admin")) --store '\(fixture.store)' --imports '\(ConsoleFixture.root.path)/Imports' --as ana\r")
            #expect(pty.expect("> ", timeout: 10) != nil, "\(pty.transcript)")
            for command in ["\\?", "list --limit 1000"] {
                pty.send(command + "\r")
                usleep(800_000)
                pty.send("q")
                pty.send("status\r")
                #expect(pty.expect("schema version", timeout: 10) != nil, "\(path), \(command): \(pty.transcript.suffix(600))")
            }
            #expect(!pty.transcript.contains("Stopped") && !pty.transcript.contains("suspended"), "\(pty.transcript.suffix(600))")
            pty.send("quit\r")
            pty.send("exit\r")
            _ = pty.waitForExit(timeout: 5)
        }
    }
}
