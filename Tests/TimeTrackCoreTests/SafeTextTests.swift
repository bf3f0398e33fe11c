import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

@Suite struct SafeTextTests {
    @Test func preparedContentIsClean() throws {
        let content = Samples.announcement("x\u{1B}[2J\u{202E}y")
        let json = content.canonicalJSON()
        #expect(SafeText.mayHoldUnsafe(json: json), "\(json)")
        let made = content.madeSafe()
        #expect(made.content.title == "x[2Jy", "\(made.json)")
        let prepared = try PreparedContent(content)
        #expect(prepared.content.title == "x[2Jy")
    }
}
