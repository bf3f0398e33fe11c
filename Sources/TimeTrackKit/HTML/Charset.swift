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
                let fallback = isValidUTF8(data.prefix(1 << 20)) ? "utf-8" : "windows-1252"
                return (fallback, "the page's <meta> declares \(meta), but a page that can say so in ASCII is not UTF-16: read as \(fallback)")
            }
            // A page that says UTF-8 but is not (a common CMS mistake) is read as Windows-1252.
            if meta == "utf-8" && !isValidUTF8(data.prefix(1 << 20)) { return ("windows-1252", note) }
            return (meta, note)
        }
        return (isValidUTF8(data.prefix(1 << 20)) ? "utf-8" : "windows-1252", note)
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

    /// Whether bytes are valid UTF-8 (a cut multi-byte sequence at the very end is allowed).
    static func isValidUTF8(_ data: Data) -> Bool {
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
                let length: Int
                if byte & 0xE0 == 0xC0 {
                    length = 2
                } else if byte & 0xF0 == 0xE0 {
                    length = 3
                } else if byte & 0xF8 == 0xF0 {
                    length = 4
                } else {
                    return false
                }
                if index + length > count { return count - index < 4 }
                for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
                index += length
            }
            return true
        }
    }
}
