import Foundation
import TestSupport
import Testing

/// External importers through the real binary: the two example plugins end to end, hostile
/// plugins, the shared per-host schedule, and `plugin new`.
@Suite struct ExternalImporterTests {
    static let plugins = ConsoleFixture.root.appendingPathComponent("Plugins.d").path

    static var hasPython: Bool { (try? Binaries.runPath("/usr/bin/env", ["python3", "--version"]))?.status == 0 }

    /// Runs the binary with the repository's plugins and an imports folder.
    static func run(_ dir: TemporaryDirectory, _ imports: String, _ arguments: [String], plugins: String = plugins) throws -> Binaries.Result {
        try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--plugins", plugins, "--imports", imports] + arguments)
    }

    @Test(arguments: [("js-calendar", "westbrook-calendar", 3), ("csv-info", "westbrook-documents", 4)])
    func theExamplePluginsImportReviewAndReimport(_ plugin: String, _ source: String, _ count: Int) throws {
        if plugin == "js-calendar" && !Self.hasPython {
            try Skip.because("python3 is not installed here (the js-calendar example is Python)")
            return
        }
        let dir = try TemporaryDirectory("plugin-\(plugin)")
        defer { dir.remove() }
        let imports = ConsoleFixture.root.appendingPathComponent("Plugins.d/\(plugin)/example").path
        let listed = try Self.run(dir, imports, ["plugins"])
        #expect(listed.stdout.contains("\(plugin) 1.0.0"), "\(listed.stdout)")
        let extracted = try Self.run(dir, imports, ["extract", source])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(extracted.stdout.contains("\(count) items, 0 problems"), "\(extracted.stdout)")

        let first = try Self.run(dir, imports, ["--as", "ana", "import", source])
        #expect(first.status == 0, "\(first.stderr)")
        #expect((first.stdout + first.stderr).contains("\(count) new"), "\(first.stdout) \(first.stderr)")
        let kind = plugin == "js-calendar" ? "events" : "school-info"
        let pending =
            try JSONSerialization.jsonObject(with: Data(try Self.run(dir, imports, ["--json", "list", kind, "--status", "pending"]).stdout.utf8))
            as? [[String: Any]] ?? []
        #expect(pending.count == count)
        let approved = try Self.run(dir, imports, ["--as", "ana", "approve"] + pending.compactMap { $0["id"] as? String })
        #expect(approved.status == 0, "\(approved.stderr)")
        // Again: every item unchanged (skipped by hash), nothing back in review.
        let second = try Self.run(dir, imports, ["--as", "ana", "import", source])
        #expect((second.stdout + second.stderr).contains("0 new · 0 changed · \(count) unchanged"), "\(second.stdout) \(second.stderr)")
        let published =
            try JSONSerialization.jsonObject(with: Data(try Self.run(dir, imports, ["--json", "list", kind, "--status", "published"]).stdout.utf8))
            as? [[String: Any]] ?? []
        #expect(published.count == count)
    }

    /// A plugins folder with one shell plugin whose program is `script`.
    static func hostile(_ dir: TemporaryDirectory, _ script: String, timeout: Int = 3, maxOutputMB: Double = 1, maxItems: Int = 10_000) throws -> (
        plugins: String, imports: String
    ) {
        try dir.write(
            "plugins/bad/plugin.json",
            #"{ "protocol": 1, "name": "bad", "version": "1", "kinds": ["announcement"], "command": ["./plugin.sh"], "timeout": \#(timeout),"#
                + #" "maxOutputMB": \#(maxOutputMB), "maxItems": \#(maxItems) }"#
        )
        let program = try dir.write("plugins/bad/plugin.sh", "#!/bin/sh\n" + script + "\n")
        chmod(program, 0o755)
        try dir.write("imports/page.html", "<p>hello</p>")
        try dir.write(
            "imports/bad-source.json",
            #"{ "id": "bad-source", "importer": "bad", "kind": "announcement", "url": "page.html", "baseURL": "https://school.example/news","#
                + #" "timeZone": "UTC" }"#
        )
        return (dir.path("plugins"), dir.path("imports"))
    }

