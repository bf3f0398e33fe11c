import Foundation
import TestSupport
import Testing

/// `preview` rendered by a real headless browser: every public item of the sample district is in
/// the page, nothing private is, and the screenshot is not blank.
@Suite struct PreviewTests {
    static var browser: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func headless(_ browser: String, _ dir: TemporaryDirectory, _ arguments: [String]) throws -> Binaries.Result {
        try Binaries.runPath(
            browser,
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(dir.path("chrome"))", "--window-size=900,2400"] + arguments,
            environment: ["HOME": dir.url.path])
    }

    @Test func theSampleDistrictRendersInAHeadlessBrowser() throws {
        guard let browser = Self.browser else {
            try Skip.because("no Chromium here (.ci/run installs it: apt-get install chromium)")
            return
        }
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let out = fixture.dir.path("preview")
        let made = try fixture.run(["preview", "--pending", "--out", out, "--no-open"])
        #expect(made.status == 0, "\(made.stderr)")
        var expected: [String: String] = [:]  // id → title shown
        for kind in ["announcements", "events", "school-info", "posts"] {
            let rows = try fixture.json(["list", kind, "--status", "pending", "--limit", "1000"]) as? [[String: Any]] ?? []
            for row in rows { expected[row["id"] as? String ?? ""] = row["title"] as? String }
        }
        #expect(expected.count > 20)
        #expect(made.stdout.contains("\(expected.count) items"), "\(made.stdout)")
        let page = URL(fileURLWithPath: out + "/index.html").absoluteString
        let dom = try Self.headless(browser, fixture.dir, ["--dump-dom", page])
        #expect(dom.status == 0, "\(dom.stderr.suffix(500))")
        for (id, title) in expected {
            #expect(dom.stdout.contains("data-id=\"\(id)\""), "\(id) is not in the page")
            if !id.hasPrefix("p") {
                let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                    of: ">", with: "&gt;")
                #expect(dom.stdout.contains(escaped), "\(id): \(title)")
            }
        }
        for secret in ["Jordan Lee", "Avery Chen", "Grandmother", "B lunch"] { #expect(!dom.stdout.contains(secret)) }
        // The screenshot holds a rendered page: far larger than the same browser's shot of an empty page.
        try fixture.dir.write("blank.html", "<!doctype html><html><body></body></html>")
        #expect(try Self.headless(browser, fixture.dir, ["--screenshot=\(fixture.dir.path("shot.png"))", page]).status == 0)
        #expect(
            try Self.headless(
                browser, fixture.dir, ["--screenshot=\(fixture.dir.path("blank.png"))", URL(fileURLWithPath: fixture.dir.path("blank.html")).absoluteString]
            ).status == 0)
        let shot = (try? FileManager.default.attributesOfItem(atPath: fixture.dir.path("shot.png"))[.size] as? Int) ?? 0
        let blank = (try? FileManager.default.attributesOfItem(atPath: fixture.dir.path("blank.png"))[.size] as? Int) ?? 0
        #expect(blank > 0 && shot > 10 * blank, "screenshot \(shot) bytes, blank page \(blank) bytes")
    }

    /// Dates read in the item's own zone: a post made at 21:42 in Denver on September 18 is on
    /// the 18th, though it is already the 19th in UTC (the machine's zone in CI).
    @Test func datesAreInTheItemsOwnZone() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let made = try fixture.run(["preview", "--pending", "--out", fixture.dir.path("p"), "--no-open"], environment: ["TZ": "UTC"])
        #expect(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOfFile: fixture.dir.path("p/index.html"), encoding: .utf8)
        #expect(html.contains("student · Friday, September 18, 2026"), "\(html)")
        #expect(!html.contains("student · Saturday, September 19, 2026"))
    }

    @Test func picturesAreShownAndEventsAreOnAMapWithNothingLoadedFromTheWeb() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let places = try String(contentsOf: ConsoleFixture.root.appendingPathComponent("Imports/samples/hillcrest/places.commands"), encoding: .utf8)
        #expect(try fixture.run(["--as", "ana"], stdin: places).status == 0)
        #expect(try fixture.run(["preview", "--pending", "--out", fixture.dir.path("p"), "--no-open"]).status == 0)
        let html = try String(contentsOfFile: fixture.dir.path("p/index.html"), encoding: .utf8)
        // The sample's news pictures, read from its mirror folder, inline with their descriptions.
        #expect(
            html.contains("<img src=\"data:image/jpeg;base64,") && html.contains("alt=\"Huskies cheer section at the homecoming game\""), "\(html.prefix(2000))"
        )
        #expect(!html.contains("image: "), "no grey box stands for a picture")
        // Posts' photos on a CDN: links that say they have no description; nothing loads from the web.
        #expect(html.contains(">picture: stadium.jpg</a><span class=\"nodesc\">no description</span>"), "\(html)")
        #expect(html.range(of: #"src="https?:"#, options: .regularExpression) == nil)
        // Events: an inline SVG map with a numbered pin each, and the pins' list under it.
        #expect(html.contains("<svg viewBox=\"0 0 640 320\" role=\"img\" aria-label=\"Map of "), "\(html)")
        #expect(html.contains("<title>Hillcrest Stadium</title>") && html.contains("<ol class=\"pins\">"))
        // The announcement strip wraps: every card is reachable without scrolling sideways.
        #expect(html.contains(".slides{display:flex;flex-wrap:wrap") && !html.contains("overflow-x"))
    }

    @Test func privateItemsAreNeverPreviewed() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let absence = try #require(try fixture.ids("absences").first)
        let refused = try fixture.run(["preview", absence, "--out", fixture.dir.path("p"), "--no-open"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("private, never shown in the app"))
    }
}

