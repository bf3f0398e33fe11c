import Foundation
import TestSupport

/// One item a page lists, as a correct importer reads it: the answer key.
struct KeyItem {
    var title: String
    /// `2026-10-14` (a day) or `2026-10-14T18:00` (in the site's zone).
    var when: String
    var link: String?
    var location: String?
}

/// A site served by the test server: pages by path, and the items each listing page holds.
struct FixtureSite {
    var name: String
    var pages: [String: String] = [:]
    var other: [String: TestHTTPServer.Response] = [:]
    /// Answer keys by page path.
    var keys: [String: [KeyItem]] = [:]

    func serve(on server: TestHTTPServer) {
        for (path, html) in pages { server.route(path, .html(html)) }
        for (path, response) in other { server.route(path, response) }
    }
}

/// The items every fixture site lists, rendered in each platform's markup.
enum Sample {
    static let news: [(title: String, day: String, slug: String, summary: String)] = [
        ("Board Approves 2026-27 Budget", "2026-10-14", "board-approves-budget", "The Board of Education approved the budget at its regular meeting."),
        ("Fall Conferences Scheduled", "2026-10-09", "fall-conferences", "Parent-teacher conferences are set for the week of October 19."),
        ("Lincoln Wins Science Olympiad", "2026-10-02", "science-olympiad", "Our students took first place at the regional Science Olympiad."),
        ("Flu Shot Clinic at Central High", "2026-09-25", "flu-shot-clinic", "Free flu shots for students and staff in the gym."),
        ("New Bus Routes Posted", "2026-09-18", "new-bus-routes", "Updated bus routes for the second quarter are online."),
    ]
    static let events: [(title: String, day: String, time: String?, location: String)] = [
        ("Board of Education Regular Meeting", "2026-11-10", "18:00", "District Office Board Room"),
        ("Picture Retake Day", "2026-11-12", nil, "Lincoln Elementary"),
        ("Winter Band Concert", "2026-12-03", "19:00", "Central High Auditorium"),
        ("Board of Education Work Session", "2026-12-08", "17:30", "District Office Board Room"),
        ("Winter Break - No School", "2026-12-21", nil, "All Schools"),
    ]

    static func long(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(months[parts[1] - 1]) \(parts[2]), \(parts[0])"
    }

    static func weekdayLong(_ day: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        guard let date = formatter.date(from: day) else { return long(day) }
        formatter.dateFormat = "EEEE, MMMM d, yyyy"
        return formatter.string(from: date)
    }

    static func twelveHour(_ time: String) -> String {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        let hour = parts[0] % 12 == 0 ? 12 : parts[0] % 12
        return String(format: "%d:%02d %@", hour, parts[1], parts[0] < 12 ? "AM" : "PM")
    }

    static func offset(_ day: String) -> String {
        // America/Chicago: daylight time until November 1, 2026.
        day < "2026-11-01" && day > "2026-03-08" ? "-05:00" : "-06:00"
    }

    static func newsKeys(_ link: (String) -> String?) -> [KeyItem] {
        news.map { KeyItem(title: $0.title, when: $0.day, link: link($0.slug)) }
    }

    static func eventKeys(_ link: (Int) -> String?, locations: Bool = true) -> [KeyItem] {
        events.enumerated().map { index, event in
            KeyItem(
                title: event.title, when: event.time.map { "\(event.day)T\($0)" } ?? event.day, link: link(index), location: locations ? event.location : nil)
        }
    }

    static func page(title: String, head: String = "", body: String, nav: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>\(head)</head>
        <body><header><nav class="main-nav"><ul>\(nav)</ul></nav></header>
        <main id="content">\(body)</main>
        <footer><p>Cedar Ridge School District · 100 Main St</p></footer></body></html>
        """
    }
}
