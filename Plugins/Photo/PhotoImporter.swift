import Foundation
import TimeTrackCore
import TimeTrackKit

/// The `photo` importer: photos of assignment sheets (JPEG or PNG; a file, or a folder such as
/// an inbox of submitted photos) read with Tesseract OCR, then each line that gives a due date
/// made a deadline pending review, with the photo's text and the line shown.
///
/// Yearless dates ("Oct. 12th", "Fri 10/9") and days ("next Monday", "Friday") are read against
/// the photo's date: EXIF DateTimeOriginal, else the file's modification time (noted as a
/// guess). Only the text is kept: never the photo, nor where it was taken.
public struct PhotoImporter: Importer {
    public static let info = ImporterInfo(
        name: "photo", version: "1.0.0", kinds: [.deadline],
        summary:
            "photos of assignment sheets (JPEG/PNG) read with Tesseract OCR: each line with a due date becomes a deadline; dates read against the photo's date",
        options: [
            ImporterOption("courses", type: "array", help: "course rules: [{code, name, teacher, match: [words]…}]; the sheet's text picks the course"),
            ImporterOption("course", type: "string", help: "the course code of sheets whose text names none"),
            ImporterOption("category", type: "string", help: "category of lines nothing else classifies (default homework)"),
            ImporterOption("schoolDayEnds", type: "string", help: "the due time of lines that give none (default 15:30), marked guessed"),
            ImporterOption("tesseract", type: "string", help: "the tesseract program (default: tesseract on PATH; Debian: apt-get install tesseract-ocr)"),
            ImporterOption("language", type: "string", help: "Tesseract's language (default eng)"),
            ImporterOption("timeoutSeconds", type: "number", help: "the longest one photo may take to read (default 120)"),
            ImporterOption("maxPhotos", type: "number", help: "read at most this many photos per run (default 200)"),
        ])

    let source: SourceDefinition
    let program: String
    let language: String
    let timeout: Int
    let maxPhotos: Int

    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    public init(source: SourceDefinition) throws {
        self.source = source
        try source.checkOptions(PhotoImporter.info)
        guard source.url.isFileURL else {
            throw source.error("url", "must be a photo or a folder of photos on this machine", fix: "e.g. \"url\": \"photos/chemistry\" beside the definition")
        }
        program = source.options["tesseract"]?.stringValue ?? "tesseract"
        language = source.options["language"]?.stringValue ?? "eng"
        guard language.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "+" }), !language.isEmpty else {
            throw source.error("options.language", "must be a Tesseract language code like eng or eng+spa")
        }
        try CourseRules.checkDeadlineOptions(source)
        timeout = try source.intOption("timeoutSeconds", default: 120, range: 1...3600)
        maxPhotos = try source.intOption("maxPhotos", default: 200, range: 1...10_000)
    }

    public func run(_ context: ImportContext) throws -> ImportResult {
        var result = ImportResult()
        let photos = try PhotoImporter.photos(at: source.url, source: source)
        if photos.count > maxPhotos {
            result.note(
                ImportProblem(.warning, "\(photos.count) photos: only the first \(maxPhotos) by name were read (options.maxPhotos)", location: source.urlText))
        }
        guard let tesseract = PhotoImporter.locate(program) else {
            throw TimeTrackError(
                .configuration, "the photo importer needs Tesseract OCR, and '\(program)' is not installed",
                fix: "apt-get install tesseract-ocr (or set options.tesseract to the program's path)",
                context: ["file": source.file, "field": "options.tesseract"])
        }
        let rules = try CourseRules(source: source)
        var sheets = PhotoSheets()
        // 2: the best of several page-segmentation modes (`OCR.sheetModes`).
        let signature = "photo-ocr-2|\(language)"
        for photo in photos.prefix(maxPhotos) {
            if context.shouldStop?() == true { break }
            let name = photo.lastPathComponent
            let page: FetchedPage
            do {
                page = try context.fetcher.fetch(photo)
            } catch let error as TimeTrackError {
                result.note(ImportProblem(.error, "skipped: \(error.message)", location: name))
                continue
            }
            result.pagesFetched += 1
            guard let text = readText(photo, page: page, tesseract: tesseract, signature: signature, context: context, result: &result) else { continue }
            let (taken, exact) = PhotoDate.taken(page.data, zone: source.timeZone).map { ($0, true) } ?? (PhotoImporter.modified(photo) ?? context.now, false)
            let sheet = SheetReader.read(text)
            if sheet.lines.isEmpty {
                result.note(ImportProblem(.warning, "no line with a due date in the photo's text", location: name))
                continue
            }
            result.duplicatesMerged += sheets.add(
                sheet, text: text, course: rules.course(in: text)?.code, photo: photo, page: page, taken: taken, exact: exact)
            if !exact {
                result.note(ImportProblem(.warning, "the photo has no EXIF date: its dates were read against the file's time", location: name))
            }
        }
        MappedFields.finish(sheets.found, normalizer: Normalizer(source: source, now: context.now), into: &result, context: context)
        sheets.annotate(&result, zone: source.timeZone)
        return result
    }

    /// A photo's text: remembered for an unchanged photo (Tesseract takes seconds a photo),
    /// else read, the page-segmentation mode with the most dated lines winning (the first
    /// mode's on a tie); nil, with the problem noted, when Tesseract fails.
    func readText(_ photo: URL, page: FetchedPage, tesseract: String, signature: String, context: ImportContext, result: inout ImportResult) -> String? {
        if let memo = context.memo?.recall(sourceID: source.id, url: photo.absoluteString, pageHash: page.hash, signature: signature) {
            return String(decoding: memo, as: UTF8.self)
        }
        let text: String
        do {
            text = try OCR.readSheet(page.data, program: tesseract, language: language, timeout: timeout) { readings in
                readings.max { SheetReader.read($0).lines.count < SheetReader.read($1).lines.count } ?? ""
            }
        } catch let error as TimeTrackError {
            result.note(ImportProblem(.error, "not read: \(error.message)" + (error.fix.map { "; \($0)" } ?? ""), location: photo.lastPathComponent))
            return nil
        } catch {
            result.note(ImportProblem(.error, "not read: \(error)", location: photo.lastPathComponent))
            return nil
        }
        context.memoEntries.append(MemoEntry(url: photo.absoluteString, pageHash: page.hash, signature: signature, payload: Data(text.utf8)))
        return text
    }

    /// The photos a definition's url names: itself, or the JPEG and PNG files of its folder by name.
    static func photos(at url: URL, source: SourceDefinition) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw TimeTrackError(
                .configuration, "no photo or folder at \(url.path)", fix: "check the definition's url", context: ["file": source.file, "field": "url"])
        }
        guard isFolder.boolValue else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix(".") }.sorted().map {
            url.appendingPathComponent($0)
        }
    }

    /// The full path of a program on PATH (or the path itself when it has a slash), if executable.
    static func locate(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func modified(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
