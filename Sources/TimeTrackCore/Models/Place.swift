import Foundation

/// A place on the app's map, in a school's gazetteer: events whose location names it (or one
/// of its aliases) get its address and coordinates.
///
/// A school's default place (its own address) pins that school's events that name no location.
public struct Place: Codable, Sendable, Equatable {
    public var id: Int64
    /// The school it belongs to; nil for a district-wide place (any school's events match it).
    public var school: String?
    public var name: String
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    public var aliases: [String]
    /// The school's own address: the pin of its events without a location.
    public var isDefault: Bool

    public init(
        id: Int64 = 0, school: String?, name: String, address: String?, latitude: Double? = nil, longitude: Double? = nil, aliases: [String] = [],
        isDefault: Bool = false
    ) {
        self.id = id
        self.school = school
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.aliases = aliases
        self.isDefault = isDefault
    }

    /// Every name it answers to, as keys (`PlaceKey`).
    public var keys: [String] { ([name] + aliases).compactMap(PlaceKey.make) }
}

/// How a location name is compared with places: case, punctuation, spacing and the ways of
/// writing a room ("Room 100", "Rm.
///
/// 100", "rm 100") do not count; a leading "the" neither.
public enum PlaceKey {
    public static func make(_ name: String?) -> String? {
        guard let name else { return nil }
        var words: [String] = []
        var current = ""
        for scalar in name.lowercased().unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        words = words.map { ["rm", "room", "rms", "rooms"].contains($0) ? "room" : $0 }
        if words.first == "the" { words.removeFirst() }
        let key = words.joined(separator: " ")
        return key.isEmpty ? nil : key
    }
}

/// The places of a district, for pinning events: by name or alias within the event's school
/// (a school's own place before a district-wide one), else the school's default place when
/// the event names no location.
public struct Gazetteer: Sendable {
    public let places: [Place]
    private let byKey: [String: [Place]]

    public init(_ places: [Place]) {
        self.places = places
        var index: [String: [Place]] = [:]
        for place in places {
            for key in Set(place.keys) { index[key, default: []].append(place) }
        }
        byKey = index
    }

    /// The place that pins an event with this location name at this school, if any.
    public func pin(location: String?, school: String?) -> Place? {
        guard let key = PlaceKey.make(location) else {
            return places.first { $0.isDefault && $0.school == school }
        }
        let candidates = byKey[key] ?? []
        return candidates.first { $0.school != nil && $0.school == school } ?? candidates.first { $0.school == nil }
    }

    /// The event with the place's address and coordinates where it has none of its own.
    public func pinned(_ event: Event, school: String?) -> (event: Event, place: Place?) {
        guard event.latitude == nil || event.longitude == nil || event.address == nil, let place = pin(location: event.locationName, school: school) else {
            return (event, nil)
        }
        var pinned = event
        if pinned.address == nil { pinned.address = place.address }
        if pinned.latitude == nil || pinned.longitude == nil, let latitude = place.latitude, let longitude = place.longitude {
            (pinned.latitude, pinned.longitude) = (latitude, longitude)
        }
        return (pinned, place)
    }
}
