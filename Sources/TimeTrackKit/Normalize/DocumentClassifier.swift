import Foundation
import TimeTrackCore

/// Guesses what a School Info link opens and which School Info section a heading belongs to.
public enum DocumentClassifier {
    /// Document type from the URL's extension or host, a MIME type, or the link's label ("(PDF)").
    public static func documentType(url: String, label: String? = nil, mimeType: String? = nil) -> SchoolInfoItem.DocumentType {
        if let mime = mimeType?.lowercased() {
            if mime.contains("pdf") { return .pdf }
            if mime.hasPrefix("image/") { return .image }
            if mime.hasPrefix("video/") { return .video }
            if mime.contains("spreadsheet") || mime.contains("excel") || mime.contains("csv") { return .spreadsheet }
            if mime.contains("word") || mime.contains("opendocument.text") || mime.contains("rtf") || mime.contains("presentation")
                || mime.contains("powerpoint")
            {
                return .document
            }
            if mime.contains("html") { return .page }
        }
        let lowerLabel = label?.lowercased() ?? ""
        if lowerLabel.contains("(pdf") || lowerLabel.hasSuffix(" pdf") || lowerLabel.contains("[pdf") { return .pdf }
        let components = URLComponents(string: url)
        let path = (components?.path ?? url).lowercased()
        let host = components?.host?.lowercased() ?? ""
        let ext = (path as NSString).pathExtension
        switch ext {
        case "pdf": return .pdf
        case "jpg", "jpeg", "png", "gif", "webp", "svg", "heic": return .image
        case "mp4", "mov", "m4v", "webm", "avi": return .video
        case "xls", "xlsx", "csv", "ods", "numbers": return .spreadsheet
        case "doc", "docx", "odt", "rtf", "txt", "ppt", "pptx", "odp", "pages", "key": return .document
        default: break
        }
        if ["youtube.com", "www.youtube.com", "youtu.be", "vimeo.com", "player.vimeo.com"].contains(host) || host.hasSuffix("eduvision.tv") { return .video }
        if host == "docs.google.com" {
            if path.hasPrefix("/spreadsheets") { return .spreadsheet }
            return .document
        }
        if host == "drive.google.com" { return path.contains("/folders/") ? .page : .document }
        if lowerLabel.contains("video") || lowerLabel.contains("recording") { return .video }
        if lowerLabel.contains("audio") { return .video }
        if let named = fileFromAddress(components, host: host, path: path) { return named }
        if ["html", "htm", "php", "aspx", "asp", "jsp", ""].contains(ext) { return .page }
        return .other
    }

    /// A file served from an address without its extension: a file name in the query
    /// (`filedownload.ashx?…&FileName=Handbook.pdf`), a share link that says its type
    /// (SharePoint `/:b:/`, OneDrive `1drv.ms/w/`), or a CMS's file store (Finalsite
    /// `/fs/resource-manager/view/UUID`, `/download/…`, Box `/s/…`): a document, not a page.
    static func fileFromAddress(_ components: URLComponents?, host: String, path: String) -> SchoolInfoItem.DocumentType? {
        for item in components?.queryItems ?? [] where ["filename", "file", "name", "sourceurl", "attachment"].contains(item.name.lowercased()) {
            guard let value = item.value, let dot = value.lastIndex(of: "."), value.distance(from: dot, to: value.endIndex) <= 6 else { continue }
            let named = documentType(url: "https://file.invalid/x" + value[dot...].lowercased())
            if named != .page && named != .other { return named }
        }
        let shareTypes: [String: SchoolInfoItem.DocumentType] = [
            "b": .pdf, "w": .document, "p": .document, "x": .spreadsheet, "v": .video, "i": .image, "f": .page,
        ]
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if host.hasSuffix("sharepoint.com"), let first = segments.first, first.hasPrefix(":"), first.hasSuffix(":") {
            return shareTypes[String(first.dropFirst().dropLast())]
        }
        if host == "1drv.ms", let first = segments.first { return shareTypes[first] }
        let stores = [
            "/fs/resource-manager/view/", "filedownload.ashx", "/download/", "/downloads/", "/file/", "/files/", "/attachments/", "/documents/download",
            // ASP.NET download handlers (`Download.aspx?fid=5247`), CivicPlus's document center.
            "/download.aspx", "/download.ashx", "/getfile.aspx", "/documentcenter/view/",
        ]
        if stores.contains(where: { path.contains($0) }) || path.hasSuffix("/download") || (host.hasSuffix("box.com") && segments.first == "s") {
            return .document
        }
        return nil
    }