    static func items(_ dir: TemporaryDirectory, _ setup: (plugins: String, imports: String)) throws -> Int {
        let listed = try Self.run(dir, setup.imports, ["--json", "list", "announcements", "--status", "pending"], plugins: setup.plugins)
        return (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count ?? 0
    }

    @Test func aPluginThatNeverExitsIsKilledAtItsLimit() throws {
        let dir = try TemporaryDirectory("plugin-forever")
        defer { dir.remove() }
        let setup = try Self.hostile(dir, #"echo '{"item":{"title":"half"}}'; while :; do sleep 1; done"#, timeout: 2)
        let result = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        // The message is the limit's own: the plugin was stopped by it, whatever the clock says.
        #expect(result.status != 0)
        #expect(result.stdout.contains("time limit") || result.stderr.contains("time limit"), "\(result.stdout) \(result.stderr)")
        #expect(try Self.items(dir, setup) == 0, "a failed run applies nothing")
    }

    @Test func aPluginThatPrintsTooMuchIsCutAtTheCap() throws {
        let dir = try TemporaryDirectory("plugin-flood")
        defer { dir.remove() }
        let setup = try Self.hostile(dir, #"yes '{"problem":"flood"}' | head -c 100000000"#, timeout: 30, maxOutputMB: 1)
        let result = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("more than 1 MB"), "\(result.stdout.suffix(300)) \(result.stderr.suffix(300))")
        #expect(try Self.items(dir, setup) == 0)
    }

    /// Past `maxItems` the plugin is stopped; what came before is kept, and nothing counts missing.
    @Test func aPluginPastItsItemCapIsStopped() throws {
        let dir = try TemporaryDirectory("plugin-items")
        defer { dir.remove() }
        let setup = try Self.hostile(
            dir, #"i=0; while :; do i=$((i+1)); printf '{"item":{"title":"Item %d","link":"https://school.example/%d","date":"2026-11-02"}}\n' $i $i; done"#,
            timeout: 30, maxItems: 50)
        let result = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        // Stopped at the cap (a plugin left to its 30 s limit fails with "time limit" instead).
        #expect((result.stdout + result.stderr).contains("50 new"), "\(result.stdout) \(result.stderr)")
        #expect(try Self.items(dir, setup) == 50)
        let extracted = try Self.run(dir, setup.imports, ["extract", "bad-source"], plugins: setup.plugins)
        #expect((extracted.stdout + extracted.stderr).contains("stopped at 50 items"), "\(extracted.stderr)")
    }

    /// A plugin whose child leaves its process group (`setsid`) and would outlive it: the child
    /// is killed when the plugin's run ends, whether the plugin exits or times out; and so is a
    /// daemon started through a shell that forks it (`setsid sh -c "…; …" &`), whose grandchild
    /// is orphaned only when the shell is killed.
    @Test(arguments: [false, true], [false, true])
    func aDaemonLeftByAPluginIsKilled(timesOut: Bool, throughShell: Bool) throws {
        let dir = try TemporaryDirectory("plugin-daemon")
        defer { dir.remove() }
        let marker = "timetrack-daemon-\(UUID().uuidString.prefix(8))"
        // A copy of sleep under a name of our own, so the test finds exactly its process.
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: dir.path(marker))
        let rest = timesOut ? "while :; do sleep 1; done" : "sleep 1"
        let setup = try Self.hostile(
            dir,
            (throughShell ? "setsid sh -c '\(dir.path(marker)) 300; touch \(dir.path("finished"))'" : "setsid \(dir.path(marker)) 300")
                + " </dev/null >/dev/null 2>&1 &\nsleep 0.3\necho '{\"item\":{\"title\":\"t\",\"link\":\"https://school.example/d\"}}'\n\(rest)",
            timeout: 3)
        _ = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        // Killed, not waited for: a daemon that ran its course would have left this file.
        #expect(!FileManager.default.fileExists(atPath: dir.path("finished")), "the import waited for the plugin's daemon")
        let left = try Binaries.runPath("/usr/bin/pgrep", ["-f", marker])
        #expect(left.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "still running: \(left.stdout)")
        _ = try? Binaries.runPath("/usr/bin/pkill", ["-KILL", "-f", marker])
    }

    /// Issue 44: a plugin's items past a batch are normalized and kept in a temporary file, not
    /// in memory, and applied a batch at a time: every item is stored, once; duplicates close
    /// together are merged, later ones counted; a second run finds them unchanged; `extract`
    /// still shows them all.
    @Test func aLongPluginRunIsAppliedInBatches() throws {
        let dir = try TemporaryDirectory("plugin-long")
        defer { dir.remove() }
        let script = #"""
            i=0
            while [ $i -lt 12000 ]; do
              echo "{\"item\":{\"title\":\"Notice $i\",\"link\":\"https://school.example/n/$i\",\"date\":\"2026-10-0$((i % 9 + 1))\"}}"
              i=$((i + 1))
            done
            echo '{"item":{"title":"Notice 11999","link":"https://school.example/n/11999","summary":"merged"}}'
            echo '{"item":{"title":"Notice 3","link":"https://school.example/n/3","summary":"too late"}}'
            """#
        let setup = try Self.hostile(dir, script, timeout: 120, maxOutputMB: 50, maxItems: 20_000)
        let first = try Self.run(dir, setup.imports, ["--as", "ana", "--json", "import", "bad-source"], plugins: setup.plugins)
        #expect(first.status == 0, "\(first.stderr)")
        let store = dir.path("t.sqlite")
        #expect(try Binaries.sql(store, "SELECT count(*) FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "12000")
        #expect(try Binaries.sql(store, "SELECT count(DISTINCT source_key) FROM items").trimmingCharacters(in: .whitespacesAndNewlines) == "12000")
        #expect(try Binaries.sql(store, "SELECT count(*) FROM revisions WHERE content LIKE '%merged%'").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(
            try Binaries.sql(store, "SELECT count(*) FROM revisions WHERE content LIKE '%too late%'").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(first.stdout.contains("more than 5000 items earlier") || first.stderr.contains("more than 5000 items earlier"), "\(first.stderr)")
        // Each item's memo entry was remembered with its batch: the next run settles them unread.
        #expect(try Binaries.sql(store, "SELECT count(*) FROM item_memo").trimmingCharacters(in: .whitespacesAndNewlines) == "12000")
        let second = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        #expect(second.status == 0 && second.stderr.contains("12000 unchanged"), "\(second.stderr)")
        let extracted = try Self.run(dir, setup.imports, ["extract", "bad-source"], plugins: setup.plugins)
        #expect(extracted.stdout.contains("12000 items"), "\(extracted.stdout.suffix(300))")
        // Nothing of the run is left in the temporary folder: every items file there belongs to a
        // process still running (another test's), none to one that ended.
        let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("timetrack-items-") }
        #expect(left.allSatisfy { name in FileManager.default.fileExists(atPath: "/proc/\(name.split(separator: "-")[2])") }, "\(left)")
    }

    /// A plugin gets its three pipes and nothing else of the tool's open files.
    @Test func aPluginInheritsNoOtherDescriptor() throws {
        let dir = try TemporaryDirectory("plugin-fds")
        defer { dir.remove() }
        let setup = try Self.hostile(dir, #"echo "{\"problem\":\"fds $(ls /proc/$$/fd | sort -n | tr '\n' ' ')\"}""#)
        let result = try Self.run(dir, setup.imports, ["--json", "extract", "bad-source"], plugins: setup.plugins)
        #expect(result.stdout.contains("fds 0 1 2 "), "\(result.stdout)")
    }

    @Test func invalidLinesAreProblemsNotCrashes() throws {
        let dir = try TemporaryDirectory("plugin-garbage")
        defer { dir.remove() }
        let setup = try Self.hostile(
            dir,
            #"printf 'not json\n{"item": \n[1,2]\n{"what":1}\n\033[31mred\n'; echo '{"item":{"title":"Still"#
                + #" here","link":"https://school.example/a","date":"2026-11-02"}}'"#
        )
        let result = try Self.run(dir, setup.imports, ["extract", "bad-source"], plugins: setup.plugins)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Still here"))
        #expect(result.stdout.contains("1 items, 0 problems") == false)
        #expect(result.stderr.components(separatedBy: "skipped").count - 1 >= 5, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}[31m"), "a control sequence from a plugin reached the terminal")
    }

    @Test func pageRequestsFollowTheToolsRules() throws {
        let dir = try TemporaryDirectory("plugin-fetch")
        defer { dir.remove() }
        // Asks for the cloud metadata address and a local file; reports what it was answered.
        let setup = try Self.hostile(
            dir,
            #"""
            read -r start
            for url in http://169.254.169.254/latest/meta-data/ file:///etc/passwd; do
              printf '{"fetch":"%s"}\n' "$url"
              read -r answer
              case "$answer" in *'"error"'*) echo '{"problem":"refused as it should be"}' ;; *root:*) echo '{"problem":"LEAKED"}' ;; *) echo\#
             '{"problem":"answered"}' ;; esac
            done
            echo '{"item":{"title":"Done","link":"https://school.example/done"}}'
            echo 'checked two addresses' >&2
            """#)
        let result = try Self.run(dir, setup.imports, ["extract", "bad-source"], plugins: setup.plugins)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "refused as it should be").count - 1 == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("LEAKED") && !result.stdout.contains("root:x:0"))
        // The plugin's stderr is kept in the run's record.
        let imported = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        #expect(imported.status == 0, "\(imported.stderr)")
        let runs = try Self.run(dir, setup.imports, ["--json", "runs"], plugins: setup.plugins)
        #expect(runs.stdout.contains("checked two addresses"), "\(runs.stdout)")
    }

    @Test func aPluginIgnoringTermIsKilledWithItsWholeGroup() throws {
        let dir = try TemporaryDirectory("plugin-term")
        defer { dir.remove() }
        let marker = dir.path("child.pid")
        let setup = try Self.hostile(
            dir,
            """
            trap '' TERM
            (trap '' TERM; exec sleep 300) &
            echo $! > \(marker)
            while :; do sleep 1; done
            """, timeout: 2)
        let result = try Self.run(dir, setup.imports, ["--as", "ana", "import", "bad-source"], plugins: setup.plugins)
        #expect(result.status != 0)
        let pidText = try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try #require(Int32(pidText))
        // The child in the group is gone (killed, and reaped by init): kill(pid, 0) fails.
        var gone = false
        for _ in 0..<50 where !gone {
            gone = kill(child, 0) != 0 || (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the plugin's child \(child) outlived the run")
    }

    @Test func ctrlCStopsThePluginsWholeGroup() throws {
        let dir = try TemporaryDirectory("plugin-ctrl-c")
        defer { dir.remove() }
        let marker = dir.path("child.pid")
        let setup = try Self.hostile(
            dir,
            """
            (trap '' TERM; exec sleep 300) &
            echo $! > \(marker).tmp && mv \(marker).tmp \(marker)
            while :; do sleep 1; done
            """, timeout: 120)
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("t.sqlite"), "--plugins", setup.plugins, "--imports", setup.imports, "--as", "ana", "import", "bad-source"])
        var waited = 0
        while !FileManager.default.fileExists(atPath: marker) && waited < 100 {
            usleep(100_000)
            waited += 1
        }
        let child = try #require(Int32(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        pty.send("\u{3}")
        let status = pty.waitForExit(timeout: 15)
        #expect(status != nil && status != 0, "\(pty.transcript)")
        var gone = false
        for _ in 0..<50 where !gone {
            gone = kill(child, 0) != 0 || (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the plugin's child \(child) outlived Ctrl-C")
    }

    @Test func pluginPagesShareThePerHostScheduleWithBuiltInImporters() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let inFlight = Counter()
        server.handle { request in
            inFlight.enter()
            usleep(150_000)
            inFlight.leave()
            if request.path == "/robots.txt" { return .init(status: 404) }
            let n = request.path.filter(\.isNumber)
            return .html("<html><body><article><h2><a href=\"/news/\(n)\">Story \(n)</a></h2></article></body></html>")
        }
        let dir = try TemporaryDirectory("plugin-schedule")
        defer { dir.remove() }
        try dir.write(
            "plugins/pages/plugin.json",
            #"{ "protocol": 1, "name": "pages", "version": "1", "kinds": ["announcement"], "command": ["./plugin.sh"], "timeout": 60 }"#)
        let program = try dir.write(
            "plugins/pages/plugin.sh",
            """
            #!/bin/sh
            read -r start
            for n in 1 2 3 4; do
              printf '{"fetch":"\(server.base)/plugin/%s"}\\n' "$n"
              read -r answer
              printf '{"item":{"title":"Plugin page %s","link":"\(server.base)/plugin/%s"}}\\n' "$n" "$n"
            done
            """)
        chmod(program, 0o755)
        try dir.write("imports/_settings.json", #"{ "requestDelay": 0 }"#)
        try dir.write(
            "imports/a-plugin.json",
            #"{ "id": "a-plugin", "importer": "pages", "kind": "announcement", "url": "\#(server.base)/plugin/0", "timeZone": "UTC","#
                + #" "allowPrivateNetwork": ["127.0.0.1"] }"#
        )
        for id in ["b-html", "c-html"] {
            try dir.write(
                "imports/\(id).json",
                #"{ "id": "\#(id)", "importer": "html", "kind": "announcement", "url": "\#(server.base)/\#(id)/1", "timeZone": "UTC","#
                    + #" "allowPrivateNetwork": ["127.0.0.1"], "options": { "item": "article", "fields": { "title": "h2 a", "link": "h2 a@href" } } }"#
            )
        }
        let result = try Binaries.run(
            "timetrack-admin",
            ["--store", dir.path("t.sqlite"), "--plugins", dir.path("plugins"), "--imports", dir.path("imports"), "--as", "ana", "import", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.filter { $0.path.hasPrefix("/plugin/") }.count == 4)
        #expect(inFlight.most == 1, "the server saw \(inFlight.most) requests at once")
    }

    @Test(arguments: ["python", "sh"])
    func pluginNewWritesAWorkingSkeleton(_ language: String) throws {
        if language == "python" && !Self.hasPython {
            try Skip.because("python3 is not installed here")
            return
        }
        let dir = try TemporaryDirectory("plugin-new")
        defer { dir.remove() }
        let made = try Self.run(dir, dir.path("imports"), ["plugin", "new", "lunch-menu", "--language", language], plugins: dir.path("plugins"))
        #expect(made.status == 0, "\(made.stderr)")
        let extracted = try Self.run(dir, dir.path("imports"), ["extract", "lunch-menu-example"], plugins: dir.path("plugins"))
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(extracted.stdout.contains("2 items, 0 problems"), "\(extracted.stdout)")
        let again = try Self.run(dir, dir.path("imports"), ["plugin", "new", "lunch-menu", "--language", language], plugins: dir.path("plugins"))
        #expect(again.status == 2 && again.stderr.contains("exists already"))
    }
}

/// How many requests are being served at once, and the most seen.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0
    func enter() { lock.lock(); now += 1; most = max(most, now); lock.unlock() }
    func leave() { lock.lock(); now -= 1; lock.unlock() }
}
