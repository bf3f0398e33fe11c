import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

@Suite struct HTMLDocumentTests {
    /// Without a declared charset, UTF-8 is told from Windows-1252 wherever the first non-ASCII
    /// byte falls (the check reads eight ASCII bytes at a time).
    @Test func utf8IsToldFromWindows1252AtEveryOffset() throws {
        for offset in 0..<24 {
            let head = Array(("<p>" + String(repeating: "x", count: offset)).utf8)
            for (bytes, encoding) in [(Array("é</p>".utf8), "utf-8"), ([0xE9] + Array("</p>".utf8), "windows-1252"), ([0xC3], "windows-1252")] {
                let document = try HTMLDocument(data: Data(head + bytes + Array(String(repeating: "y", count: 30).utf8)), url: nil)
                #expect(document.encoding == encoding, "offset \(offset), \(bytes)")
                if bytes.count > 1 { #expect(document.root.first("p")?.text.hasSuffix("é") == true, "offset \(offset)") }
            }
        }
    }

    @Test func aSelfClosedLinkHoldsTheTextAfterItAsInABrowser() throws {
        let html = #"<p><a href="/x.html"/>Read the news</a> · <A title='a/>b' href=/y.html />Café</a> <img src="i.png"/>after</p>"#
        let document = try HTMLDocument(data: Data(html.utf8), url: URL(string: "https://s.example/"))
        let links = try document.root.select("a")
        #expect(links.map(\.text) == ["Read the news", "Café"])
        #expect(links.map { $0.attribute("href") } == ["/x.html", "/y.html"])
        #expect(links.last?.attribute("title") == "a/>b")
        #expect(document.root.first("p")?.text.hasSuffix("after") == true)
    }

    @Test func lineBreaksAndBlocksSeparateWordsInPlainText() throws {
        let html = "<div class='a'>Main Office<br>42 W. Center St.</div><ul><li>One</li><li>Two</li></ul><p>Inline <b>bold</b>text stays</p>"
        let document = try HTMLDocument(data: Data(html.utf8), url: nil)
        #expect(document.root.first("div")?.text == "Main Office 42 W. Center St.")
        #expect(document.root.first("ul")?.text == "One Two")
        #expect(document.root.first("p")?.text == "Inline boldtext stays")
        #expect(document.root.first("div")?.blockText == "Main Office\n42 W. Center St.")
    }

    @Test func windows1252IsDecoded() throws {
        // “Quoted” café — in Windows-1252 bytes, with a meta that says so.
        var bytes = Array("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"></head><body><p>".utf8)
        bytes += [0x93, 0x51, 0x75, 0x6F, 0x74, 0x65, 0x64, 0x94, 0x20, 0x63, 0x61, 0x66, 0xE9]
        bytes += Array("</p></body></html>".utf8)
        let document = try HTMLDocument(data: Data(bytes), url: nil)
        #expect(document.root.first("p")?.text == "“Quoted” café")
    }

    @Test func pageThatLiesAboutUTF8IsStillReadable() throws {
        var bytes = Array("<html><head><meta charset=\"utf-8\"></head><body><p>".utf8)
        bytes += [0x63, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x6F, 0x6B]  // "café – ok" in 1252
        bytes += Array("</p></body></html>".utf8)
        let document = try HTMLDocument(data: Data(bytes), url: nil)
        #expect(document.root.first("p")?.text == "café – ok")
    }

    @Test func httpCharsetWinsOverMetaAndBOMWinsOverAll() throws {
        let latin = Data([0x3C, 0x70, 0x3E, 0xE9, 0x3C, 0x2F, 0x70, 0x3E])  // <p>é</p>
        #expect(try HTMLDocument(data: latin, url: nil, declaredCharset: "ISO-8859-1").root.first("p")?.text == "é")
        let bom = Data([0xEF, 0xBB, 0xBF] + Array("<p>é</p>".utf8))
        #expect(try HTMLDocument(data: bom, url: nil, declaredCharset: "windows-1252").root.first("p")?.text == "é")
    }

    @Test func textNormalizesWhitespaceAndSkipsScripts() throws {
        let document = try HTMLDocument(html: "<div>  Hello\n\t<b>big</b>&nbsp;&nbsp;world <script>var x = 1;</script><style>p{}</style>\u{200B}!</div>")
        #expect(document.root.first("div")?.text == "Hello big world !")
        let block = try HTMLDocument(html: "<div><p>One</p><p>Two <br>Three</p></div>")
        #expect(block.root.first("div")?.blockText == "One\nTwo\nThree")
    }

    @Test func sanitizerKeepsAllowlistOnly() throws {
        let html = """
            <div class="x"><p style="color:red" onclick="evil()">Hi <a href="javascript:alert(1)">bad</a> <a href="/ok" onmouseover="x()">ok</a></p>
            <script>alert(1)</script><iframe src="https://ads.example"></iframe><img src="data:image/png;base64,AAA" alt="x"><img src="pic.jpg" alt="A pic">
            <form><input name="q"></form><h1>Title</h1><span>kept text</span></div>
            """
        let document = try HTMLDocument(html: html, url: URL(string: "https://school.example/a/b.html"))
        let clean = Sanitizer.sanitize(try #require(document.root.first("div")))
        #expect(!clean.contains("script"))
        #expect(!clean.contains("onclick"))
        #expect(!clean.contains("onmouseover"))
        #expect(!clean.contains("javascript"))
        #expect(!clean.contains("iframe"))
        #expect(!clean.contains("style"))
        #expect(!clean.contains("data:"))
        #expect(!clean.contains("input"))
        #expect(clean.contains(#"<a href="https://school.example/ok">ok</a>"#))
        #expect(clean.contains(#"<img src="https://school.example/a/pic.jpg" alt="A pic">"#))
        #expect(clean.contains("<h2>Title</h2>"))
        #expect(clean.contains("kept text"))
        #expect(clean.contains("bad"))
    }

    @Test func hostileInputsNeverTrap() throws {
        // Empty, binary garbage, deep nesting, a NUL in the middle.
        #expect(try HTMLDocument(data: Data(), url: nil).root.select("p").isEmpty)
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        _ = try HTMLDocument(data: garbage, url: nil).root.text
        let deep = String(repeating: "<div>", count: 20_000) + "deep" + String(repeating: "</div>", count: 20_000)
        let document = try HTMLDocument(html: deep)
        _ = document.root.text
        _ = Sanitizer.sanitize(document.root)
        _ = try HTMLDocument(html: "<p>a\u{0}b</p>").root.text
    }

    @Test func documentTypesAndTitles() {
        #expect(DocumentClassifier.documentType(url: "https://x.example/a/School_Schedule.PDF") == .pdf)
        #expect(DocumentClassifier.documentType(url: "https://x.example/fs/resource-manager/view/1234", label: "Agenda (PDF)") == .pdf)
        #expect(DocumentClassifier.documentType(url: "https://x.example/f.xlsx") == .spreadsheet)
        #expect(DocumentClassifier.documentType(url: "https://www.youtube.com/watch?v=1") == .video)
        #expect(DocumentClassifier.documentType(url: "https://docs.google.com/document/d/1/edit") == .document)
        #expect(DocumentClassifier.documentType(url: "https://x.example/x", mimeType: "application/pdf") == .pdf)
        #expect(DocumentClassifier.documentType(url: "https://x.example/about/") == .page)
        #expect(DocumentClassifier.cleanTitle("  Attendance Policy (PDF) ") == "Attendance Policy")
        #expect(DocumentClassifier.cleanTitle("CCSD Regulation 5141.3_R (PDF)") == "CCSD Regulation 5141.3_R")
        // The size and type in brackets at the end (the expression, run only when a ")" is left).
        #expect(DocumentClassifier.cleanTitle("Lunch Menu (pdf, 1.2 MB)") == "Lunch Menu")
        #expect(DocumentClassifier.cleanTitle("Supply List (DOCX) ") == "Supply List")
        #expect(DocumentClassifier.cleanTitle("Bell Schedule (Friday)") == "Bell Schedule (Friday)")
        #expect(DocumentClassifier.section(forHeading: "Bell Schedules") == .schedules)
        #expect(DocumentClassifier.section(forHeading: "Board Policies") == .policies)
    }

    @Test func entitiesAndReadMore() {
        #expect(
            TextNormalizer.decodeEntities("Ebert Outlines First 100 Days &#038; Leadership &amp; more&#8217;s &hellip;")
                == "Ebert Outlines First 100 Days & Leadership & more’s …")
        #expect(TextNormalizer.removeReadMore("The fair is back. Read more…") == "The fair is back.")
        #expect(TextNormalizer.removeReadMore("Register now [&hellip;]".replacingOccurrences(of: "&hellip;", with: "…")) == "Register now")
        #expect(TextNormalizer.plainText(fromHTML: "<p>A&nbsp;<b>b</b></p>") == "A b")
    }

    /// `collapse` (its ASCII byte path and its scalar path) does what the scalar loop alone did.
    @Test func collapseMatchesTheScalarLoop() {
        func reference(_ text: String) -> String {
            var out = String.UnicodeScalarView()
            var pendingSpace = false
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x200B, 0x200C, 0x200D, 0xFEFF, 0xAD: continue
                case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0xA0, 0x2007, 0x202F, 0x3000, 0x2000...0x200A: pendingSpace = true
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                    if pendingSpace && !out.isEmpty { out.append(" ") }
                    pendingSpace = false
                    out.append(scalar)
                }
            }
            return String(out)
        }
        let ascii: [Character] = ["a", "B", " ", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{01}", "\u{7F}", ".", "]"]
        let wider: [Character] = ascii + ["\u{A0}", "\u{2007}", "\u{200B}", "é", "e\u{301}", "\u{AD}", "😀"]
        var state: UInt64 = 16
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for alphabet in [ascii, wider] {
            for _ in 0..<3_000 {
                let text = String((0..<next(14)).map { _ in alphabet[next(alphabet.count)] })
                #expect(TextNormalizer.collapse(text) == reference(text), "\(text.debugDescription)")
            }
        }
        #expect(TextNormalizer.collapse("") == "" && TextNormalizer.collapse("plain words") == "plain words")
    }

