import Foundation
import TestSupport
import Testing

/// Photos of three assignment sheets, made here the way a phone makes them (ImageMagick draws the
/// text on a page at 1512×2016, turned 1.2° with noise, saved as JPEG; exiftool stamps the time
/// taken), read by the photo importer through Tesseract: 15 due dates in the forms teachers
/// write them, resolved against each photo's date.
@Suite struct PhotoDeadlineTests {
    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Sheet {
        var file: String
        var lines: [String]
        /// EXIF DateTimeOriginal, or nil to leave the photo undated (its file time is used).
        var taken: String?
        var fileTime: String?
    }

    static let sheets = [
        Sheet(
            file: "chemistry.jpg",
            lines: [
                "AP Chemistry - Ms. Patel", "Unit 3 Assignments", "", "Lab report 3 - due Fri 10/9", "Chapter 4 reading - due Oct. 12th",
                "Quiz: stoichiometry - next Monday",
                "Problem set 7 - due 10/20 at 8:00 AM", "Unit test - Thursday, October 29",
            ], taken: "2026:10:07 15:42:10"),
        Sheet(
            file: "english.jpg",
            lines: [
                "English 11 - Mr. Okafor", "The Great Gatsby", "", "Gatsby chapters 1-3 reading due tomorrow", "Vocabulary quiz on Friday",
                "Essay outline due 10/21/2026",
                "Poster project due November 2nd at 9 AM", "Final essay - Mon. Nov 9",
            ], taken: "2026:10:12 08:05:00"),
        Sheet(
            file: "algebra.jpg",
            lines: [
                "Algebra 2 - Mr. Chen", "Homework and tests", "", "Worksheet 5.2 due Tuesday", "Quiz 3 on 23 Oct", "Chapter 5 test - next Thursday",
                "Project proposal due Oct 30 by 3:00 PM", "Read pages 210-218 by Monday 11/2",
            ], taken: nil, fileTime: "2026-10-16T12:00:00-06:00"),
    ]

    /// Title, course, category, due (local, America/Denver).
    static let expected: [(String, String, String, String)] = [
        ("Lab report 3", "CHEM-AP", "homework", "2026-10-09 15:30"),
        ("Chapter 4 reading", "CHEM-AP", "reading", "2026-10-12 15:30"),
        ("Quiz: stoichiometry", "CHEM-AP", "quiz", "2026-10-12 15:30"),
        ("Problem set 7", "CHEM-AP", "homework", "2026-10-20 08:00"),
        ("Unit test", "CHEM-AP", "test", "2026-10-29 15:30"),
        ("Gatsby chapters 1-3 reading", "ENG-11", "reading", "2026-10-13 15:30"),
        ("Vocabulary quiz", "ENG-11", "quiz", "2026-10-16 15:30"),
        ("Essay outline", "ENG-11", "homework", "2026-10-21 15:30"),
        ("Poster project", "ENG-11", "project", "2026-11-02 09:00"),
        ("Final essay", "ENG-11", "homework", "2026-11-09 15:30"),
        ("Worksheet 5.2", "ALG-2", "homework", "2026-10-20 15:30"),
        ("Quiz 3", "ALG-2", "quiz", "2026-10-23 15:30"),
        ("Chapter 5 test", "ALG-2", "test", "2026-10-22 15:30"),
        ("Project proposal", "ALG-2", "project", "2026-10-30 15:00"),
        ("Read pages 210-218", "ALG-2", "reading", "2026-11-02 15:30"),
    ]

