import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackStore

/// Issue 36: every value the store binds comes back as it went in, through the C binding:
/// text with NULs and emoji, empty text apart from NULL, blobs with zeros, the extremes of
/// integers and doubles; and a store read as immutable whatever its path holds.
@Suite struct DatabaseValueTests {
    static func value(_ random: inout SplitMix64) -> SQLValue {
        let texts = ["", "a", "café", "日本語", "👩‍👩‍👧", "nul\u{0}inside", "'; DROP TABLE v; --", String(repeating: "x", count: 5_000), "\u{FEFF}bom", "line\nbreak"]
        switch random.int(0...5) {
        case 0: return .null
        case 1: return .integer([0, 1, -1, Int64.max, Int64.min, Int64(random.int(-1_000_000...1_000_000))][random.int(0...5)])
        case 2: return .real([0.0, -0.0, 1.5, -2.25e300, 5e-324, Double.greatestFiniteMagnitude, 0.1 + 0.2][random.int(0...6)])
        case 3, 4: return .text(texts[random.int(0...(texts.count - 1))])
        default: return .blob(Data((0..<random.int(0...64)).map { _ in UInt8(random.int(0...255)) }))
        }
    }

    @Test func valuesComeBackAsTheyWentIn() throws {
        let dir = try TemporaryDirectory("values")
        defer { dir.remove() }
        let db = try Database(path: dir.path("v.sqlite"), create: true)
        defer { db.close() }
        try db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, a, b, c)")
        var random = SplitMix64(state: 3_333)
        var written: [[SQLValue]] = []
        try db.transaction {
            for _ in 0..<600 {
                let row = [Self.value(&random), Self.value(&random), Self.value(&random)]
                written.append(row)
                try db.run("INSERT INTO v (a, b, c) VALUES (?, ?, ?)", row)
            }
        }
        let read = try db.rows("SELECT a, b, c FROM v ORDER BY id") { row in [row.value(0), row.value(1), row.value(2)] }
        #expect(read.count == written.count)
        for (index, (back, sent)) in zip(read, written).enumerated() {
            for (got, wanted) in zip(back, sent) {
                if case .real(let x) = wanted, case .real(let y) = got {
                    #expect(x.bitPattern == y.bitPattern || (x == 0 && y == 0), "row \(index): \(x) came back \(y)")
                } else {
                    #expect(got == wanted, "row \(index): \(wanted) came back \(got)")
                }
            }
        }
    }

    @Test func emptyTextIsNotNullAndAnEmptyBlobIsNotText() throws {
        let dir = try TemporaryDirectory("values")
        defer { dir.remove() }
        let db = try Database(path: dir.path("v.sqlite"), create: true)
        defer { db.close() }
        try db.execute("CREATE TABLE v (a, b, c)")
        try db.run("INSERT INTO v VALUES (?, ?, ?)", [.text(""), .null, .blob(Data())])
        let row = try #require(
            try db.row("SELECT a IS NULL, b IS NULL, typeof(c), length(a) FROM v") { [$0.int(0), $0.int(1), $0.text(2), $0.int(3)] as [Any] })
        #expect(row[0] as? Int == 0 && row[1] as? Int == 1 && row[2] as? String == "blob" && row[3] as? Int == 0)
        #expect(try db.row("SELECT a FROM v") { $0.optionalText(0) } == "")
        #expect(try db.row("SELECT b FROM v") { $0.optionalText(0) } == .some(nil))
    }

    @Test func dayStampsReadBackToTheSecond() throws {
        let dir = try TemporaryDirectory("values")
        defer { dir.remove() }
        let db = try Database(path: dir.path("v.sqlite"), create: true)
        defer { db.close() }
        try db.execute("CREATE TABLE v (d TEXT)")
        var random = SplitMix64(state: 86_400)
        let dates = (0..<200).map { _ in Date(timeIntervalSince1970: TimeInterval(random.int(0...4_102_444_800))) }
        for date in dates { try db.run("INSERT INTO v VALUES (?)", [.date(date)]) }
        let back = try db.rows("SELECT d FROM v ORDER BY rowid") { $0.date(0) }
        #expect(back == dates.map { Optional($0) })
    }

    @Test(arguments: ["plain", "with space", "hash#mark", "question?mark", "per%cent", "ünïcode", "semi;colon"])
    func aStoreIsReadImmutableWhateverItsPathHolds(_ name: String) throws {
        let dir = try TemporaryDirectory("immutable")
        defer { dir.remove() }
        let path = dir.path("\(name).sqlite")
        let writer = try Database(path: path, create: true)
        try writer.execute("CREATE TABLE v (a); INSERT INTO v VALUES ('kept')")
        writer.close()
        let reader = try Database(path: path, create: false, readOnly: true, immutable: true)
        defer { reader.close() }
        #expect(try reader.row("SELECT a FROM v") { $0.text(0) } == "kept")
        #expect(throws: TimeTrackError.self) { try reader.execute("INSERT INTO v VALUES ('no')") }
    }
}
