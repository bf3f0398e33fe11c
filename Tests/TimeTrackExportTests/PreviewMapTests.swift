import Foundation
import Testing
import TimeTrackCore
import TimeTrackKit

@testable import TimeTrackExport

/// Issue 36: the preview's event map on its own: every pin and place inside the drawing, one
/// pin per event numbered as the list under it, labels escaped, no map without a pin.
@Suite struct PreviewMapTests {
    typealias Point = PreviewMap.Point

    static func svg(_ map: PreviewMap) throws -> HTMLDocument? {
        guard let text = map.svg(escape: RSSWriter.escape) else { return nil }
        return try HTMLDocument(xml: Data(text.utf8), url: nil)
    }

    static func circles(_ document: HTMLDocument) throws -> [(x: Double, y: Double, r: Double)] {
        try document.root.select("circle").map { circle in
            (Double(circle.attribute("cx") ?? "") ?? .nan, Double(circle.attribute("cy") ?? "") ?? .nan, Double(circle.attribute("r") ?? "") ?? .nan)
        }
    }

    @Test func everyPointIsInsideTheDrawing() throws {
        let places = [Point(latitude: 43.61, longitude: -116.20, label: "Lakeside High"), Point(latitude: 43.70, longitude: -116.35, label: "Hillcrest")]
        let pins = [
            Point(latitude: 43.62, longitude: -116.21, label: "Game", category: .athletics),
            Point(latitude: 43.55, longitude: -116.10, label: "Fair", category: nil),
        ]
        let document = try #require(try Self.svg(PreviewMap(places: places, pins: pins)))
        let circles = try Self.circles(document)
        #expect(circles.count == 4)
        for circle in circles {
            #expect(circle.x >= PreviewMap.margin - 0.1 && circle.x <= PreviewMap.width - PreviewMap.margin + 0.1, "\(circle)")
            #expect(circle.y >= PreviewMap.margin - 0.1 && circle.y <= PreviewMap.height - PreviewMap.margin + 0.1, "\(circle)")
        }
        // North is up and east is right.
        let fair = circles[3], game = circles[2]
        #expect(fair.y > game.y && fair.x > game.x)
        #expect(try document.root.select("g.pin").count == 2 && document.root.first("g.athletics") != nil && document.root.first("g.other") != nil)
        #expect(try document.root.select("ol.pins li").map(\.text) == ["Game", "Fair"])
        #expect(try document.root.select("g.pin text").map(\.text) == ["1", "2"])
        #expect(document.root.first("svg")?.attribute("aria-label") == "Map of 2 events among 2 places of the schools")
    }

    @Test func aSinglePointIsCentred() throws {
        let document = try #require(try Self.svg(PreviewMap(places: [], pins: [Point(latitude: 0, longitude: 0, label: "Only")])))
        let circle = try #require(try Self.circles(document).first)
        #expect(abs(circle.x - PreviewMap.width / 2) < 0.2 && abs(circle.y - PreviewMap.height / 2) < 0.2)
        #expect(document.root.first("svg")?.attribute("aria-label") == "Map of 1 event among 0 places of the schools")
    }

    @Test func noPinNoMap() {
        #expect(PreviewMap(places: [Point(latitude: 1, longitude: 1, label: "School")], pins: []).svg(escape: RSSWriter.escape) == nil)
    }

    @Test func labelsAreTextNotMarkup() throws {
        let hostile = "<script>alert(1)</script> & \"quotes\""
        let map = PreviewMap(places: [Point(latitude: 1, longitude: 1, label: hostile)], pins: [Point(latitude: 2, longitude: 2, label: hostile)])
        let document = try #require(try Self.svg(map))
        #expect(document.root.first("script") == nil)
        #expect(try document.root.select("title").allSatisfy { $0.text.contains("<script>alert(1)</script> & \"quotes\"") })
        #expect(document.root.first("ol.pins li")?.text == hostile)
    }

    @Test func aTallOrWideSpreadKeepsItsShape() throws {
        // Two points a degree apart north-south: the drawing is taller than wide between them.
        let document = try #require(
            try Self.svg(
                PreviewMap(places: [], pins: [Point(latitude: 40, longitude: -105, label: "a"), Point(latitude: 41, longitude: -105.001, label: "b")])))
        let circles = try Self.circles(document)
        #expect(abs(circles[0].y - circles[1].y) > 200 && abs(circles[0].x - circles[1].x) < 5)
    }
}
