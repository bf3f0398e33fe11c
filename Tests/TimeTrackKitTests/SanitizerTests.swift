import Foundation
import TestSupport
import Testing

@testable import TimeTrackKit

/// Issue 36: the sanitizer on its own, not only through the importers: what it keeps, what it
/// drops with its content, how it writes addresses, and (on generated hostile fragments) that
/// nothing outside its allowlist ever comes out and that sanitizing twice changes nothing.
@Suite struct SanitizerTests {
    static let base = URL(string: "https://www.district.k12.us/news/article-1")

    static func clean(_ html: String, renaming: [String: String] = [:]) -> String {
        Sanitizer.sanitize(html: html, baseURL: base, renaming: renaming)
    }

    @Test(arguments: [
        ("<p>Hello <strong>families</strong></p>", "<p>Hello <strong>families</strong></p>"),
        ("<h1>Title</h1>", "<h2>Title</h2>"),
        ("<p>a<br>b</p>", "<p>a<br>b</p>"),
        ("<em>x</em><i>y</i><u>z</u><sup>2</sup><sub>n</sub>", "<em>x</em><i>y</i><u>z</u><sup>2</sup><sub>n</sub>"),
        ("<code>ls</code>", "<code>ls</code>"),
        ("<span style=\"color:red\">red</span>", "red"),
        ("<font face=\"Comic Sans\">old</font>", "old"),
        ("Fish &amp; chips &lt;3", "Fish &amp; chips &lt;3"),
        ("a\u{A0}b", "a&nbsp;b"),
        ("© 2026 — café", "© 2026 — café"),
        ("  lots   of\n\n spaces  ", "lots of spaces"),
    ])
    func keptAsWritten(_ html: String, _ expected: String) {
        #expect(Self.clean(html) == expected, "\(html)")
    }

    @Test(arguments: [
        "<script>alert(1)</script>", "<style>p{color:red}</style>", "<iframe src=\"https://evil.example\"></iframe>",
        "<form action=\"/x\"><input name=\"q\"><button>Go</button></form>", "<noscript>Enable JS</noscript>",
        "<svg><script>alert(1)</script></svg>", "<math><mi>x</mi></math>", "<object data=\"x.swf\"></object>",
        "<embed src=\"x.swf\">", "<template><p>hidden</p></template>", "<video src=\"a.mp4\">fallback</video>",
        "<audio src=\"a.mp3\">fallback</audio>", "<canvas>no canvas</canvas>", "<select><option>1</option></select>",
        "<textarea>typed</textarea>", "<link rel=\"stylesheet\" href=\"x.css\">", "<meta http-equiv=\"refresh\" content=\"0\">",
    ])
    func droppedWithWhatIsInside(_ html: String) {
        #expect(Self.clean("<p>before</p>" + html + "<p>after</p>") == "<p>before</p>\n<p>after</p>", "\(html)")
    }

    @Test(arguments: [
        ("<a href=\"/calendar\">Calendar</a>", "<a href=\"https://www.district.k12.us/calendar\">Calendar</a>"),
        ("<a href=\"menu.pdf\">Menu</a>", "<a href=\"https://www.district.k12.us/news/menu.pdf\">Menu</a>"),
        ("<a href=\"mailto:office@district.k12.us\">Office</a>", "<a href=\"mailto:office@district.k12.us\">Office</a>"),
        ("<a href=\"javascript:alert(1)\">click</a>", "click"),
        ("<a href=\" JaVaScRiPt:alert(1)\">click</a>", "click"),
        ("<a href=\"data:text/html,<script>alert(1)</script>\">x</a>", "x"),
        ("<a href=\"file:///etc/passwd\">x</a>", "x"),
        ("<a name=\"top\">Top</a>", "Top"),
        ("<a href=\"/x\" onclick=\"steal()\" target=\"_blank\" title=\"More\">x</a>", "<a href=\"https://www.district.k12.us/x\" title=\"More\">x</a>"),
        ("<a href=\"/q?a=1&amp;b=2\">q</a>", "<a href=\"https://www.district.k12.us/q?a=1&amp;b=2\">q</a>"),
    ])
    func links(_ html: String, _ expected: String) {
        #expect(Self.clean(html) == expected, "\(html)")
    }

    @Test(arguments: [
        ("<img src=\"/logo.png\" alt=\"District logo\">", "<img src=\"https://www.district.k12.us/logo.png\" alt=\"District logo\">"),
        ("<img src=\"a.png\" onerror=\"x()\" width=\"10\" class=\"big\">", "<img src=\"https://www.district.k12.us/news/a.png\" width=\"10\">"),
        ("<img alt=\"no source\">", ""),
        ("<img src=\"javascript:x()\" alt=\"bad\">", ""),
        ("<img src=\"data:image/png;base64,AAAA\" alt=\"inline\">", ""),
        ("<img src=\"a.png\" alt='say \"hi\"'>", "<img src=\"https://www.district.k12.us/news/a.png\" alt=\"say &quot;hi&quot;\">"),
    ])
    func images(_ html: String, _ expected: String) {
        #expect(Self.clean(html) == expected, "\(html)")
    }

