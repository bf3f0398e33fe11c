import Foundation
import TimeTrackCore

extension Console {
    /// `place add|remove`: the schools' gazetteers that pin events on the app's map.
    static var placeCommand: CommandSpec { PlaceCommand.spec }

    struct PlaceCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("place", summary: "add or remove a place events are pinned to by their location name (admins only)")
        @Positional("add NAME | remove ID", count: 1...2, completes: [.words(["add", "remove"]), .none]) var words: [String]
        @Option("school", value: "S", help: "the school whose events it pins (without: any school's, a district-wide place)") var school: String?
        @Option("address", value: "A", help: "its street address (the app shows it and may map it)") var address: String?
        @Option("lat", value: "N", help: "latitude in degrees (with --lon)") var lat: String?
        @Option("lon", value: "N", help: "longitude in degrees (with --lat)") var lon: String?
        @Option("alias", value: "NAME", repeating: true, help: "another name events use for it (\"Gym\", \"Rm. 100\"); repeat for more") var alias: [String]
        @Flag("default", help: "the school's own address: pins its events that name no location") var isDefault: Bool

        func run(_ session: Session) throws -> Int32 {
            let action = words[0]
            guard ["add", "remove"].contains(action) else { throw TimeTrackError(.usage, "place: unknown action '\(action)'", fix: "usage: \(Self.usageLine)") }
            guard words.count == 2 else {
                throw TimeTrackError(
                    .usage, "place \(action): \(action == "add" ? "name the place" : "give the place's id (see `places`)")", fix: "usage: \(Self.usageLine)")
            }
            func degrees(_ name: String) throws -> Double? {
                guard let text = (name == "lat" ? lat : lon) else { return nil }
                guard let value = Double(text), value.isFinite else {
                    throw TimeTrackError(.usage, "place: --\(name) \(text) is not a number of degrees", fix: "e.g. --lat 40.5707 --lon -111.8239")
                }
                return value
            }
            if action == "remove" {
                guard let id = Int64(words[1]) else {
                    throw TimeTrackError(.usage, "place remove: '\(words[1])' is not a place id", fix: "see the ids with `places`")
                }
                let store = try session.store()
                try session.requireAdmin(in: store, for: "change places")
                guard try store.removePlace(id, by: session.operatorName) else {
                    throw TimeTrackError(.notFound, "no place \(id)", fix: "see the ids with `places`")
                }
                session.output.line("place \(id) removed")
                return 0
            }
            if school == nil && isDefault {
                throw TimeTrackError(.usage, "place add --default: name the school whose address it is (--school S)")
            }
            let place = Place(
                school: school, name: words[1], address: address, latitude: try degrees("lat"),
                longitude: try degrees("lon"),
                aliases: alias, isDefault: isDefault)
            let store = try session.store(create: true)
            try session.requireAdmin(in: store, for: "change places")
            let saved = try store.addPlace(place, by: session.operatorName)
            if session.output.json {
                session.output.printJSON(saved)
                return 0
            }
            let pins = saved.latitude.map { lat in " at \(lat), \(saved.longitude ?? 0)" } ?? " (no coordinates: give --lat and --lon for a pin)"
            session.output.line(
                "place \(saved.id): \(SafeText.visible(saved.name))" + (saved.school.map { " (\(SafeText.visible($0)))" } ?? " (district-wide)") + pins
                    + (saved.isDefault ? ", the school's default" : ""))
            return 0
        }
    }

    /// `places [--unmatched]`.
    static var placesCommand: CommandSpec { PlacesCommand.spec }

    struct PlacesCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "places", summary: "list the places events are pinned to, or the location names no place pins yet", pages: true)
        @Flag("unmatched", help: "the location names of pending and published events that no place pins, most used first") var unmatched: Bool

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            if unmatched {
                let rows = try store.unmatchedLocations()
                if session.output.json {
                    session.output.printJSON(
                        rows.map {
                            ["school": $0.school.map(JSONValue.string) ?? .null, "location": .string($0.name), "events": .number(Double($0.events))]
                                as [String: JSONValue]
                        })
                    return 0
                }
                if rows.isEmpty {
                    session.output.line("every event's location has a pin")
                    return 0
                }
                var table = Table(headers: ["school", "location", "events"])
                // Location names come from pages: shown, never obeyed.
                for row in rows { table.rows.append([SafeText.visible(row.school ?? ""), SafeText.visible(row.name), String(row.events)]) }
                session.output.printTable(table, width: terminalWidth())
                session.output.line("pin one with: place add \"NAME\" --school S --address A --lat N --lon N (or --alias on an existing place)")
                return 0
            }
            let places = try store.places()
            if session.output.json {
                session.output.printJSON(places)
                return 0
            }
            if places.isEmpty {
                session.output.line("no places yet: place add \"NAME\" --school S --address A --lat N --lon N")
                return 0
            }
            var table = Table(headers: ["id", "school", "name", "address", "pin", "aliases"])
            for place in places {
                let pin = place.latitude.map { String(format: "%.5f, %.5f", $0, place.longitude ?? 0) } ?? "-"
                table.rows.append(
                    [
                        String(place.id), SafeText.visible(place.school ?? "(district)") + (place.isDefault ? " *" : ""), SafeText.visible(place.name),
                        SafeText.visible(place.address ?? ""), pin, SafeText.visible(place.aliases.joined(separator: "; ")),
                    ])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

}