/// The preview page passes axe-core with no violation of WCAG 2 A and AA (issue 38), run in
/// headless Chromium with the axe-core engine the axe-selenium-python package ships (.ci/run
/// installs it from PyPI), on what review would publish and on what is published.
@Suite struct AccessiblePreviewTests {
    /// axe.min.js from the installed axe-selenium-python package.
    static func axeScript() throws -> String? {
        let found = try Binaries.runPath(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import axe_selenium_python, os; print(os.path.join(os.path.dirname(axe_selenium_python.__file__), 'node_modules', 'axe-core', 'axe.min.js'))",
            ])
        let path = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard found.status == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text
    }

    /// The violations axe finds on a page: ids, with the first elements each.
    static func violations(_ page: String, axe: String, browser: String, dir: TemporaryDirectory) throws -> [String] {
        let runner = """
            <script>\(axe)</script><script>
            axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}}).then(function (r) {
              var pre = document.createElement('pre'); pre.id = 'axe-result';
              pre.textContent = JSON.stringify(r.violations.map(function (v) { return v.id + ': ' + v.nodes.map(function (n) { return n.target.join('\
             '); }).slice(0, 3).join(', '); }));
              document.body.appendChild(pre);
            }).catch(function (e) { var pre = document.createElement('pre'); pre.id = 'axe-result'; pre.textContent = JSON.stringify(['axe failed: '\
             + e]); document.body.appendChild(pre); });
            </script></body>
            """
        let html = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "</body>", with: runner)
        let checked = try dir.write("axe-\(UUID().uuidString).html", html)
        let dom = try PreviewTests.headless(browser, dir, ["--virtual-time-budget=20000", "--dump-dom", URL(fileURLWithPath: checked).absoluteString])
        guard let start = dom.stdout.range(of: "<pre id=\"axe-result\">"),
            let end = dom.stdout.range(of: "</pre>", range: start.upperBound..<dom.stdout.endIndex)
        else {
            return ["axe did not run: \(dom.stderr.suffix(300))"]
        }
        let json = String(dom.stdout[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]) ?? ["unreadable: \(json.prefix(200))"]
    }

    @Test func pendingAndPublishedPreviewsHaveNoViolations() throws {
        guard let browser = PreviewTests.browser, let axe = try Self.axeScript() else {
            let message = "Chromium or the axe-selenium-python package is missing (.ci/run installs them)"
            try Skip.because(message)
            return
        }
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        // The school's places, so the events' map is on the page too.
        let places = try String(contentsOf: ConsoleFixture.root.appendingPathComponent("Imports/samples/hillcrest/places.commands"), encoding: .utf8)
        #expect(try fixture.run(["--as", "ana"], stdin: places).status == 0)
        #expect(try fixture.run(["preview", "--pending", "--out", fixture.dir.path("pending"), "--no-open"]).status == 0)
        #expect(try String(contentsOfFile: fixture.dir.path("pending/index.html"), encoding: .utf8).contains("<figure class=\"map\">"))
        // Published: everything public approved (anyway: the sample's news holds the office's phone).
        for kind in ["announcements", "events", "school-info", "posts"] {
            let ids = try fixture.ids(kind)
            if !ids.isEmpty { _ = try fixture.run(["--as", "ana", "approve", "--anyway"] + ids) }
        }
        #expect(try fixture.run(["preview", "--out", fixture.dir.path("published"), "--no-open"]).status == 0)
        for name in ["pending", "published"] {
            let found = try Self.violations(fixture.dir.path("\(name)/index.html"), axe: axe, browser: browser, dir: fixture.dir)
            #expect(found.isEmpty, "preview \(name): \(found)")
        }
    }
}
