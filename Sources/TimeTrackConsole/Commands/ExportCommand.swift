import Foundation
import TimeTrackCore
import TimeTrackExport

extension Console {
    static var exportCommand: CommandSpec {
        CommandSpec(
            "export", usage: "--format json|ics|rss --out PATH [--kind K] [--school S]",
            summary: "write published items for the app: JSON (a folder, one file per kind), iCalendar (events), RSS (announcements)",
            options: [
                OptionSpec("format", value: "F", help: "json, ics or rss"),
                OptionSpec("out", value: "PATH", help: "the file (ics, rss, json with --kind) or folder (json) to write"),
                OptionSpec("kind", value: "K", help: "json: only this kind, into the file PATH"),
                OptionSpec("school", value: "S", help: "only this school's items"),
                OptionSpec("name", value: "NAME", help: "calendar or feed title (default: Time Track)"),
            ]
        ) { args, session in
            guard let format = args.option("format") else { throw TimeTrackError(.usage, "export: --format is required", fix: "usage: export --format json|ics|rss --out PATH") }
            guard ["json", "ics", "rss"].contains(format) else { throw TimeTrackError(.usage, "export: '\(format)' is not a format", fix: "formats: json, ics, rss") }
            guard let out = args.option("out") else { throw TimeTrackError(.usage, "export: --out is required", fix: "usage: export --format \(format) --out PATH") }
            let kind = try kindOption(args)
            let store = try session.store()
            let access = try session.access(in: store)
            guard access.mayExport else {
                throw TimeTrackError(.permission, "\(access.op.name) is \(access.op.role.rawValue) and may not export", fix: "admins, staff and viewers export; an admin can change your role")
            }
            var exporter = Exporter(store: store)
            exporter.gazetteer = Gazetteer(try store.places())
            if let name = args.option("name") { exporter.calendarName = name }
            let progress = Progress(label: "export", enabled: session.interactive && isatty(2) == 1 && !session.output.json)
            exporter.progress = { count in progress.update(pages: 0, items: count) }
            defer { progress.finish() }
            let school = args.option("school")
            // `--out -`: the document on stdout (one document: ics, rss, json with --kind).
            let toStdout = out == "-"
            if toStdout && format == "json" && kind == nil {
                throw TimeTrackError(.usage, "export: --out - writes one document; json needs --kind K with it", fix: "usage: export --format json --kind events --out -")
            }
            var written: [(path: String, count: Int)] = []
            // `data` is made first, so the exporter's count is that document's.
            func write(_ data: Data, to path: String) throws {
                let count = exporter.notes.lastCount
                if toStdout {
                    session.output.flush()
                    FileHandle.standardOutput.write(data)
                } else {
                    try AtomicFile.write(data, to: path)
                }
                written.append((toStdout ? "-" : path, count))
            }
            switch format {
            case "ics":
                try write(try exporter.ics(school: school), to: out)
            case "rss":
                try write(try exporter.rss(school: school), to: out)
            default:
                // Posts' local photos are copied beside the JSON, without their location.
                let folder = kind == nil || toStdout ? (toStdout ? "." : out) : (out as NSString).deletingLastPathComponent
                exporter.images = ((folder.isEmpty ? "." : folder as NSString).appendingPathComponent("images"), "images/")
                if let kind {
                    try write(try exporter.json(kind, school: school), to: out)
                } else {
                    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    for kind in Exporter.jsonKinds {
                        try write(try exporter.json(kind, school: school), to: (out as NSString).appendingPathComponent("\(kind.plural).json"))
                    }
                }
            }
            for note in exporter.notes.lines { session.output.note(SafeText.visible(note)) }
            if toStdout { return 0 }
            if session.output.json {
                session.output.printJSON(JSONValue.array(written.map { .object(["path": .string($0.path), "items": .number(Double($0.count))]) }))
            } else {
                for (path, count) in written { session.output.line("wrote \(path): \(count) published item\(count == 1 ? "" : "s")") }
                if written.allSatisfy({ $0.count == 0 }) {
                    session.output.note("warning: nothing was published\(school.map { " for \($0)" } ?? ""): the export is empty; `review` approves what waits")
                }
            }
            return 0
        }
    }
}
