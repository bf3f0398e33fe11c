import Foundation
import TimeTrackCore

/// Location data in photos: phones write where a picture was taken into it (EXIF GPS, XMP).
///
/// A student's location is never shared, so exported copies of photos carry none.
///
/// A small reader of JPEG segments and PNG chunks, no library: the GPS directory of the EXIF
/// data is blanked and unlinked in place (every other tag kept, at the same offsets), and an XMP
/// packet that mentions GPS is dropped whole. Bytes are untrusted: every read is bounds-checked,
/// and anything that does not parse is left as it is and reported as not understood.
public enum PhotoLocation {
    /// What `strip` did.
    public struct Result: Sendable, Equatable {
        /// The image without location data (the input itself when there was none).
        public var data: Data
        /// What was removed: `EXIF GPS (9 tags)`, `XMP with GPS`.
        public var removed: [String]
        /// Whether the format was understood (JPEG or PNG); false: nothing could be checked.
        public var understood: Bool
    }

    /// Removes location data from JPEG or PNG bytes.
    public static func strip(_ data: Data) -> Result {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
        return Result(data: data, removed: [], understood: false)
    }

    /// What location data an image carries (empty: none).
    public static func find(_ data: Data) -> [String] { strip(data).removed }

    // MARK: JPEG

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    static func jpeg(_ bytes: [UInt8]) -> Result {
        var out: [UInt8] = [0xFF, 0xD8]
        var removed: [String] = []
        var i = 2
        while i < bytes.count {
            guard bytes[i] == 0xFF, i + 1 < bytes.count else { break }
            let marker = bytes[i + 1]
            if marker == 0xFF {  // fill byte
                i += 1
                continue
            }
            // Start of scan or end of image: the rest is image data, copied as it is.
            if marker == 0xDA || marker == 0xD9 { break }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                out += [0xFF, marker]
                i += 2
                continue
            }
            guard i + 4 <= bytes.count else { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { break }
            var segment = Array(bytes[i..<(i + 2 + length)])
            if marker == 0xE1 {
                let payload = segment[4...]
                if payload.starts(with: exifHeader) {
                    let tags = stripGPS(&segment, tiff: 4 + exifHeader.count, end: segment.count)
                    if tags > 0 { removed.append("EXIF GPS (\(tags) tags)") }
                } else if payload.starts(with: xmpHeader), mentionsGPS(segment) {
                    removed.append("XMP with GPS")
                    i += 2 + length
                    continue
                }
            }
            out += segment
            i += 2 + length
        }
        if i < bytes.count { out += bytes[i...] }
        return Result(data: removed.isEmpty ? Data(bytes) : Data(out), removed: removed, understood: true)
    }

    static func mentionsGPS(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).range(of: "GPS", options: .caseInsensitive) != nil
    }

    /// Blanks the GPS directory of the TIFF structure at `tiff` and removes its pointer from the
    /// first directory; returns how many GPS tags there were (0: none, or it did not parse).
    static func stripGPS(_ b: inout [UInt8], tiff: Int, end: Int) -> Int {
        guard tiff + 8 <= end else { return 0 }
        let little: Bool
        switch (b[tiff], b[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return 0
        }
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        func put16(_ value: Int, _ at: Int) {
            b[at] = UInt8(little ? value & 0xFF : value >> 8 & 0xFF)
            b[at + 1] = UInt8(little ? value >> 8 & 0xFF : value & 0xFF)
        }
        func zero(_ from: Int, _ count: Int) {
            guard count > 0, from >= tiff, from + count <= end else { return }
            for k in from..<(from + count) { b[k] = 0 }
        }
        guard let ifd0Offset = u32(tiff + 4), let ifd0 = Optional(tiff + ifd0Offset), let n = u16(ifd0), n > 0, n < 1_000,
            ifd0 + 2 + n * 12 + 4 <= end
        else { return 0 }
        guard let k = (0..<n).first(where: { u16(ifd0 + 2 + $0 * 12) == 0x8825 }) else { return 0 }
        var tags = 0
        if let gpsOffset = u32(ifd0 + 2 + k * 12 + 8), let gn = u16(tiff + gpsOffset), gn < 1_000 {
            let gps = tiff + gpsOffset
            let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8, 11: 4, 12: 8]
            for e in 0..<gn {
                let entry = gps + 2 + e * 12
                guard let type = u16(entry + 2), let count = u32(entry + 4) else { break }
                tags += 1
                let size = (sizes[type] ?? 1) * min(count, 1 << 20)
                if size > 4, let at = u32(entry + 8) { zero(tiff + at, size) }
            }
            zero(gps, 2 + gn * 12 + 4)
        }
        // Unlink: the entries after it move up one, the count drops, the next-directory
        // offset follows the last entry, and the freed twelve bytes are blanked.
        let first = ifd0 + 2
        for e in k..<(n - 1) {
            for byte in 0..<12 { b[first + e * 12 + byte] = b[first + (e + 1) * 12 + byte] }
        }
        let next = Array(b[(first + n * 12)..<(first + n * 12 + 4)])
        for byte in 0..<4 { b[first + (n - 1) * 12 + byte] = next[byte] }
        zero(first + (n - 1) * 12 + 4, 12)
        put16(n - 1, ifd0)
        return max(tags, 1)
    }

    // MARK: PNG

    static func png(_ bytes: [UInt8]) -> Result {
        var out = Array(bytes[0..<8])
        var removed: [String] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 0, length <= bytes.count - i - 12 else { break }
            var chunk = Array(bytes[i..<(i + 12 + length)])
            let type = String(decoding: chunk[4..<8], as: UTF8.self)
            if type == "eXIf" {
                let tags = stripGPS(&chunk, tiff: 8, end: 8 + length)
                if tags > 0 {
                    removed.append("EXIF GPS (\(tags) tags)")
                    let crc = CRC32.checksum(chunk[4..<(8 + length)])
                    for k in 0..<4 { chunk[8 + length + k] = UInt8(crc >> (24 - 8 * k) & 0xFF) }
                }
            } else if ["iTXt", "tEXt", "zTXt"].contains(type), chunk[8...].starts(with: Array("XML:com.adobe.xmp".utf8)), mentionsGPS(chunk) {
                removed.append("XMP with GPS")
                i += 12 + length
                continue
            }
            out += chunk
            i += 12 + length
        }
        if i < bytes.count { out += bytes[i...] }
        return Result(data: removed.isEmpty ? Data(bytes) : Data(out), removed: removed, understood: true)
    }
}

/// CRC-32 (ISO 3309, as PNG chunks use it).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
