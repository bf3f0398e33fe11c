import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import PhotoImporter

/// Issue 36: the photo importer's lines without Tesseract: an assignment sheet's dated lines,
/// one assignment per course and title whichever photos show it (the newest photo wins), and
/// what the reviewer is told to check.
@Suite struct PhotoSheetsTests {
    static let zone = TimeZone(identifier: "America/Denver") ?? .current
    static let monday = Date(timeIntervalSince1970: 1_791_208_800)  // 2026-10-05 08:00 in Denver

    static let text = """
        AP Chemistry - Unit 3
        Lab report 3 - due Fri 10/9
        Read chapter 5 by next Monday
        Quiz on 10/14
        Bring goggles
        """

    static func page(_ name: String) -> (URL, FetchedPage) {
        let url = URL(fileURLWithPath: "/photos/\(name)")
        return (url, FetchedPage(url: url, location: url.path, data: Data(name.utf8), fetchedAt: monday))
    }

    @Test func aSheetsDatedLinesAndTheirTitles() {
        let sheet = SheetReader.read(Self.text)
        #expect(sheet.lines.map(\.title) == ["Lab report 3", "Read chapter 5", "Quiz"])
        #expect(sheet.lines.map(\.number) == [2, 3, 4])
        #expect(SheetReader.read("Bring goggles\nNo dates here").lines.isEmpty)
    }

    @Test func oneAssignmentPerCourseAndTitleTheNewestPhotoWinning() {
        var sheets = PhotoSheets()
        let (first, firstPage) = Self.page("IMG_1.jpg")
        let (second, secondPage) = Self.page("IMG_2.jpg")
        let sheet = SheetReader.read(Self.text)
        #expect(sheets.add(sheet, text: Self.text, course: "CHEM-AP", photo: first, page: firstPage, taken: Self.monday, exact: true) == 0)
        #expect(sheets.found.map(\.key) == ["CHEM-AP#lab-report-3", "CHEM-AP#read-chapter-5", "CHEM-AP#quiz"])
        // The same sheet photographed a day later: merged, the newer reading kept.
        let later = Self.monday.addingTimeInterval(86_400)
        #expect(sheets.add(sheet, text: Self.text, course: "CHEM-AP", photo: second, page: secondPage, taken: later, exact: false) == 3)
        #expect(sheets.found.count == 3)
        #expect(sheets.found.allSatisfy { $0.pageURL == second.absoluteString })
        #expect(sheets.formerKeys["CHEM-AP#quiz"] == "IMG_2.jpg#quiz")
        #expect(sheets.undated == Set(sheets.found.map(\.key)))
        // An older photo of it changes nothing.
        let (old, oldPage) = Self.page("IMG_0.jpg")
        #expect(
            sheets.add(sheet, text: Self.text, course: "CHEM-AP", photo: old, page: oldPage, taken: Self.monday.addingTimeInterval(-86_400), exact: true) == 3)
        #expect(sheets.found.allSatisfy { $0.pageURL == second.absoluteString })
        // Without a course the same titles are other assignments.
        #expect(sheets.add(sheet, text: Self.text, course: nil, photo: old, page: oldPage, taken: Self.monday, exact: true) == 0)
        #expect(sheets.found.count == 6 && sheets.found.last?.key == "-#quiz")
    }

    @Test func theLinesCarryWhatTheNormalizerNeeds() {
        var sheets = PhotoSheets()
        let (photo, page) = Self.page("IMG_3.jpg")
        _ = sheets.add(SheetReader.read(Self.text), text: Self.text, course: "CHEM-AP", photo: photo, page: page, taken: Self.monday, exact: true)
        let raw = sheets.found[0].raw
        #expect(raw["title"] == "Lab report 3" && raw["due"] == "Lab report 3 - due Fri 10/9" && raw["course"] == "CHEM-AP")
        #expect(raw["description"] == Self.text)
        #expect(raw[Normalizer.referenceField] == "2026-10-05T14:00:00Z")
        #expect(sheets.found[0].location == "IMG_3.jpg line 2")
    }

    static func item(_ key: String, due: Date) -> ExtractedItem {
        let deadline = Deadline(title: "x", course: "CHEM-AP", due: due, timeZone: "America/Denver", category: .homework)
        return ExtractedItem(key: key, content: .deadline(deadline), pageURL: "file:///photos", pageHash: "h", fetchedAt: monday, location: "l")
    }

    @Test func theReviewerIsToldWhatToCheck() {
        var sheets = PhotoSheets()
        sheets.takenByKey = ["a": Self.monday, "b": Self.monday, "c": Self.monday]
        sheets.formerKeys = ["a": "IMG_1.jpg#a"]
        sheets.undated = ["b"]
        sheets.garbled = ["c"]
        var result = ImportResult()
        result.items = [
            Self.item("a", due: Self.monday.addingTimeInterval(-3 * 86_400)), Self.item("b", due: Self.monday), Self.item("c", due: Self.monday),
        ]
        sheets.annotate(&result, zone: Self.zone)
        #expect(result.items[0].formerKey == "IMG_1.jpg#a")
        #expect(result.items[0].guesses.map(\.note) == ["due 2026-10-02 is before the photo was taken (2026-10-05): check the line"])
        #expect(result.items[1].guesses.map(\.note) == ["the photo has no date of its own: its file's time was used"])
        #expect(result.items[2].guesses.map(\.note) == ["OCR could not read this line whole: check it against the sheet"])
    }
}
