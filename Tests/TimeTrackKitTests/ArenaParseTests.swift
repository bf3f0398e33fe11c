import CLibXML2
import Foundation
import Testing
import TimeTrackFuzz

@testable import TimeTrackKit

/// Pages parsed into an arena (`CXMLArena`) against the same pages parsed with libxml2's own
/// allocations: the trees must be the same, whatever the markup, wherever the arena fills up,
/// and whichever thread lets the document go.
@Suite struct ArenaParseTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HTMLImporterTests/Fixtures")

    /// Markup of every kind the parser recovers from: nesting, entities, comments, scripts,
    /// unclosed and stray tags, attributes without values or quotes, non-ASCII text.
    static func page(_ random: inout SplitMix) -> String {
        let pieces = [
            "<div class='a b'>", "</div>", "<p>", "</p>", "<ul><li>one<li>two</ul>", "<table><tr><td>cell", "</table>",
            "<a href=\"/x?a=1&amp;b=2\">link</a>", "<a href=/y title='it’s'>", "</a>", "<!-- note -->", "<script>if (a < b) x()</script>",
            "<style>p{color:red}</style>", "café &eacute; &#233; &nbsp; &bogus; ", "<br>", "<br/>", "<img src=i.png alt>", "<input checked>",
            "</span>", "<b><i>crossed</b></i>", "<h2 id=t>Title</h2>", "<time datetime=\"2026-11-25T08:00\">Nov 25</time>", "\n  ",
            "<![CDATA[x]]>", "<?php echo 1 ?>", "<select><option>a<option>b</select>", "text ", "<p class=\"fsBody\">Body <em>here</em>",
            "<!DOCTYPE html>", "<head><title>T</title></head>", "<body>", "<base href=\"/sub/\">", String(repeating: "long text ", count: 50),
        ]
        var html = ""
        for _ in 0..<Int.random(in: 1...80, using: &random) { html += pieces.randomElement(using: &random) ?? "" }
        return html
    }

    /// The whole tree as libxml2 writes it, plus what the selectors read.
    static func fingerprint(_ document: HTMLDocument) -> String {
        let links = (try? document.root.select("a").map { $0.attribute("href") ?? "-" }.joined(separator: "|")) ?? "?"
        return document.root.children.map(\.outerHTML).joined() + "\n" + document.root.text + "\n" + links + "\n" + (document.baseURL?.absoluteString ?? "")
    }

    static func parse(_ html: String, arenaLimit: Int?) throws -> HTMLDocument {
        try HTMLDocument(data: Data(html.utf8), url: URL(string: "https://school.example/news/"), declaredCharset: nil, arenaLimit: arenaLimit)
    }

    @Test func anArenaTreeIsTheTreeLibxml2BuildsAlone() throws {
        var random = SplitMix(state: 16)
        var pages = try FileManager.default.contentsOfDirectory(at: Self.fixtures, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "html" }.map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(pages.count >= 5)
        for _ in 0..<300 { pages.append(Self.page(&random)) }
        for html in pages {
            let inArena = try Self.parse(html, arenaLimit: nil)
            let alone = try Self.parse(html, arenaLimit: 0)
            #expect(inArena.arenaBytes > 0)
            #expect(alone.arenaBytes == 0)
            #expect(Self.fingerprint(inArena) == Self.fingerprint(alone), "\(html.prefix(200))")
        }
    }

    /// An arena too small for the page hands the rest of the parse to `malloc`: the tree is whole,
    /// and freeing it frees those parts (the document is freed node by node, then the arena).
    @Test func anArenaThatFillsUpLeavesTheRestToMalloc() throws {
        var random = SplitMix(state: 7)
        for limit in [1, 64, 512, 4096, 20_000, 100_000] {
            for _ in 0..<20 {
                let html = Self.page(&random)
                let small = try Self.parse(html, arenaLimit: limit)
                let alone = try Self.parse(html, arenaLimit: 0)
                #expect(small.arenaBytes <= limit)
                #expect(Self.fingerprint(small) == Self.fingerprint(alone))
            }
        }
    }

    /// A page over `arenaPageLimit` parses without an arena.
    @Test func aLargePageParsesWithoutAnArena() throws {
        let html = "<ul>" + String(repeating: "<li><a href='/n'>News item</a></li>", count: HTMLDocument.arenaPageLimit / 30) + "</ul>"
        let document = try HTMLDocument(html: html)
        #expect(Data(html.utf8).count > HTMLDocument.arenaPageLimit)
        #expect(document.arenaBytes == 0)
        #expect(try document.root.select("li").count == HTMLDocument.arenaPageLimit / 30)
    }

    /// A page just under the limit made of one text run split by entities (a character callback
    /// each, the text node grown each time): the arena stays within its cap, the tree is whole.
    @Test func aTextGrownPieceByPieceStaysWithinTheCap() throws {
        let html = "<p>" + String(repeating: "ab&amp;", count: (HTMLDocument.arenaPageLimit - 100) / 7) + "</p>"
        let inArena = try Self.parse(html, arenaLimit: nil)
        let alone = try Self.parse(html, arenaLimit: 0)
        #expect(inArena.arenaBytes > 0 && inArena.arenaBytes <= HTMLDocument.arenaByteLimit)
        #expect(inArena.root.first("p")?.text == alone.root.first("p")?.text)
        #expect(inArena.root.first("p")?.text.count == (HTMLDocument.arenaPageLimit - 100) / 7 * 3)
    }

    /// libxml2 keeps the last parse error per thread; an error raised inside an arena must not
    /// stay there once the arena is gone (its strings would be the arena's).
    @Test func noErrorRecordOutlivesTheParse() throws {
        let document = try Self.parse("<p><b>unclosed <table><td>cell</p></i> &bogus; <a href='x'", arenaLimit: nil)
        #expect(document.arenaBytes > 0)
        #expect(xmlGetLastError() == nil)
        let feed = try HTMLDocument(xml: Data("<rss><channel><title>T</title><item><title>A &amp; B</title></item></channel></rss>".utf8), url: nil)
        #expect(feed.arenaBytes > 0)
        #expect(feed.rootElement?.child(named: "channel")?.child(named: "item")?.child(named: "title")?.rawContent == "A & B")
        #expect(xmlGetLastError() == nil)
    }

    /// Documents parsed on some threads and let go on others, many alive at once: the chunks go
    /// back to the pool and come out again for the next pages, and every tree stays whole.
    @Test func documentsMadeOnOneThreadAreFreedOnAnother() async throws {
        var random = SplitMix(state: 99)
        let pages = (0..<64).map { _ in Self.page(&random) }
        let expected = try pages.map { Self.fingerprint(try Self.parse($0, arenaLimit: 0)) }
        final class Box: @unchecked Sendable { var documents: [HTMLDocument] = [] }
        for _ in 0..<4 {
            let boxes = try await withThrowingTaskGroup(of: Box.self) { group in
                for lane in 0..<4 {
                    group.addTask {
                        let box = Box()
                        for (index, html) in pages.enumerated() where index % 4 == lane { box.documents.append(try Self.parse(html, arenaLimit: nil)) }
                        return box
                    }
                }
                return try await group.reduce(into: [Box]()) { $0.append($1) }
            }
            // Read and free on other threads than the ones that parsed.
            await withTaskGroup(of: Void.self) { group in
                for box in boxes {
                    group.addTask {
                        for document in box.documents {
                            let print = Self.fingerprint(document)
                            #expect(expected.contains(print))
                        }
                        box.documents.removeAll()
                    }
                }
            }
        }
    }
}
