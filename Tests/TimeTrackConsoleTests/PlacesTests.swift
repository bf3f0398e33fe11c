import Foundation
import TestSupport
import Testing

/// The sample district's events pinned from its school's places, through the real binary: the
/// export, the app's `published_events` view and `show` agree; an unknown venue is listed.
@Suite struct PlacesTests {
    @Test func theSampleDistrictsEventsAllGetPins() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let commands = try String(contentsOf: ConsoleFixture.root.appendingPathComponent("Imports/samples/hillcrest/places.commands"), encoding: .utf8)
        let added = try fixture.run(["--as", "ana"], stdin: commands)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.components(separatedBy: "place ").count - 1 == 5, "\(added.stdout)")

        let events = try fixture.ids("events")
        #expect(events.count == 8)
        let approved = try fixture.run(["--as", "ana", "approve"] + events)
        #expect(approved.status == 0, "\(approved.stderr)")
        let unmatched = try fixture.run(["--as", "ana", "places", "--unmatched"])
        #expect(unmatched.stdout.contains("every event's location has a pin"), "\(unmatched.stdout)")

        // The export: every event has coordinates and the place it got them from.
        let out = fixture.dir.path("export")
        let exported = try fixture.run(["--as", "ana", "export", "--format", "json", "--out", out])
        #expect(exported.status == 0, "\(exported.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/events.json"))) as? [String: Any]
        let rows = document?["items"] as? [[String: Any]] ?? []
        #expect(rows.count == 8)
        for row in rows {
            #expect(row["latitude"] is Double && row["longitude"] is Double, "\(row["title"] ?? "?") has no pin")
            #expect(row["address"] as? String == "7350 S 900 E, Midvale, UT 84047")
        }
        let places = Set(rows.compactMap { $0["place"] as? String })
        #expect(rows.filter { $0["locationName"] == nil || $0["locationName"] is NSNull }.allSatisfy { $0["place"] as? String == "Hillcrest High School" })
        #expect(places == ["Hillcrest High School", "Main Gym", "Hillcrest Stadium", "Auditorium", "Library"], "\(places)")

        // The app's view says the same, in SQL.
        let view = try Binaries.sql(fixture.store, "SELECT count(*) || '|' || count(pin_latitude) || '|' || count(place) FROM published_events")
        #expect(view.trimmingCharacters(in: .whitespacesAndNewlines) == "8|8|8", "\(view)")

        // show says where the pin comes from.
        let shown = try fixture.run(["--as", "ana", "show", events[0]])
        #expect(shown.stdout.contains("pin:"), "\(shown.stdout)")

        // A venue no place knows ("Rm 100" is an alias of the Library, written another way: it matches).
        let imports = fixture.dir.path("more")
        try fixture.dir.write(
            "more/page.html",
            """
            <ul><li class="e"><b>Jazz Night</b><i>2026-12-04 19:00</i><u>Riverside Rec Center</u></li>
            <li class="e"><b>Study Hall</b><i>2026-12-05 15:00</i><u>Rm 100</u></li></ul>
            """)
        try fixture.dir.write(
            "more/rec.json",
            #"{ "id": "rec", "importer": "html", "kind": "event", "url": "page.html", "baseURL": "https://hillcrest.example/e", "school":"#
                + #" "hillcrest", "timeZone": "America/Denver", "options": { "item": "li.e", "fields": { "title": "b", "start": "i", "location": "u" } } }"#
        )
        let more = try fixture.run(["--as", "ana", "--imports", imports, "import", "rec"])
        #expect(more.status == 0, "\(more.stderr)")
        let listed = try fixture.json(["--as", "ana", "places", "--unmatched"]) as? [[String: Any]] ?? []
        #expect(listed.map { $0["location"] as? String } == ["Riverside Rec Center"])
        #expect(listed.first?["school"] as? String == "hillcrest")

        // Refusals name what is wrong.
        let badLat = try fixture.run(["--as", "ana", "place", "add", "Field", "--school", "hillcrest", "--lat", "123", "--lon", "0"])
        #expect(badLat.status != 0 && badLat.stderr.contains("not a latitude"), "\(badLat.stderr)")
        let taken = try fixture.run(["--as", "ana", "place", "add", "Annex", "--school", "hillcrest", "--alias", "gym"])
        #expect(taken.status != 0 && taken.stderr.contains("already names the place Main Gym"), "\(taken.stderr)")
    }
}
