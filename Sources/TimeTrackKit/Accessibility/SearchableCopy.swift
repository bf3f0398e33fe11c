import Foundation
import TimeTrackCore

/// A searchable copy of a scanned PDF: `ocrmypdf` (from Debian, as a process) adds a text layer
/// under each page's picture and gives the copy a title; the original is left as it is.
///
/// The copy is not tagged: OCR cannot tell a heading from a paragraph (docs/accessibility.md).
public enum SearchableCopy {
    static let ocrmypdf = ExternalTool("ocrmypdf", package: "ocrmypdf")

    /// Whether ocrmypdf is installed.
    public static var available: Bool { ocrmypdf.installed }

    /// The copy of `original`, read in Tesseract's `language` (`eng`, `spa`), titled `title`.
    public static func make(from original: Data, title: String, language: String = "eng", timeout: Int = 600) throws -> Data {
        guard original.starts(with: Array("%PDF-".utf8)) else {
            throw TimeTrackError(.parse, "the document is not a PDF (it does not begin with %PDF-)", fix: "ocr reads PDFs; check the item's url")
        }
        guard language.range(of: "^[a-z]{3}(_[a-z]+)?(\\+[a-z]{3}(_[a-z]+)?)*$", options: .regularExpression) != nil else {
            throw TimeTrackError(
                .usage, "'\(SafeText.visible(language))' is not a Tesseract language", fix: "three letters: eng, spa, vie, fra (several: eng+spa)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-ocr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("original.pdf"), output = folder.appendingPathComponent("copy.pdf")
        try original.write(to: input)
        // --skip-text: pages that already have text are kept as they are (a mixed document).
        let outcome = try ocrmypdf.run(
            ["--quiet", "--skip-text", "--jobs", "1", "-l", language, "--title", String(title.prefix(300)), "--output-type", "pdfa", input.path, output.path],
            timeout: timeout)
        guard outcome.status == 0, let copy = FileManager.default.contents(atPath: output.path) else {
            let missingLanguage = outcome.lastError.contains("language") || outcome.lastError.contains("traineddata")
            throw TimeTrackError(
                .parse, "ocrmypdf could not make the copy (exit \(outcome.status))" + (outcome.lastError.isEmpty ? "" : ": \(outcome.lastError)"),
                fix: missingLanguage
                    ? "install the language's data: apt-get install tesseract-ocr-\(language)" : "open the PDF in a reader: it may be encrypted or damaged")
        }
        return copy
    }
}
