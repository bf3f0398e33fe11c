import Foundation
import TestSupport
import Testing
import TimeTrackConsole
import TimeTrackCore

/// A table printed to an 80-column terminal stays within it and keeps its columns aligned
/// whatever the text: Chinese, Korean and Vietnamese names, emoji, accents.
@Suite struct TableWidthTests {
    static let rows = [
        ["e12", "pending", "家长会 (Parent Conference) — 第二学期", "Lincoln Elementary"],
        ["e13", "published", "학부모 상담 주간 안내", "Hillcrest"],
        ["a7", "pending", "Họp phụ huynh học sinh lớp 5", "Trường Tiểu học Lincoln"],
        ["a8", "rejected", "🎉 Homecoming 🏈 Friday!", "Lakeside High"],
        ["p3", "pending", "Plain ASCII title", "District"],
    ]

    @Test(arguments: [80, 60, 40])
    func linesFitTheWidthAndColumnsLineUp(_ width: Int) {
        let table = Table(headers: ["ID", "STATUS", "TITLE", "SCHOOL"], rows: Self.rows)
        let lines = table.render(width: width)
        #expect(lines.count == Self.rows.count + 1)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(width): \(line) is \(DisplayWidth.of(line)) columns")
        }
        // Every line's status column starts where the header's does, and so does its title.
        let statusColumn = DisplayWidth.of(String(lines[0].prefix { $0 != "S" }))
        for line in lines.dropFirst() {
            let idCell = line.prefix { $0 != " " }
            let afterID = line.dropFirst(idCell.count).prefix { $0 == " " }
            #expect(DisplayWidth.of(String(idCell)) + afterID.count == statusColumn, "\(line)")
        }
        // The last column starts where its header does on every line (the title, the widest, is cut).
        let schoolColumn = DisplayWidth.of(lines[0]) - DisplayWidth.of("SCHOOL")
        for (line, row) in zip(lines.dropFirst(), Self.rows) where DisplayWidth.of(row[3]) < width / 4 {
            #expect(DisplayWidth.of(line) - DisplayWidth.of(row[3]) == schoolColumn, "\(width): \(line)")
        }
    }

    @Test func aWideCellIsCutWithAnEllipsisAtAColumnNotInsideACharacter() {
        let table = Table(headers: ["ID", "TITLE"], rows: [["e1", String(repeating: "学", count: 60)]])
        let lines = table.render(width: 40)
        #expect(lines[1].hasSuffix("…"))
        #expect(DisplayWidth.of(lines[1]) <= 40)
        #expect(lines[1].unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
    }

    @Test func aRowWithMoreCellsThanHeadersDoesNotTrap() {
        let table = Table(headers: ["ID"], rows: [["e1", "extra", "more"]])
        #expect(table.render(width: 80).last == "e1  extra  more")
    }

    @Test func twoHugeCellsShareTheWidth() {
        let huge = String(repeating: "word ", count: 40_000)
        let lines = Table(headers: ["ID", "TITLE", "BODY"], rows: [["e1", huge, huge]]).render(width: 80)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(lines.map { DisplayWidth.of($0) })")
        #expect(lines[1].components(separatedBy: "…").count == 3)
    }
}

/// Issue 48: at 80 columns the columns a person must read or type stay whole (ids typed next,
/// states, a guessed time's `?`); the other columns give way.
@Suite struct WholeColumnsTests {
    @Test func idsStatesAndMarkersAreNeverCut() {
        var table = Table(headers: ["id", "status", "due", "course", "category", "title"])
        table.rows = [
            ["hillcrest-news-2026-09-14-board", "published", "Mon Sep 14 23:59?", "CHEM-AP", "assignment", String(repeating: "Lab report ", count: 10)]
        ]
        let lines = table.render(width: 80)
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(line)") }
        #expect(lines[1].contains("hillcrest-news-2026-09-14-board") && lines[1].contains("published") && lines[1].contains("23:59?"), "\(lines)")
    }

    @Test func sourcesShowWholeIdsAtEightyColumns() throws {
        let result = try TestSupport.Binaries.run(
            "timetrack-admin", ["--store", "/nonexistent/t.sqlite", "--imports", ConsoleFixture.root.appendingPathComponent("Imports").path, "sources"],
            environment: ["COLUMNS": "80"])
        #expect(result.stdout.contains("hillcrest-absences") && result.stdout.contains("hillcrest-tickets"), "\(result.stdout)")
        for line in result.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }
}
