import Foundation

/// Finds a page's character encoding: byte-order mark, then the HTTP header, then `<meta>`,
/// then UTF-8 if the bytes are valid UTF-8, else Windows-1252 (what browsers assume).
public enum Charset {
    /// The encoding, and a note when a declaration was ignored because the bytes contradict it.
    ///
    /// A page with no byte-order mark whose first bytes hold no NUL is not UTF-16, whatever its
    /// header or `<meta>` says (a `<meta>` that could be read as ASCII proves it; browsers read
    /// such pages as UTF-8, per the HTML standard).
    public static func detectWithNote(_ data: Data, declared: String?) -> (encoding: String, note: String?) {
        let prefix = [UInt8](data.prefix(4))
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { return ("utf-8", nil) }
        if prefix.starts(with: [0xFF, 0xFE]) { return ("utf-16le", nil) }
        if prefix.starts(with: [0xFE, 0xFF]) { return ("utf-16be", nil) }
        let hasNUL = data.prefix(1024).withUnsafeBytes { raw in raw.baseAddress.map { memchr($0, 0, raw.count) != nil } ?? false }
        var note: String?
        if let declared = declared.flatMap(normalize) {
            if declared.hasPrefix("utf-16") && !hasNUL {
                note = "the server declares \(declared), but the bytes are not UTF-16: the declaration was ignored"
            } else {
                return (declared, nil)
            }
        }
        if let meta = metaCharset(data).flatMap(normalize) {
            if meta.hasPrefix("utf-16") {
                let fallback = readsAsUTF8(data) ? "utf-8" : "windows-1252"
                return (fallback, "the page's <meta> declares \(meta), but a page that can say so in ASCII is not UTF-16: read as \(fallback)")
            }
            // A page that says UTF-8 but is not (a common CMS mistake) is read as Windows-1252.
            if meta == "utf-8" && !readsAsUTF8(data) { return ("windows-1252", note) }
            return (meta, note)
        }
        return (readsAsUTF8(data) ? "utf-8" : "windows-1252", note)
    }

    /// The charset named by `<meta charset>` or `<meta http-equiv content="...charset=">` in the first 4 KB.
    public static func metaCharset(_ data: Data) -> String? {
        let needle = Array("charset=".utf8)
        return data.prefix(4096).withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return nil }
            var i = 0
            while i <= bytes.count - needle.count {
                var match = true
                for k in 0..<needle.count {
                    var b = bytes[i + k]
                    if b >= 65 && b <= 90 { b += 32 }
                    if b != needle[k] { match = false; break }
                }
                if match {
                    var j = i + needle.count
                    while j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") || bytes[j] == 32 { j += 1 }
                    var name: [UInt8] = []
                    while j < bytes.count {
                        var b = bytes[j]
                        if b >= 65 && b <= 90 { b += 32 }
                        guard (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") else { break }
                        name.append(b)
                        j += 1
                    }
                    return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
                }
                i += 1
            }
            return nil
        }
    }

    /// A charset name libxml2 understands, or nil for an unknown one.
    static func normalize(_ name: String) -> String? {
        let n = name.trimmingSpacesAndNewlines().lowercased()
        switch n {
        case "utf-8", "utf8": return "utf-8"
        case "iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii", "windows-1252", "cp1252", "x-cp1252":
            // Browsers read all of these as Windows-1252; so do we (it is a superset).
            return "windows-1252"
        case "utf-16", "utf-16le", "utf-16be", "iso-8859-2", "iso-8859-15", "windows-1251", "windows-1250", "koi8-r", "shift_jis", "euc-jp", "gb2312", "big5":
            return n
        default: return nil
        }
    }

    /// How much of a page is checked for UTF-8.
    static let checkedPrefix = 1 << 20

    /// Whether a page's first megabyte is valid UTF-8; a sequence cut by that limit is not
    /// held against it, one cut by the page's own end is.
    static func readsAsUTF8(_ data: Data) -> Bool {
        isValidUTF8(data.prefix(checkedPrefix), allowingCutEnd: data.count > checkedPrefix)
    }

    /// Whether bytes are valid UTF-8 (RFC 3629); with `allowingCutEnd`, a multi-byte sequence
    /// cut at the very end is allowed.
    static func isValidUTF8(_ data: Data, allowingCutEnd: Bool = false) -> Bool {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var index = 0
            guard let base = raw.baseAddress else { return true }
            while index < count {
                // Eight ASCII bytes at a time (nearly every page is mostly ASCII).
                if index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x80 {
                    index += 1
                    continue
                }
                // The lead byte gives the length and the range the second byte must be in, which
                // refuses overlong forms (C0, C1, E0 80…9F, F0 80…8F), surrogates (ED A0…BF) and
                // values past U+10FFFF (F4 90…, F5…FF), as RFC 3629 does.
                let length: Int
                var second: ClosedRange<UInt8> = 0x80...0xBF
                switch byte {
                case 0xC2...0xDF: length = 2
                case 0xE0: (length, second) = (3, 0xA0...0xBF)
                case 0xED: (length, second) = (3, 0x80...0x9F)
                case 0xE1...0xEF: length = 3
                case 0xF0: (length, second) = (4, 0x90...0xBF)
                case 0xF4: (length, second) = (4, 0x80...0x8F)
                case 0xF1...0xF3: length = 4
                default: return false
                }
                let available = min(length, count - index)
                if available > 1, !second.contains(bytes[index + 1]) { return false }
                if available > 2 {
                    for offset in 2..<available where bytes[index + offset] & 0xC0 != 0x80 { return false }
                }
                // A sequence cut by the end of the bytes read (a 1 MB prefix) is not held against it.
                if available < length { return allowingCutEnd }
                index += length
            }
            return true
        }
    }
}
