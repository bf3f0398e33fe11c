import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var extractCommand: CommandSpec { ExtractCommand.spec }

    struct ExtractCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("extract", summary: "dry run: fetch and parse a source, print its items and problems, write nothing")
        @Positional("SOURCE|URL", count: 1...1, completes: [.sources]) var words: [String]
        @Option("file", value: "PATH", completes: .path, help: "read this local file instead of the source's url") var file: String?
        @Option("item", value: "SEL", help: "try another item selector (html), or give one for a page's URL or file") var item: String?
        @Option("field", value: "NAME=SPEC", repeating: true, help: "try a field spec: a selector or JSON (repeat for more); the definition is not changed")
        var field: [String]
        @Option("kind", value: "K", completes: .words(ItemKind.plurals), help: "with a page's URL or file: what it lists (default announcement)") var kind:
            String?
        @Option("zone", value: "Z", help: "with a page's URL or file: its time zone (default: this machine's)") var zone: String?

        func run(_ session: Session) throws -> Int32 {
            let source = try trySource(self, session)
            var pipeline = session.pipeline(for: source)
            pipeline.http = try session.webClient(for: source, cache: nil)
            let result = try pipeline.extract(source, file: file)
            if session.output.json {
                session.output.printJSON(
                    JSONValue.object([
                        "source": .string(source.id), "kind": .string(source.kind.rawValue), "pages": .number(Double(result.pagesFetched)),
                        "duplicatesMerged": .number(Double(result.duplicatesMerged)),
                        "items": .array(result.items.map { itemJSON($0, zone: source.timeZone) }),
                        "problems": .array(result.problems.map { (try? JSONCoding.value($0)) ?? .null }),
                        "problemsNotRecorded": .number(Double(result.problemsNotRecorded)),
                        "fieldsNeverRead": .array(result.fieldsNeverRead.map(JSONValue.string)),
                    ]))
            } else {
                for (index, item) in result.items.enumerated() {
                    if index > 0 { session.output.line() }
                    printItem(item, zone: source.timeZone, output: session.output)
                }
                if !result.items.isEmpty { session.output.line() }
                for problem in result.problems { session.output.note(problem.description) }
                if let unlisted = result.unlistedProblems { session.output.note(unlisted) }
                for field in result.fieldsNeverRead {
                    session.output.note("note: \(field) gave no value for any of the \(result.items.count) items: check its selector")
                }
                session.output.line(
                    "\(result.items.count) items, \(result.problemCount) problems, \(result.pagesFetched) pages read"
                        + (result.duplicatesMerged > 0 ? ", \(result.duplicatesMerged) duplicates merged" : ""))
            }
            if result.items.isEmpty {
                // Blame the first rule that failed: items found and skipped are not the item
                // selector's fault.
                let skipped = result.problems.first { $0.severity == .error }
                let hint =
                    skipped.map { "every item was skipped; the first: \($0.location): \($0.message)" }
                    ?? source.options["item"]?.stringValue.map { "check options.item (\"\($0)\") against the page" }
                    ?? "check the url and the \(source.importer) importer's options (`plugins` lists them)"
                session.output.note("warning: 0 items from \(source.id): \(hint)")
                return 1
            }
            return result.hasErrors ? 3 : 0
        }
    }

    /// The source to extract: a definition, with `--item`/`--field` tried on top of its
    /// options; or a page's URL or file read with the html importer and those options only.
    static func trySource(_ command: ExtractCommand, _ session: Session) throws -> SourceDefinition {
        let word = command.words[0]
        let overrides = command.item != nil || !command.field.isEmpty
        let isPage =
            word.lowercased().hasPrefix("http://") || word.lowercased().hasPrefix("https://")
            || (!word.hasSuffix(".json") && FileManager.default.fileExists(atPath: word))
        guard overrides || isPage else { return try session.source(word) }
        var object: [String: JSONValue]
        var file: String
        if isPage {
            guard let kind = ItemKind(word: command.kind ?? "announcement") else {
                throw TimeTrackError(.usage, "extract: --kind must be announcement, event or school-info")
            }
            guard let zone = TimeZone(identifier: command.zone ?? TimeZone.current.identifier) else {
                throw TimeTrackError(.usage, "extract: --zone is not a time zone", fix: "e.g. --zone America/Denver")
            }
            guard command.item != nil else {
                throw TimeTrackError(.usage, "extract \(word): a page needs --item SEL and --field title=SEL", fix: "or explore it with `try \(word)`")
            }
            let local = !word.contains("://")
            object = Trial.object(
                id: "extract", target: local ? URL(fileURLWithPath: word).standardizedFileURL.lastPathComponent : word, kind: kind, zone: zone, baseURL: nil,
                allowPrivate: false)
            object["options"] = .object(["fields": .object([:])])
            file =
                local
                ? URL(fileURLWithPath: word).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("extract.json").path
                : (session.importsPath as NSString).appendingPathComponent("extract.json")
        } else {
            let source = try session.source(word)
            file = source.file
            guard let data = FileManager.default.contents(atPath: file), case .object(let read) = try? JSONValue(parsing: data) else {
                throw TimeTrackError(.configuration, "the definition could not be read again", context: ["file": file])
            }
            object = read
        }
        var options = object["options"]?.objectValue ?? [:]
        if let item = command.item { options["item"] = Trial.spec(item) }
        var fields = options["fields"]?.objectValue ?? [:]
        for text in command.field {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw TimeTrackError(.usage, "extract: --field \(text) is not NAME=SPEC", fix: "e.g. --field 'title=h2 a'")
            }
            fields[String(text[..<equals])] = Trial.spec(String(text[text.index(after: equals)...]))
        }
        options["fields"] = .object(fields)
        object["options"] = .object(options)
        return try SourceDefinition.parse(object, file: file)
    }

    static func itemJSON(_ item: ExtractedItem, zone: TimeZone) -> JSONValue {
        var fields = item.content.fields()
        // Dates as people's offsets, in the source's zone.
        for (key, value) in fields {
            if let text = value.stringValue, text.count == 20, text.hasSuffix("Z"), let date = ISO8601DateFormatter().date(from: text) {
                fields[key] = .string(Display.iso(date, zone: zone) ?? text)
            }
        }
        // What the importer had to guess ("year guessed: 2026 (start)") goes with the item, as
        // review shows it.
        return .object([
            "key": .string(item.key), "location": .string(item.location), "page": .string(item.pageURL), "kind": .string(item.content.kind.rawValue),
            "fields": .object(fields), "guesses": .array(item.guesses.map { .string($0.note) }),
        ])
    }

    static func printItem(_ item: ExtractedItem, zone: TimeZone, output: Output) {
        output.line(output.paint(SafeText.visible(item.content.title), .bold) + output.paint("  (\(item.location))", .dim))
        switch item.content {
        case .announcement(let a):
            if let d = a.publishedAt { output.line("  date:    " + Display.date(d, zone: zone)) }
            if let s = a.summary { output.line("  summary: " + TextNormalizer.truncate(s, to: 160)) }
            if let i = a.imageURL { output.line("  image:   " + i) }
            if let l = a.link { output.line("  link:    " + l) }
        case .event(let e):
            output.line(
                "  when:     " + Display.date(e.start, zone: zone, allDay: e.allDay)
                    + (e.end.map { " – " + Display.date(e.allDay ? $0.addingTimeInterval(-1) : $0, zone: zone, allDay: e.allDay) } ?? "")
                    + (e.allDay ? " (all day)" : ""))
            output.line("  category: \(e.category.rawValue)" + (e.state == .scheduled ? "" : "  state: \(e.state.rawValue)"))
            if let l = e.locationName { output.line("  where:    " + l) }
            if let d = e.description { output.line("  about:    " + TextNormalizer.truncate(d.replacingOccurrences(of: "\n", with: " "), to: 160)) }
            if let l = e.link { output.line("  link:     " + l) }
        case .schoolInfo(let i):
            output.line("  section: \(i.section.rawValue)  type: \(i.documentType.rawValue)" + (i.group.map { "  under: \($0)" } ?? ""))
            output.line("  url:     " + i.url)
        case .deadline(let d):
            output.line(
                "  due:      " + Display.date(d.due, zone: TimeZone(identifier: d.timeZone) ?? zone)
                    + (d.dueTimeGuessed ? " (no time given: the end of the school day)" : ""))
            output.line(
                "  course:   \(SafeText.visible(d.course))" + (d.courseName.map { " (\(SafeText.visible($0)))" } ?? "")
                    + (d.teacher.map { ", \(SafeText.visible($0))" } ?? ""))
            output.line(
                "  category: \(d.category.rawValue)" + (d.points.map { "  points: \(NumberText.plain($0))" } ?? "")
                    + (d.weight.map { "  weight: \(NumberText.percent($0))" } ?? ""))
            if let line = d.sourceLine { output.line("  line:     " + SafeText.visible(line)) }
            if let l = d.link { output.line("  link:     " + l) }
        case .alert(let a):
            output.line("  severity: \(a.severity.rawValue)" + (a.publishedAt.map { "  posted: " + Display.date($0, zone: zone) } ?? ""))
            if let m = a.message { output.line("  message:  " + TextNormalizer.truncate(SafeText.visible(m), to: 160)) }
            if let l = a.link { output.line("  link:     " + l) }
        case .post, .absence, .ticket:
            break
        }
        let times = item.content.times
        if let at = times.publishAt { output.line("  live at:  " + Display.date(at, zone: zone)) }
        if let at = times.expiresAt { output.line("  expires:  " + Display.date(at, zone: zone)) }
        if let at = times.reviewBy { output.line("  review by: " + Display.date(at, zone: zone)) }
        for guess in item.guesses { output.line(output.paint("  guessed:  " + SafeText.visible(guess.note), .yellow)) }
    }
}
