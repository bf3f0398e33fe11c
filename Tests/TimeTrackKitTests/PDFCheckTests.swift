import Foundation
import TestSupport
import Testing
import TimeTrackCore

@testable import TimeTrackKit

/// The PDF check on documents written in the test: each failure alone, and the clean twin.
@Suite struct PDFCheckTests {
    static let lines = ["Bell Schedule 2026-27", "First period 8:05 - 8:55", "Lunch 11:40 - 12:10"]

    /// Skips (and fails in CI) when poppler is missing.
    static func popplerReady() -> Bool {
        if PDFCheck.available { return true }
        if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("poppler-utils is missing (.ci/run installs it)") }
        return false
    }

    @Test func theCleanTwinHasNoProblems() throws {
        guard Self.popplerReady() else { return }
        let clean = TestPDF.text(Self.lines, title: "Bell Schedule", language: "en-US", tagged: true)
        #expect(try PDFCheck.problems(of: clean) == [])
        let info = SchoolInfoItem(
            section: .schedules, title: "Bell Schedule", url: "https://x.example/bell.pdf", documentType: .pdf,
            documentProblems: try PDFCheck.problems(of: clean))
        #expect(AccessibilityCheck.findings(.schoolInfo(info)).isEmpty)
    }

    @Test func aScanHasNoTextLayer_1_1_1() throws {
        guard Self.popplerReady() else { return }
        let dir = try TemporaryDirectory("pdf-scan")
        defer { dir.remove() }
        guard let scan = try TestPDF.scanned(Self.lines, in: dir) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("ImageMagick is missing") }
            return
        }
        let problems = try PDFCheck.problems(of: scan)
        #expect(problems == [.noText, .untagged, .noTitle, .noLanguage])
        let info = SchoolInfoItem(
            section: .schedules, title: "Bell Schedule", url: "https://x.example/bell.pdf", documentType: .pdf, documentProblems: problems)
        let criteria = AccessibilityCheck.findings(.schoolInfo(info)).map(\.criterion)
        #expect(criteria == ["1.1.1", "1.3.1", "2.4.2", "3.1.1"])
        #expect(AccessibilityCheck.findings(.schoolInfo(info)).first?.fix.contains("ocr ID") == true)
    }

    @Test func anUntaggedDocumentIsFlagged_1_3_1() throws {
        guard Self.popplerReady() else { return }
        #expect(try PDFCheck.problems(of: TestPDF.text(Self.lines, title: "Bell Schedule", language: "en-US", tagged: false)) == [.untagged])
    }

    @Test func aDocumentWithoutATitleIsFlagged_2_4_2() throws {
        guard Self.popplerReady() else { return }
        #expect(try PDFCheck.problems(of: TestPDF.text(Self.lines, title: nil, language: "en-US", tagged: true)) == [.noTitle])
    }

    @Test func aDocumentWithoutALanguageIsFlagged_3_1_1() throws {
        guard Self.popplerReady() else { return }
        #expect(try PDFCheck.problems(of: TestPDF.text(Self.lines, title: "Bell Schedule", language: nil, tagged: true)) == [.noLanguage])
    }

    @Test func whatIsNotAPDFIsRefusedWithAMessage() throws {
        let error = #expect(throws: TimeTrackError.self) { try PDFCheck.problems(of: Data("<html>Bell schedule</html>".utf8)) }
        #expect(error?.message.contains("not a PDF") == true)
    }

    @Test func aMissingToolIsAMessageThatNamesThePackage() throws {
        let tool = ExternalTool("timetrack-no-such-tool", package: "poppler-utils")
        let error = #expect(throws: TimeTrackError.self) { try tool.run([]) }
        #expect(error?.message == "timetrack-no-such-tool is not installed")
        #expect(error?.fix == "apt-get install poppler-utils")
    }
}
