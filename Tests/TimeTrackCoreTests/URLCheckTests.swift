import Foundation
import TestSupport
import Testing

@testable import TimeTrackCore

/// `Check.urlProblem`'s byte-level fast path vouches only for URLs `URLComponents` accepts.
@Suite struct URLCheckTests {
    @Test func theFastPathAcceptsOnlyWhatURLComponentsAccepts() {
        let pieces = [
            "http", "https", "HTTPS", "hTtp", "://", ":/", "//", "/", "a", "Z", "9", ".", "-", "_", "~", "example", "school.example", ":", ":8080", "@",
            "user@",
            "?", "#", "&", "=", "%", "%20", "%zz", "[", "]", "[::1]", " ", "é", "!", "$", "'", "(", ")", "*", "+", ",", ";", "\\", "^", "`", "{", "|", "\"",
            "<",
        ]
        var random = SplitMix64(state: 42)
        var vouched = 0
        for _ in 0..<100_000 {
            var text = ["http://", "https://", "HTTP://", "http:/", ""][random.int(0...4)]
            for _ in 0..<random.int(0...8) { text += pieces[random.int(0...(pieces.count - 1))] }
            if Check.isPlainWebURL(text) {
                vouched += 1
                #expect(Check.parsedURLProblem(text) == nil, "\(text.debugDescription)")
            }
        }
        #expect(vouched > 1_500, "\(vouched)")
        for good in ["https://school.example/news/1.html?x=1&y=2#top", "HTTP://A-B.example", "https://x.example/a(b)/c;d=e,f@g:h"] {
            #expect(Check.isPlainWebURL(good) && Check.urlProblem(good) == nil, "\(good)")
        }
        for other in [
            "https://x.example:8080/", "https://user@x.example/", "https://x.example/%20", "ftp://x.example/", "https:///path", "/news/1.html",
            "https://x.example/a b",
        ] {
            #expect(!Check.isPlainWebURL(other), "\(other)")
        }
        #expect(Check.urlProblem("/news/1.html")?.contains("relative link") == true)
        #expect(Check.urlProblem("ftp://x.example/")?.contains("only http and https") == true)
    }
}
