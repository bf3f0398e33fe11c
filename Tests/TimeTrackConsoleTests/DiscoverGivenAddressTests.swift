import Foundation
import TestSupport
import Testing

/// Issue 45, its first point: any address is a start.
///
/// Given a feed, a calendar, a JSON answer
/// or an XML export (real captures from `../shared/realworld`, served on 127.0.0.1), discover
/// says what it was given and proposes it with the importer that reads it, with a sample.
@Suite struct DiscoverGivenAddressTests {
    static let shared = ConsoleFixture.root.deletingLastPathComponent().appendingPathComponent("shared/realworld")

    static let cases: [(file: String, type: String, importer: String, kind: String, items: Int, says: String)] = [
        // A calendar module's RSS: each title starts with its date and time, so its entries are events.
        ("platforms/pages/finalsite_wcm/lausd_boe_calendar_rss.xml", "application/rss+xml", "html", "event", 12, "is a feed (RSS) of a calendar"),
        ("pages/beverly_edlio_district_calendar.ics", "text/calendar", "ical", "event", 24, "is a calendar"),
        ("platforms/pages/finalsite_wcm/pittsburgh_pps_schoolwires_rest_calendar_events.json", "application/json", "json", "event", 2, "answers JSON"),
        ("platforms/pages/boarddocs/cleveland_cmsd_xml_active_meetings.xml", "application/xml", "html", "event", 250, "answers XML: 250 <meeting>"),
        // WordPress's REST answer is read by its own importer (title.rendered is no plain title).
        ("pages/ccsd_newsroom_wpjson_featured.json", "application/json", "wordpress", "announcement", 1, "WordPress's REST API"),
    ]

    @Test func feedsCalendarsJSONAndXMLAreProposedAsWhatTheyAre() throws {
        guard FileManager.default.fileExists(atPath: Self.shared.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld)")
            return
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/robots.txt", .init(status: 404))
        let dir = try TemporaryDirectory("discover-given")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"requestDelay": 0}"#)
        for (index, given) in Self.cases.enumerated() {
            let body = try Data(contentsOf: Self.shared.appendingPathComponent(given.file))
            server.route("/given-\(index)", .init(status: 200, headers: ["Content-Type": given.type], body: body))
            let result = try Binaries.run(
                "timetrack-admin",
                ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--json", "discover", server.base + "/given-\(index)", "--allow-private"])
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let proposals = object?["proposals"] as? [[String: Any]] ?? []
            #expect(proposals.count == 1, "\(given.file): \(result.stdout.prefix(1500)) \(result.stderr)")
            let proposal = proposals.first ?? [:]
            #expect(proposal["importer"] as? String == given.importer && proposal["kind"] as? String == given.kind, "\(given.file): \(proposal)")
            #expect((proposal["items"] as? Int) == given.items, "\(given.file): \(proposal["items"] ?? "-") \(proposal["problems"] ?? "-")")
            let notes = (object?["notes"] as? [String] ?? []).joined(separator: " ")
            #expect(notes.contains(given.says), "\(given.file): \(notes)")
        }
    }

