import Foundation
import TestSupport
import Testing
import TimeTrackCore
import TimeTrackDiscover
import TimeTrackImport
import TimeTrackKit

/// Listing pages of platforms no recognizer knows, in the shapes district sites use: inference
/// alone finds the items and fields; pages without a listing give no proposal.
@Suite struct InferenceTests {
    struct Shape {
        var name: String
        var title: String
        var body: String
        var keys: [KeyItem]
    }

    static let base = "https://www.cedarridge.example"

    static func dayEvents() -> [KeyItem] { Sample.events.map { KeyItem(title: $0.title, when: $0.day) } }

    static var shapes: [Shape] {
        let events = Sample.events
        let news = Sample.news
        return [
            Shape(
                name: "table", title: "Board Meetings",
                body:
                    #"<h1>Board Meetings</h1><table class="table"#
                    + #" table-striped"><thead><tr><th>Date</th><th>Time</th><th>Meeting</th><th>Location</th></tr></thead><tbody>"#
                    + events.enumerated().map { index, e in
                        #"<tr><td>\#(Sample.long(e.day))</td><td>\#(e.time.map(Sample.twelveHour) ?? "All Day")</td><td><a"#
                            + #" href="/board/meetings/\#(index + 1)">\#(e.title)</a></td><td>\#(e.location)</td></tr>"#
                    }.joined() + "</tbody></table>",
                keys: Sample.eventKeys { "\(base)/board/meetings/\($0 + 1)" }),
            Shape(
                name: "cards", title: "District News",
                body: #"<h1>District News</h1><div class="container"><div class="row">"#
                    + news.map { n in
                        #"<div class="col-md-4"><div class="card h-100"><img class="card-img-top" src="/img/\#(n.slug).jpg" alt=""><div"#
                            + #" class="card-body"><h5 class="card-title"><a href="/news/\#(n.slug)">\#(n.title)</a></h5><p class="card-text"><small"#
                            + #" class="text-muted">\#(Sample.long(n.day))</small></p><p class="card-text">\#(n.summary)</p></div></div></div>"#
                    }.joined() + "</div></div>",
                keys: Sample.newsKeys { "\(base)/news/\($0)" }),
            Shape(
                name: "definition-list", title: "Important Dates",
                body: #"<h1>Important Dates</h1><dl class="important-dates">"#
                    + events.map { e in "<dt>\(Sample.weekdayLong(e.day))</dt><dd>\(e.title)</dd>" }.joined() + "</dl>",
                keys: dayEvents()),
            Shape(
                name: "headings", title: "Upcoming Events",
                body: "<h1>Upcoming Events</h1><div class=\"entry-content\">"
                    + events.map { e in "<h3>\(Sample.weekdayLong(e.day))</h3><p>\(e.title)</p>" }.joined() + "</div>",
                keys: dayEvents()),
            Shape(
                name: "lines", title: "Calendar Highlights",
                body: #"<h1>Calendar Highlights</h1><ul class="dates">"# + events.map { e in "<li>\(Sample.long(e.day)) – \(e.title)</li>" }.joined() + "</ul>",
                keys: dayEvents()),
            Shape(
                name: "ghost-posts", title: "Superintendent's Blog",
                body: #"<div class="post-feed">"#
                    + news.map { n in
                        #"<article class="post-card post"><a class="post-card-content-link" href="/\#(n.slug)/"><header class="post-card-header"><h2"#
                            + #" class="post-card-title">\#(n.title)</h2></header><section"#
                            + #" class="post-card-excerpt"><p>\#(n.summary)</p></section></a><footer class="post-card-meta"><time"#
                            + #" class="post-card-meta-date" datetime="\#(n.day)">\#(Sample.long(n.day))</time></footer></article>"#
                    }.joined() + "</div>",
                keys: Sample.newsKeys { "\(base)/\($0)/" }),
            Shape(
                name: "event-rows", title: "Events Calendar",
                body: #"<div class="event-listing">"#
                    + events.enumerated().map { index, e in
                        #"<div class="ev"><span class="ev-date">\#(Sample.weekdayLong(e.day))</span> <span"#
                            + #" class="ev-time">\#(e.time.map(Sample.twelveHour) ?? "All Day")</span> <a class="ev-title""#
                            + #" href="/events/\#(index + 1)">\#(e.title)</a> <span class="ev-location">\#(e.location)</span></div>"#
                    }.joined() + "</div>",
                keys: Sample.eventKeys { "\(base)/events/\($0 + 1)" }),
            Shape(
                name: "yearless", title: "Board Meeting Schedule",
                body: "<h2>2026–2027 Board Meeting Schedule</h2><ul class=\"schedule\">"
                    + events.map { e in
                        let short = Sample.long(e.day).replacingOccurrences(of: ", 2026", with: "").replacingOccurrences(of: ", 2027", with: "")
                        return "<li><strong>\(short)</strong> <span>\(e.title)</span></li>"
                    }.joined() + "</ul>",
                keys: dayEvents()),
            Shape(
                name: "posted-on", title: "News Archive",
                body: #"<div class="news-archive">"#
                    + news.map { n in
                        #"<div class="news-entry"><h4><a href="/news/\#(n.slug)">\#(n.title)</a></h4><p class="meta">Posted on \#(Sample.long(n.day))"#
                            + #" by Communications</p><p>\#(n.summary)</p></div>"#
                    }.joined() + "</div>",
                keys: Sample.newsKeys { "\(base)/news/\($0)" }),
        ]
    }

