import Foundation
import TestSupport
import Testing
import TimeTrackKit

/// `MemoWriter` and `MemoReader`: what one writes the other reads back, small integers take one
/// byte, and a memo cut short reads as nothing rather than as a wrong value.
@Suite struct MemoCodingTests {
    @Test func integersRoundTripInAsFewBytesAsTheyNeed() {
        let values = [0, 1, -1, 63, -64, 64, 127, 128, 300, -300, 1 << 40, Int.max, Int.min]
        var writer = MemoWriter()
        for value in values { writer.write(value) }
        var reader = MemoReader(writer.data)
        #expect(values.map { _ in reader.readInt() } == values)
        #expect(reader.isAtEnd)
        // Zigzag: 0…63 and -1…-64 in one byte; Int.max and Int.min in ten.
        for (value, bytes) in [(0, 1), (63, 1), (-64, 1), (64, 2), (-65, 2), (Int.max, 10), (Int.min, 10)] {
            var one = MemoWriter()
            one.write(value)
            #expect(one.data.count == bytes, "\(value)")
        }
    }

    @Test func aListingShapedMemoRoundTrips() {
        var writer = MemoWriter()
        writer.write("https://s.example/news/page-2.html")
        writer.write(10)
        writer.write(Optional<String>.none)
        writer.write(["title": "Café ☕", "link": "https://s.example/a.html", "": ""])
        var reader = MemoReader(writer.data)
        #expect(reader.readString() == "https://s.example/news/page-2.html")
        #expect(reader.readInt() == 10)
        #expect(reader.readOptionalString() == .some(nil))
        #expect(reader.readDictionary() == ["title": "Café ☕", "link": "https://s.example/a.html", "": ""])
        #expect(reader.isAtEnd)
    }

    @Test func aMemoCutShortReadsAsNothing() {
        var writer = MemoWriter()
        writer.write(1 << 20)
        writer.write("a string long enough to be cut")
        let whole = writer.data
        for length in 0..<whole.count {
            var reader = MemoReader(whole.prefix(length))
            let number = reader.readInt()
            let text = reader.readString()
            #expect(number == nil || text == nil, "cut at \(length)")
        }
        // A run of continuation bytes longer than any integer is refused, not wrapped.
        var endless = MemoReader(Data(repeating: 0xFF, count: 16))
        #expect(endless.readInt() == nil)
    }

    /// A memo row is data from the store: any bytes read as something or as nothing, never a trap.
    @Test func anyBytesReadWithoutATrap() {
        var random = SplitMix64(state: 3)
        var read = 0
        for _ in 0..<3_000 {
            let bytes = Data((0..<random.int(0...40)).map { _ in UInt8(random.int(0...255)) })
            var reader = MemoReader(bytes)
            if reader.readString() != nil { read += 1 }
            _ = reader.readInt()
            _ = reader.readCompact()
            _ = reader.readDictionary()
            _ = reader.readList { $0.readOptionalString() }
            _ = reader.readCompactString()
        }
        #expect(read > 0)
    }
}
