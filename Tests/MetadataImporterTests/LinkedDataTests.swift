import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import MetadataImporter

/// Issue 36: reading a page's schema.org JSON-LD on its own: which object is taken (the kind's
/// types, a WebPage last, inside `@graph` too), and the fields each kind reads from it.
@Suite struct LinkedDataTests {
    static func document(_ scripts: [String], body: String = "") throws -> HTMLDocument {
        let head = scripts.map { "<script type=\"application/ld+json\">\($0)</script>" }.joined()
        return try HTMLDocument(html: "<html><head>\(head)</head><body>\(body)</body></html>", url: URL(string: "https://d.example/news/robotics"))
    }

    @Test func theKindsObjectIsTakenAndAWebPageLast() throws {
        let page = #"{"@type": "WebPage", "name": "Robotics | District"}"#
        let article = #"{"@type": ["NewsArticle", "Thing"], "headline": "Robotics Wins"}"#
        let event = #"{"@type": "SportsEvent", "name": "Home game"}"#
        let document = try Self.document([page, event, article])
        #expect(MetadataImporter.linkedData(document.root, kind: .announcement)?["headline"]?.stringValue == "Robotics Wins")
        #expect(MetadataImporter.linkedData(document.root, kind: .event)?["name"]?.stringValue == "Home game")
        #expect(MetadataImporter.linkedData(try Self.document([page]).root, kind: .announcement)?["name"]?.stringValue == "Robotics | District")
        #expect(MetadataImporter.linkedData(try Self.document([page]).root, kind: .event) == nil)
        #expect(MetadataImporter.linkedData(try Self.document(["{ not json", "[]"]).root, kind: .announcement) == nil)
    }

    @Test func objectsInAGraphAreFound() throws {
        let graph = #"{"@context": "https://schema.org", "@graph": [{"@type": "Organization", "name": "District"}, {"@type": "Event", "name": "Open House"}]}"#
        #expect(MetadataImporter.linkedData(try Self.document([graph]).root, kind: .event)?["name"]?.stringValue == "Open House")
    }

    static func read(_ json: String, kind: ItemKind) throws -> (RawItem, String?) {
        let document = try Self.document([json])
        let object = try #require(MetadataImporter.linkedData(document.root, kind: kind))
        var raw = RawItem()
        let modified = MetadataImporter.readLinkedData(object, kind: kind, document: document, into: &raw)
        return (raw, modified)
    }

    @Test func anArticlesFields() throws {
        let (raw, modified) = try Self.read(
            """
            {"@type": "NewsArticle", "headline": "Robotics &amp; Coding Wins", "description": "The team won.", "url": "/news/robotics",
             "image": [{"@type": "ImageObject", "url": "/img/robotics.jpg"}], "datePublished": "2026-05-02T09:30:00-06:00",
             "dateModified": "2026-05-03T10:00:00-06:00"}
            """, kind: .announcement)
        #expect(raw["title"] == "Robotics & Coding Wins" && raw["summary"] == "The team won.")
        #expect(raw["link"] == "https://d.example/news/robotics" && raw["image"] == "https://d.example/img/robotics.jpg")
        #expect(raw["date"] == "2026-05-02T09:30:00-06:00" && modified == "2026-05-03T10:00:00-06:00")
        let created = try Self.read(#"{"@type": "BlogPosting", "name": "Post", "dateCreated": "2026-01-01"}"#, kind: .announcement).0
        #expect(created["title"] == "Post" && created["date"] == "2026-01-01")
    }

    @Test func anEventsFields() throws {
        let (raw, modified) = try Self.read(
            """
            {"@type": "Event", "name": "Fall Band Concert", "startDate": "2026-10-15T19:00", "endDate": "2026-10-15T20:30",
             "eventStatus": "https://schema.org/EventPostponed",
             "location": {"@type": "Place", "name": "Lakeside Auditorium",
                          "address": {"streetAddress": "100 Lake Rd", "addressLocality": "Lakeside", "addressRegion": "CO", "postalCode": "80000"},
                          "geo": {"latitude": 40.1, "longitude": -105.2}}}
            """, kind: .event)
        #expect(raw["title"] == "Fall Band Concert" && raw["start"] == "2026-10-15T19:00" && raw["end"] == "2026-10-15T20:30")
        #expect(raw["location"] == "Lakeside Auditorium" && raw["address"] == "100 Lake Rd, Lakeside, CO, 80000")
        #expect(raw["latitude"] == "40.1" && raw["longitude"] == "-105.2")
        #expect(raw["state"] == "postponed" && modified == nil)
        let plain = try Self.read(
            #"{"@type": "Event", "name": "Game", "location": "Main Gym", "eventStatus": "EventCancelled", "organizer": {"name": "x"}}"#, kind: .event
        ).0
        #expect(plain["location"] == "Main Gym" && plain["state"] == "cancelled" && plain["address"] == nil)
        let textAddress = try Self.read(#"{"@type": "Event", "name": "Fair", "location": {"name": "Park", "address": "5 Hill St"}}"#, kind: .event).0
        #expect(textAddress["address"] == "5 Hill St")
        let scheduled = try Self.read(#"{"@type": "Event", "name": "Fair", "eventStatus": "EventScheduled"}"#, kind: .event).0
        #expect(scheduled["state"] == nil)
    }

    @Test func metaTagsFillWhatLinkedDataLeaves() throws {
        let document = try HTMLDocument(
            html: """
                <html><head><title>Fallback | District</title><meta property="og:title" content="  Open   Graph Title ">
                <meta name="description" content="Described."><meta property="article:published_time" content="2026-03-01T08:00:00Z">
                <link rel="canonical" href="https://d.example/news/canonical"></head><body><h1>Heading</h1></body></html>
                """, url: URL(string: "https://d.example/news/x"))
        let raw = MetadataImporter.read(document, kind: .announcement)
        #expect(raw["title"] == "Open Graph Title" && raw["summary"] == "Described." && raw["date"] == "2026-03-01T08:00:00Z")
        #expect(raw["link"] == "https://d.example/news/canonical")
        let bare = try HTMLDocument(html: "<html><head><title>Only | Title</title></head><body></body></html>", url: nil)
        #expect(MetadataImporter.read(bare, kind: .announcement)["title"] == "Only | Title")
    }
}