    static let negatives: [(name: String, body: String)] = [
        (
            "about",
            "<h1>About Our District</h1><p>Cedar Ridge serves 4,200 students in six schools.</p><p>Founded in 1921, the district has grown with the"
                + " town.</p><p>Our mission: every student, every day.</p><h2>Leadership</h2><p>The Board of Education has seven members elected at large.</p>"
        ),
        (
            "staff",
            #"<h1>Staff Directory</h1><div class="staff-grid">"#
                + ["Ana Ruiz", "Ben Okafor", "Carla Meyer", "Dev Patel", "Erin Walsh"].map { name in
                    #"<div class="staff-card"><h3 class="staff-name">\#(name)</h3><p class="staff-title">Teacher</p><a"#
                        + #" href="mailto:\#(name.lowercased().replacingOccurrences(of: " ", with: "."))@cedarridge.example">Email</a></div>"#
                }.joined() + "</div>"
        ),
        (
            "schools",
            #"<h1>Our Schools</h1><table><tr><th>School</th><th>Address</th><th>Phone</th></tr>"#
                + ["Lincoln Elementary", "Roosevelt Middle", "Central High", "Oak Park Elementary"].enumerated().map { index, name in
                    #"<tr><td><a href="/schools/\#(index)">\#(name)</a></td><td>\#(100 + index * 20) W. Main St, Cedar Ridge, IA 50010</td><td>(515)"#
                        + #" 555-01\#(10 + index)</td></tr>"#
                }.joined() + "</table>"
        ),
    ]

