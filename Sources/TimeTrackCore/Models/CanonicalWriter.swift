import Foundation

/// Canonical JSON written by hand for the commonest content, byte for byte what
/// `JSONCoding.compactString` (JSONEncoder: sorted keys, slashes unescaped, ISO 8601 dates,
/// nil fields left out) writes: the encoder was a quarter of normalizing an item.
///
/// `CanonicalWriterTests` compares the two on generated content.
struct CanonicalWriter {
    private(set) var bytes: [UInt8] = []
    private var first = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Dates the writer formats as the encoder does: the proleptic Gregorian calendar `gmtime`
    /// uses and the encoder's formatter agree from 1583 on; outside these years, use the encoder.
    static func writable(_ date: Date?) -> Bool {
        guard let date else { return true }
        return date.timeIntervalSince1970 >= -2_208_988_800 && date.timeIntervalSince1970 < 253_402_300_800  // 1900 to 9999
    }

    private mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONStringBytes.append(value, to: &bytes, shortEscapes: true)
    }

    mutating func strings(_ name: StaticString, _ values: [String]?) {
        guard let values else { return }
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONStringBytes.append(value, to: &bytes, shortEscapes: true)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func date(_ name: StaticString, _ value: Date?) {
        string(name, value.map(StoreDate.format))
    }

    mutating func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A JSON string literal's bytes: `"`, `\` and control characters escaped, everything else as
/// UTF-8.
///
/// Runs of bytes that need no escape (most of a text) are copied whole.
public enum JSONStringBytes {
    /// - Parameter shortEscapes: `\b`, `\f`, `\n`, `\r` and `\t` for those five controls, as
    ///   `JSONEncoder` writes them; false writes every control as `\u00XX` (the audit chain's form).
    public static func append(_ value: String, to bytes: inout [UInt8], shortEscapes: Bool) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var run = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if run < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index])) }
                run = index + 1
                switch (byte, shortEscapes) {
                case (UInt8(ascii: "\""), _): bytes.append(contentsOf: [92, 34])
                case (UInt8(ascii: "\\"), _): bytes.append(contentsOf: [92, 92])
                case (0x08, true): bytes.append(contentsOf: [92, UInt8(ascii: "b")])
                case (0x0C, true): bytes.append(contentsOf: [92, UInt8(ascii: "f")])
                case (0x0A, true): bytes.append(contentsOf: [92, UInt8(ascii: "n")])
                case (0x0D, true): bytes.append(contentsOf: [92, UInt8(ascii: "r")])
                case (0x09, true): bytes.append(contentsOf: [92, UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
            if run < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension Announcement {
    /// The canonical JSON, written by hand (nil: a date the writer leaves to the encoder, or
    /// linked documents, which are rare).
    func handWrittenJSON() -> String? {
        guard CanonicalWriter.writable(publishedAt), CanonicalWriter.writable(expiresAt), CanonicalWriter.writable(publishAt),
            CanonicalWriter.writable(reviewBy),
            linkedDocuments == nil
        else { return nil }
        var writer = CanonicalWriter(capacity: 96 + title.utf8.count + (summary?.utf8.count ?? 0) + (body?.utf8.count ?? 0) + (link?.utf8.count ?? 0))
        // Keys in sorted order.
        writer.string("body", body)
        writer.date("expiresAt", expiresAt)
        writer.string("imageAlt", imageAlt)
        writer.string("imageURL", imageURL)
        writer.string("link", link)
        writer.string("priority", priority.rawValue)
        writer.date("publishAt", publishAt)
        writer.date("publishedAt", publishedAt)
        writer.date("reviewBy", reviewBy)
        writer.string("summary", summary)
        writer.string("title", title)
        return writer.finish()
    }
}

extension Event {
    /// The canonical JSON, written by hand (nil: coordinates, whose numbers the encoder
    /// writes, or a date the writer leaves to it).
    func handWrittenJSON() -> String? {
        guard latitude == nil, longitude == nil, CanonicalWriter.writable(start), CanonicalWriter.writable(end), CanonicalWriter.writable(expiresAt),
            CanonicalWriter.writable(publishAt), CanonicalWriter.writable(reviewBy)
        else { return nil }
        var writer = CanonicalWriter(capacity: 160 + title.utf8.count + (description?.utf8.count ?? 0) + (address?.utf8.count ?? 0) + (link?.utf8.count ?? 0))
        // Keys in sorted order.
        writer.string("address", address)
        writer.bool("allDay", allDay)
        writer.string("category", category.rawValue)
        writer.string("description", description)
        writer.date("end", end)
        writer.date("expiresAt", expiresAt)
        writer.string("link", link)
        writer.string("locationName", locationName)
        writer.date("publishAt", publishAt)
        writer.date("reviewBy", reviewBy)
        writer.date("start", start)
        writer.string("state", state.rawValue)
        writer.string("timeZone", timeZone)
        writer.string("title", title)
        return writer.finish()
    }
}

extension SchoolInfoItem {
    /// The canonical JSON, written by hand.
    func handWrittenJSON() -> String? {
        guard CanonicalWriter.writable(expiresAt), CanonicalWriter.writable(publishAt), CanonicalWriter.writable(reviewBy) else { return nil }
        var writer = CanonicalWriter(capacity: 96 + title.utf8.count + url.utf8.count + (group?.utf8.count ?? 0))
        // Keys in sorted order.
        writer.string("accessibleCopy", accessibleCopy)
        writer.strings("documentProblems", documentProblems?.map(\.rawValue))
        writer.string("documentType", documentType.rawValue)
        writer.date("expiresAt", expiresAt)
        writer.string("fingerprint", fingerprint)
        writer.string("group", group)
        writer.date("publishAt", publishAt)
        writer.date("reviewBy", reviewBy)
        writer.string("section", section.rawValue)
        writer.string("title", title)
        writer.string("url", url)
        return writer.finish()
    }
}
