import Foundation
import Testing

@testable import TimeTrackExport

/// The JPEG/PNG location stripper on bytes built here: it removes the GPS directory, keeps the
/// rest, and never traps on damaged input.
@Suite struct PhotoLocationTests {
    /// A JPEG with an EXIF block: IFD0 holds Make ("Pixelcam") and the GPS pointer; the GPS
    /// directory holds GPSLatitudeRef "N" and GPSLatitude (three rationals, stored out of line).
    static func taggedJPEG() -> [UInt8] {
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        // IFD0 at 8: 2 entries (2 + 24 + 4 = 30 bytes) → data at 38.
        let makeAt = 38, gpsAt = 38 + 10
        tiff += u16(2) + u16(0x010F) + u16(2) + u32(9) + u32(makeAt) + u16(0x8825) + u16(4) + u32(1) + u32(gpsAt) + u32(0)
        tiff += Array("Pixelcam\0".utf8) + [0]  // 10 bytes, even
        // GPS IFD at 48: 2 entries (30 bytes) → latitude rationals at 78.
        let latitudeAt = gpsAt + 30
        tiff += u16(2) + u16(0x0001) + u16(2) + u32(2) + [0x4E, 0, 0, 0] + u16(0x0002) + u16(5) + u32(3) + u32(latitudeAt) + u32(0)
        tiff += u32(43) + u32(1) + u32(36) + u32(1) + u32(54) + u32(1)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let length = app1.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + [0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]
    }

    @Test func theGPSDirectoryIsBlankedAndUnlinkedTheRestKept() {
        let input = Self.taggedJPEG()
        let result = PhotoLocation.strip(Data(input))
        #expect(result.understood)
        #expect(result.removed == ["EXIF GPS (2 tags)"])
        let out = [UInt8](result.data)
        #expect(out.count == input.count)
        let tiff = 12
        #expect(out[tiff + 8] == 1 && out[tiff + 9] == 0)  // IFD0 now has one entry: Make
        #expect(String(decoding: out[(tiff + 38)..<(tiff + 46)], as: UTF8.self) == "Pixelcam")
        #expect(out[(tiff + 48)..<(tiff + 78 + 24)].allSatisfy { $0 == 0 })  // the GPS directory and its values
        #expect(Array(out.suffix(8)) == Array(input.suffix(8)))  // image data untouched
        #expect(PhotoLocation.find(result.data).isEmpty)
    }

    @Test func damagedOrForeignBytesNeverTrap() {
        let input = Self.taggedJPEG()
        for length in 0...input.count { _ = PhotoLocation.strip(Data(input.prefix(length))) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var bytes = input
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = PhotoLocation.strip(Data(bytes))
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x65, 0x58, 0x49, 0x66]
        #expect(PhotoLocation.strip(Data(png)).removed.isEmpty)
        #expect(!PhotoLocation.strip(Data("GIF89a".utf8)).understood)
    }

    @Test func crcOfAKnownString() {
        #expect(CRC32.checksum(ArraySlice(Array("123456789".utf8))) == 0xCBF4_3926)
    }
}
