import Testing
import TimeTrackKit

/// A problem quotes page text (a title, a photo's file name): printed, it carries no control
/// or bidi character, whatever the page held.
@Suite struct ImportProblemTests {
    @Test func aProblemPrintsNoEscapeSequence() {
        let problem = ImportProblem(.error, "skipped 'Title\u{1B}]0;owned\u{07}\u{202E}': no date", location: "sheet\u{1B}[2J.jpg line 3")
        let shown = problem.description
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(shown.debugDescription)")
        #expect(shown.contains("skipped 'Title") && shown.contains("line 3"))
    }
}