    /// The page as a saved file with a definition from the inference, read by the html importer.
    static func read(_ shape: Shape, listing: InferredListing, folder: TemporaryDirectory) throws -> ImportResult {
        try folder.write("\(shape.name).html", Sample.page(title: shape.title, body: shape.body, nav: #"<li><a href="/">Home</a></li>"#))
        let object: [String: JSONValue] = [
            "id": .string(shape.name), "importer": .string("html"), "kind": .string(listing.kind.rawValue), "url": .string("\(shape.name).html"),
            "baseURL": .string("\(base)/\(shape.name)"), "timeZone": .string("America/Chicago"), "options": .object(listing.options),
        ]
        let source = try SourceDefinition.parse(object, file: folder.path("\(shape.name).json"))
        var pipeline = ImportPipeline(importsRoot: folder.url)
        pipeline.now = { DiscoverTests.now }
        return try pipeline.extract(source)
    }

    @Test func inferenceAloneReadsListingsOfEveryShape() throws {
        let folder = try TemporaryDirectory("inference")
        defer { folder.remove() }
        var right = 0
        var total = 0
        var perShape: [String] = []
        for shape in Self.shapes {
            total += shape.keys.count
            let document = try HTMLDocument(
                html: Sample.page(title: shape.title, body: shape.body, nav: #"<li><a href="/">Home</a></li>"#), url: URL(string: "\(Self.base)/\(shape.name)"))
            guard
                let listing = ListingInference.infer(
                    document, pageURL: URL(string: "\(Self.base)/\(shape.name)") ?? URL(fileURLWithPath: "/"), zone: DiscoverTests.zone, now: DiscoverTests.now)
            else {
                Issue.record("\(shape.name): no listing inferred")
                perShape.append("\(shape.name) 0/\(shape.keys.count)")
                continue
            }
            let result = try Self.read(shape, listing: listing, folder: folder)
            let scored = DiscoverTests.score(result, keys: shape.keys)
            right += scored.right
            perShape.append("\(shape.name) \(scored.right)/\(shape.keys.count)")
            #expect(scored.misses.isEmpty, "\(shape.name) (\(listing.why)) \(listing.options): \(scored.misses) \(result.problems)")
        }
        print("inference on unknown listings: \(right) of \(total) items fully right (" + perShape.joined(separator: ", ") + ")")
        #expect(Double(right) >= 0.8 * Double(total), "\(right) of \(total)")
    }

    @Test func pagesWithoutAListingGiveNothing() throws {
        for page in Self.negatives {
            let document = try HTMLDocument(
                html: Sample.page(
                    title: page.name, body: page.body,
                    nav: #"<li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/calendar">Calendar</a></li>"#))
            let listing = ListingInference.infer(
                document, pageURL: URL(string: "\(Self.base)/\(page.name)") ?? URL(fileURLWithPath: "/"), zone: DiscoverTests.zone, now: DiscoverTests.now)
            #expect(listing == nil, "\(page.name): proposed \(listing?.why ?? "")")
        }
    }
}

/// The feeds a page declares or links, as district sites do.
@Suite struct FeedFinderTests {
    @Test func feedsCalendarsAndAPIs() throws {
        let page = """
            <html><head>
            <link rel="alternate" type="application/rss+xml" title="Valley Schools &raquo; Feed" href="/feed/">
            <link rel="alternate" type="application/rss+xml" title="Valley Schools &raquo; Comments Feed" href="/comments/feed/">
            <link rel="https://api.w.org/" href="https://valley.example/wp-json/">
            <script src="https://www.gstatic.com/_/atari/_/js/k=atari.vw.en_US.abc/am=AAE/d=1/rs=AGEqA5n/m=view"></script>
            </head><body>
            <a href="webcal://valley.example/calendar/district.ics">Subscribe</a>
            <a href="/site/handlers/icalfeed.ashx?MIID=60">iCal</a>
            <iframe src="https://calendar.google.com/calendar/embed?src=valley.example_abc123%40group.calendar.google.com&amp;ctz=America%2FChicago"></iframe>
            </body></html>
            """
        let document = try HTMLDocument(html: page, url: URL(string: "https://valley.example/"))
        let feeds = FeedFinder.feeds(in: document, page: URL(string: "https://valley.example/") ?? URL(fileURLWithPath: "/"))
        #expect(
            feeds.map { "\($0.importer) \($0.url)" } == [
                "wordpress https://valley.example/wp-json/wp/v2/posts", "ical https://valley.example/calendar/district.ics",
                "ical https://valley.example/site/handlers/icalfeed.ashx?MIID=60",
                "ical https://calendar.google.com/calendar/ical/valley.example_abc123%40group.calendar.google.com/public/basic.ics",
            ], "\(feeds)")
        let (recognizers, _) = Recognizer.load(folder: nil)
        let googleSites = recognizers.first { $0.platform == "Google Sites" }
        #expect(
            googleSites?.recognizes(
                document, markup: page.lowercased(), url: URL(string: "https://sites.google.com/valley.example/home") ?? URL(fileURLWithPath: "/")) != nil)
    }
}