    @Test func blocksAreLinesAndDivisionsAreParagraphBreaks() {
        #expect(Self.clean("<div>one</div><div>two</div>") == "one\ntwo")
        #expect(Self.clean("<ul><li>a</li><li>b</li></ul>") == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>")
        #expect(Self.clean("<table><tr><td colspan=\"2\" style=\"x\">a</td></tr></table>") == "<table>\n<tr><td colspan=\"2\">a</td></tr>\n</table>")
        #expect(Self.clean("<section><p>x</p></section>") == "<p>x</p>")
    }

    @Test func renamedLinksTakeTheirNewText() {
        let renaming = ["https://www.district.k12.us/menu.pdf": "October lunch menu"]
        let html = "<p><a href=\"/menu.pdf\">Click <b>here</b></a> or <a href=\"/other\">here</a></p>"
        #expect(
            Self.clean(html, renaming: renaming)
                == "<p><a href=\"https://www.district.k12.us/menu.pdf\">October lunch menu</a> or <a href=\"https://www.district.k12.us/other\">here</a></p>")
        #expect(
            Self.clean("<a href=\"/m\">x</a>", renaming: ["https://www.district.k12.us/m": "<b>&"])
                == "<a href=\"https://www.district.k12.us/m\">&lt;b&gt;&amp;</a>")
    }

    @Test(arguments: [
        ("a & b", false, "a &amp; b"), ("<x>", false, "&lt;x&gt;"), ("\"q\"", false, "\"q\""), ("\"q\"", true, "&quot;q&quot;"),
        ("\u{A0}", false, "&nbsp;"), ("plain", true, "plain"), ("", false, ""),
    ])
    func escaping(_ text: String, _ attribute: Bool, _ expected: String) {
        #expect(Sanitizer.escape(text, attribute: attribute) == expected)
    }

    @Test func nothingAtAllIsEmpty() {
        #expect(Self.clean("") == "")
        #expect(Self.clean("<!-- a comment -->") == "")
        #expect(Self.clean("<p></p>") == "<p></p>")
    }

    @Test func aDeepPageIsWalkedWithoutRecursion() {
        let deep = String(repeating: "<div><b>", count: 100) + "deep" + String(repeating: "</b></div>", count: 100)
        #expect(Self.clean(deep).contains("<b>deep</b>"))
        // libxml2 stops building the tree 256 levels down (its depth limit without
        // HTML_PARSE_HUGE); a hostile page nested deeper is cut there, not a crash.
        let hostile = String(repeating: "<div><b>", count: 5_000) + "deep" + String(repeating: "</b></div>", count: 5_000)
        #expect(Self.clean(hostile).count < 5_000 * 8)
    }

    @Test func whatFollowsAVoidElementIsKept() {
        #expect(Self.clean("<p>a</p><embed src=\"x.swf\"><p>b</p>") == "<p>a</p>\n<p>b</p>")
        #expect(Self.clean("<p>a<input name=\"q\">b</p>") == "<p>ab</p>")
    }

    // MARK: Generated hostile fragments

    static let hostile = [
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">j</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">t</a>", "<svg onload=alert(1)>", "<iframe src=//evil>", "<p onclick=\"x\">p</p>",
        "<style>*{}</style>", "<div style=\"background:url(javascript:x)\">d</div>", "<a href=\"/ok\">ok</a>", "<b>bold",
        "</p>", "<table><td>cell", "<img src=\"/p.png\" alt=\"&lt;script&gt;\">", "text & more", "<<script>script>",
        "<form><input value=x></form>", "<a href=\"vbscript:msgbox\">v</a>", "<h1 id=x>h</h1>", "<base href=\"https://evil/\">",
        "<object data=x>", "<math><a href=x>m</a></math>", "\u{A0}", "<br/>", "<ul><li>x", "<a href='data:x'>d</a>",
        "<IMG SRC=\"jav\tascript:alert(1)\">", "<p title=\"x\" lang=\"en\">t</p>", "<!--<script>-->",
    ]

    static let allowedNames: Set<String> = Sanitizer.allowedTags

    /// Every tag name written in sanitized HTML (opening and closing).
    static func tagNames(_ html: String) -> [String] {
        var names: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = rest.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
            names.append(String(name).lowercased())
        }
        return names
    }

    @Test func generatedHostileFragmentsComeOutSafeAndStable() {
        var random = SplitMix64(state: 3_636)
        for round in 0..<1_500 {
            let html = (0..<random.int(1...8)).map { _ in Self.hostile[random.int(0...(Self.hostile.count - 1))] }.joined()
            let out = Self.clean(html)
            let lower = out.lowercased()
            #expect(Self.tagNames(out).allSatisfy(Self.allowedNames.contains), "round \(round): \(html) → \(out)")
            #expect(!lower.contains("javascript:") && !lower.contains("vbscript:") && !lower.contains("data:"), "round \(round): \(out)")
            #expect(!lower.contains("onerror") && !lower.contains("onload") && !lower.contains("onclick"), "round \(round): \(out)")
            #expect(!lower.contains("<script") && !lower.contains("<style") && !lower.contains("evil"), "round \(round): \(out)")
            // Line breaks between blocks are layout: read again, they are white space.
            let again = Self.clean(out)
            #expect(again.filter { !$0.isWhitespace } == out.filter { !$0.isWhitespace }, "round \(round): sanitizing twice changed \(out) to \(again)")
        }
    }
}
