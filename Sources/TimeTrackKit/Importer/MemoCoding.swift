import Foundation

/// A small length-prefixed binary format for page memos: much cheaper than JSON for the
/// lists of strings importers remember.
///
/// Reading stops (returns nil) on anything malformed.
public struct MemoWriter {
    public private(set) var data = Data()

    public init() {}

    /// Any integer in as few bytes as it needs: zigzag (0, -1, 1, -2… as 0, 1, 2, 3…), then
    /// 7 bits a byte.
    ///
    /// Counts and lengths, the most of a memo, take one byte (they took eight
    /// before memo format 3).
    public mutating func write(_ value: Int) {
        appendVarint(UInt64(bitPattern: Int64(value) << 1) ^ UInt64(bitPattern: Int64(value) >> 63))
    }

    /// Seven bits a byte, the low ones first; the high bit says more follow (LEB128).
    private mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            data.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        data.append(UInt8(rest))
    }

    /// A string's UTF-8 after its length, written by `length`.
    private mutating func append(_ string: String, length: (inout MemoWriter, Int) -> Void) {
        var copy = string
        copy.withUTF8 { bytes in
            length(&self, bytes.count)
            data.append(bytes.baseAddress.map { UnsafeBufferPointer(start: $0, count: bytes.count) } ?? UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    public mutating func write(_ string: String) {
        append(string) { $0.write($1) }
    }

    public mutating func write(_ optional: String?) {
        write(optional == nil ? 0 : 1)
        if let optional { write(optional) }
    }

    public mutating func write(_ dictionary: [String: String]) {
        write(dictionary.count)
        for (key, value) in dictionary {
            write(key)
            write(value)
        }
    }

    /// A non-negative integer in as few bytes as it needs (7 bits a byte, LEB128); a negative
    /// one is written as 0.
    public mutating func writeCompact(_ value: Int) {
        appendVarint(UInt64(max(0, value)))
    }

    /// A string after its length written compactly.
    public mutating func writeCompact(_ string: String) {
        append(string) { $0.writeCompact($1) }
    }

    /// A count, then each element as `element` writes it.
    public mutating func write<Element>(_ list: [Element], _ element: (inout MemoWriter, Element) -> Void) {
        write(list.count)
        for item in list { element(&self, item) }
    }
}

/// Reads what `MemoWriter` wrote.
public struct MemoReader {
    let data: Data
    var offset: Int

    public init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    /// Whether everything was read.
    public var isAtEnd: Bool { offset >= data.endIndex }

    /// The bytes not read yet (a count read from the payload can be no larger).
    public var remaining: Int { max(0, data.endIndex - offset) }

    /// What `write(_: Int)` wrote; nil when cut short or longer than ten bytes.
    public mutating func readInt() -> Int? {
        guard let value = readVarint(bits: 64) else { return nil }
        return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
    }

    /// What `appendVarint` wrote, in at most `bits` bits' worth of bytes; nil when cut short or
    /// longer.
    private mutating func readVarint(bits: UInt64) -> UInt64? {
        guard offset >= data.startIndex else { return nil }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < data.endIndex, shift < bits {
            let byte = data[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    public mutating func readString() -> String? {
        guard let count = readInt(), count >= 0, count <= data.endIndex - offset else { return nil }
        let start = offset - data.startIndex
        // Decoded straight from the buffer: a Data slice per string cost more than the decoding.
        let string = data.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
        offset += count
        return string
    }

    /// What `writeCompact(_: Int)` wrote; nil when cut short or longer than 63 bits.
    public mutating func readCompact() -> Int? {
        guard let value = readVarint(bits: 63), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// What `writeCompact(_: String)` wrote.
    public mutating func readCompactString() -> String? {
        guard let count = readCompact(), count <= data.endIndex - offset else { return nil }
        let start = offset - data.startIndex
        let string = data.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
        offset += count
        return string
    }

    public mutating func readOptionalString() -> String?? {
        guard let flag = readInt() else { return nil }
        if flag == 0 { return .some(nil) }
        guard let string = readString() else { return nil }
        return .some(string)
    }

    /// What `write(_:_:)` wrote: a count, then each element as `element` reads it; nil if
    /// anything is missing.
    public mutating func readList<Element>(_ element: (inout MemoReader) -> Element?) -> [Element]? {
        guard let count = readInt(), count >= 0, count <= 1_000_000 else { return nil }
        var list: [Element] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            guard let item = element(&self) else { return nil }
            list.append(item)
        }
        return list
    }

    public mutating func readDictionary() -> [String: String]? {
        guard let count = readInt(), count >= 0, count < 1_000_000 else { return nil }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for _ in 0..<count {
            guard let key = readString(), let value = readString() else { return nil }
            result[key] = value
        }
        return result
    }
}

/// What an importer remembers of a page in the page memo, in one shape: it writes itself with a
/// `MemoWriter` and reads itself back from a `MemoReader`; a payload that does not read back
/// (another version's, or damaged) is no memo, and the page is read again.
public protocol MemoCodable {
    /// Writes the reading.
    func write(to writer: inout MemoWriter)
    /// Reads it back; nil when the bytes are not one.
    init?(reading reader: inout MemoReader)
}

extension MemoCodable {
    /// The bytes the memo keeps.
    public var encoded: Data {
        var writer = MemoWriter()
        write(to: &writer)
        return writer.data
    }

    /// Reads a kept payload; nil when it does not read back.
    public init?(_ data: Data) {
        var reader = MemoReader(data)
        self.init(reading: &reader)
    }
}