    /// The hand-written tail matcher does what the regular expression it replaced did, on
    /// every combination of lead text, tail words, separators and endings.
    @Test func readMoreMatchesTheRegularExpressionItReplaced() throws {
        let reference = try NSRegularExpression(
            pattern: #"\s*(?:\[\s*(?:…|\.\.\.)\s*\]|(?:read|learn|see)\s+more\s*(?:…|\.\.\.|»|›|>|→)?|continue\s+reading\s*(?:…|\.\.\.|»|›|→)?)\s*$"#,
            options: [.caseInsensitive])
        func byRegex(_ text: String) -> String {
            let lower = text.suffix(40).lowercased()
            guard lower.contains("more") || lower.contains("reading") || lower.contains("]") else { return text }
            var result = text
            while let match = reference.firstMatch(in: result, range: NSRange(location: 0, length: (result as NSString).length)), match.range.length > 0 {
                result = (result as NSString).replacingCharacters(in: match.range, with: "")
            }
            return result.trimmingCharacters(in: .whitespaces)
        }
        let leads = ["", "The fair is back.", "Learn about more", "furthermore", "foresee more", "Ünïcode café ", "A\u{00A0}"]
        let tails = [
            "", "Read more", "read  more", "READ MORE", "Learn More", "see more", "seemore", "Continue reading", "continue\treading",
            "[…]", "[ ... ]", "[..]", "more", "reading", "Read more Read more", "[…] Read more",
        ]
        let endings = ["", "…", "...", "....", " »", "›", " >", "→", " ]", "  ", "\u{00A0}", ".", " →  "]
        var checked = 0
        for lead in leads {
            for tail in tails {
                for ending in endings {
                    for joint in ["", " ", "\n"] {
                        let text = lead + joint + tail + ending
                        #expect(TextNormalizer.removeReadMore(text) == byRegex(text), "\(text.debugDescription)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 7 * 16 * 13 * 3)
    }
}
