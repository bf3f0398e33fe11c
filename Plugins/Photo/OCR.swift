import Foundation
import TimeTrackCore
import TimeTrackKit

/// Runs Tesseract on a photo's bytes: the image goes to a private temporary file, the text
/// comes back on standard output.
///
/// A time limit ends a run that hangs.
enum OCR {
    /// Page-segmentation modes that fit an assignment sheet, tried in turn: a uniform block of
    /// text (6) reads a sheet turned a few degrees whole, where columns (4) cut its lines.
    static let sheetModes = [6, 4]

    /// The photo read in each of `sheetModes`; `choose` picks the best reading.
    static func readSheet(_ image: Data, program: String, language: String, timeout: Int, choose: ([String]) -> String) throws -> String {
        var readings: [String] = []
        for mode in sheetModes { readings.append(try read(image, program: program, language: language, timeout: timeout, mode: mode)) }
        return choose(readings)
    }

    static func read(_ image: Data, program: String, language: String, timeout: Int, mode: Int = 4) throws -> String {
        guard PhotoKind.of(image) != nil else {
            throw TimeTrackError(.parse, "not a JPEG or PNG image", fix: "photos must be .jpg or .png files")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-ocr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("photo")
        try image.write(to: input)
        let tesseract = ExternalTool("tesseract", package: "tesseract-ocr", path: program.contains("/") ? program : nil)
        let outcome: ExternalTool.Outcome
        do {
            outcome = try tesseract.run([input.path, "stdout", "-l", language, "--psm", String(mode)], timeout: timeout)
        } catch let error as TimeTrackError where error.code == .fetch {
            throw TimeTrackError(.fetch, "Tesseract took more than \(timeout) s", fix: "raise options.timeoutSeconds, or photograph the sheet closer")
        }
        guard outcome.status == 0 else {
            let missingLanguage = outcome.lastError.contains("Failed loading language") || outcome.lastError.contains("traineddata")
            throw TimeTrackError(
                .parse, "Tesseract could not read the photo (exit \(outcome.status))" + (outcome.lastError.isEmpty ? "" : ": \(outcome.lastError)"),
                fix: missingLanguage ? "install the language's data: apt-get install tesseract-ocr-\(language)" : nil)
        }
        return outcome.output
    }
}

/// JPEG or PNG, by the first bytes.
enum PhotoKind {
    case jpeg, png
    static func of(_ data: Data) -> PhotoKind? {
        let head = [UInt8](data.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }
}

/// When a photo was taken: EXIF DateTimeOriginal (else DateTime) of a JPEG, read with every
/// offset checked.
///
/// Cameras write local time without a zone: it is read in the school's zone.
enum PhotoDate {
    /// The date the photo was taken, read in `zone` (cameras write local time without a zone).
    static func taken(_ data: Data, zone: TimeZone) -> Date? {
        guard PhotoKind.of(data) == .jpeg else { return nil }
        let b = [UInt8](data)
        var at = 2
        while at + 4 <= b.count, b[at] == 0xFF {
            let marker = b[at + 1]
            if marker == 0xD9 || marker == 0xDA { return nil }
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2, at + 2 + length <= b.count else { return nil }
            if marker == 0xE1, length >= 8, Array(b[(at + 4)..<(at + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return exifDate(Array(b[(at + 10)..<(at + 2 + length)]), zone: zone)
            }
            at += 2 + length
        }
        return nil
    }

    static func exifDate(_ t: [UInt8], zone: TimeZone) -> Date? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= t.count else { return nil }
            return little ? Int(t[i]) | Int(t[i + 1]) << 8 : Int(t[i]) << 8 | Int(t[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let c = u16(i + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        /// The ASCII value or sub-IFD offset of `tag` in the IFD at `offset`.
        func entry(_ offset: Int, _ tag: Int) -> (count: Int, value: Int)? {
            guard let n = u16(offset), n < 1000 else { return nil }
            for index in 0..<n {
                let e = offset + 2 + index * 12
                guard let found = u16(e) else { return nil }
                if found == tag, let count = u32(e + 4), let value = u32(e + 8) { return (count, value) }
            }
            return nil
        }
        func ascii(_ item: (count: Int, value: Int)?) -> String? {
            guard let item, item.count >= 19, item.count <= 64, item.value >= 0, item.value + 19 <= t.count else { return nil }
            return String(decoding: t[item.value..<(item.value + 19)], as: UTF8.self)
        }
        guard let ifd0 = u32(4) else { return nil }
        var text: String?
        if let exif = entry(ifd0, 0x8769)?.value { text = ascii(entry(exif, 0x9003)) }
        if text == nil { text = ascii(entry(ifd0, 0x0132)) }
        // "2026:10:07 15:42:10"
        guard let text else { return nil }
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count == 6, (1970...2199).contains(parts[0]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
