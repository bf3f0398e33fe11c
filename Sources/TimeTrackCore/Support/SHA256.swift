#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 (FIPS 180-4), for page hashes, content hashes and document fingerprints.
///
/// Foundation on Linux has no CryptoKit; this is a small, streaming implementation. One-shot
/// hashes (`hex`) use the system's libcrypto when it is there (it is already loaded into every
/// process that links FoundationNetworking, through libcurl), which uses the CPU's SHA
/// instructions: several times faster on the page hashes every fetch computes. Without it,
/// the Swift code below gives the same digests.
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let kTable: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// A new hasher.
    public init() {}

    /// Feeds bytes.
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if handled == nil { update(buffer: Array(bytes)) }
    }

    private mutating func update(buffer chunk: [UInt8]) {
        chunk.withUnsafeBytes { update(buffer: $0) }
    }

    /// Feeds raw bytes: whole 64-byte blocks go straight from the buffer.
    public mutating func update(buffer chunk: UnsafeRawBufferPointer) {
        var offset = 0
        length &+= UInt64(chunk.count)
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, chunk.count)
            buffer.append(contentsOf: chunk[0..<take])
            offset = take
            if buffer.count == 64 {
                let block = buffer
                block.withUnsafeBytes { if let base = $0.baseAddress { compress(base) } }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        guard let base = chunk.baseAddress else { return }
        while chunk.count - offset >= 64 {
            compress(base + offset)
            offset += 64
        }
        if offset < chunk.count { buffer.append(contentsOf: chunk[offset...]) }
    }

    /// Finishes and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            while buffer.count < 64 { buffer.append(0) }
            let block = buffer
            block.withUnsafeBytes { if let base = $0.baseAddress { compress(base) } }
            buffer.removeAll(keepingCapacity: true)
        }
        while buffer.count < 56 { buffer.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let last = buffer
        last.withUnsafeBytes { if let base = $0.baseAddress { compress(base) } }
        buffer.removeAll()
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state { for shift in [24, 16, 8, 0] { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) } }
        return digest
    }

    private mutating func compress(_ pointer: UnsafeRawPointer) {
        // The state is copied into locals and back once per block: no array access (with its
        // uniqueness and bounds checks) inside the 64 rounds.
        var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
        var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
        SHA256.compressBlock(pointer, &h0, &h1, &h2, &h3, &h4, &h5, &h6, &h7)
        state[0] = h0; state[1] = h1; state[2] = h2; state[3] = h3
        state[4] = h4; state[5] = h5; state[6] = h6; state[7] = h7
    }

    /// One 64-byte block into the eight state words.
    @inline(__always)
    private static func compressBlock(
        _ pointer: UnsafeRawPointer, _ h0: inout UInt32, _ h1: inout UInt32, _ h2: inout UInt32, _ h3: inout UInt32,
        _ h4: inout UInt32, _ h5: inout UInt32, _ h6: inout UInt32, _ h7: inout UInt32
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            guard let w = buffer.baseAddress else { return }
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: pointer.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            }
            for i in 16..<64 {
                let a = w[i - 15], b = w[i - 2]
                let s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a &>> 3)
                let s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b &>> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var a = h0, b = h1, c = h2, d = h3
            var e = h4, f = h5, g = h6, h = h7
            kTable.withUnsafeBufferPointer { table in
                guard let k = table.baseAddress else { return }
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
            h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
        }
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    /// The lowercase hex SHA-256 of some bytes.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let fast: String?? = bytes.withContiguousStorageIfAvailable { buffer in
            SystemDigest.shared?.sha256Hex(UnsafeRawBufferPointer(buffer))
        }
        if let fast, let fast { return fast }
        return portableHex(bytes)
    }

    /// Sets libcrypto up now (found, checked against a known digest, its SHA-256 fetched):
    /// OpenSSL 3 reads its configuration and loads its provider then, a millisecond or two.
    ///
    /// Call it on a thread that would otherwise wait, so that the first hash does not.
    public static func prepare() { _ = SystemDigest.shared }

    /// The same digest computed by the Swift implementation only (tests compare the two).
    public static func portableHex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hexString(hasher.finalize())
    }

    static func hexString(_ digest: [UInt8]) -> String {
        digest.withUnsafeBufferPointer { hexString($0) }
    }

    /// Lowercase hex of some bytes, written straight into the string's storage.
    static func hexString(_ digest: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: digest.count * 2) { text in
            func digit(_ value: UInt8) -> UInt8 { value < 10 ? value + 48 : value + 87 }
            for (index, byte) in digest.enumerated() {
                text[index * 2] = digit(byte >> 4)
                text[index * 2 + 1] = digit(byte & 15)
            }
            return digest.count * 2
        }
    }

    /// Whether `text` is a SHA-256 in hex: 64 ASCII hexadecimal digits.
    ///
    /// `lowercase`: only as `hex` writes them, for a file name made from it. Fullwidth digits
    /// and letters, which `Character.isHexDigit` accepts, are not.
    public static func isHex(_ text: String, lowercase: Bool = false) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (!lowercase && (65...70).contains($0)) }
    }

    /// The lowercase hex SHA-256 of a string's UTF-8 (read in place, not copied).
    public static func hex(_ string: String) -> String {
        var string = string
        let fast: String? = string.withUTF8 { buffer in SystemDigest.shared?.sha256Hex(UnsafeRawBufferPointer(buffer)) }
        return fast ?? portableHex(string.utf8)
    }
}

