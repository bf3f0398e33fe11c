import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

extension Console {
    static var ocrCommand: CommandSpec { OcrCommand.spec }

    struct OcrCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "ocr", summary: "make a searchable copy of a scanned School Info PDF (ocrmypdf); the original is kept, the export serves the copy")
        @Positional("ID", count: 1...1, completes: [.ids]) var words: [String]
        @Option(
            "language", value: "L", completes: .words(["eng", "spa", "vie", "fra"]),
            help: "the document's language for Tesseract: eng (default), spa, vie, fra; several: eng+spa") var language: String?

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let item = try store.item(words[0])
            try session.requireDecision(on: item.kind, school: item.school, action: "edit", in: store)
            let (edited, made) = try ocr(item, language: language ?? "eng", store: store, session: session)
            if session.output.json {
                session.output.printJSON(ItemRendering.itemJSON(edited))
                return 0
            }
            let out = session.output
            out.line(
                "\(edited.id): made a searchable copy (\(made.bytes / 1024) KB, \(made.textLength) characters of text); the original is kept and the"
                    + " export serves the copy"
            )
            out.line("  kept as \(AccessibleCopies(importsFolder: session.importsPath).path(of: made.hash) ?? made.hash)")
            if made.problems.isEmpty {
                out.line("  the copy has no findings")
            } else {
                for finding in AccessibilityCheck.findings(edited.pendingContent ?? edited.content) where finding.field == "url" {
                    out.line("  still: \(finding.description)")
                }
            }
            out.line("  locked against re-imports: accessibleCopy, documentProblems (`undo` or `unlock \(edited.id) accessibleCopy` takes it back)")
            return 0
        }
    }

    /// What `ocr` made.
    struct MadeCopy {
        var hash: String
        var originalHash: String
        var bytes: Int
        var textLength: Int
        var problems: [SchoolInfoItem.DocumentProblem]
    }

    /// Makes the item's searchable copy and records it as an edit (`accessibleCopy` and the
    /// copy's `documentProblems`, locked like any edit); returns the item as edited.
    static func ocr(_ item: Item, language: String, store: any ItemStore, session: Session) throws -> (Item, MadeCopy) {
        let made = try makeSearchableCopy(of: item, language: language, session: session)
        let edited = try Lifecycle(store).edit(
            item.id, changes: ["accessibleCopy": .string(made.hash), "documentProblems": .array(made.problems.map { .string($0.rawValue) })],
            by: session.operatorName,
            reason: "ocr: searchable copy of \(made.originalHash.prefix(12))")
        return (edited, made)
    }

    /// Fetches the item's PDF through its source's client (its private-network rule and caps),
    /// runs ocrmypdf, keeps the copy in the imports folder's `_accessible/`, and checks it.
    static func makeSearchableCopy(of item: Item, language: String, session: Session) throws -> MadeCopy {
        guard case .schoolInfo(let info) = item.pendingContent ?? item.content else {
            throw TimeTrackError(
                .usage, "\(item.id) is not a School Info document (it is \(item.kind.plural)); ocr reads School Info PDFs",
                fix: "`list school-info --flag a11y` shows the scanned ones")
        }
        guard SearchableCopy.available else { throw TimeTrackError(.configuration, "ocrmypdf is not installed", fix: "apt-get install ocrmypdf") }
        guard PDFCheck.available else {
            throw TimeTrackError(.configuration, "poppler-utils is not installed (the copy is checked with it)", fix: "apt-get install poppler-utils")
        }
        guard let url = URL(string: info.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw TimeTrackError(.usage, "\(item.id)'s url is not a web address; ocr fetches the document from the web", context: ["item": item.id])
        }
        guard let sourceID = item.provenance?.sourceID else {
            throw TimeTrackError(
                .usage, "\(item.id) has no source; ocr fetches with its source's settings", fix: "import the document through a documents source")
        }
        let source = try session.source(sourceID)
        let original = try session.webClient(for: source, cache: nil).get(url, maxBytes: AccessibleCopies.maxBytes)
        let progress = Progress(label: "ocr", enabled: session.interactive && isatty(2) == 1 && !session.output.json)
        progress.update(pages: 1, items: 0)
        defer { progress.finish() }
        let copy = try SearchableCopy.make(from: original.data, title: info.title, language: language)
        let problems = try PDFCheck.problems(of: copy)
        let hash = try AccessibleCopies(importsFolder: session.importsPath).keep(copy)
        let text = try PDFCheck.text(of: copy)
        return MadeCopy(hash: hash, originalHash: original.hash, bytes: copy.count, textLength: text.count, problems: problems)
    }
}
