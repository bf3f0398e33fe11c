import Foundation
import TimeTrackCore
import TimeTrackExport

extension Console {
    static var exportCommand: CommandSpec {
        CommandSpec(
            "export", usage: "--format json|ics|rss --out PATH [--kind K] [--school S] [--course C]",
            summary: "write published items for the app: JSON (a folder, one file per kind, and a calendar per course), iCalendar (events; deadlines: one file per course), RSS (announcements)",
            options: [
                OptionSpec("format", value: "F", help: "json, ics or rss"),
                OptionSpec("out", value: "PATH", help: "the file (ics, rss, json with --kind) or folder (json) to write"),
                OptionSpec("kind", value: "K", help: "json: only this kind, into the file PATH"),
                OptionSpec("school", value: "S", help: "only this school's items"),
                OptionSpec("course", value: "CODE", help: "ics with --kind deadlines: only this course's calendar, into the file PATH"),
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
            exporter.courses = try store.courses()
            exporter.localRoot = session.importsPath
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
            func write(_ data: Data, to path: String, count: Int? = nil) throws {
                let count = count ?? exporter.notes.lastCount
                if toStdout {
                    session.output.flush()
                    FileHandle.standardOutput.write(data)
                } else {
                    try AtomicFile.write(data, to: path)
                }
                written.append((toStdout ? "-" : path, count))
            }
            switch format {
            case "ics" where kind == .deadline:
                // One calendar per course: a folder of CODE.ics, or with --course one file.
                let calendars = try exporter.courseCalendars(school: school, course: args.option("course"))
                if let course = args.option("course") {
                    guard let calendar = calendars.first else {
                        throw TimeTrackError(.notFound, "no published deadlines for course '\(course)'", fix: "`courses` lists the codes; `list deadlines --status pending` shows what waits")
                    }
                    try write(calendar.data, to: out, count: calendar.data.count(of: "BEGIN:VEVENT"))
                } else {
                    if !toStdout { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
                    guard !toStdout || calendars.count <= 1 else {
                        throw TimeTrackError(.usage, "export: --out - writes one calendar; there are \(calendars.count) courses", fix: "add --course CODE")
                    }
                    for calendar in calendars {
                        try write(calendar.data, to: (out as NSString).appendingPathComponent("\(Exporter.fileName(calendar.code)).ics"), count: calendar.data.count(of: "BEGIN:VEVENT"))
                    }
                }
            case "ics":
                if let kind, kind != .event {
                    throw TimeTrackError(.usage, "export: ics carries events, or deadlines (one calendar per course); not \(kind.plural)", fix: "export --format ics --kind deadlines --out FOLDER")
                }
                try write(try exporter.ics(school: school), to: out)
            case "rss":
                try write(try exporter.rss(school: school), to: out)
            default:
                // Posts' local photos are copied beside the JSON, without their location.
                let folder = kind == nil || toStdout ? (toStdout ? "." : out) : (out as NSString).deletingLastPathComponent
                exporter.images = ((folder.isEmpty ? "." : folder as NSString).appendingPathComponent("images"), "images/")
                // Accessible copies of documents (`ocr`), beside the JSON.
                exporter.documents = (
                    ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent("documents"), "documents/", AccessibleCopies(importsFolder: session.importsPath)
                )
                if let kind {
                    try write(try exporter.json(kind, school: school), to: out)
                } else {
                    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    for kind in Exporter.jsonKinds {
                        try write(try exporter.json(kind, school: school), to: (out as NSString).appendingPathComponent("\(kind.plural).json"))
                    }
                    // Each course's deadlines as a calendar with reminders, beside the JSON.
                    let calendars = try exporter.courseCalendars(school: school)
                    if !calendars.isEmpty {
                        let folder = (out as NSString).appendingPathComponent("courses")
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                        for calendar in calendars {
                            try write(calendar.data, to: (folder as NSString).appendingPathComponent("\(Exporter.fileName(calendar.code)).ics"), count: calendar.data.count(of: "BEGIN:VEVENT"))
                        }
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