    @Test func fifteenDueDatesFromThreePhotographedSheets() throws {
        guard let convert = Self.tool("convert"), Self.tool("tesseract") != nil, let exiftool = Self.tool("exiftool") else {
            let message =
                "tesseract, ImageMagick or exiftool is missing (.ci/run installs them: apt-get install tesseract-ocr imagemagick libimage-exiftool-perl)"
            try Skip.because(message)
            return
        }
        let dir = try TemporaryDirectory("photo-deadlines")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports/photos"), withIntermediateDirectories: true)
        for sheet in Self.sheets {
            let path = dir.path("imports/photos/\(sheet.file)")
            let drawn = try Binaries.runPath(
                convert,
                [
                    "-size", "1512x2016", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "46", "-fill", "black", "-annotate", "+110+220",
                    sheet.lines.joined(separator: "\n"),
                    "-rotate", "1.2", "-seed", "11", "-attenuate", "0.5", "+noise", "Gaussian", "-background", "white", "-flatten", "-quality", "85", path,
                ])
            #expect(drawn.status == 0, "\(drawn.stderr)")
            if let taken = sheet.taken {
                // The phone also says where it was: none of that may be kept.
                let tagged = try Binaries.runPath(
                    exiftool,
                    [
                        "-q", "-overwrite_original", "-DateTimeOriginal=\(taken)", "-GPSLatitude=40.5707", "-GPSLatitudeRef=N", "-GPSLongitude=111.8239",
                        "-GPSLongitudeRef=W", path,
                    ])
                #expect(tagged.status == 0, "\(tagged.stderr)")
            }
            if let fileTime = sheet.fileTime, let date = ISO8601DateFormatter().date(from: fileTime) {
                try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
            }
        }
        try dir.write(
            "imports/sheets.json",
            """
            { "id": "sheets", "importer": "photo", "kind": "deadline", "url": "photos", "timeZone": "America/Denver", "school": "hillcrest",
              "options": { "courses": [
                { "code": "CHEM-AP", "name": "AP Chemistry", "teacher": "Ms. Patel" },
                { "code": "ENG-11", "name": "English 11", "teacher": "Mr. Okafor" },
                { "code": "ALG-2", "name": "Algebra 2", "teacher": "Mr. Chen" } ] } }
            """)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words)
        }
        let extracted = try run(["--json", "extract", "sheets"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(extracted.stdout.utf8)) as? [String: Any] ?? [:]
        let items = (document["items"] as? [[String: Any]] ?? []).compactMap { $0["fields"] as? [String: Any] }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(identifier: "America/Denver")
        local.dateFormat = "yyyy-MM-dd HH:mm"
        let found = items.map { fields -> (String, String, String, String) in
            let due = (fields["due"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map(local.string) ?? "?"
            return (fields["title"] as? String ?? "", fields["course"] as? String ?? "", fields["category"] as? String ?? "", due)
        }
        var right = 0
        var wrong: [String] = []
        for want in Self.expected {
            if found.contains(where: { $0.0.caseInsensitiveCompare(want.0) == .orderedSame && $0.1 == want.1 && $0.2 == want.2 && $0.3 == want.3 }) {
                right += 1
            } else {
                wrong.append("\(want)")
            }
        }
        print("PhotoDeadlineTests: \(right) of \(Self.expected.count) due dates right; \(found.count) found; missed: \(wrong)")
        #expect(right >= 14, "only \(right) of 15 right; missed \(wrong); found \(found)")
        #expect(found.count <= 16, "lines that are not assignments were read as deadlines: \(found)")
        // The undated photo says so.
        #expect(extracted.stdout.contains("no EXIF date") || extracted.stdout.contains("no date of its own"))

        // Imported: each pending with the photo's text and its line shown; nothing of the photo kept.
        let imported = try run(["import", "sheets", "--no-review"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try run(["list", "deadlines", "--limit", "100"]).stdout
        #expect(list.contains("pending"), "\(list)")
        let shown = try run(["show", "d1"]).stdout
        #expect(shown.contains("sourceLine") && shown.contains("description"), "\(shown)")
        #expect(shown.contains("guessed") || shown.contains("end of the school day"), "\(shown)")
        let dump = try Binaries.sql(dir.path("t.sqlite"), "SELECT group_concat(content, ' ') FROM revisions")
        #expect(!dump.contains("40.57") && !dump.contains("111.82") && !dump.lowercased().contains("gps"), "the photo's location reached the store")
        // Re-importing unchanged photos reads them from the memo, not Tesseract, and changes nothing.
        let again = try run(["import", "sheets", "--no-review"])
        #expect(again.stderr.contains("0 new") && again.stderr.contains("0 changed") && again.stderr.contains("15 unchanged"), "\(again.stderr)")
    }

    /// A sheet turned 3.5° with noise, its lines numbered, photographed twice (issue 35: Tesseract's
    /// column mode read 4 of 6 lines and stored "10/20 at 8:00 AM" as October 2): every line is
    /// read with its date, list numbers leave the titles, the two photos give one deadline each,
    /// and a line due before the photo was taken is flagged for the reviewer.
    @Test func aTurnedNumberedSheetTwiceEveryLineOnceAndAnOldDateFlagged() throws {
        guard let convert = Self.tool("convert"), Self.tool("tesseract") != nil, let exiftool = Self.tool("exiftool") else {
            let message = "tesseract, ImageMagick or exiftool is missing (.ci/run installs them)"
            try Skip.because(message)
            return
        }
        let dir = try TemporaryDirectory("photo-turned")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports/photos"), withIntermediateDirectories: true)
        let lines = [
            "AP Chemistry - Ms. Patel", "Unit 3 Assignments", "", "1. Lab report 3 - due Fri 10/9", "2. Chapter 4 reading - due Oct. 12th",
            "3. Quiz: stoichiometry - next Monday",
            "4. Problem set 7 - due 10/20 at 8:00 AM", "5. Unit test - Thursday, October 29", "6. Old worksheet - due 9/28",
        ]
        for (file, angle, taken) in [("sheet-a.jpg", "3.5", "2026:10:07 15:42:10"), ("sheet-b.jpg", "-2", "2026:10:07 15:43:02")] {
            let path = dir.path("imports/photos/\(file)")
            let drawn = try Binaries.runPath(
                convert,
                [
                    "-size", "1512x2016", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "46", "-fill", "black", "-annotate", "+110+220",
                    lines.joined(separator: "\n"),
                    "-rotate", angle, "-seed", "7", "-attenuate", "0.6", "+noise", "Gaussian", "-background", "white", "-flatten", "-quality", "85", path,
                ])
            #expect(drawn.status == 0, "\(drawn.stderr)")
            #expect(try Binaries.runPath(exiftool, ["-q", "-overwrite_original", "-DateTimeOriginal=\(taken)", path]).status == 0)
        }
        try dir.write(
            "imports/sheets.json",
            #"{ "id": "sheets", "importer": "photo", "kind": "deadline", "url": "photos", "timeZone": "America/Denver", "options": { "courses": [ {"#
                + #" "code": "CHEM-AP", "name": "AP Chemistry", "teacher": "Ms. Patel" } ] } }"#
        )
        let extracted = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--json", "extract", "sheets"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(extracted.stdout.utf8)) as? [String: Any] ?? [:]
        let items = document["items"] as? [[String: Any]] ?? []
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(identifier: "America/Denver")
        local.dateFormat = "yyyy-MM-dd HH:mm"
        let found = items.compactMap { item -> String? in
            guard let fields = item["fields"] as? [String: Any], let title = fields["title"] as? String else { return nil }
            let due = (fields["due"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map(local.string) ?? "?"
            return "\(title) \(due)"
        }
        #expect(
            found.sorted() == [
                "Chapter 4 reading 2026-10-12 15:30", "Lab report 3 2026-10-09 15:30", "Old worksheet 2026-09-28 15:30", "Problem set 7 2026-10-20 08:00",
                "Quiz: stoichiometry 2026-10-12 15:30", "Unit test 2026-10-29 15:30",
            ], "\(found)")
        #expect((document["duplicatesMerged"] as? Int) == 6, "the second photo's six lines are the first's")
        let old = items.first { ($0["fields"] as? [String: Any])?["title"] as? String == "Old worksheet" }
        let guesses = (old?["guessed"] as? [String]) ?? (old?["guesses"] as? [String]) ?? []
        #expect(guesses.contains { $0.contains("is before the photo was taken") }, "\(old ?? [:])")
    }

    /// Without Tesseract the run fails with the package to install, and nothing is stored; a
    /// file that is not an image is a problem of that photo only.
    @Test func aMissingTesseractNamesThePackage() throws {
        let dir = try TemporaryDirectory("photo-missing")
        defer { dir.remove() }
        try dir.write("imports/photos/sheet.jpg", "not really a photo")
        try dir.write(
            "imports/sheets.json",
            #"{ "id": "sheets", "importer": "photo", "kind": "deadline", "url": "photos", "timeZone": "America/Denver", "options": { "course":"#
                + #" "CHEM-AP", "tesseract": "/nonexistent/tesseract" } }"#
        )
        let result = try Binaries.run(
            "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "import", "sheets", "--no-review"])
        #expect(result.status != 0 && result.stderr.contains("apt-get install tesseract-ocr"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal") && !result.stderr.contains("Trace"), "\(result.stderr)")
        guard Self.tool("tesseract") != nil else { return }
        try dir.write(
            "imports/sheets.json",
            #"{ "id": "sheets", "importer": "photo", "kind": "deadline", "url": "photos", "timeZone": "America/Denver", "options": { "course": "CHEM-AP" } }"#)
        let bad = try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "extract", "sheets"])
        #expect(bad.stderr.contains("not a JPEG or PNG image"), "\(bad.stdout)\(bad.stderr)")
    }
}
