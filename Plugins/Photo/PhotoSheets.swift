import Foundation
import TimeTrackCore
import TimeTrackKit

/// The dated lines of a run's photos, one assignment per course and title whichever photos
/// show it (the newest photo's reading wins), with what each reviewer must check: a photo
/// without a date of its own, a due date before the photo was taken, a line OCR garbled.
struct PhotoSheets {
    var found: [MappedFields.Found] = []
    var indexByKey: [String: Int] = [:]
    /// When the photo an assignment was last read from was taken.
    var takenByKey: [String: Date] = [:]
    /// The keys older versions gave (the photo's name and the title).
    var formerKeys: [String: String] = [:]
    /// Read from a photo without an EXIF date (against the file's time).
    var undated: Set<String> = []
    /// Lines OCR could not read whole.
    var garbled: Set<String> = []

    /// Adds a photo's lines; returns how many were merged into an assignment already found.
    mutating func add(_ sheet: SheetReader.Sheet, text: String, course: String?, photo: URL, page: FetchedPage, taken: Date, exact: Bool) -> Int {
        var merged = 0
        let name = photo.lastPathComponent
        for line in sheet.lines {
            var raw = RawItem()
            raw["title"] = line.title
            raw["due"] = line.text
            raw["line"] = line.text
            raw["course"] = course
            raw["description"] = text
            raw[Normalizer.referenceField] = ISO8601DateFormatter().string(from: taken)
            let title = CourseRules.fold(line.title).replacingOccurrences(of: " ", with: "-")
            let key = "\(course ?? "-")#\(title)"
            let entry = MappedFields.Found(key: key, raw: raw, page: page, pageURL: photo.absoluteString, location: "\(name) line \(line.number)")
            if let earlier = indexByKey[key] {
                merged += 1
                guard taken > (takenByKey[key] ?? .distantPast) else { continue }
                found[earlier] = entry
            } else {
                indexByKey[key] = found.count
                found.append(entry)
            }
            takenByKey[key] = taken
            formerKeys[key] = "\(name)#\(title)"
            if !exact { undated.insert(key) } else { undated.remove(key) }
            if SheetReader.garbled(line.text) { garbled.insert(key) }
        }
        return merged
    }

    /// Gives the normalized items their former keys and what the reviewer must check.
    func annotate(_ result: inout ImportResult, zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = zone
        day.dateFormat = "yyyy-MM-dd"
        for index in result.items.indices {
            let key = result.items[index].key
            result.items[index].formerKey = formerKeys[key]
            if undated.contains(key) { result.items[index].guesses.append("the photo has no date of its own: its file's time was used") }
            // A due date before the photo was taken is a misread (or an old line): the reviewer checks it.
            if case .deadline(let deadline) = result.items[index].content, let taken = takenByKey[key], deadline.due < calendar.startOfDay(for: taken) {
                result.items[index].guesses.append(
                    "due \(day.string(from: deadline.due)) is before the photo was taken (\(day.string(from: taken))): check the line")
            }
            if garbled.contains(key) { result.items[index].guesses.append("OCR could not read this line whole: check it against the sheet") }
        }
    }
}
