import Testing

@testable import TimeTrackImport

/// robots.txt as RFC 9309 reads it, for our user-agent token.
@Suite struct RobotsTxtTests {
    let agent = "TimeTrackAdmin/0.1.0 (+https://timetrack.example)"

    @Test func theMostSpecificGroupWinsOverTheStar() {
        let robots = RobotsTxt(text: "User-agent: *\nDisallow: /\n\nUser-agent: timetrackadmin\nDisallow: /private/\n", agent: agent)
        #expect(robots.allows("/news/"))
        #expect(!robots.allows("/private/a.html"))
    }

    @Test func withoutOurGroupTheStarGroupApplies() {
        let robots = RobotsTxt(text: "User-agent: GoogleBot\nDisallow: /\n\nUser-agent: *\nDisallow: /calendar\n", agent: agent)
        #expect(robots.allows("/news/"))
        #expect(!robots.allows("/calendar?month=9"))
    }

    @Test func consecutiveUserAgentLinesShareTheirRules() {
        let robots = RobotsTxt(text: "User-agent: a\nUser-agent: TimeTrackAdmin\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", agent: agent)
        #expect(!robots.allows("/x"))
        #expect(robots.allows("/y"))
    }

    @Test func theLongestMatchWinsAndAllowWinsATie() {
        let robots = RobotsTxt(text: "User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nAllow: /same\nDisallow: /same\n", agent: agent)
        #expect(!robots.allows("/docs/board.pdf"))
        #expect(robots.allows("/docs/public/handbook.pdf"))
        #expect(robots.allows("/same"))
    }

    @Test func wildcardsAndTheEndAnchor() {
        let robots = RobotsTxt(text: "User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/cache\n", agent: agent)
        #expect(!robots.allows("/board/minutes.pdf"))
        #expect(!robots.allows("/a.pdf.pdf"))
        #expect(robots.allows("/board/minutes.pdf?download=1"))
        #expect(!robots.allows("/tmp-2026/cache/x"))
        #expect(robots.allows("/tmp/other"))
    }

    @Test func commentsCRLFUnknownLinesAndAnEmptyDisallow() {
        let robots = RobotsTxt(
            text: "# hello\r\nUser-agent: * # everyone\r\nCrawl-delay: 10\r\nDisallow:\r\nDisallow: /admin # staff only\r\nnonsense line\r\n", agent: agent)
        #expect(robots.allows("/"))
        #expect(!robots.allows("/admin/login"))
    }

    @Test func rulesBeforeAnyUserAgentAndNoRobotsAtAll() {
        #expect(RobotsTxt(text: "Disallow: /\n", agent: agent).allows("/news"))
        #expect(RobotsTxt.allowAll.allows("/anything"))
        #expect(!RobotsTxt.disallowAll.allows("/anything"))
        #expect(RobotsTxt(text: "", agent: agent).allows("/"))
    }
}
