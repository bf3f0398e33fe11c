import Foundation
import TimeTrackKit

/// Finds the assignment lines in an assignment sheet's text: lines that give a due date (a
/// date, or a day such as "next Monday"), each with its title (the line without the date).
enum SheetReader {
    struct Line: Equatable {
        /// The line as read, spaces collapsed.
        var text: String
        /// The assignment: the line without the due date and the words around it.
        var title: String
        /// 1-based line number in the photo's text.
        var number: Int
    }

    struct Sheet {
        var lines: [Line]
    }

    /// Words that start the date part of a line ("due Fri 10/9", "by next Monday").
    static let lead: Set<String> = ["due", "by", "on", "turn", "submit", "next", "this", "tomorrow", "today", "tonight"]

    static func read(_ text: String) -> Sheet {
        // Any fixed reference works for finding lines: only whether a date is there counts.
        let finder = DateParser(timeZone: TimeZone(secondsFromGMT: 0) ?? .current, reference: Date(timeIntervalSince1970: 1_790_000_000))
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = TextNormalizer.collapse(String(raw))
            guard line.count >= 4, line.count <= 300 else { continue }
            let hasDate = finder.parse(line) != nil || DeadlineReading.relativeDay(line, reference: finder.reference, zone: finder.timeZone) != nil
            guard hasDate, let title = title(of: line), !title.isEmpty else { continue }
            lines.append(Line(text: line, title: title, number: index + 1))
        }
        return Sheet(lines: lines)
    }

    /// The line without its date part: the words before the first date word ("Lab report 3 -
    /// due Fri 10/9" → "Lab report 3"); when the date comes first, the words after it.
    static func title(of line: String) -> String? {
        let words = line.split(separator: " ").map(String.init)
        guard let first = words.firstIndex(where: isDateWord) else { return clean(line) }
        if first > 0 { return clean(words[..<first].joined(separator: " ")) }
        // "10/9 Lab report 3", "Fri 10/9: Lab report 3": skip the date words.
        let rest = words.drop { isDateWord($0) || $0.allSatisfy { !$0.isLetter } }
        return clean(rest.joined(separator: " "))
    }

    static func isDateWord(_ word: String) -> Bool {
        let w = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
        if lead.contains(w) { return true }
        if DeadlineReading.weekday(w) != nil && w.count <= 9 { return true }
        if ["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"].contains(where: { w.hasPrefix($0) }) && w.count <= 9,
            ["january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"].contains(where: {
                $0.hasPrefix(w) || w == "sept"
            })
        {
            return true
        }
        // 10/9, 10/9/26, 2026-10-09 (not "210-218", a page range)
        let parts = w.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "-" })
        guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isNumber } }) else { return false }
        if parts[0].count == 4 { return parts.count == 3 && parts[1].count <= 2 && parts[2].count <= 2 }
        return parts[0].count <= 2 && parts[1].count <= 2 && w.contains("/") && (parts.count == 2 || [2, 4].contains(parts[2].count))
    }

    /// Trailing dashes, colons, commas and bullets dropped, and a list number before the title
    /// ("3.
    ///
    /// Quiz", "4) Lab", "#2 Essay").
    static func clean(_ text: String) -> String {
        let junk = CharacterSet(charactersIn: "-–—:;,.•*·|()[] ")
        var t = text.trimmingCharacters(in: junk)
        if t.hasPrefix("- ") || t.hasPrefix("• ") { t = String(t.dropFirst(2)) }
        // (OCR reads a list number's dot as a comma at times: "5, Unit test".)
        if let range = t.range(of: #"^#?\d{1,2}[.,)]?\s+"#, options: .regularExpression), t[range].contains(where: { !$0.isNumber }) || t[range].hasSuffix(" ")
        {
            let rest = t[range.upperBound...]
            // A number that is the title's own ("5.2 Worksheet" keeps it: no space after the dot).
            if rest.first?.isLetter == true, t[range].contains(where: { ".,)".contains($0) }) || t.hasPrefix("#") { t = String(rest) }
        }
        return t
    }

    /// Whether OCR left the line in pieces: many characters that are neither letters, digits nor
    /// the punctuation of a sheet, or a word of one letter run into digits.
    static func garbled(_ line: String) -> Bool {
        let usual = CharacterSet.alphanumerics.union(.whitespaces).union(CharacterSet(charactersIn: "-–—:;,./()'&#?!%+"))
        let odd = line.unicodeScalars.filter { !usual.contains($0) }.count
        return odd * 10 > line.unicodeScalars.count
    }
}
