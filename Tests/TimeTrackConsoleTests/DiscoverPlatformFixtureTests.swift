import Foundation
import TestSupport
import Testing

/// Issue 45, acceptance 2: a fixture of our own for each build point, each copying the real
/// markup of its platform (class names, URL shapes, date formats as the captures show them),
/// read by the real binary's `discover` from a real HTTP server on 127.0.0.1.
@Suite struct DiscoverPlatformFixtureTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var start: String
        var routes: [String: (type: String, body: String)]
        var platform: String?
        var kind: String
        var importer: String
        var items: Int
        var firstTitle: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "Campus Suite alert banner", start: "/", routes: ["/": ("text/html", PlatformPages.campusSuite)], platform: "Campus Suite", kind: "alert",
            importer: "html", items: 1, firstTitle: "School Closure Wednesday, Dec. 21st 2022"),
        Case(
            name: "SchoolBlocks pushed alerts", start: "/en-US", routes: ["/en-US": ("text/html", PlatformPages.schoolBlocks)], platform: "SchoolBlocks",
            kind: "alert", importer: "json", items: 1, firstTitle: "Grace School District will be closed from September 11-October 4 for potato harvest break."),
        Case(
            name: "Edlio homepage alert", start: "/", routes: ["/": ("text/html", PlatformPages.edlio)], platform: "Edlio", kind: "alert", importer: "html",
            items: 1, firstTitle: "Weather Advisory"),
        Case(
            name: "Web Community Manager important announcements", start: "/", routes: ["/": ("text/html", PlatformPages.webCommunityManager)],
            platform: "Blackboard Web Community Manager", kind: "alert", importer: "html", items: 2, firstTitle: "Schools Closed Friday, October 10"),
        Case(
            name: "a district's own red emergency banner", start: "/", routes: ["/": ("text/html", PlatformPages.redBanner)], platform: nil, kind: "alert",
            importer: "html", items: 1, firstTitle: "All schools will open two hours late on Tuesday, January 20."),
        Case(
            name: "Finalsite page-pops given", start: "/fs/pages/2/page-pops", routes: ["/fs/pages/2/page-pops": ("text/html", PlatformPages.pagePops)],
            platform: "Finalsite", kind: "alert", importer: "html", items: 1, firstTitle: "Early Release Friday"),
        Case(
            name: "meetings table, date, time and title in one cell", start: "/Public/Organization/1810",
            routes: ["/Public/Organization/1810": ("text/html", PlatformPages.sparq)], platform: nil, kind: "event", importer: "html", items: 4,
            firstTitle: "Committee"),
        Case(
            name: "a table whose header row is bold cells", start: "/board-of-education/meetings/",
            routes: ["/board-of-education/meetings/": ("text/html", PlatformPages.boldHeaderTable)], platform: nil, kind: "event", importer: "html", items: 3,
            firstTitle: "Retreat"),
        Case(
            name: "an event page with its Google Calendar link", start: "/events/nboe-retreat-05-20-2026/",
            routes: ["/events/nboe-retreat-05-20-2026/": ("text/html", PlatformPages.googleLinkEvent)], platform: nil, kind: "event", importer: "html",
            items: 1, firstTitle: "NBOE Retreat"),
        Case(
            name: "a calendar module's RSS", start: "/site/RSS.aspx?DomainID=4&ModuleInstanceID=73&PageID=1",
            routes: ["/site/RSS.aspx?DomainID=4&ModuleInstanceID=73&PageID=1": ("application/rss+xml", PlatformPages.calendarRSS)], platform: nil,
            kind: "event", importer: "html", items: 3, firstTitle: "Curriculum and Instruction Committee"),
        Case(
            name: "a news RSS stays a feed", start: "/site/RSS.aspx?DomainID=4&ModuleInstanceID=80&PageID=1",
            routes: ["/site/RSS.aspx?DomainID=4&ModuleInstanceID=80&PageID=1": ("application/rss+xml", PlatformPages.newsRSS)], platform: nil,
            kind: "announcement", importer: "feed", items: 2, firstTitle: "Bond results are in"),
        Case(
            name: "Nuxt 2 state inside the page", start: "/calendar", routes: ["/calendar": ("text/html", PlatformPages.nuxt2)], platform: nil, kind: "event",
            importer: "json", items: 3, firstTitle: "Board Meeting"),
        Case(
            name: "Next pushes inside the page", start: "/events", routes: ["/events": ("text/html", PlatformPages.nextPushes)], platform: nil,
            kind: "event", importer: "json", items: 3, firstTitle: "Board Meeting"),
        Case(
            name: "dated lines cut by <br>", start: "/board/meetings", routes: ["/board/meetings": ("text/html", PlatformPages.brLines)], platform: nil,
            kind: "event", importer: "html", items: 4, firstTitle: "Regular Board Meeting, 6:00 p.m."),
        Case(
            name: "a meetings archive over its agenda files", start: "/ViewPublisher.php?view_id=1",
            routes: ["/ViewPublisher.php?view_id=1": ("text/html", PlatformPages.granicus)], platform: nil, kind: "event", importer: "html", items: 3,
            firstTitle: "Board of Education"),
    ]

    @Test(arguments: cases)
    func discoverReadsIt(_ fixture: Case) throws {
        let site = try DiscoverSite("discover-fixture")
        for (path, answer) in fixture.routes { site.route(path, answer.body, type: answer.type) }
        let (object, result) = try site.discover(fixture.start, ["--zone", "America/Chicago"])
        let platforms = (object["platforms"] as? [[String: Any]] ?? []).compactMap { $0["platform"] as? String }
        if let platform = fixture.platform { #expect(platforms.contains(platform), "\(fixture.name): \(platforms)") }
        let proposals = object["proposals"] as? [[String: Any]] ?? []
        let proposal = proposals.first { ($0["kind"] as? String) == fixture.kind && ($0["items"] as? Int ?? 0) > 0 }
        #expect(proposal?["importer"] as? String == fixture.importer, "\(fixture.name): \(proposals) \(result.stderr)")
        #expect(proposal?["items"] as? Int == fixture.items, "\(fixture.name): \(proposal ?? [:])")
        let first = ((proposal?["sample"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?["title"] as? String
        #expect(first == fixture.firstTitle, "\(fixture.name): \(proposal?["sample"] ?? "-")")
        #expect((proposal?["problems"] as? [Any])?.isEmpty == true, "\(fixture.name): \(proposal?["problems"] ?? "-")")
    }

    /// Issue 45, point 1: an XML export that breaks is read as far as it goes, and the problem
    /// says where it broke (it used to give 3 of 21 items and no problem at all).
    @Test func aBrokenXMLExportSaysWhereItBroke() throws {
        let records = (0..<21).map { index in
            #"<meeting id="M\#(index)"><name>Board Meeting \#(index)</name><start><date format="yyyy-mm-dd">2026-10-\#(10 + index)</date></start></meeting>"#
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<meetings>"] + records + ["</meetings>"]
        lines[5] = lines[5].replacingOccurrences(of: #"<meeting id="M3">"#, with: #"<meeting id="M3" & broken>"#)
        let site = try DiscoverSite("discover-broken-xml")
        site.route("/oh/x/Board.nsf/XML-ActiveMeetings", lines.joined(separator: "\n"), type: "application/xml")
        let result = try site.run(["discover", site.server.base + "/oh/x/Board.nsf/XML-ActiveMeetings", "--allow-private"])
        #expect(result.stdout.contains("3 items") && result.stderr.contains("not well-formed at line 6"), "\(result.stdout) \(result.stderr)")
    }

    /// Issue 45, point 6: a school's site makes proposals for that school; a district's, for the district.
    @Test func proposalsCarryTheSchoolTheSiteIs() throws {
        let site = try DiscoverSite("discover-school")
        site.route(
            "/",
            #"<html><head><title>Home - Lincoln High School</title></head><body class="fsLiveMode" data-pageid="77"><div class="fsElement"></div></body></html>"#
        )
        site.route("/fs/pages/77/page-pops", "")
        let (object, result) = try site.discover("/")
        let definitions = (object["proposals"] as? [[String: Any]] ?? []).compactMap { $0["definition"] as? [String: Any] }
        #expect(!definitions.isEmpty && definitions.allSatisfy { $0["school"] as? String == "lincoln-high-school" }, "\(result.stdout)")
        #expect(definitions.first?["schedule"] as? String == "15m", "an alert source is read every 15 minutes: \(definitions)")
    }

    /// An Apptegy site: its organization id, in the page's state (JSON in a JavaScript string,
    /// escaped), names its Thrillshare calendar.
    @Test func anApptegySiteProposesItsThrillshareCalendar() throws {
        let page = #"""
            <!DOCTYPE html><html><head><title>Home | Example Public Schools</title>
            <script>window.clientWorkStateTemp = JSON.parse("{\"host\":\"www.example.org\",\"org\":25694,\"parentOrgId\":5131}")</script></head>
            <body><div id="__nuxt"></div><footer><a href="https://www.apptegy.com">Powered by Apptegy</a></footer></body></html>
            """#
        let site = try DiscoverSite("discover-apptegy")
        site.route("/", page)
        let (object, result) = try site.discover("/", ["--max-pages", "1"])
        let urls = (object["proposals"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        #expect(
            urls.contains("https://thrillshare-cmsv2.services.thrillshare.com/api/v4/o/25694/cms/events/generate_ical?filter_ids&section_ids"),
            "\(result.stdout)")
    }

    /// The Google Calendar link's times are the event's, in the page's zone.
    @Test func theGoogleCalendarLinkGivesStartAndEnd() throws {
        let site = try DiscoverSite("discover-gcal-link")
        site.route("/events/nboe-retreat-05-20-2026/", PlatformPages.googleLinkEvent)
        _ = try site.run(
            ["discover", site.server.base + "/events/nboe-retreat-05-20-2026/", "--allow-private", "--zone", "America/New_York", "--write", "--enable"])
        _ = try site.run(["import", "--all", "--quiet"])
        let shown = try site.run(["show", "e1"])
        #expect(shown.stdout.contains("2026-05-20 09:00") && shown.stdout.contains("12:00"), "\(shown.stdout) \(shown.stderr)")
    }
}