/// libcrypto's one-shot digest, looked up at run time (no link-time dependency).
struct SystemDigest: @unchecked Sendable {
    typealias DigestFn =
        @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias MDFn = @convention(c) () -> OpaquePointer?
    typealias FetchFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?

    let digest: DigestFn
    let method: OpaquePointer

    /// libcrypto 3 or 1.1 when present and working (checked against a known vector), else nil.
    ///
    /// `TIMETRACK_PORTABLE_SHA=1` turns it off.
    static let shared: SystemDigest? = {
        #if canImport(Glibc)
        if getenv("TIMETRACK_PORTABLE_SHA") != nil { return nil }
        for name in ["libcrypto.so.3", "libcrypto.so.1.1"] {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let digest = dlsym(handle, "EVP_Digest"), let sha = dlsym(handle, "EVP_sha256"),
                let legacy = unsafeBitCast(sha, to: MDFn.self)()
            else { continue }
            // libcrypto 3 looks the implementation up on every call given EVP_sha256() (a tenth
            // of a short digest's time); fetched once, it does not.
            var method = legacy
            if let fetch = dlsym(handle, "EVP_MD_fetch"), let fetched = unsafeBitCast(fetch, to: FetchFn.self)(nil, "SHA256", nil) { method = fetched }
            let candidate = SystemDigest(digest: unsafeBitCast(digest, to: DigestFn.self), method: method)
            let abc: [UInt8] = Array("abc".utf8)
            let check = abc.withUnsafeBytes { candidate.sha256($0) }
            if let check, SHA256.hexString(check) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" { return candidate }
        }
        #endif
        return nil
    }()

    /// The 32-byte digest, or nil if libcrypto failed (then the Swift code computes it).
    func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: 32)
        var size: UInt32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            digest(bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), bytes.count, out.baseAddress, &size, method, nil)
        }
        return ok == 1 && size == 32 ? output : nil
    }

    /// The digest as lowercase hex, with no array in between; nil if libcrypto failed.
    func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { output -> String? in
            var size: UInt32 = 0
            let ok = digest(bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), bytes.count, output.baseAddress, &size, method, nil)
            guard ok == 1, size == 32 else { return nil }
            return SHA256.hexString(UnsafeBufferPointer(rebasing: output[0..<32]))
        }
    }
}
