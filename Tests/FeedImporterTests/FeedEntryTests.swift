import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import FeedImporter

/// Issue 36: the feed importer's steps on their own: which element holds the entries (RSS 2.0,
/// RSS 1.0, Atom, or neither), an entry's fields and key, and the HTML page given as a feed.
@Suite struct FeedEntryTests {
    static var importer: FeedImporter {
        let object: [String: JSONValue] = [
            "id": .string("news"), "importer": .string("feed"), "kind": .string("announcement"), "url": .string("https://d.example/news/feed"),
        ]
        guard let source = try? SourceDefinition.parse(object, file: "/imports/news.json"), let importer = try? FeedImporter(source: source) else {
            fatalError("the test definition reads")
        }
        return importer
    }

    static let base = URL(string: "https://d.example/news/feed") ?? URL(fileURLWithPath: "/")

    static func root(_ xml: String) throws -> HTMLNode {
        let document = try HTMLDocument(xml: Data(xml.utf8), url: base)
        return try #require(document.rootElement)
    }

    @Test(arguments: [
        ("<rss version=\"2.0\"><channel><item/><item/></channel></rss>", 2, false),
        ("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\"><channel/><item/></rdf:RDF>", 1, false),
        ("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry/><entry/><entry/></feed>", 3, true),
        ("<rss><channel></channel></rss>", 0, false),
    ])
    func entriesOfEachKindOfFeed(_ xml: String, _ count: Int, _ atom: Bool) throws {
        let (entries, isAtom) = try Self.importer.entries(of: try Self.root(xml))
        #expect(entries.count == count && isAtom == atom)
    }

    @Test func anotherXMLDocumentIsNamedShort() throws {
        let long = String(repeating: "x", count: 500)
        let error = try #require(throws: TimeTrackError.self) { try Self.importer.entries(of: try Self.root("<\(long)/>")) }
        #expect(error.message.count < 120 && error.message.contains("not an RSS or Atom feed"))
    }

    static func entry(_ xml: String, atom: Bool) throws -> (RawItem, String?) {
        let wrapped = atom ? "<feed xmlns=\"http://www.w3.org/2005/Atom\">\(xml)</feed>" : "<rss version=\"2.0\"><channel>\(xml)</channel></rss>"
        let entry = try #require(try Self.importer.entries(of: try Self.root(wrapped)).entries.first)
        return Self.importer.read(entry, isAtom: atom, base: base)
    }

    @Test func anRSSItemsFields() throws {
        let (raw, key) = try Self.entry(
            """
            <item><title>Bond &amp; Levy &lt;b&gt;Results&lt;/b&gt;</title><link> /news/bond </link><guid isPermaLink="false">news-44</guid>
            <pubDate>Wed, 04 Nov 2026 15:30:00 GMT</pubDate>
            <description><![CDATA[<p>Voters approved it. <a href="/news/bond">Read more</a></p>]]></description>
            <enclosure url="https://d.example/bond.jpg" type="image/jpeg" length="1"/></item>
            """, atom: false)
        #expect(raw["title"] == "Bond & Levy Results")
        #expect(raw["link"] == "https://d.example/news/bond")
        #expect(raw["date"] == "Wed, 04 Nov 2026 15:30:00 GMT")
        #expect(raw["summary"] == "Voters approved it.")
        #expect(raw["body"]?.contains("<a href=\"https://d.example/news/bond\">") == true)
        #expect(raw["image"] == "https://d.example/bond.jpg")
        #expect(key == "news-44")
    }

    @Test func anAtomEntrysFields() throws {
        let (raw, key) = try Self.entry(
            """
            <entry><title type="html">Snow day</title><id>tag:d.example,2026:snow</id>
            <link rel="enclosure" href="/snow.mp3"/><link rel="alternate" href="https://d.example/news/snow"/>
            <updated>2026-11-02T15:00:00Z</updated><summary>Schools closed.</summary>
            <content type="html">&lt;p&gt;All schools are closed &lt;script&gt;x()&lt;/script&gt;today.&lt;/p&gt;</content></entry>
            """, atom: true)
        #expect(raw["link"] == "https://d.example/news/snow")
        #expect(raw["date"] == "2026-11-02T15:00:00Z")
        #expect(raw["summary"] == "Schools closed.")
        #expect(raw["body"]?.contains("script") == false && raw["body"]?.contains("All schools are closed") == true)
        #expect(key == "tag:d.example,2026:snow")
    }

    @Test func theKeyFallsBackToTheLinkThenTheTitle() throws {
        #expect(try Self.entry("<item><title>A</title><link>https://d.example/a</link><guid></guid></item>", atom: false).1 == "https://d.example/a")
        #expect(try Self.entry("<item><title>Only a title</title></item>", atom: false).1 == "Only a title")
        #expect(try Self.entry("<item><description>nothing else</description></item>", atom: false).1 == nil)
        #expect(try Self.entry("<entry><link href=\"/b\"/></entry>", atom: true).1 == "https://d.example/b")
    }

    @Test func mediaElementsDoNotStandForTheTitle() throws {
        let (raw, _) = try Self.entry(
            """
            <item xmlns:media="http://search.yahoo.com/mrss/"><media:title>Photo credit</media:title><title>Concert</title></item>
            """, atom: false)
        #expect(raw["title"] == "Concert")
    }

    static func page(_ html: String) -> FetchedPage {
        FetchedPage(url: base, location: base.absoluteString, data: Data(html.utf8), fetchedAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test func anHTMLPageIsRefusedWithTheFeedItLinks() throws {
        let linked = Self.page(
            #"<!DOCTYPE html><html><head><link rel="alternate" type="application/rss+xml" href="/news/rss.xml"></head><body>News</body></html>"#)
        let error = try #require(throws: TimeTrackError.self) { try Self.importer.refuseHTMLPage(linked) }
        #expect(error.message == "this is an HTML page, not an RSS or Atom feed")
        #expect(error.fix == "the page links its feed: https://d.example/news/rss.xml, use that as the url")
        let unlinked = try #require(throws: TimeTrackError.self) { try Self.importer.refuseHTMLPage(Self.page("<html><body>News</body></html>")) }
        #expect(unlinked.fix?.contains("html or metadata importer") == true)
        try Self.importer.refuseHTMLPage(Self.page("<?xml version=\"1.0\"?><rss><channel/></rss>"))
    }
}
