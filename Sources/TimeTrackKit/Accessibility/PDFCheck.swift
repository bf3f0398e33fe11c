import Foundation
import TimeTrackCore

/// What a PDF lacks for a screen reader, read with poppler's tools as processes: `pdffonts` and
/// `pdftotext` for a text layer (a scan has neither fonts nor text), `pdfinfo` for its tags and
/// its title.
///
/// Its language is looked for in the file's bytes (`/Lang`): poppler does not print
/// it, and a catalog kept in a compressed object stream cannot be read that way, so such a file
/// is not flagged for its language (docs/accessibility.md says so).
public enum PDFCheck {
    static let pdfinfo = ExternalTool("pdfinfo", package: "poppler-utils")
    static let pdffonts = ExternalTool("pdffonts", package: "poppler-utils")
    static let pdftotext = ExternalTool("pdftotext", package: "poppler-utils")

    /// Whether poppler's tools are installed.
    public static var available: Bool { pdfinfo.installed && pdffonts.installed && pdftotext.installed }

    /// Text shorter than this per page is no text layer (a scan with a stray OCR'd page number).
    static let textPerPage = 20

    /// The problems of the PDF in `data`; throws when it is not a PDF poppler can open, or when
    /// poppler is missing.
    public static func problems(of data: Data) throws -> [SchoolInfoItem.DocumentProblem] {
        try withFile(data) { try problems(atPath: $0, bytes: data) }
    }

    /// The text of the PDF in `data` (its first 50 pages), as `pdftotext` reads it.
    public static func text(of data: Data) throws -> String {
        try withFile(data) { try pdftotext.run(["-q", "-l", "50", $0, "-"], timeout: 60, outputCap: 1 << 20).output }
    }

    /// The title in the PDF's properties, or nil.
    public static func title(of data: Data) throws -> String? {
        let title = try withFile(data) { fields(try pdfinfo.run([$0], timeout: 30).output)["Title"] }
        return title.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs `body` with the path of a private temporary file holding `data`, a PDF.
    static func withFile<T>(_ data: Data, _ body: (String) throws -> T) throws -> T {
        guard data.starts(with: Array("%PDF-".utf8)) else {
            throw TimeTrackError(.parse, "not a PDF (it does not begin with %PDF-)", fix: "check the link goes to the document, not to a page about it")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("document.pdf")
        try data.write(to: file)
        return try body(file.path)
    }

    /// The problems of the PDF at `path` (`bytes`: its contents, when already read).
    public static func problems(atPath path: String, bytes: Data? = nil) throws -> [SchoolInfoItem.DocumentProblem] {
        let info = try pdfinfo.run([path], timeout: 30)
        guard info.status == 0 else {
            throw TimeTrackError(
                .parse, "poppler cannot read the PDF" + (info.lastError.isEmpty ? "" : ": \(info.lastError)"),
                fix: "open it in a PDF reader; it may be damaged or encrypted")
        }
        let fields = Self.fields(info.output)
        let pages = max(1, fields["Pages"].flatMap { Int($0) } ?? 1)
        var problems: [SchoolInfoItem.DocumentProblem] = []
        let fonts = try pdffonts.run([path], timeout: 30).output.split(whereSeparator: \.isNewline).count - 2
        let text = try pdftotext.run(["-q", "-l", "50", path, "-"], timeout: 60, outputCap: 1 << 20).output
        let letters = text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.count
        if fonts <= 0 || letters < textPerPage * min(pages, 50) { problems.append(.noText) }
        if fields["Tagged"] != "yes" { problems.append(.untagged) }
        if (fields["Title"] ?? "").isEmpty { problems.append(.noTitle) }
        if let data = bytes ?? (try? Data(contentsOf: URL(fileURLWithPath: path))), !hasLanguage(data) { problems.append(.noLanguage) }
        return problems
    }

    /// `pdfinfo`'s `Name: value` lines.
    static func fields(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            if fields[name] == nil { fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    /// True when the bytes name a language (`/Lang`), or when the catalog may be compressed
    /// (`/ObjStm`) so that it cannot be told.
    static func hasLanguage(_ data: Data) -> Bool {
        data.range(of: Data("/Lang".utf8)) != nil || data.range(of: Data("/ObjStm".utf8)) != nil
    }
}
