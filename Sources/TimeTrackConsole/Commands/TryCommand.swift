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
        body auto          the article's body as found with no selector (what "body": "auto" takes)
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

    static var tryCommand: CommandSpec { TryCommand.spec }

    struct TryCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "try",
            summary: "a selector shell: load a page once (or a source's, to change its definition), try css, xpath, item and field specs on it, see the"
                + " items, save the definition")
        @Positional("URL|FILE|SOURCE", count: 1...1, completes: [.path]) var words: [String]
        @Option("kind", value: "K", completes: .words(ItemKind.plurals), help: "what the page lists: announcement (default), event or school-info") var kind:
            String?
        @Option("zone", value: "Z", help: "the time zone of its dates (default: this machine's)") var zone: String?
        @Option("base", value: "URL", help: "a saved page's public URL: its relative links resolve against it") var base: String?
        @Flag("suggest", help: "start from what discover infers on the page: the item selector, the fields, the year context") var suggest: Bool
        @Flag("allow-private", help: "the page is on a private or loopback address (an intranet, a test server): read it, and say so in the saved definition")
        var allowPrivate: Bool

        func run(_ session: Session) throws -> Int32 {
            let kindText = kind ?? "announcement"
            guard let kind = ItemKind(word: kindText), MappedFields.kinds.contains(kind) else {
                throw TimeTrackError(.usage, "try: --kind must be \(MappedFields.kindWords)", fix: "usage: try URL|FILE [--kind K]")
            }
            let zoneText = zone ?? TimeZone.current.identifier
            guard let zone = TimeZone(identifier: zoneText) else {
                throw TimeTrackError(.usage, "try: --zone '\(zoneText)' is not a time zone", fix: "e.g. --zone America/Denver")
            }
            if let base = base, URL(string: base)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
                throw TimeTrackError(.usage, "try: --base must be an http(s) URL", fix: "e.g. --base https://lincoln.example.org/news")
            }
            let word = words[0]
            let isPage = word.contains("://") || FileManager.default.fileExists(atPath: word)
            let trial: Trial
            if !isPage, let source = try? session.source(word) {
                trial = try Trial(editing: source, importsPath: session.importsPath)
            } else {
                trial = try Trial(
                    target: word, kind: kind, zone: zone, baseURL: base, allowPrivate: allowPrivate,
                    importsPath: session.importsPath)
            }
            let out = session.output
            out.line(
                "loaded \(trial.target): \(trial.document.root.select(try Selector("*")).count) elements. Commands: css, xpath, item, field, items,"
                    + " save ID, done (help lists them)."
            )
            if suggest { try Console.suggest(trial, kindGiven: self.kind != nil, session: session) }
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
            guard let equals = rest.firstIndex(of: "=") else {
                throw TimeTrackError(.usage, "field: write NAME=SPEC, like field title=h2 a", fix: "help lists the commands")
            }
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
        case "body":
            guard rest == "auto" else {
                throw TimeTrackError(
                    .usage, "body: write body auto to see the body found with no selector", fix: "or choose one yourself: field body=SELECTOR@html")
            }
            showArticle(trial, out)
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
            guard let kind = ItemKind(word: rest), MappedFields.kinds.contains(kind) else {
                throw TimeTrackError(.usage, "kind: \(MappedFields.kindWords)")
            }
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
            throw TimeTrackError(
                .usage, "try: unknown command '\(verb)'",
                fix: "css, xpath, body auto, item, field, unfield, next, detail, kind, items, definition, save ID, done")
        }
        return false
    }

    /// The article body the extractor finds on the page: its first lines, its size, and how
    /// to take it or choose another.
    static func showArticle(_ trial: Trial, _ out: Output) {
        guard let article = ArticleExtractor().extract(trial.document) else {
            out.line("no article body found on this page: choose it yourself, like field body=div.entry-content@html")
            return
        }
        let lines = article.text.split(separator: "\n")
        for (name, value) in [("headline", article.headline), ("date", article.date), ("image", article.image)] {
            out.line("\(name): " + (value.map { SafeText.visible(TextNormalizer.truncate($0, to: 100)) } ?? "(none found)"))
        }
        out.line("body found with no selector: \(lines.count) block\(lines.count == 1 ? "" : "s"), \(article.text.count) characters")
        for line in lines.prefix(12) { out.line("  " + SafeText.visible(TextNormalizer.truncate(String(line), to: 100))) }
        if lines.count > 12 { out.line("  …") }
        out.line("to take it: field body=auto (on detail pages: detail body=auto); to choose another: field body=SELECTOR@html")
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
                if FileManager.default.fileExists(atPath: copy ?? "") {
                    throw TimeTrackError(.usage, "save: \(copy ?? "") exists already", fix: "save under another id")
                }
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
            "saved \(path), disabled: \(result.items.count) items now; try it with `extract \(id)` or `import \(id)`, then `sources enable \(id)`"
                + " lets `import --all` and cron read it"
        )
    }
}
