import Foundation
import TimeTrackCore
import TimeTrackExport

extension Console {
    static var exportCommand: CommandSpec { ExportCommand.spec }

    struct ExportCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "export",
            summary: "write published items for the app: JSON (a folder, one file per kind, and a calendar per course), iCalendar (events; deadlines: one"
                + " file per course), RSS (announcements)")
        @Option("format", value: "F", completes: .words(["json", "ics", "rss"]), help: "json, ics or rss") var format: String?
        @Option("out", value: "PATH", completes: .path, help: "the file (ics, rss, json with --kind) or folder (json) to write") var out: String?
        @Option("kind", value: "K", completes: .words(ItemKind.plurals), help: "json: only this kind, into the file PATH") var kind: String?
        @Option("school", value: "S", help: "only this school's items") var school: String?
        @Option("course", value: "CODE", help: "ics with --kind deadlines: only this course's calendar, into the file PATH") var course: String?
        @Option("name", value: "NAME", help: "calendar or feed title (default: Time Track)") var name: String?

        func run(_ session: Session) throws -> Int32 {
            guard let format = format else {
                throw TimeTrackError(.usage, "export: --format is required", fix: "usage: export --format json|ics|rss --out PATH")
            }
            guard ["json", "ics", "rss"].contains(format) else {
                throw TimeTrackError(.usage, "export: '\(format)' is not a format", fix: "formats: json, ics, rss")
            }
            guard let out = out else {
                throw TimeTrackError(.usage, "export: --out is required", fix: "usage: export --format \(format) --out PATH")
            }
            let kind = try kindOption(self.kind)
            let store = try session.store()
            let access = try session.access(in: store)
            guard access.mayExport else {
                throw TimeTrackError(
                    .permission, "\(access.op.name) is \(access.op.role.rawValue) and may not export",
                    fix: "admins, staff and viewers export; an admin can change your role")
            }
            var exporter = Exporter(store: store)
            exporter.gazetteer = Gazetteer(try store.places())
            exporter.courses = try store.courses()
            exporter.localRoot = session.importsPath
            if let name = name { exporter.calendarName = name }
            let progress = Progress(label: "export", enabled: session.interactive && isatty(2) == 1 && !session.output.json)
            exporter.progress = { count in progress.update(pages: 0, items: count) }
            defer { progress.finish() }
            let school = school
            // `--out -`: the document on stdout (one document: ics, rss, json with --kind).
            let toStdout = out == "-"
            if toStdout && format == "json" && kind == nil {
                throw TimeTrackError(
                    .usage, "export: --out - writes one document; json needs --kind K with it", fix: "usage: export --format json --kind events --out -")
            }
            let writer = ExportWriter(session: session, toStdout: toStdout, exporter: exporter)
            switch format {
            case "ics" where kind == .deadline:
                try writeCourseCalendars(exporter, to: out, school: school, course: course, writer: writer)
            case "ics":
                if let kind, kind != .event {
                    throw TimeTrackError(
                        .usage, "export: ics carries events, or deadlines (one calendar per course); not \(kind.plural)",
                        fix: "export --format ics --kind deadlines --out FOLDER")
                }
                try writer.write(try exporter.ics(school: school), to: out)
            case "rss":
                try writer.write(try exporter.rss(school: school), to: out)
            default:
                try writeJSON(exporter, to: out, kind: kind, school: school, writer: writer)
            }
            let written = writer.written
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

    /// Deadlines as calendars: a folder of `CODE.ics`, or with `course` one file.
    static func writeCourseCalendars(_ exporter: Exporter, to out: String, school: String?, course: String?, writer: ExportWriter) throws {
        let calendars = try exporter.courseCalendars(school: school, course: course)
        if let course {
            guard let calendar = calendars.first else {
                throw TimeTrackError(
                    .notFound, "no published deadlines for course '\(course)'",
                    fix: "`courses` lists the codes; `list deadlines --status pending` shows what waits")
            }
            try writer.write(calendar.data, to: out, count: calendar.data.count(of: "BEGIN:VEVENT"))
            return
        }
        if !writer.toStdout { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
        guard !writer.toStdout || calendars.count <= 1 else {
            throw TimeTrackError(.usage, "export: --out - writes one calendar; there are \(calendars.count) courses", fix: "add --course CODE")
        }
        for calendar in calendars {
            try writer.write(
                calendar.data, to: (out as NSString).appendingPathComponent("\(Exporter.fileName(calendar.code)).ics"),
                count: calendar.data.count(of: "BEGIN:VEVENT"))
        }
    }

    /// JSON: one kind into a file, or a folder with a file a kind, each course's deadlines as a
    /// calendar, posts' local photos (without their location) and documents' accessible copies.
    static func writeJSON(_ exporter: Exporter, to out: String, kind: ItemKind?, school: String?, writer: ExportWriter) throws {
        var exporter = exporter
        let folder = kind == nil || writer.toStdout ? (writer.toStdout ? "." : out) : (out as NSString).deletingLastPathComponent
        let base = (folder.isEmpty ? "." : folder) as NSString
        exporter.images = (base.appendingPathComponent("images"), "images/")
        exporter.documents = (base.appendingPathComponent("documents"), "documents/", AccessibleCopies(importsFolder: writer.session.importsPath))
        writer.exporter = exporter
        if let kind {
            try writer.write(try exporter.json(kind, school: school), to: out)
            return
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for kind in Exporter.jsonKinds {
            try writer.write(try exporter.json(kind, school: school), to: (out as NSString).appendingPathComponent("\(kind.plural).json"))
        }
        let calendars = try exporter.courseCalendars(school: school)
        guard !calendars.isEmpty else { return }
        let courses = (out as NSString).appendingPathComponent("courses")
        try FileManager.default.createDirectory(atPath: courses, withIntermediateDirectories: true)
        for calendar in calendars {
            try writer.write(
                calendar.data, to: (courses as NSString).appendingPathComponent("\(Exporter.fileName(calendar.code)).ics"),
                count: calendar.data.count(of: "BEGIN:VEVENT"))
        }
    }
}

/// Writes an export's documents (atomically, or the one document to stdout with `--out -`) and
/// counts what each held.
final class ExportWriter {
    let session: Session
    let toStdout: Bool
    /// The exporter whose count of items the last document made gives the count written.
    var exporter: Exporter
    private(set) var written: [(path: String, count: Int)] = []

    init(session: Session, toStdout: Bool, exporter: Exporter) {
        self.session = session
        self.toStdout = toStdout
        self.exporter = exporter
    }

    /// `data` is made first, so the exporter's count is that document's.
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
}
