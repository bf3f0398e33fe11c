import Foundation
import TimeTrackCore
import TimeTrackDiscover
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit

extension Console {
    static let tryHelp = """
        css SEL            elements matching a CSS selector (count, the first ten)
        xpath EXPR         the same with an XPath expression
        item SEL           the item selector (or JSON: {"select": SEL, "split": "lines"})
        field NAME=SPEC    a field: a selector ("h2 a", "a@href") or a JSON spec; shows what it reads
        unfield NAME       forget a field
        next SPEC          the next-page link ("a.next@href"): shows where it points (unnext forgets it)
        detail NAME=SPEC   a field read on each item's own page (its link); shows the first items
        detail-link FIELD  the field whose address is the item's page (default: link)
        undetail NAME      forget a detail field
        kind K             announcement, event or school-info
        items              the items the html importer makes of the page now
        definition         the definition so far, as JSON
        save ID            write it to the imports folder as ID.json (checked first)
        done               leave (Ctrl-D too)
        """

    static var tryCommand: CommandSpec {
        CommandSpec(
            "try", usage: "URL|FILE|SOURCE [--kind K] [--zone Z] [--base URL] [--suggest]",
            summary: "a selector shell: load a page once (or a source's, to change its definition), try css, xpath, item and field specs on it, see the items, save the definition",
            options: [
                OptionSpec("kind", value: "K", help: "what the page lists: announcement (default), event or school-info"),
                OptionSpec("zone", value: "Z", help: "the time zone of its dates (default: this machine's)"),
                OptionSpec("base", value: "URL", help: "a saved page's public URL: its relative links resolve against it"),
                OptionSpec("suggest", help: "start from what discover infers on the page: the item selector, the fields, the year context"),
                OptionSpec("allow-private", help: "the page is on a private or loopback address (an intranet, a test server): read it, and say so in the saved definition"),
            ],
            positional: 1...1
        ) { args, session in
            let kindText = args.option("kind") ?? "announcement"
            guard let kind = ItemKind(word: kindText), [.announcement, .event, .schoolInfo].contains(kind) else {
                throw TimeTrackError(.usage, "try: --kind must be announcement, event or school-info", fix: "usage: try URL|FILE [--kind K]")
            }
            let zoneText = args.option("zone") ?? TimeZone.current.identifier
            guard let zone = TimeZone(identifier: zoneText) else { throw TimeTrackError(.usage, "try: --zone '\(zoneText)' is not a time zone", fix: "e.g. --zone America/Denver") }
            if let base = args.option("base"), URL(string: base)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
                throw TimeTrackError(.usage, "try: --base must be an http(s) URL", fix: "e.g. --base https://lincoln.example.org/news")
            }
            let word = args.positional[0]
            let isPage = word.contains("://") || FileManager.default.fileExists(atPath: word)
            let trial: Trial
            if !isPage, let source = try? session.source(word) {
                trial = try Trial(editing: source, importsPath: session.importsPath)
            } else {
                trial = try Trial(target: word, kind: kind, zone: zone, baseURL: args.option("base"), allowPrivate: args.flag("allow-private"), importsPath: session.importsPath)
            }
            let out = session.output
            out.line("loaded \(trial.target): \(trial.document.root.select(try Selector("*")).count) elements. Commands: css, xpath, item, field, items, save ID, done (help lists them).")
            if args.flag("suggest") { try suggest(trial, kindGiven: args.option("kind") != nil, session: session) }
            while true {
                out.flush()
                let typed: String
                if let reader = session.reader {
                    switch reader.read(prompt: "try> ", remember: true) {
                    case .end: return 0
                    case .interrupted: continue
                    case .line(let line): typed = line
                    }
                } else {
                    guard let line = readLine(strippingNewline: true) else { return 0 }
                    typed = line
                }
                let line = typed.trimmingCharacters(in: .whitespaces)
                guard !line.isEmpty else { continue }
                let verb = String(line.prefix { !$0.isWhitespace })
                let rest = String(line.dropFirst(verb.count)).trimmingCharacters(in: .whitespaces)
                do {
                    if try tryStep(verb, rest, trial, session) { return 0 }
                } catch let error as TimeTrackError {
                    out.error(error)
                }
            }
        }
    }

    /// One line of the selector shell; true when it is the last.
    static func tryStep(_ verb: String, _ rest: String, _ trial: Trial, _ session: Session) throws -> Bool {
        let out = session.output
        func need(_ what: String) throws {
            if rest.isEmpty { throw TimeTrackError(.usage, "\(verb): \(what)", fix: "help lists the commands") }
        }
        switch verb {
        case "done", "quit", "exit", "\\q":
            return true
        case "help", "?":
            out.line(tryHelp)
        case "css", "xpath":
            try need(verb == "css" ? "give a selector, like css article h2" : "give an expression, like xpath //h2")
            let selector = try Selector(verb == "css" ? rest : "xpath:" + rest)
            let matches = trial.document.root.select(selector)
            out.line("\(matches.count) match\(matches.count == 1 ? "" : "es")")
            for (index, node) in matches.prefix(10).enumerated() {
                let classes = node.attribute("class").map { ".\($0.split(separator: " ").joined(separator: "."))" } ?? ""
                out.line("  \(index + 1). <\(node.name)\(classes)> " + SafeText.visible(TextNormalizer.truncate(node.text, to: 90)))
            }
        case "item":
            try need("give the item selector, like item article.post")
            let spec = Trial.spec(rest)
            if case .string(let text) = spec { _ = try Selector(text) }
            trial.item = spec
            try report(trial, session, field: nil)
        case "field":
            guard let equals = rest.firstIndex(of: "=") else { throw TimeTrackError(.usage, "field: write NAME=SPEC, like field title=h2 a", fix: "help lists the commands") }
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            try trial.checkField(name)
            let before = trial.fields[name]
            trial.fields[name] = Trial.spec(String(rest[rest.index(after: equals)...]))
            do {
                try report(trial, session, field: name)
            } catch {
                trial.fields[name] = before
                throw error
            }
        case "next", "unnext":
            if verb == "next" { try need("give the next-page link, like next a.next@href") }
            trial.next = verb == "next" ? Trial.spec(rest) : nil
            try reportNext(trial, session)
        case "detail", "undetail", "detail-link":
            try detailStep(verb, rest, trial, session)
        case "unfield":
            try need("name the field")
            trial.fields[rest] = nil
            out.line("fields: " + trial.fields.keys.sorted().joined(separator: ", "))
        case "kind":
            guard let kind = ItemKind(word: rest), [.announcement, .event, .schoolInfo].contains(kind) else { throw TimeTrackError(.usage, "kind: announcement, event or school-info") }
            trial.kind = kind
            out.line("kind: \(kind.rawValue)")
        case "items":
            try report(trial, session, field: nil, all: true)
        case "definition":
            out.line((try? JSONCoding.prettyString(JSONValue.object(trial.definitionObject(id: "ID")))) ?? "{}")
        case "save":
            try need("give the source's id, like save lincoln-news")
            try save(rest, trial, session)
        default:
            throw TimeTrackError(.usage, "try: unknown command '\(verb)'", fix: "css, xpath, item, field, unfield, next, detail, kind, items, definition, save ID, done")
        }
        return false
    }

    /// `--suggest`: the listing discover infers on the page, loaded as the definition so far.
    static func suggest(_ trial: Trial, kindGiven: Bool, session: Session) throws {
        let url = trial.baseURL.flatMap(URL.init(string:)) ?? URL(string: trial.target).flatMap { $0.scheme == nil ? nil : $0 } ?? URL(fileURLWithPath: trial.target)
        guard let listing = ListingInference.infer(trial.document, pageURL: url, zone: trial.zone, now: Date()) else {
            session.output.line("suggest: no listing found (no repeated blocks with a date in most of them); set item and fields by hand")
            return
        }
        if !kindGiven { trial.kind = listing.kind }
        trial.item = listing.options["item"]
        trial.fields = listing.options["fields"]?.objectValue ?? [:]
        trial.extraOptions = listing.options.filter { !["item", "fields"].contains($0.key) }
        session.output.line("suggest: \(listing.why); kind \(trial.kind.rawValue). `definition` shows it, `field` changes a field, `save ID` writes it.")
        try report(trial, session, field: nil, all: true)
    }

    /// `detail NAME=SPEC`, `undetail NAME`, `detail-link FIELD`.
    static func detailStep(_ verb: String, _ rest: String, _ trial: Trial, _ session: Session) throws {
        switch verb {
        case "detail-link":
            guard !rest.isEmpty else { throw TimeTrackError(.usage, "detail-link: name the field whose address is each item's page, like detail-link link") }
            try trial.checkField(rest)
            trial.detailLink = rest
            session.output.line("detail pages: each item's \(rest)")
        case "undetail":
            guard !rest.isEmpty else { throw TimeTrackError(.usage, "undetail: name the detail field") }
            trial.detailFields[rest] = nil
            session.output.line("detail fields: " + (trial.detailFields.isEmpty ? "none" : trial.detailFields.keys.sorted().joined(separator: ", ")))
        default:
            guard let equals = rest.firstIndex(of: "=") else {
                throw TimeTrackError(.usage, "detail: write NAME=SPEC, like detail body=article .content@html", fix: "help lists the commands")
            }
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            try trial.checkField(name)
            let before = trial.detailFields[name]
            trial.detailFields[name] = Trial.spec(String(rest[rest.index(after: equals)...]))
            do {
                session.output.line("reading the pages of the first \(Trial.detailItems) items (each item's \(trial.detailLink))")
                try report(trial, session, field: name)
            } catch {
                trial.detailFields[name] = before
                throw error
            }
        }
    }

    /// Where the next-page link points on this page (it is not followed here).
    static func reportNext(_ trial: Trial, _ session: Session) throws {
        guard trial.next != nil else {
            session.output.line("no next-page link: one page")
            return
        }
        guard trial.item != nil, trial.fields["title"] != nil else {
            session.output.line("next page: set item and field title first, then next shows where it points")
            return
        }
        let result = try trial.extract()
        if let next = result.nextPageNotRead {
            session.output.line("next page: " + SafeText.visible(next) + " (extract follows it once saved, up to maxPages)")
        } else {
            session.output.line("next page: the spec finds no link on this page")
        }
    }

    /// What the definition so far gives: counts, problems, and a field's values (or all items).
    static func report(_ trial: Trial, _ session: Session, field: String?, all: Bool = false) throws {
        let out = session.output
        guard trial.item != nil else {
            out.line("set the item selector next: item SEL")
            return
        }
        guard trial.fields["title"] != nil else {
            let matched = (trial.item?.stringValue ?? trial.item?.objectValue?["select"]?.stringValue).flatMap { try? Selector($0) }.map { trial.document.root.select($0).count } ?? 0
            out.line("the item selector matches \(matched) element\(matched == 1 ? "" : "s"); now give the fields, starting with title: field title=SEL")
            return
        }
        let result: ImportResult
        do {
            result = try trial.extract()
        } catch let error as TimeTrackError where error.code == .configuration {
            // A definition not complete yet (events need start...): say what, keep going.
            out.line("not yet: \(error.context["field"].map { "\($0) " } ?? "")\(error.message)")
            return
        }
        out.line("\(result.items.count) items, \(result.problems.count) problems")
        let shown = all ? result.items : Array(result.items.prefix(5))
        for item in shown {
            let fields = item.content.fields()
            var line = "  " + SafeText.visible(TextNormalizer.truncate(item.content.title, to: 60))
            if let field {
                let stored = Console.storedName(field, kind: trial.kind)
                let shownValue = ["start", "publishedAt", "due"].contains(stored) ? when(item.content, zone: trial.zone) : ItemRendering.value(fields[stored] ?? .null, zone: trial.zone, limit: 70)
                line += "  │ \(field): " + shownValue
            } else if all {
                line += "  │ " + when(item.content, zone: trial.zone) + "  │ " + ItemRendering.value(fields["link"] ?? fields["url"] ?? .null, zone: trial.zone, limit: 70)
            }
            // What the importer guessed, as review will show it.
            if let guess = item.guesses.first { line += "  ⚠ " + SafeText.visible(guess) + (item.guesses.count > 1 ? " (+\(item.guesses.count - 1))" : "") }
            out.line(line)
        }
        if !all && result.items.count > shown.count { out.line("  … (items shows them all)") }
        for problem in result.problems.prefix(all ? 50 : 3) { out.note("  " + problem.description) }
        for never in result.fieldsNeverRead { out.note("  note: \(never) gave no value for any item: check its selector") }
    }

    /// An item's date as the shell shows it: an all-day event as its day ("(all day)"), not at
    /// 00:00; a timed one with its time, in the source's zone.
    static func when(_ content: ItemContent, zone: TimeZone) -> String {
        switch content {
        case .event(let event): return Display.date(event.start, zone: zone, allDay: event.allDay) + (event.allDay ? " (all day)" : "")
        case .announcement(let announcement): return announcement.publishedAt.map { Display.date($0, zone: zone) } ?? "-"
        case .deadline(let deadline): return Display.date(deadline.due, zone: zone)
        case .schoolInfo, .post, .absence, .ticket: return content.sortDate.map { Display.date($0, zone: zone) } ?? "-"
        }
    }

    /// The field of the stored model a definition's field name fills.
    static func storedName(_ field: String, kind: ItemKind) -> String {
        switch field {
        case "date": return kind == .event ? "start" : "publishedAt"
        case "time": return "start"
        case "location": return "locationName"
        case "image": return "imageURL"
        default: return field
        }
    }

    /// Writes the definition, checked by the registry and by one extraction.
    static func save(_ id: String, _ trial: Trial, _ session: Session) throws {
        guard id.range(of: #"^[a-z0-9][a-z0-9-]{0,63}$"#, options: .regularExpression) != nil else {
            throw TimeTrackError(.usage, "save: '\(id)' is not a source id (lowercase letters, digits and -)", fix: "e.g. save lincoln-news")
        }
        let path = (session.importsPath as NSString).appendingPathComponent("\(id).json")
        if FileManager.default.fileExists(atPath: path) {
            throw TimeTrackError(.usage, "save: \(path) exists already", fix: "save under another id, or remove the file first")
        }
        var target = trial.target
        var copy: String?
        if URL(string: target)?.scheme == nil {
            // A page inside the imports folder is named relative to it, as the sample sources
            // are; one outside it (where imports may not read) is copied in beside the definition.
            let folder = URL(fileURLWithPath: session.importsPath).standardizedFileURL.resolvingSymlinksInPath().path + "/"
            let absolute = URL(fileURLWithPath: target).standardizedFileURL.resolvingSymlinksInPath().path
            if absolute.hasPrefix(folder) {
                target = String(absolute.dropFirst(folder.count))
            } else {
                target = "\(id).html"
                copy = (session.importsPath as NSString).appendingPathComponent(target)
                if FileManager.default.fileExists(atPath: copy ?? "") { throw TimeTrackError(.usage, "save: \(copy ?? "") exists already", fix: "save under another id") }
            }
        }
        var object = trial.definitionObject(id: id, target: target)
        // Saved disabled: the next cron run must not import a definition still being written.
        object["enabled"] = .bool(false)
        let source = try SourceDefinition.parse(object, file: path)
        _ = try ImporterRegistry.make(for: source)
        let result = try trial.extract()
        guard !result.items.isEmpty else { throw TimeTrackError(.usage, "save: the definition gives no items yet", fix: "check item and title with `items`") }
        try FileManager.default.createDirectory(atPath: session.importsPath, withIntermediateDirectories: true)
        if let copy {
            try AtomicFile.write(try Data(contentsOf: URL(fileURLWithPath: trial.saved)), to: copy)
            session.output.line("copied the page into the imports folder as \(copy) (imports read local pages only there)")
        }
        try AtomicFile.write(Data(((try? JSONCoding.prettyString(JSONValue.object(object))) ?? "{}").utf8), to: path)
        session.output.line(
            "saved \(path), disabled: \(result.items.count) items now; try it with `extract \(id)` or `import \(id)`, then `sources enable \(id)` lets `import --all` and cron read it")
    }
}
