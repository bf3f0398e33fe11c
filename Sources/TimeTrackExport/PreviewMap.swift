import Foundation
import TimeTrackCore

/// The events' map in the preview: an inline SVG of the school's places (grey dots) and the
/// events' pins (numbered, in their category's colour), drawn from coordinates alone (no tiles,
/// no network).
///
/// Each pin has a text alternative, and the list under the map says the same.
struct PreviewMap {
    /// A point to draw.
    struct Point {
        var latitude: Double
        var longitude: Double
        var label: String
        var category: Event.Category?
    }

    var places: [Point]
    var pins: [Point]

    static let width = 640.0, height = 320.0, margin = 28.0

    /// The SVG, or nil when no event has a place on the map.
    func svg(escape e: (String) -> String) -> String? {
        guard !pins.isEmpty else { return nil }
        let all = places + pins
        let latitudes = all.map(\.latitude), longitudes = all.map(\.longitude)
        guard let south = latitudes.min(), let north = latitudes.max(), let west = longitudes.min(), let east = longitudes.max() else { return nil }
        // Equirectangular, longitudes shrunk by the cosine of the middle latitude; a single
        // point (or a line) gets a small box around it, centred on it.
        let scaleX = cos((south + north) / 2 * .pi / 180)
        let spanX = max((east - west) * scaleX, 0.002), spanY = max(north - south, 0.002)
        let (middleLongitude, middleLatitude) = ((west + east) / 2, (south + north) / 2)
        let scale = min((Self.width - 2 * Self.margin) / spanX, (Self.height - 2 * Self.margin) / spanY)
        let originX = (Self.width - spanX * scale) / 2, originY = (Self.height - spanY * scale) / 2
        func x(_ p: Point) -> String { String(format: "%.1f", originX + ((p.longitude - middleLongitude) * scaleX + spanX / 2) * scale) }
        func y(_ p: Point) -> String { String(format: "%.1f", Self.height - originY - ((p.latitude - middleLatitude) + spanY / 2) * scale) }
        var shapes: [String] = []
        for place in places {
            shapes.append("<circle cx=\"\(x(place))\" cy=\"\(y(place))\" r=\"5\" class=\"place-dot\"><title>\(e(place.label))</title></circle>")
        }
        for (index, pin) in pins.enumerated() {
            shapes.append(
                "<g class=\"pin \(e(pin.category?.rawValue ?? "other"))\"><title>\(index + 1): \(e(pin.label))</title><circle cx=\"\(x(pin))\""
                    + " cy=\"\(y(pin))\" r=\"10\"/>"
                    + "<text x=\"\(x(pin))\" y=\"\(y(pin))\" dy=\"4\" text-anchor=\"middle\">\(index + 1)</text></g>")
        }
        let summary = "Map of \(pins.count) event\(pins.count == 1 ? "" : "s") among \(places.count) place\(places.count == 1 ? "" : "s") of the schools"
        return """
            <figure class="map"><svg viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" aria-label="\(e(summary))"\
             xmlns="http://www.w3.org/2000/svg">\
            <rect width="100%" height="100%" class="ground"/>\(shapes.joined())</svg>\
            <figcaption><ol class="pins">\(pins.map { "<li>\(e($0.label))</li>" }.joined())</ol></figcaption></figure>
            """
    }
}
