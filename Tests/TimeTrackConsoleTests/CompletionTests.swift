import Foundation
import TestSupport
import Testing

/// The generated completion scripts, run by the real shells: item ids from the store, statuses,
/// kinds, and file names after path options.
@Suite struct CompletionTests {
    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The environment a shell needs to find the binary the scripts call.
    static var environment: [String: String] {
        ["PATH": Binaries.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// Completion answers after each `== label` line of `output`.
    static func sections(_ output: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var label = ""
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("== ") { label = String(line.dropFirst(3)) } else { result[label, default: []].append(line) }
        }
        return result
    }

    func check(_ answers: [String: [String]], store: String, ids: [String], shellName: String) {
        #expect(Set(ids).isSubset(of: Set(answers["ids"] ?? [])), "\(shellName) ids: \(answers["ids"] ?? [])")
        #expect(answers["status"]?.sorted() == ["pending", "published"], "\(shellName): \(answers["status"] ?? [])")
        #expect(answers["kinds"] == ["announcements"], "\(shellName): \(answers["kinds"] ?? [])")
        #expect(answers["files"]?.contains(store) == true, "\(shellName) files: \(answers["files"] ?? [])")
        #expect(
            answers["commands"]?.contains("review") == true && answers["commands"]?.contains("reopen") == true, "\(shellName): \(answers["commands"] ?? [])")
    }

    @Test func bashCompletesIdsStatusesKindsAndFiles() throws {
        guard let bash = Self.shell("bash") else { Issue.record("bash is missing"); return }
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let script = try fixture.run(["completions", "bash"]).stdout
        try fixture.dir.write("c.bash", script)
        let ids = try fixture.ids("announcements")
        let test = """
            source \(fixture.dir.path("c.bash"))
            ask() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _timetrack_admin; printf '%s\\n' "${COMPREPLY[@]}"; }
            echo "== ids"; ask timetrack-admin --store \(fixture.store) show ""
            echo "== status"; ask timetrack-admin list --status p
            echo "== kinds"; ask timetrack-admin list ann
            echo "== files"; ask timetrack-admin --store \(fixture.dir.path("t.sq"))
            echo "== commands"; ask timetrack-admin re
            echo "== after plugins"; ask timetrack-admin --plugins /tmp gra
            echo "== page"; ask timetrack-admin try \(fixture.dir.path("t.sq"))
            echo "== language"; ask timetrack-admin plugin new x --language p
            echo "== place"; ask timetrack-admin place a
            echo "== fields"; ask timetrack-admin --store \(fixture.store) edit \(ids[0]) ti
            echo "== revert ids"; ask timetrack-admin --store \(fixture.store) revert ""
            echo "== roles"; ask timetrack-admin operator add x --role ""
            echo "== privacy"; ask timetrack-admin privacy al
            echo "== flag"; ask timetrack-admin list --flag a
            """
        let result = try Binaries.runPath(bash, ["-c", test], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let answers = Self.sections(result.stdout)
        check(answers, store: fixture.store, ids: ids, shellName: "bash")
        // The commands this change added: a global option with a value, file words, word lists.
        #expect(answers["after plugins"] == ["grades"], "\(answers["after plugins"] ?? [])")
        #expect(answers["page"]?.contains(fixture.store) == true, "\(answers["page"] ?? [])")
        #expect(answers["language"] == ["python"], "\(answers["language"] ?? [])")
        #expect(answers["place"] == ["add"], "\(answers["place"] ?? [])")
        // `edit ID <TAB>` gives the item's fields; ids for revert; every role.
        #expect(answers["fields"] == ["title="], "\(answers["fields"] ?? [])")
        #expect(Set(ids).isSubset(of: Set(answers["revert ids"] ?? [])), "\(answers["revert ids"] ?? [])")
        #expect(answers["roles"]?.sorted() == ["admin", "importer", "staff", "viewer"], "\(answers["roles"] ?? [])")
        #expect(answers["privacy"] == ["allow"] && answers["flag"] == ["a11y"], "\(answers["privacy"] ?? []) \(answers["flag"] ?? [])")
    }

    @Test func zshCompletesNativelyTheSame() throws {
        guard let zsh = Self.shell("zsh") else {
            Issue.record("zsh is missing: .ci/run installs it (apt-get install zsh)")
            return
        }
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        try fixture.dir.write("c.zsh", try fixture.run(["completions", "zsh"]).stdout)
        let ids = try fixture.ids("announcements")
        // compadd and _files stand in for the completion system: they print what would be offered.
        let test = """
            compdef() { : }
            compadd() { while [[ $1 == -* ]]; do if [[ $1 == -- ]]; then shift; break; fi; shift; done; print -l -- "$@" | grep "^${words[CURRENT]}" }
            _files() { print -l -- ${words[CURRENT]}*(N) }
            source \(fixture.dir.path("c.zsh"))
            ask() { words=("$@"); CURRENT=$#words; _timetrack_admin }
            echo "== ids"; ask timetrack-admin --store \(fixture.store) show ""
            echo "== status"; ask timetrack-admin list --status p
            echo "== kinds"; ask timetrack-admin list ann
            echo "== files"; ask timetrack-admin --store \(fixture.dir.path("t.sq"))
            echo "== commands"; ask timetrack-admin re
            echo "== fields"; ask timetrack-admin --store \(fixture.store) edit \(ids[0]) ti
            """
        let result = try Binaries.runPath(zsh, ["-f", "-c", test], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        check(Self.sections(result.stdout), store: fixture.store, ids: ids, shellName: "zsh")
        #expect(Self.sections(result.stdout)["fields"] == ["title="], "\(result.stdout)")
    }

    @Test func fishCompletesIdsWhenFishIsThere() throws {
        guard let fish = Self.shell("fish") else {
            try Skip.because("fish is not installed")
            return
        }
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        try fixture.dir.write("c.fish", try fixture.run(["completions", "fish"]).stdout)
        let ids = try fixture.ids("events")
        var environment = Self.environment
        environment["TIMETRACK_STORE"] = fixture.store
        environment["HOME"] = fixture.dir.url.path
        let result = try Binaries.runPath(
            fish,
            [
                "-c",
                "source \(fixture.dir.path("c.fish")); complete -C 'timetrack-admin show '; echo ==; complete -C 'timetrack-admin edit \(ids[0])"
                    + " star'; echo ==; complete -C 'timetrack-admin list --status pu'",
            ], environment: environment)
        let parts = result.stdout.components(separatedBy: "==\n")
        #expect(parts.count == 3 && parts[1].hasPrefix("start="), "\(result.stdout) \(result.stderr)")
        let offered = Set((parts.first ?? "").split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        #expect(Set(ids).isSubset(of: offered), "\(result.stdout) \(result.stderr)")
        #expect(parts.last?.hasPrefix("published") == true, "\(result.stdout)")
    }
}
