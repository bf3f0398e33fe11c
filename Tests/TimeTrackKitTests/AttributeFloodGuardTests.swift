import Foundation
import Testing

@testable import TimeTrackKit

/// The guard against attribute floods reads markup only.
///
/// A page's scripts and styles are not tags, and a stray quote inside a tag opens no value. Real pages (news sites' minified
/// scripts with `i<e.length`) were refused as floods.
@Suite struct AttributeFloodGuardTests {
    static let words = (0..<2_000).map { "w\($0)" }.joined(separator: " ")

    @Test func aScriptIsNotMarkup() throws {
        let page = "<html><body><script>for(i=0;i<e.length;i++){ \(Self.words) }</script><p>Real text.</p></body></html>"
        #expect(HTMLDocument.floodedElement(Data(page.utf8)) == nil)
        let upper = "<html><body><SCRIPT type='text/javascript'>if(a<b && \(Self.words)){}</SCRIPT><style>a<b { \(Self.words) }</style><p>x</p></body></html>"
        #expect(HTMLDocument.floodedElement(Data(upper.utf8)) == nil)
        let document = try HTMLDocument(data: Data(page.utf8), url: nil)
        #expect(document.root.text.contains("Real text."))
    }

    @Test func aStrayQuoteInATagOpensNoValue() {
        let page = "<p class=note data-x=it's>One</p><p>\(Self.words)</p><p class=\"y\">Two</p>"
        #expect(HTMLDocument.floodedElement(Data(page.utf8)) == nil)
    }

    @Test func aRealFloodIsStillFound() {
        let flood = (0..<5_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        #expect(HTMLDocument.floodedElement(Data("<script>x</script><h2 \(flood)>t</h2>".utf8)) != nil)
        // A script that never closes hides nothing after it.
        #expect(HTMLDocument.floodedElement(Data("<script>x<h2 \(flood)>t</h2>".utf8)) != nil)
    }
}
