import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// Issue 36: the audit anchor's signing, on its own: the libcrypto binding against RFC 8032's
/// test vectors (section 7.1), what a verification refuses, and an anchor line written, read
/// back, tampered with field by field, and found among another program's log lines.
@Suite(.enabled(if: Ed25519.unavailable == nil, "libcrypto with Ed25519 is not installed")) struct SigningTests {
    /// RFC 8032, 7.1, TEST 1 to TEST 3: secret key, public key, message, signature.
    static let vectors: [(String, String, String, String)] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ]

    static func bytes(_ hex: String) -> Ed25519.Bytes { Ed25519.Bytes(hex: hex) ?? [] }

    @Test(arguments: vectors)
    func theRFCsVectors(_ secret: String, _ publicKey: String, _ message: String, _ signature: String) throws {
        #expect(try Ed25519.publicKey(of: Self.bytes(secret)).hex == publicKey)
        #expect(try Ed25519.sign(Self.bytes(message), privateKey: Self.bytes(secret)).hex == signature)
        #expect(try Ed25519.verify(Self.bytes(signature), of: Self.bytes(message), publicKey: Self.bytes(publicKey)))
    }

    @Test func aChangedMessageSignatureOrKeyIsRefused() throws {
        let (_, publicKey, _, signature) = Self.vectors[2]
        let message = Self.bytes("af82")
        var random = SplitMix64(state: 8_032)
        for _ in 0..<64 {
            var changed = Self.bytes(signature)
            changed[random.int(0...63)] ^= UInt8(1 << random.int(0...7))
            #expect(try !Ed25519.verify(changed, of: message, publicKey: Self.bytes(publicKey)))
        }
        #expect(try !Ed25519.verify(Self.bytes(signature), of: Self.bytes("af83"), publicKey: Self.bytes(publicKey)))
        #expect(try !Ed25519.verify(Self.bytes(signature), of: message + [0], publicKey: Self.bytes(publicKey)))
        let otherKey = try Ed25519.publicKey(of: Self.bytes(Self.vectors[0].0))
        #expect(try !Ed25519.verify(Self.bytes(signature), of: message, publicKey: otherKey))
        #expect(try !Ed25519.verify(Array(Self.bytes(signature).prefix(63)), of: message, publicKey: Self.bytes(publicKey)))
        #expect(try !Ed25519.verify(Self.bytes(signature), of: message, publicKey: Array(Self.bytes(publicKey).prefix(31))))
    }

    @Test func aKeyOfTheWrongSizeIsAMessageNotACrash() {
        for size in [0, 31, 33, 64] {
            let error = #expect(throws: TimeTrackError.self) { try Ed25519.sign([1, 2, 3], privateKey: Array(repeating: 7, count: size)) }
            #expect(error?.message.contains("not an Ed25519 private key") == true, "\(size)")
            #expect(throws: TimeTrackError.self) { try Ed25519.publicKey(of: Array(repeating: 7, count: size)) }
        }
    }

    @Test func newKeysAreFreshAndSignWhatTheyVerify() throws {
        let keys = (0..<8).map { _ in Ed25519.newPrivateKey() }
        #expect(Set(keys.map(\.hex)).count == 8 && keys.allSatisfy { $0.count == 32 })
        for key in keys {
            let message = Array("timetrack \(key.hex)".utf8)
            let signature = try Ed25519.sign(message, privateKey: key)
            #expect(try Ed25519.verify(signature, of: message, publicKey: Ed25519.publicKey(of: key)))
        }
    }

    @Test(arguments: [("00ff10", [UInt8]([0, 255, 16])), ("ABcd", [171, 205]), ("", [])])
    func hexReadsEitherCase(_ text: String, _ expected: [UInt8]) {
        #expect(Ed25519.Bytes(hex: text) == expected)
        #expect(Ed25519.Bytes(hex: text)?.hex == text.lowercased())
    }

    @Test(arguments: ["abc", "zz", "0x10", "é0", " 00"])
    func notHex(_ text: String) {
        #expect(Ed25519.Bytes(hex: text) == nil, "\(text)")
    }

    // MARK: Anchors

    static let at = Date(timeIntervalSince1970: 1_790_000_000)
    static let key = bytes(vectors[1].0)

    static func anchor() throws -> AuditAnchor {
        try AuditAnchor.signed(entries: 412, lastID: 977, head: String(repeating: "ab", count: 32), at: at, privateKey: key)
    }

    @Test func anAnchorReadsBackFromItsLineAndHolds() throws {
        let anchor = try Self.anchor()
        #expect(anchor.line.hasPrefix("timetrack-audit-anchor/1 entries=412 last=977 head=abab"))
        #expect(anchor.line.contains("at=2026-09-21T14:13:20Z key=\(Self.vectors[1].1) sig="))
        let read = try #require(AuditAnchor(line: Substring(anchor.line)))
        #expect(read == anchor)
        #expect(try read.signatureHolds(trustedKey: Self.vectors[1].1))
        #expect(try read.signatureHolds(trustedKey: Self.vectors[1].1.uppercased()))
        #expect(try !read.signatureHolds(trustedKey: Self.vectors[0].1))
    }

    @Test func everyTamperedFieldBreaksTheSignature() throws {
        let anchor = try Self.anchor()
        var changes: [AuditAnchor] = []
        for change in 0..<5 {
            var forged = anchor
            switch change {
            case 0: forged.entries += 1
            case 1: forged.lastID -= 1
            case 2: forged.head = String(repeating: "cd", count: 32)
            case 3: forged.at = anchor.at.addingTimeInterval(1)
            default: forged.signature = String(anchor.signature.reversed())
            }
            changes.append(forged)
        }
        for forged in changes {
            let read = try #require(AuditAnchor(line: Substring(forged.line)))
            #expect(try !read.signatureHolds(trustedKey: anchor.publicKey), "\(forged.line)")
        }
        // A forger's own key signs, but it is not the trusted one.
        let forger = try AuditAnchor.signed(entries: 1, lastID: 1, head: "x", at: Self.at, privateKey: Self.bytes(Self.vectors[2].0))
        #expect(try forger.signatureHolds(trustedKey: forger.publicKey))
        #expect(try !forger.signatureHolds(trustedKey: anchor.publicKey))
    }

    @Test(arguments: [
        "", "hello world", "timetrack-audit-anchor/1 entries=x last=1 head=a at=2026-01-01T00:00:00Z key=00 sig=00",
        "timetrack-audit-anchor/1 entries=1 last=1 head=a key=00 sig=00", "timetrack-audit-anchor/1 entries=1 last=1 head=a at=yesterday key=00 sig=00",
    ])
    func linesThatAreNotAnchors(_ line: String) {
        #expect(AuditAnchor(line: Substring(line)) == nil, "\(line)")
    }

    @Test func theLastAnchorInALogFileIsTheOneRead() throws {
        let folder = try TemporaryDirectory("anchors")
        defer { folder.remove() }
        let first = try Self.anchor()
        let second = try AuditAnchor.signed(entries: 500, lastID: 1_100, head: "ef", at: Self.at.addingTimeInterval(86_400), privateKey: Self.key)
        let syslog = [
            "Nov 25 06:00:01 host CRON[12]: (root) CMD (timetrack-admin import --all)", "Nov 25 06:00:09 host timetrack: \(first.line)",
            "Nov 26 06:00:09 host timetrack: \(second.line)", "Nov 26 06:00:10 host sshd[99]: session closed", "",
        ]
        try folder.write("syslog", syslog.joined(separator: "\n"))
        #expect(try AuditAnchor.last(inFile: folder.path("syslog")) == second)
        // A long log: only its last megabyte is read, and the anchor in it is found.
        let filler = String(repeating: "Nov 26 06:00:11 host kernel: noise\n", count: 40_000)
        try folder.write("long", first.line + "\n" + filler + second.line + "\n")
        #expect(try AuditAnchor.last(inFile: folder.path("long")) == second)
        try folder.write("old", first.line + "\n" + filler)
        let none = try #require(throws: TimeTrackError.self) { try AuditAnchor.last(inFile: folder.path("old")) }
        #expect(none.message == "the file holds no audit anchor")
        let missing = try #require(throws: TimeTrackError.self) { try AuditAnchor.last(inFile: folder.path("missing")) }
        #expect(missing.message == "cannot read the anchor file")
    }
}
