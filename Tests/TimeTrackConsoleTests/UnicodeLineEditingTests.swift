import Foundation
import TestSupport
import Testing

/// Issue 48: line editing with any Unicode.
///
/// libedit decodes the prompt and the line with the
/// locale's character set; in the "C" locale (no LANG, as under cron or a bare shell) a prompt
/// holding an emoji crashed it (a segmentation fault). The real binary, at 80x24, under
/// `bash -i` and `zsh -i`, with emoji, combining marks and wide characters in the prompt, the
/// line and the history.
@Suite(.serialized) struct UnicodeLineEditingTests {
    @Test func promptsLinesAndHistoryTakeAnyUnicode() throws {
        guard !RealPagerTests.available.isEmpty else {
            try Skip.because("bash or zsh, and less, are needed for the terminal tests")
            return
        }
        let dir = try TemporaryDirectory("unicode-prompt")
        defer { dir.remove() }
        // The store's name is the prompt: an emoji, a combining accent, wide Korean characters.
        let store = dir.path("학교-e\u{301}cole-😀.sqlite")
        for (path, arguments) in RealPagerTests.available {
            let pty = try RealPagerTests.shell(path, arguments)
            pty.send("unset LANG LC_ALL LC_CTYPE; \(Binaries.path("timetrack-admin")) --store '\(store)' --imports '\(ConsoleFixture.root.path)/Imports'\r")
            #expect(pty.expect("😀.sqlite", timeout: 15) != nil, "\(path): no prompt: \(pty.transcript.suffix(600))")
            pty.send("help 😀 e\u{301} 학교\r")
            #expect(pty.expect("😀", timeout: 10) != nil, "\(path): \(pty.transcript.suffix(600))")
            // The line again from history (up arrow), edited, and run.
            pty.send("\u{1B}[A\u{1B}[D\u{1B}[Dx\r")
            usleep(300_000)
            pty.send("quit\r")
            pty.send("echo \"back-$((40+2))\"\r")
            #expect(pty.expect("back-42", timeout: 10) != nil, "\(path): \(pty.transcript.suffix(600))")
            for word in ["Segmentation", "crashed", "Bad pointer"] {
                #expect(!pty.transcript.contains(word), "\(path): \(word): \(pty.transcript.suffix(800))")
            }
            pty.send("exit\r")
            _ = pty.waitForExit(timeout: 5)
        }
    }
}
