import Foundation
import Testing

@testable import TimeTrackCore

/// Dates typed at the console are read in the item's own zone, exactly, around DST changes.
@Suite struct EditDateTests {
    func instant(_ text: String) -> String? {
        let f = ISO8601DateFormatter()
        return f.date(from: text).map { f.string(from: $0) }
    }

    func parsed(_ value: String, field: String = "start", zone: String, current: ItemContent? = nil) throws -> String? {
        let zone = try #require(TimeZone(identifier: zone))
        return try ItemContent.parseEdits([(field, value)], kind: .event, current: current, zone: zone)[field]?.stringValue
    }

    @Test(arguments: [
        // zone, typed, UTC instant. Each zone on both sides of a DST change.
        ("America/Denver", "2026-09-15 18:30", "2026-09-16T00:30:00Z"),
        ("America/Denver", "2026-11-02T18:30", "2026-11-03T01:30:00Z"),
        ("America/Denver", "2026-11-01 01:30", "2026-11-01T07:30:00Z"),
        ("America/New_York", "2026-03-07 09:00", "2026-03-07T14:00:00Z"),
        ("America/New_York", "2026-03-09 09:00:30", "2026-03-09T13:00:30Z"),
        ("Pacific/Auckland", "2026-04-04 18:30", "2026-04-04T05:30:00Z"),
        ("Pacific/Auckland", "2026-04-06 18:30", "2026-04-06T06:30:00Z"),
        ("Pacific/Auckland", "2026-09-28T07:00", "2026-09-27T18:00:00Z"),  // NZDT (+13) from 09-27
        ("America/Denver", "2026-09-15", "2026-09-15T06:00:00Z"),
        ("Pacific/Auckland", "2026-09-15T18:30:00-06:00", "2026-09-16T00:30:00Z"),
        ("America/Denver", "2026-09-16T00:30:00Z", "2026-09-16T00:30:00Z"),
    ])
    func typedFormsAreReadInTheZone(_ zone: String, _ typed: String, _ expected: String) throws {
        #expect(try parsed(typed, zone: zone) == expected)
    }

    @Test func aTimeAloneKeepsTheDayInTheZone() throws {
        let current = ItemContent.event(
            Event(title: "Board", start: ISO8601DateFormatter().date(from: "2026-09-16T00:30:00Z") ?? Date(), timeZone: "America/Denver"))
        // 18:30 on 09-15 in Denver is 00:30 UTC on 09-16: "19:00" is the same local day.
        #expect(try parsed("19:00", zone: "America/Denver", current: current) == "2026-09-16T01:00:00Z")
        #expect(throws: TimeTrackError.self) { _ = try parsed("19:00", zone: "America/Denver") }
    }

    /// The end moves with the start only when asked (issue 35: it moved, and was locked, silently).
    @Test func movingTheStartKeepsTheLengthOnlyWhenAsked() throws {
        let f = ISO8601DateFormatter()
        let event = Event(
            title: "Board", start: f.date(from: "2026-09-16T00:00:00Z") ?? Date(), end: f.date(from: "2026-09-16T02:00:00Z"), timeZone: "America/Denver")
        let zone = try #require(TimeZone(identifier: "America/Denver"))
        let plain = try ItemContent.parseEdits([("start", "2026-09-15 17:30")], kind: .event, current: .event(event), zone: zone)
        #expect(plain["start"]?.stringValue == "2026-09-15T23:30:00Z" && plain["end"] == nil)
        let edits = try ItemContent.parseEdits([("start", "2026-09-22 18:30")], kind: .event, current: .event(event), zone: zone, keepDuration: true)
        #expect(edits["start"]?.stringValue == "2026-09-23T00:30:00Z")
        #expect(edits["end"]?.stringValue == "2026-09-23T02:30:00Z")
        // A day alone makes the event all day, ending the next day (in the item's zone).
        let day = try ItemContent.parseEdits([("start", "2026-09-14")], kind: .event, current: .event(event), zone: zone)
        #expect(day["start"]?.stringValue == "2026-09-14T06:00:00Z" && day["allDay"] == .bool(true) && day["end"]?.stringValue == "2026-09-15T06:00:00Z")
        // An offset or Z is read as the instant it names.
        let zulu = try ItemContent.parseEdits([("start", "2026-09-22T18:30Z")], kind: .event, current: .event(event), zone: zone)
        #expect(zulu["start"]?.stringValue == "2026-09-22T18:30:00Z" && zulu["allDay"] == nil)
        let both = try ItemContent.parseEdits([("start", "2026-09-22 18:30"), ("end", "2026-09-22 19:00")], kind: .event, current: .event(event), zone: zone)
        #expect(both["end"]?.stringValue == "2026-09-23T01:00:00Z")
    }

    @Test func partlyReadFormsAreRefused() throws {
        for typed in [
            "2026-09-15T18", "2026-09-15 18:3", "2026-9-15", "2026-02-30", "18", "25:00", "2026-09-15 18:30 extra", "tomorrow", "2026-09-15T18:30:00+99:99",
            "15/09/2026",
        ] {
            let error = try #require(throws: TimeTrackError.self, "\(typed)") { _ = try parsed(typed, zone: "America/Denver") }
            #expect(error.code == .usage)
            #expect(error.context["field"] == "start")
        }
    }
}
