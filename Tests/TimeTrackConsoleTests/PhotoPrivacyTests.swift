import Foundation
import TestSupport
import Testing

/// No location leaves the store: phone photos made with exiftool (GPS in EXIF and XMP, as
/// cameras write them) are exported without it, other tags kept; coordinates on a submission are
/// dropped where it enters.
@Suite struct PhotoPrivacyTests {
    /// An 8×8 JPEG and PNG made for these tests, without metadata (exiftool adds it).
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/Photos")

    static var exiftool: String? {
        ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// exiftool's tags of a file, as group:name → value.
    static func tags(_ exiftool: String, _ path: String) throws -> [String: String] {
        let result = try Binaries.runPath(exiftool, ["-j", "-G1", "-a", "-n", path])
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return (list.first ?? [:]).mapValues { "\($0)" }
    }

    @Test func photosAreExportedWithoutTheirLocationAndSubmissionsWithoutCoordinates() throws {
        guard let exiftool = Self.exiftool else {
            try Skip.because("exiftool is missing (apt-get install libimage-exiftool-perl)")
            return
        }
        let dir = try TemporaryDirectory("photos")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("imports/inbox/photos"), withIntermediateDirectories: true)
        for (name, fixture) in [("stadium.jpg", "plain.jpg"), ("poster.png", "plain.png")] {
            let path = dir.path("imports/inbox/photos/\(name)")
            try FileManager.default.copyItem(atPath: Self.photos.appendingPathComponent(fixture).path, toPath: path)
            let tagged = try Binaries.runPath(
                exiftool,
                [
                    "-q", "-overwrite_original", "-GPSLatitude=43.615", "-GPSLatitudeRef=N", "-GPSLongitude=116.2023", "-GPSLongitudeRef=W",
                    "-GPSAltitude=820", "-Make=Pixelcam", "-Model=Pixel 9", "-DateTimeOriginal=2026:09:18 19:42:00", "-XMP-exif:GPSLatitude=43.615",
                    "-XMP-exif:GPSLongitude=-116.2", path,
                ])
            #expect(tagged.status == 0, "\(tagged.stderr)")
            #expect(try Self.tags(exiftool, path).keys.contains { $0.contains("GPS") })
        }
        try dir.write(
            "imports/inbox/posts.json",
            """
            [{ "id": "post-1", "authorName": "Maya R.", "authorRole": "student", "text": "Homecoming!", "imageURLs": ["photos/stadium.jpg",\
             "photos/poster.png"],
               "createdAt": "2026-09-18T21:42:00-06:00", "latitude": 43.615, "longitude": -116.2023 }]
            """)
        try dir.write(
            "imports/posts.json",
            #"{ "id": "posts", "importer": "inbox", "kind": "post", "url": "inbox/posts.json", "school": "hillcrest", "timeZone": "America/Denver" }"#)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words)
        }
        #expect(try run(["import", "posts"]).status == 0)
        // The reviewer sees both: the coordinates were dropped, the photos' GPS goes.
        let shown = try run(["show", "p1"]).stdout
        #expect(shown.contains("location removed: the submission carried latitude, longitude; it was not stored"), "\(shown)")
        #expect(shown.contains("photo 1: GPS removed") && shown.contains("photo 2: GPS removed"), "\(shown)")
        #expect(!(try run(["--json", "show", "p1"]).stdout.contains("43.615")))
        #expect(try run(["approve", "p1"]).status == 0)
        let export = try run(["export", "--format", "json", "--out", dir.path("out")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("removed EXIF GPS"), "\(export.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/posts.json")))) as? [String: Any]
        let links = ((document?["items"] as? [[String: Any]])?.first?["imageURLs"] as? [String]) ?? []
        #expect(links.count == 2 && links.allSatisfy { $0.hasPrefix("images/") }, "\(links)")
        for link in links {
            let copy = try Self.tags(exiftool, dir.path("out/\(link)"))
            #expect(!copy.keys.contains { $0.contains("GPS") }, "\(link): \(copy.keys.filter { $0.contains("GPS") })")
            #expect(copy.values.contains("Pixelcam") && copy.values.contains("Pixel 9"), "\(link): \(copy)")
            #expect(copy.values.contains("2026:09:18 19:42:00"), "\(link): \(copy)")
            #expect(copy["ExifTool:Warning"] == nil && copy["ExifTool:Error"] == nil, "\(link): \(copy)")
        }
        // The originals are left as they were.
        #expect(try Self.tags(exiftool, dir.path("imports/inbox/photos/stadium.jpg")).keys.contains { $0.contains("GPS") })
    }
}
