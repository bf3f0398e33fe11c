import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Ed25519 signatures (RFC 8032) through the system's libcrypto, loaded at run time like
/// `SHA256`'s: the default build links nothing.
///
/// Keys are the raw 32 bytes; signatures 64.
public enum Ed25519 {
    /// Keys and signatures for people: lowercase hex.
    public typealias Bytes = [UInt8]

    /// Why signing is not possible here, or nil when libcrypto (3 or 1.1.1) is loaded.
    public static var unavailable: String? { Library.shared == nil ? "libcrypto (libssl3) with Ed25519 was not found; install libssl3" : nil }

    /// A new private key: 32 bytes from the system's random source.
    public static func newPrivateKey() -> Bytes {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The public key of a 32-byte private key.
    public static func publicKey(of privateKey: Bytes) throws -> Bytes {
        let library = try Library.require()
        return try library.withKey(privateKey, isPrivate: true) { key in
            var size = 32
            var out = Bytes(repeating: 0, count: 32)
            guard library.rawPublic(key, &out, &size) == 1, size == 32 else { throw failure("reading the public key") }
            return out
        }
    }

    /// The 64-byte signature of `message` by `privateKey`.
    public static func sign(_ message: Bytes, privateKey: Bytes) throws -> Bytes {
        let library = try Library.require()
        return try library.withKey(privateKey, isPrivate: true) { key in
            try library.withContext { context in
                guard library.signInit(context, nil, nil, nil, key) == 1 else { throw failure("starting a signature") }
                var size = 64
                var signature = Bytes(repeating: 0, count: 64)
                guard library.sign(context, &signature, &size, message, message.count) == 1, size == 64 else { throw failure("signing") }
                return signature
            }
        }
    }

    /// Whether `signature` is `publicKey`'s signature of `message`.
    public static func verify(_ signature: Bytes, of message: Bytes, publicKey: Bytes) throws -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        let library = try Library.require()
        return try library.withKey(publicKey, isPrivate: false) { key in
            try library.withContext { context in
                guard library.verifyInit(context, nil, nil, nil, key) == 1 else { throw failure("starting a verification") }
                return library.verify(context, signature, signature.count, message, message.count) == 1
            }
        }
    }

    static func failure(_ step: String) -> TimeTrackError {
        TimeTrackError(.database, "Ed25519: libcrypto failed while \(step)", fix: "check that libssl3 is installed and not damaged")
    }

    /// The functions of libcrypto this uses, looked up once.
    struct Library: @unchecked Sendable {
        typealias NewRawFn = @convention(c) (Int32, OpaquePointer?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
        typealias FreeKeyFn = @convention(c) (OpaquePointer?) -> Void
        typealias RawPublicFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32
        typealias NewContextFn = @convention(c) () -> OpaquePointer?
        typealias FreeContextFn = @convention(c) (OpaquePointer?) -> Void
        typealias InitFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
        typealias SignFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int) -> Int32
        typealias VerifyFn = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32

        /// `EVP_PKEY_ED25519` (`NID_ED25519`).
        static let ed25519: Int32 = 1087

        let newPrivate: NewRawFn
        let newPublic: NewRawFn
        let freeKey: FreeKeyFn
        let rawPublic: RawPublicFn
        let newContext: NewContextFn
        let freeContext: FreeContextFn
        let signInit: InitFn
        let sign: SignFn
        let verifyInit: InitFn
        let verify: VerifyFn

        static let shared: Library? = {
            #if canImport(Glibc)
            for name in ["libcrypto.so.3", "libcrypto.so.1.1"] {
                guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
                func symbol<T>(_ name: String, _ type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
                guard let newPrivate = symbol("EVP_PKEY_new_raw_private_key", NewRawFn.self),
                    let newPublic = symbol("EVP_PKEY_new_raw_public_key", NewRawFn.self),
                    let freeKey = symbol("EVP_PKEY_free", FreeKeyFn.self), let rawPublic = symbol("EVP_PKEY_get_raw_public_key", RawPublicFn.self),
                    let newContext = symbol("EVP_MD_CTX_new", NewContextFn.self), let freeContext = symbol("EVP_MD_CTX_free", FreeContextFn.self),
                    let signInit = symbol("EVP_DigestSignInit", InitFn.self), let sign = symbol("EVP_DigestSign", SignFn.self),
                    let verifyInit = symbol("EVP_DigestVerifyInit", InitFn.self), let verify = symbol("EVP_DigestVerify", VerifyFn.self)
                else { continue }
                return Library(
                    newPrivate: newPrivate, newPublic: newPublic, freeKey: freeKey, rawPublic: rawPublic, newContext: newContext, freeContext: freeContext,
                    signInit: signInit, sign: sign, verifyInit: verifyInit, verify: verify)
            }
            #endif
            return nil
        }()

        static func require() throws -> Library {
            guard let shared else { throw TimeTrackError(.system, unavailable ?? "libcrypto is missing", fix: "apt-get install libssl3") }
            return shared
        }

        func withKey<T>(_ bytes: Bytes, isPrivate: Bool, _ body: (OpaquePointer) throws -> T) throws -> T {
            guard bytes.count == 32, let key = (isPrivate ? newPrivate : newPublic)(Self.ed25519, nil, bytes, bytes.count) else {
                throw TimeTrackError(.usage, "not an Ed25519 \(isPrivate ? "private" : "public") key (32 bytes)")
            }
            defer { freeKey(key) }
            return try body(key)
        }

        func withContext<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
            guard let context = newContext() else { throw Ed25519.failure("making a context") }
            defer { freeContext(context) }
            return try body(context)
        }
    }
}

extension Ed25519.Bytes {
    /// Lowercase hex.
    public var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// Bytes from hex text; nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
