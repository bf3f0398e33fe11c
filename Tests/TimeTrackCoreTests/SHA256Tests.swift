import Testing
import TimeTrackCore

/// FIPS 180-4 test vectors, and feeding in pieces equals feeding at once.
@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The system library (when loaded) and the Swift code agree at every block boundary.
    @Test func systemAndPortableAgree() {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 65_537, 1_000_003] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 7) }
            #expect(SHA256.hex(bytes) == SHA256.portableHex(bytes), "length \(length)")
        }
        #expect(SHA256.portableHex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // A string is hashed in place: its UTF-8, whatever it holds.
        for text in ["é😀 \u{0}tab\t", String(repeating: "Ünïcode ", count: 50)] {
            #expect(SHA256.hex(text) == SHA256.portableHex(Array(text.utf8)), "\(text)")
        }
    }

    @Test func piecesEqualWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 63, 64, 65, 500, 999] {
            var hasher = SHA256()
            hasher.update(bytes[0..<split])
            hasher.update(bytes[split...])
            #expect(
                hasher.finalize()
                    == {
                        var h = SHA256(); h.update(bytes); return h.finalize()
                    }())
        }
    }

    /// A digest stored in a model or named as a file is ASCII hex only: fullwidth digits pass
    /// `Character.isHexDigit`, and 61 ASCII digits with one fullwidth digit are 64 bytes.
    @Test func aDigestIsASCIIHexOnly() {
        let digest = SHA256.hex("bell schedule")
        #expect(SHA256.isHex(digest) && SHA256.isHex(digest, lowercase: true))
        #expect(SHA256.isHex(digest.uppercased()) && !SHA256.isHex(digest.uppercased(), lowercase: true))
        let sneaky = String(digest.dropLast(3)) + "\u{FF10}"  // 61 ASCII + a fullwidth zero: 64 bytes
        #expect(sneaky.utf8.count == 64 && sneaky.last?.isHexDigit == true)
        #expect(!SHA256.isHex(sneaky))
        var info = SchoolInfoItem(section: .schedules, title: "Bell schedule", url: "https://d.example/bell.pdf", documentType: .pdf)
        info.accessibleCopy = sneaky
        #expect(info.validate().map(\.field) == ["accessibleCopy"])
    }
}