    /// A link label without document-type noise: "Attendance Policy (PDF)" → "Attendance Policy".
    public static func cleanTitle(_ label: String) -> String {
        var title = TextNormalizer.collapse(label)
        // Every noise below holds "(" or "[" or "- Opens": most titles hold none, and skip the
        // nine searches.
        let bytes = title.utf8
        if bytes.contains(UInt8(ascii: "(")) || bytes.contains(UInt8(ascii: "[")) || TextNormalizer.has(title, "- Opens") {
            for noise in ["(pdf)", "[pdf]", "(PDF)", "[PDF]", "(Pdf)", "(opens in new window)", "(opens in a new window)", "- Opens a new window"] {
                title = title.replacingOccurrences(of: noise, with: "")
            }
            title = removingTypeNotes(title)
        }
        return TextNormalizer.collapse(title).trimmingCharacters(in: CharacterSet(charactersIn: " -–—:|"))
    }

    /// Words of a bracketed note that only says what kind of file a link is.
    static let typeNoteWords: Set<String> = [
        "pdf", "adobe", "acrobat", "reader", "doc", "docx", "word", "microsoft", "ms", "xls", "xlsx", "excel", "ppt", "pptx", "powerpoint", "file", "document",
        "download", "kb", "mb", "gb", "bytes", "size", "opens", "in", "a", "new", "window", "tab", "format", "version",
    ]

    /// Whether a bracketed note's (lowercased) text only names a file's kind or size: every word
    /// a type word or a size ("2.3", "45kb"), and at least one a kind ("pdf", "word").
    static func isTypeNote(_ inner: String) -> Bool {
        let words = inner.split { !$0.isLetter && !$0.isNumber && $0 != "." }.map(String.init)
        func isSize(_ word: String) -> Bool {
            Double(word) != nil || (["kb", "mb"].contains(String(word.suffix(2))) && Double(word.dropLast(2)) != nil)
        }
        let fillers: Set<String> = ["a", "in", "new", "window", "tab", "opens", "size", "bytes", "kb", "mb", "gb", "version", "format"]
        return words.contains { typeNoteWords.contains($0) && !fillers.contains($0) } && words.allSatisfy { typeNoteWords.contains($0) || isSize($0) }
    }

    /// `title` without bracketed notes that only name a file's kind or size: "[Adobe PDF]",
    /// "(PDF, 2.3 MB)", "(Microsoft Word)", "[Excel file]".
    ///
    /// A note with other words stays ("(Spanish)", "[Updated]").
    static func removingTypeNotes(_ title: String) -> String {
        var result = ""
        var rest = Substring(title)
        while let open = rest.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            let close: Character = rest[open] == "(" ? ")" : "]"
            guard let end = rest[open...].firstIndex(of: close) else { break }
            let inner = rest[rest.index(after: open)..<end].lowercased()
            result += rest[..<open]
            if !isTypeNote(inner) { result += rest[open...end] }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The School Info section a heading's words point to, or nil when none fits.
    public static func section(forHeading heading: String) -> SchoolInfoItem.Section? {
        let h = heading.lowercased()
        let table: [(SchoolInfoItem.Section, [String])] = [
            (.schedules, ["schedule", "bell", "lunch", "hours", "fee"]),
            (.calendars, ["calendar"]),
            (.disclosures, ["disclosure", "notice", "legal", "report card", "accountability", "title ix", "ferpa"]),
            (.policies, ["policy", "policies", "regulation", "handbook", "code of conduct", "rules"]),
            (.programs, ["program", "scholar", "career", "technical", "cte", "advanced placement", " ap ", "concurrent", "ib ", "enrollment"]),
            (.counseling, ["counsel", "college", "scholarship", "graduation", "wellness", "mental health"]),
            (.activities, ["activit", "club", "athletic", "sport", "arts", "music", "theater", "theatre"]),
            (.resources, ["resource", "family", "parent", "student", "health", "nutrition", "transport", "technology", "insurance"]),
        ]
        // Padded once, so that " ap " and "ib " also match at either end. A word counts where a
        // word starts ("sport" is not in "transportation"); the longest match wins
        // ("scholarship" over "scholar"), then the table's order.
        let padded = " \(h) "
        var best: (section: SchoolInfoItem.Section, length: Int)?
        for (section, words) in table {
            for word in words where word.count > (best?.length ?? 0) && startsAWord(word, in: padded) {
                best = (section, word.count)
            }
        }
        return best?.section
    }

    /// Whether `word` occurs in `text` where a word starts (after a character that is not a letter).
    static func startsAWord(_ word: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: word) {
            if range.lowerBound == text.startIndex || !text[text.index(before: range.lowerBound)].isLetter || word.first == " " { return true }
            rest = text[range.upperBound...]
        }
        return false
    }
}
