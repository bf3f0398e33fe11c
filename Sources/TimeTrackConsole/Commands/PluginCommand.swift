import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackImport

extension Console {
    /// `plugin new NAME --language python|sh`: a working external importer to start from.
    static var pluginCommand: CommandSpec { PluginCommand.spec }

    struct PluginCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "plugin", summary: "write a working external importer skeleton (manifest, program, test page and a definition that reads it)")
        @Positional("new NAME python|sh", count: 2...2, completes: [.words(["new"]), .none]) var words: [String]
        @Option("language", value: "L", completes: .words(["python", "sh"]), help: "python (standard library only) or sh (POSIX sh and awk)") var language:
            String?

        func run(_ session: Session) throws -> Int32 {
            guard words[0] == "new" else {
                throw TimeTrackError(.usage, "plugin: unknown action '\(words[0])'", fix: "usage: plugin new NAME --language python|sh")
            }
            let name = words[1]
            guard name.range(of: #"^[a-z][a-z0-9-]{0,39}$"#, options: .regularExpression) != nil else {
                throw TimeTrackError(
                    .usage, "plugin new: '\(name)' is not a plugin name (lowercase letters, digits and -)", fix: "e.g. plugin new lunch-menu --language python")
            }
            guard let language = language, ["python", "sh"].contains(language) else {
                throw TimeTrackError(.usage, "plugin new: --language python or --language sh", fix: "usage: plugin new NAME --language python|sh")
            }
            if ImporterRegistry.info(named: name) != nil { throw TimeTrackError(.usage, "plugin new: an importer named \(name) exists already") }
            let folder = (session.pluginsPath as NSString).appendingPathComponent(name)
            let definition = (session.importsPath as NSString).appendingPathComponent("\(name)-example.json")
            let page = (session.importsPath as NSString).appendingPathComponent("\(name)-example.html")
            for path in [folder, definition, page] where FileManager.default.fileExists(atPath: path) {
                throw TimeTrackError(.usage, "plugin new: \(path) exists already", fix: "pick another name, or move it away")
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: session.importsPath, withIntermediateDirectories: true)
            let program = language == "python" ? "plugin.py" : "plugin.sh"
            let manifest = """
                {
                  "protocol": 1,
                  "name": "\(name)",
                  "version": "0.1.0",
                  "kinds": ["announcement"],
                  "summary": "what this importer reads (write it here)",
                  "command": \(language == "python" ? "[\"python3\", \"plugin.py\"]" : "[\"./plugin.sh\"]"),
                  "options": [],
                  "environment": [],
                  "timeout": 60,
                  "maxOutputMB": 10
                }

                """
            try AtomicFile.write(Data(manifest.utf8), to: folder + "/plugin.json")
            try AtomicFile.write(Data((language == "python" ? pythonSkeleton : shellSkeleton).utf8), to: folder + "/" + program)
            chmod(folder + "/" + program, 0o755)
            try AtomicFile.write(Data(skeletonPage.utf8), to: page)
            let source = """
                {
                  "id": "\(name)-example", "importer": "\(name)", "kind": "announcement",
                  "url": "\(name)-example.html", "baseURL": "https://www.example.org/news/", "timeZone": "\(TimeZone.current.identifier)",
                  "enabled": false
                }

                """
            try AtomicFile.write(Data(source.utf8), to: definition)
            session.output.line("wrote \(folder)/plugin.json, \(folder)/\(program), \(page) and \(definition)")
            session.output.line("try it: timetrack-admin extract \(name)-example   (the protocol: docs/external-importers.md)")
            session.output.line("the example source is disabled: `sources enable \(name)-example` when cron should import it")
            return 0
        }
    }

    static let skeletonPage = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>News</title></head><body>
        <ul class="news">
        <li><a href="first-story.html">First story</a> <time>2026-11-02</time></li>
        <li><a href="second-story.html">Second story</a> <time>2026-11-09</time></li>
        </ul>
        </body></html>

        """

    static let pythonSkeleton = #"""
        #!/usr/bin/env python3
        """A timetrack-admin external importer (protocol 1: docs/external-importers.md).

        stdin: one JSON line with the source definition and the run; then one answer line per
        page asked for. stdout: JSON lines: {"fetch": URL}, {"item": {...}}, {"problem": {...}}.
        """
        import json
        import re
        import sys


        def send(message):
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()


        def fetch(url):
            send({"fetch": url})
            answer = json.loads(sys.stdin.readline())
            if "error" in answer:
                raise RuntimeError(answer["error"])
            return answer["text"]


        start = json.loads(sys.stdin.readline())
        source = start["source"]
        url = source["url"] if "://" in source["url"] else source.get("baseURL", source["url"])
        page = fetch(url)
        pattern = re.compile(r'<li><a href="([^"]+)">([^<]+)</a> <time>([^<]+)</time></li>')
        for link, title, date in pattern.findall(page):
            send({"item": {"key": link, "title": title, "link": link, "date": date}})

        """#

    static let shellSkeleton = #"""
        #!/bin/sh
        # A timetrack-admin external importer (protocol 1: docs/external-importers.md).
        # stdin: one JSON line with the source definition and the run; then one answer line per
        # page asked for. stdout: JSON lines: {"fetch": URL}, {"item": {...}}, {"problem": {...}}.
        set -eu
        read -r start
        url=$(printf '%s\n' "$start" | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
        base=$(printf '%s\n' "$start" | sed -n 's/.*"baseURL":"\([^"]*\)".*/\1/p')
        case "$url" in *://*) ;; *) url=${base:-$url} ;; esac
        printf '{"fetch":"%s"}\n' "$url"
        read -r answer
        # The page is JSON-escaped in "text"; each <li> is on a line of its own (\n).
        printf '%s\n' "$answer" | sed 's/\\n/\n/g; s/\\"/"/g' |
            sed -n 's/.*<li><a href="\([^"]*\)">\([^<]*\)<\/a> <time>\([^<]*\)<\/time><\/li>.*/{"item":{"key":"\1","title":"\2","link":"\1","date":"\3"}}/p'

        """#
}
