import Testing
import TimeTrackCore

@testable import TimeTrackConsole

/// How the words after a command become its arguments, and how a console line becomes words.
@Suite struct CommandParsingTests {
    let spec = CommandSpec(
        "demo", usage: "ID...", summary: "a command for the tests",
        options: [OptionSpec("status", value: "S", help: "a status"), OptionSpec("all", help: "a flag")],
        positional: 1...2
    ) { _, _ in 0 }

    @Test func optionsFlagsAndPositionalsInAnyOrder() throws {
        let args = try spec.parse(["a1", "--status", "pending", "--all", "a2"])
        #expect(args.positional == ["a1", "a2"])
        #expect(args.option("status") == "pending")
        #expect(args.flag("all"))
        #expect(try spec.parse(["--status=published", "a1"]).option("status") == "published")
    }

    @Test func aDoubleDashEndsOptionsAndADashIsAWord() throws {
        #expect(try spec.parse(["--", "--all"]).positional == ["--all"])
        #expect(try spec.parse(["-"]).positional == ["-"])
    }

    @Test(arguments: [
        (["a1", "--nope"], "unknown option --nope"), (["a1", "--status"], "--status needs a value (S)"),
        (["a1", "--all=yes"], "--all takes no value"), ([], "missing argument"), (["a", "b", "c"], "unexpected argument 'c'"),
    ])
    func usageErrorsNameTheWordAndShowTheUsage(_ words: [String], _ message: String) {
        #expect {
            _ = try spec.parse(words)
        } throws: { error in
            guard let error = error as? TimeTrackError else { return false }
            return error.code == .usage && error.message == "demo: " + message && error.fix == "usage: demo ID..."
        }
    }

    @Test func consoleLinesSplitLikeAShell() throws {
        #expect(
            try Words.split(#"edit a3 title="Board meeting" note="it's moved" where='a\b'"#) == [
                "edit", "a3", "title=Board meeting", "note=it's moved", #"where=a\b"#,
            ])
        #expect(try Words.split("list events # and a comment") == ["list", "events"])
        #expect(try Words.split("  list   events  ") == ["list", "events"])
        #expect(try Words.split(#"reject a1 "a \"quoted\" reason""#) == ["reject", "a1", #"a "quoted" reason"#])
        #expect(try Words.split(#"show """#) == ["show", ""])
        #expect(throws: TimeTrackError.self) { try Words.split(#"reject a1 "unclosed"#) }
    }

    @Test func everyCommandNameIsFoundAndUnique() {
        let names = Console.commands.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names { #expect(Console.command(named: name)?.name == name) }
    }
}
