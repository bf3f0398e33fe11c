import Foundation
import TestSupport
import Testing

/// A standing hostile corpus, generated here: well over a hundred pages, feeds and definitions
/// built to trap, hang or exhaust a parser, imported by the real binary in one run.
///
/// Every source must end with a run record or a clear message; the process must exit by itself,
/// quickly, in
/// bounded memory.
@Suite struct HostileCorpusTests {
    struct Case {
        var id: String
        var importer: String
        var kind: String
        var file: String
        var body: Data
        var options: String = "{}"
        /// Definition JSON written as is (a hostile definition) instead of the generated one.
        var rawDefinition: String?
    }

    static func ics(_ events: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n\(events)END:VCALENDAR\r\n"
    }

    static func event(_ lines: String, uid: String = "h@x") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:Hostile\r\nDTSTART:20260910T180000Z\r\n\(lines)END:VEVENT\r\n"
    }

    static var cases: [Case] {
        var cases: [Case] = []
        func add(_ importer: String, _ kind: String, _ ext: String, _ body: String, options: String = "{}") {
            add(importer, kind, ext, Data(body.utf8), options: options)
        }
        func add(_ importer: String, _ kind: String, _ ext: String, _ body: Data, options: String = "{}") {
            let id = "\(importer)-\(cases.count)"
            cases.append(Case(id: id, importer: importer, kind: kind, file: "\(id).\(ext)", body: body, options: options))
        }
        let huge = ["9223372036854775807", "-9223372036854775808", "99999999999999999999999", "1e300", "-1", "0", "NaN", "inf"]

        // iCalendar: numbers out of every range, nesting, size.
        for freq in ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"] {
            for n in huge.prefix(4) { add("ical", "event", "ics", ics(event("RRULE:FREQ=\(freq);INTERVAL=\(n)\r\n"))) }
        }
        for n in huge { add("ical", "event", "ics", ics(event("RRULE:FREQ=MONTHLY;BYDAY=\(n)MO\r\n"))) }
        for n in huge { add("ical", "event", "ics", ics(event("RRULE:FREQ=MONTHLY;BYMONTHDAY=\(n)\r\n"))) }
        for n in huge { add("ical", "event", "ics", ics(event("RRULE:FREQ=YEARLY;BYMONTH=\(n)\r\n"))) }
        for n in huge { add("ical", "event", "ics", ics(event("RRULE:FREQ=DAILY;COUNT=\(n)\r\n"))) }
        for d in [
            "P9223372036854775807D", "PT9223372036854775807H", "-P9223372036854775807W", "P99999999999999999999D", "PT9223372036854775807S", "P1D2D3D", "P",
        ] {
            add("ical", "event", "ics", ics(event("DURATION:\(d)\r\n")))
        }
        add("ical", "event", "ics", ics(String(repeating: "BEGIN:VEVENT\r\n", count: 50_000)))
        add("ical", "event", "ics", ics(String(repeating: "BEGIN:VEVENT\r\nUID:x\r\n", count: 20_000) + String(repeating: "END:VEVENT\r\n", count: 20_000)))
        add("ical", "event", "ics", ics(String(repeating: "END:VEVENT\r\n", count: 20_000)))
        add("ical", "event", "ics", ics(event("DESCRIPTION:" + String(repeating: "x", count: 2_000_000) + "\r\n")))
        add("ical", "event", "ics", ics(event("DESCRIPTION:a\r\n" + String(repeating: " folded\r\n", count: 100_000))))
        add("ical", "event", "ics", ics(event("RRULE:FREQ=SECONDLY;COUNT=100000000\r\n")))
        add("ical", "event", "ics", ics(event("RRULE:FREQ=DAILY;UNTIL=99999999T999999Z\r\n")))
        add("ical", "event", "ics", ics(String(repeating: event("RRULE:FREQ=DAILY;INTERVAL=1\r\n", uid: "same"), count: 300)))
        add(
            "ical", "event", "ics",
            ics(
                "BEGIN:VTIMEZONE\r\nTZID:Evil\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETTO:+9999\r\nTZOFFSETFROM:-9999\r\nRRULE:FREQ=YEARLY;BYMONTH=99999999999;BYDAY=-9223372036854775808SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
                    + event("DTEND;TZID=Evil:20260910T200000\r\n").replacingOccurrences(
                        of: "DTSTART:20260910T180000Z", with: "DTSTART;TZID=Evil:20260910T180000")))
        add("ical", "event", "ics", ics(event("DTEND:00000000T000000Z\r\nEXDATE:99999999,garbage\r\n")))
        add("ical", "event", "ics", Data([0xFF, 0xFE, 0x00, 0x42] + (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))

        // HTML: depth, size, broken markup, bad bytes, hostile patterns and dates.
        let htmlOptions = #"{ "item": "article", "fields": { "title": "h2", "date": "time", "link": "a@href" } }"#
        add("html", "announcement", "html", String(repeating: "<div>", count: 200_000) + "<article><h2>Deep</h2></article>", options: htmlOptions)
        add("html", "announcement", "html", "<article><h2>" + String(repeating: "<b>", count: 100_000) + "Nested title</h2></article>", options: htmlOptions)
        add(
            "html", "announcement", "html", "<article><h2 title='" + String(repeating: "a", count: 3_000_000) + "'>Big attribute</h2></article>",
            options: htmlOptions)
        add("html", "announcement", "html", String(repeating: "<article><h2>Many</h2><a href='/x'>x</a></article>", count: 20_000), options: htmlOptions)
        add("html", "announcement", "html", "<article><h2>Unclosed <!-- comment " + String(repeating: "x", count: 100_000), options: htmlOptions)
        add(
            "html", "announcement", "html", "<article><h2>Script</h2><script>" + String(repeating: "</", count: 100_000) + "</script></article>",
            options: htmlOptions)
        add(
            "html", "announcement", "html", Data("<article><h2>NUL\u{0}bytes\u{0}</h2></article>".utf8) + Data([0x00, 0xC3, 0x28, 0xF0, 0x28, 0x8C]),
            options: htmlOptions)
        add("html", "announcement", "html", "<meta charset=utf-16><article><h2>Claims UTF-16</h2></article>", options: htmlOptions)
        add("html", "announcement", "html", "<meta charset=x-evil-9999><article><h2>Unknown charset</h2></article>", options: htmlOptions)
        for date in [
            "99999999999-01-01", "Sept 31, 2026", "February 30", "0000-00-00T99:99", "9223372036854775807", "-1e300",
            "Oct 17 " + String(repeating: "9", count: 5_000), "&#99999999999;",
        ] {
            add("html", "announcement", "html", "<article><h2>Dated</h2><time>\(date)</time></article>", options: htmlOptions)
        }
        for entity in ["&#99999999999;", "&#x110000;", "&#0;", "&#xD800;", String(repeating: "&amp;", count: 100_000)] {
            add("html", "announcement", "html", "<article><h2>Entity \(entity)</h2></article>", options: htmlOptions)
        }
        for link in [
            "javascript:alert(1)", "file:///etc/passwd", "http://[::1", "http://" + String(repeating: "a", count: 100_000) + ".example", "//evil.example/x",
            "data:text/html,<script>",
        ] {
            add("html", "announcement", "html", "<article><h2>Link</h2><a href=\"\(link)\">x</a></article>", options: htmlOptions)
        }
        let catastrophic = #"{ "item": "article", "fields": { "title": { "select": "h2", "pattern": "(x+x+)+y" } } }"#
        add("html", "announcement", "html", "<article><h2>" + String(repeating: "x", count: 3_000) + "</h2></article>", options: catastrophic)
        let alternation = #"{ "item": "article", "fields": { "title": { "select": "h2", "pattern": "^(a|aa)+$" } } }"#
        add("html", "announcement", "html", "<article><h2>" + String(repeating: "a", count: 5_000) + "!</h2></article>", options: alternation)
        let deepSelector = #"{ "item": "article div div div div div div div div div div", "fields": { "title": "h2" } }"#
        add("html", "announcement", "html", String(repeating: "<div>", count: 5_000) + "<article><h2>Selector depth</h2></article>", options: deepSelector)
        // Issue 37: attribute floods (libxml2 compares each attribute with all before it), a
        // listing of 40,000 items side by side (document order once cost items x items).
        let manyAttributes = (0..<100_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        add("html", "announcement", "html", "<article><h2 \(manyAttributes)>Attribute flood</h2></article>", options: htmlOptions)
        add("html", "announcement", "html", "<article><h2 " + String(repeating: "a ", count: 100_000) + ">Valueless flood</h2></article>", options: htmlOptions)
        add(
            "html", "announcement", "html",
            (0..<40_000).map { "<article><h2>Item \($0)</h2><time>September \($0 % 28 + 1), 2026</time><a href='/n/\($0)'>x</a></article>" }.joined(),
            options: htmlOptions)
        add("html", "announcement", "html", "", options: htmlOptions)
        add("html", "announcement", "html", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), options: htmlOptions)

        // Feeds: depth, entities, external entities, dates.
        add("feed", "announcement", "xml", "<?xml version='1.0'?><rss><channel>" + String(repeating: "<item>", count: 100_000) + "</channel></rss>")
        add(
            "feed", "announcement", "xml",
            "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'><!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'><!ENTITY d '&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;'><!ENTITY e '&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;'><!ENTITY f '&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;'>]><rss><channel><item><title>&f;&f;&f;&f;</title><link>https://x.example/1</link></item></channel></rss>"
        )
        // One 50 KB entity referenced 50,000 times: 2.5 GB if expanded.
        add(
            "feed", "announcement", "xml",
            "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY big '\(String(repeating: "x", count: 50_000))'>]><rss><channel><item><title>"
                + String(repeating: "&big;", count: 50_000) + "</title><link>https://x.example/9</link></item></channel></rss>")
        add(
            "feed", "announcement", "xml",
            "<?xml version='1.0'?><rss><channel><item><title a='1' " + String(repeating: "b ", count: 100_000) + ">t</title></item></channel></rss>")
        add(
            "feed", "announcement", "xml",
            "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY x SYSTEM"
                + " 'file:///etc/passwd'>]><rss><channel><item><title>&x;</title><link>https://x.example/2</link></item></channel></rss>"
        )
        for date in ["Mon, 99 Zzz 99999 99:99:99 +9999", "9223372036854775807", "", String(repeating: "1", count: 10_000)] {
            add(
                "feed", "announcement", "xml",
                "<?xml version='1.0'?><rss><channel><item><title>Dated</title><link>https://x.example/3</link><pubDate>\(date)</pubDate></item></channel></rss>"
            )
        }
        add(
            "feed", "announcement", "xml",
            "<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'>"
                + String(repeating: "<entry><title>t</title><link href='javascript:x'/></entry>", count: 5_000) + "</feed>")
        add("feed", "announcement", "xml", "not xml at all \u{0}\u{1}")

        // JSON (inbox, wordpress): depth, numbers, types.
        add("inbox", "post", "json", String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000))
        add("inbox", "post", "json", String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000))
        add("inbox", "post", "json", #"[{"id": 1e400, "authorName": 5, "text": null, "createdAt": "9999999-99-99"}]"#)
        add(
            "inbox", "post", "json",
            #"[{"id": "x", "authorName": "A", "authorRole": "student", "text": "\u0000\u001b[2J\u202e", "createdAt": "2026-09-01T00:00:00Z","#
                + #" "imageURLs": [1e308, -1e308, "file:///etc/passwd"]}]"#
        )
        add(
            "inbox", "post", "json",
            "[" + String(repeating: #"{"id":"same","authorName":"A","authorRole":"student","text":"t","createdAt":"2026-09-01T00:00:00Z"},"#, count: 5_000)
                + "{}]")
        add("inbox", "post", "json", Data([0x5B, 0x22, 0xC3, 0x28, 0xFF, 0x22, 0x5D]))
        add(
            "inbox", "absence", "json",
            #"[{"id":"a","student":"S","reportedBy":"P","dates":["99999-01-01"],"reason":"illness","periods":[9223372036854775807, -1]}]"#)
        add("wordpress", "announcement", "json", String(repeating: "[", count: 100_000))
        add(
            "wordpress", "announcement", "json",
            #"[{"id": 9223372036854775807, "date": "2026-13-45T99:99:99", "link": "javascript:alert(1)", "title": {"rendered": 5}}]"#)
        add("wordpress", "announcement", "json", #"{"code":"rest_no_route","message":"No route"}"#)

        // JSON-LD and document pages.
        add("metadata", "announcement", "html", "<script type='application/ld+json'>" + String(repeating: "[", count: 100_000) + "</script><title>LD</title>")
        add(
            "metadata", "announcement", "html",
            "<script type='application/ld+json'>{\"@graph\": ["
                + String(repeating: "{\"@type\":\"NewsArticle\",\"headline\":\"h\",\"datePublished\":\"99999\"},", count: 5_000) + "{}]}</script>")
        add("documents", "school-info", "html", "<main>" + String(repeating: "<a href='doc.pdf#x'>Doc</a>", count: 50_000) + "</main>")
        add("documents", "school-info", "html", "<main>" + String(repeating: "<ul><li>", count: 50_000) + "<a href='deep.pdf'>Deep</a></main>")

        // Hostile definitions: numbers and shapes the definition parser must refuse with a message.
        let definitions: [String] = [
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": "h2"},"#
                + #" "maxPages": 1e300}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": "h2"}, "maxPages": -1}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": "h2"}, "maxPages": 0}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": "h2"},"#
                + #" "maxPages": 1e999}}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "options": {"pastDays": 1e300, "futureDays": -1}}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "options": {"futureDays": 9223372036854775807}}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "infh"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "1e300d"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "nanm"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "-1h"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "0h"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "schedule": "daily 99:99"}"#,
            #"{"id": "d", "importer": "ical", "kind": "event", "url": "x.ics", "timeZone": "Mars/Olympus_Mons"}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item":"#
                + #" ":not(:not(:not(:not(:not(:not(:not(a)))))))", "fields": {"title": "h2"}}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a[", "fields": {"title": "h2"}}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": {"select": "h2","#
                + #" "pattern": "(?=x)"}}}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title": {"select": "h2","#
                + #" "pattern": "a{99999}"}}}}"#,
            #"{"id": "d", "importer": "nope", "kind": "announcement", "url": "x.html"}"#,
            #"{"id": "d", "importer": "html", "kind": "spaceship", "url": "x.html"}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "gopher://x"}"#,
            "[" + String(repeating: "[", count: 100_000),
            String(repeating: "{\"a\":", count: 50_000),
            "{\"id\": \"d\", \"importer\": \"html\", \"kind\": \"announcement\", \"url\": \"x.html\", \"options\": {\"item\": \""
                + String(repeating: "a ", count: 50_000) + "\", \"fields\": {\"title\": \"h2\"}}}",
            "\u{0}\u{1}\u{2}",
            "",
            // Selectors nested 10,000 and 5,000 deep (4.8 GB and a crash once), and 17 deep.
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item":"#
                + #" "a\#(String(repeating: ":not(", count: 10_000))b\#(String(repeating: ")", count: 10_000))", "fields": {"title": "h2"}}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item": "a", "fields": {"title":"#
                + #" "h2\#(String(repeating: ":not(", count: 5_000))b\#(String(repeating: ")", count: 5_000))"}}}"#,
            #"{"id": "d", "importer": "html", "kind": "announcement", "url": "x.html", "options": {"item":"#
                + #" "a\#(String(repeating: ":not(", count: 17))b\#(String(repeating: ")", count: 17))", "fields": {"title": "h2"}}}"#,
        ]
        for (index, text) in definitions.enumerated() {
            cases.append(Case(id: "definition-\(index)", importer: "", kind: "", file: "", body: Data(), rawDefinition: text))
        }
        return cases
    }

    @Test func theCorpusImportsWithoutATrapAHangOrABalloon() throws {
        let cases = Self.cases
        #expect(cases.count >= 100)
        let dir = try TemporaryDirectory("corpus")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"requestDelay": 0, "retries": 0, "totalTimeout": 2, "connectTimeout": 2}"#)
        for c in cases {
            if let raw = c.rawDefinition {
                try dir.write("imports/\(c.id).json", raw)
                continue
            }
            try c.body.write(to: dir.url.appendingPathComponent("imports/\(c.file)"))
            try dir.write(
                "imports/\(c.id).json",
                """
                { "id": "\(c.id)", "importer": "\(c.importer)", "kind": "\(c.kind)", "url": "\(c.file)", "timeZone": "America/Denver",
                  "baseURL": "https://hostile.example/\(c.file)", "options": \(c.options) }
                """)
        }
        let store = dir.path("s.sqlite")
        let measured = try Binaries.runMeasured(
            "timetrack-admin", ["--store", store, "--imports", dir.path("imports"), "--as", "root", "--json", "import", "--all"])
        let result = measured.result

        // Exited by itself with a documented code: 3, some sources and definitions failed.
        #expect(result.status == 3, "exit \(result.status): \(result.stderr.suffix(2_000))")
        for word in ["Fatal error", "Illegal instruction", "Segmentation", "stack overflow", "arithmetic overflow"] {
            #expect(!result.stderr.contains(word), "\(word) in: \(result.stderr.suffix(2_000))")
        }
        // Every definition error names its file.
        for index in 0..<cases.filter({ $0.rawDefinition != nil }).count {
            #expect(result.stderr.contains("definition-\(index).json"), "definition-\(index) not reported")
        }
        // Every importable case ended with a run record, none still running.
        let imported = cases.filter { $0.rawDefinition == nil }
        let runs = try Binaries.sql(
            store, "SELECT source_id || ' ' || status || ' ' || (strftime('%s', finished_at) - strftime('%s', started_at)) FROM import_runs"
        )
        .split(separator: "\n").map { $0.split(separator: " ") }
        let ran = Set(runs.compactMap { $0.first.map(String.init) })
        for c in imported { #expect(ran.contains(c.id), "\(c.id) has no run record") }
        for run in runs { #expect(run.count == 3 && run[1] != "running", "\(run)") }
        // No hang and no runaway cost, counted as work rather than by the clock (a loaded machine
        // stretches the wall time, not the CPU time): no source ran out of its time budget, and
        // the whole corpus took a bounded amount of CPU.
        #expect(!result.stdout.contains("is used up") && !result.stderr.contains("is used up"), "\(result.stderr.suffix(1_000))")
        print("hostile corpus: \(cases.count) cases, \(String(format: "%.1f", measured.cpuSeconds)) s of CPU, peak \(Int(measured.peakMB)) MB")
        #expect(measured.cpuSeconds < 120, "\(measured.cpuSeconds) s of CPU for the corpus")
        #expect(measured.peakMB < 300, "peak \(measured.peakMB) MB")
        #expect(try Binaries.sql(store, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        // Nothing unsafe reached the store: no script URLs, no control characters in titles.
        #expect(
            try Binaries.sql(store, "SELECT count(*) FROM announcements WHERE link LIKE 'javascript:%' OR link LIKE 'file:%' OR link LIKE 'data:%'")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }
}

extension HostileCorpusTests {
    /// Parsing counts against `sourceSeconds`: a source of many large pages stops at its budget
    /// with a message, instead of holding the import lock for as long as its pages take.
    @Test func parsingCountsAgainstTheSourcesTime() throws {
        let dir = try TemporaryDirectory("source-time")
        defer { dir.remove() }
        try dir.write("imports/_settings.json", #"{"sourceSeconds": 1}"#)
        let page = (0..<8_000).map { "<article><h2>Item \($0)</h2><time>September \($0 % 28 + 1), 2026</time><a href='/n/\($0)'>x</a></article>" }.joined()
        for number in 1...100 {
            try dir.write("imports/site/p\(number).html", page + "<a class='next' href='p\(number + 1).html'>next</a>")
        }
        try dir.write(
            "imports/slow.json",
            #"{ "id": "slow", "importer": "html", "kind": "announcement", "url": "site/p1.html", "timeZone": "America/Denver", "options": { "item":"#
                + #" "article", "fields": { "title": "h2", "date": "time", "link": "a@href" }, "next": "a.next@href", "maxPages": 100, "maxItems": 100000 } }"#
        )
        let measured = try Binaries.runMeasured(
            "timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "import", "slow"])
        let result = measured.result
        // Stopped by its budget, not after parsing every page: counted in CPU time (reading all
        // hundred pages takes several times this), which a loaded machine does not stretch.
        #expect(measured.cpuSeconds < 15, "\(measured.cpuSeconds) s of CPU")
        #expect(
            (result.stdout + result.stderr).contains("this source's time (1 s, sourceSeconds) is used up"),
            "\(result.stdout.suffix(500)) \(result.stderr.suffix(500))")
    }
}
