import Foundation

/// A calendar event: the app's upcoming events with a map.
public struct Event: Codable, Equatable, Sendable {
    /// What sort of event, for the app's filters and colors.
    public enum Category: String, Codable, CaseIterable, Sendable {
        case academic, athletics, arts, community, board, noSchool = "no-school", other
    }

    /// Whether the event happens as planned.
    public enum State: String, Codable, CaseIterable, Sendable { case scheduled, cancelled, postponed }

    public var title: String
    public var category: Category
    /// The start instant.
    ///
    /// For an all-day event: local midnight of the first day in `timeZone`.
    public var start: Date
    /// The end instant (exclusive for all-day events: midnight after the last day).
    public var end: Date?
    public var allDay: Bool
    /// IANA time zone the event is shown in.
    public var timeZone: String
    public var locationName: String?
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    public var description: String?
    public var link: String?
    public var state: State
    /// After this moment the app stops showing it.
    public var expiresAt: Date?

    /// When an approved item goes live (nil: at its approval); see docs/alerts.md.
    public var publishAt: Date?
    /// When a person should look at it again (it then waits in review, still shown).
    public var reviewBy: Date?

    public init(
        title: String, category: Category = .other, start: Date, end: Date? = nil, allDay: Bool = false,
        timeZone: String, locationName: String? = nil, address: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil, description: String? = nil, link: String? = nil, state: State = .scheduled
    ) {
        self.title = title
        self.category = category
        self.start = start
        self.end = end
        self.allDay = allDay
        self.timeZone = timeZone
        self.locationName = locationName
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.link = link
        self.state = state
    }

    /// Whether the event is over at `now` (its end, or for one without an end its start, has
    /// come): a passed event leaves the upcoming views.
    public func hasPassed(at now: Date) -> Bool { (end ?? start) <= now }

    /// The problems that keep this event from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(title, "title", into: &problems)
        Check.timeZone(timeZone, "timeZone", into: &problems)
        if let end, end < start { problems.append(.init(field: "end", message: "is before the start")) }
        if let latitude, !(-90.0...90.0).contains(latitude) {
            problems.append(.init(field: "latitude", message: "\(latitude) is outside -90...90"))
        }
        if let longitude, !(-180.0...180.0).contains(longitude) {
            problems.append(.init(field: "longitude", message: "\(longitude) is outside -180...180"))
        }
        if (latitude == nil) != (longitude == nil) {
            problems.append(.init(field: latitude == nil ? "latitude" : "longitude", message: "is required when the other coordinate is given"))
        }
        Check.optionalText(description, "description", max: 100_000, into: &problems)
        Check.url(link, "link", into: &problems)
        return problems
    }
}