    /// A page that says it is one article (Talawanda High School's Smore newsletter, with its
    /// `article:published_time`) is that one announcement, not a listing of its sections.
    @Test func aNewsletterThatSaysItIsOneArticleIsOne() throws {
        let file = Self.shared.appendingPathComponent("pages/talawanda_hs_smore_newsletter.html")
        guard FileManager.default.fileExists(atPath: file.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld)")
            return
        }
        let site = try DiscoverSite("discover-newsletter")
        site.route("/n/4wu8f-talawanda-high-school", try Data(contentsOf: file))
        let (object, result) = try site.discover("/n/4wu8f-talawanda-high-school")
        let proposals = object["proposals"] as? [[String: Any]] ?? []
        #expect(proposals.count == 1 && proposals.first?["importer"] as? String == "metadata" && proposals.first?["items"] as? Int == 1, "\(result.stdout)")
    }

    /// A calendar's `webcal://` address is read as its `https://` one.
    @Test func aWebcalAddressIsItsHTTPSOne() throws {
        let result = try Binaries.run("timetrack-admin", ["--store", "/nonexistent/t.sqlite", "discover", "webcal://999.0.0.1/cal.ics"])
        #expect(!result.stderr.contains("is not a web address"), "\(result.stderr)")
    }

    /// Serves `routes` (path → capture file, or empty) on 127.0.0.1 and runs `discover --json`
    /// on `/`: its answer as an object.
    static func discover(_ routes: [String: URL?], name: String) throws -> [String: Any] {
        let site = try DiscoverSite(name)
        for (path, file) in routes { site.route(path, try file.map { try Data(contentsOf: $0) } ?? Data()) }
        let (object, result) = try site.discover("/")
        return object.isEmpty ? ["stdout": result.stdout, "stderr": result.stderr] : object
    }

    /// Issue 45: Edlio is recognized by its own generator meta (`Edlio CMS`), alone, as the real
    /// Natrona County home page states it.
    @Test func edlioIsRecognizedByItsGeneratorMeta() throws {
        let file = Self.shared.appendingPathComponent("platforms/pages/edlio/natrona_homepage_no_alert_slice.html")
        guard FileManager.default.fileExists(atPath: file.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld)")
            return
        }
        let object = try Self.discover(["/": file], name: "discover-edlio")
        let platforms = (object["platforms"] as? [[String: Any]] ?? []).compactMap { $0["platform"] as? String }
        #expect(platforms == ["Edlio"], "\(object)")
    }

    /// Issue 45: a Finalsite site's pop-up alerts.
    ///
    /// Recognized by its page body (`body.fsLiveMode`
    /// with `data-pageid`, the real Billings home page), its page-pops endpoint
    /// (`/fs/pages/<data-pageid>/page-pops`) is proposed as an alert source (empty on most days):
    /// read with the real Lewistown answer (one alert), and proposed too when it is empty today.
    @Test(arguments: [true, false])
    func aFinalsitePagePopsEndpointIsProposed(withAlert: Bool) throws {
        let home = Self.shared.appendingPathComponent("platforms/pages/finalsite/billings_homepage_body_slice.html")
        let pops = Self.shared.appendingPathComponent("platforms/pages/finalsite/lewistown_page_pops.html")
        guard FileManager.default.fileExists(atPath: home.path) else {
            try Skip.because("the real captures are not beside the project (../shared/realworld)")
            return
        }
        let object = try Self.discover(["/": home, "/fs/pages/2465/page-pops": withAlert ? pops : nil], name: "discover-pagepops")
        let proposals = object["proposals"] as? [[String: Any]] ?? []
        let alerts = try #require(proposals.first { ($0["url"] as? String)?.hasSuffix("/fs/pages/2465/page-pops") == true }, "\(object)")
        let definition = alerts["definition"] as? [String: Any] ?? [:]
        // An alert source: empty on most days, withdrawn when taken down (docs/alerts.md), its
        // visible and hidden times read as publishAt and expires.
        #expect(alerts["kind"] as? String == "alert" && alerts["importer"] as? String == "html", "\(alerts)")
        let fields = (definition["options"] as? [String: Any])?["fields"] as? [String: Any] ?? [:]
        #expect(fields["publishAt"] as? String == "@data-visible-at" && fields["expires"] as? String == "@data-hidden-at", "\(definition)")
        #expect((alerts["items"] as? Int) == (withAlert ? 1 : 0), "\(alerts)")
        if withAlert {
            let sample = (alerts["sample"] as? [[String: Any]])?.first
            #expect("\(sample ?? [:])".contains("FHS Bond Information - Election Day, September 29, 2026"), "\(sample ?? [:])")
        }
    }
}
