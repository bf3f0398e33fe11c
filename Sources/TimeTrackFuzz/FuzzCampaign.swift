import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

/// Mutation fuzzing of every parser that reads input: calendars, pages and their selectors,
/// dates, JSON, source definitions and patterns.
///
/// A fixed seed makes a batch repeatable: `swift test` runs a short one, `timetrack-bench --fuzz N`
/// a long one.
///
/// A parser fails a campaign by trapping (the process dies: the test or the bench fails), by
/// throwing anything but a `TimeTrackError`, or by taking longer than `slowLimit` on one input.
public struct FuzzCampaign {
    /// What one target did.
    public struct Report: Sendable, CustomStringConvertible {
        public var target: String
        public var inputs = 0
        public var accepted = 0
        public var slowest: TimeInterval = 0
        public var slowestInput = ""
        public var failures: [String] = []
        public var description: String {
            String(format: "%@: %d inputs, %d accepted, slowest %.3f s, %d failures", target, inputs, accepted, slowest, failures.count)
                + (slowest > 0.5 ? " (slowest input: \(slowestInput.prefix(80).debugDescription) …)" : "")
        }
    }

    /// Every target by name.
    public static let targets = ["ics", "html", "selector", "date", "json", "definition", "pattern"]

    public var seed: UInt64
    /// One input slower than this is a failure.
    public var slowLimit: TimeInterval = 10
    let folder: URL

    /// A campaign writing its inputs under `folder` (files the importers read).
    public init(seed: UInt64, folder: URL) {
        self.seed = seed
        self.folder = folder
    }

    /// Runs `iterations` mutated inputs through `target`.
    public func run(_ target: String, iterations: Int) throws -> Report {
        var rng = SplitMix(state: seed ^ FuzzCampaign.salt(target))
        var report = Report(target: target)
        let seeds = FuzzCampaign.seeds[target] ?? [""]
        let dictionary = FuzzCampaign.dictionaries[target] ?? []
        for _ in 0..<iterations {
            var input = Array((seeds.randomElement(using: &rng) ?? "").utf8)
            for _ in 0..<Int.random(in: 1...6, using: &rng) { mutate(&input, dictionary: dictionary, rng: &rng) }
            let started = Date()
            do {
                if try feed(target, Data(input)) { report.accepted += 1 }
            } catch is TimeTrackError {
                // A clear refusal is a good outcome.
            } catch {
                report.failures.append("\(target): threw \(type(of: error)): \(error) on \(String(decoding: input.prefix(120), as: UTF8.self))")
            }
            let elapsed = Date().timeIntervalSince(started)
            if elapsed > report.slowest {
                report.slowest = elapsed
                report.slowestInput = "\(input.count) bytes: " + String(decoding: input.prefix(120), as: UTF8.self)
            }
            if elapsed > slowLimit {
                report.failures.append(String(format: "%@: %.1f s on %@", target, elapsed, String(decoding: input.prefix(120), as: UTF8.self)))
            }
            report.inputs += 1
        }
        return report
    }

    static func salt(_ target: String) -> UInt64 {
        // A stable per-target salt (String.hashValue is seeded per process).
        target.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
    }

    /// Feeds one input to a target; true when it produced something (items, a match, a date).
    func feed(_ target: String, _ data: Data) throws -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        switch target {
        case "ics": return try extract(importer: "ical", kind: "event", file: "f.ics", data: data, options: "{}")
        case "html":
            return try extract(
                importer: "html", kind: "event", file: "f.html", data: data,
                options:
                    #"{ "item": "article, li, tr", "fields": { "title": "h2, a, td","#
                    + #" "start": ["time@datetime", ".date", {"select": "td", "pattern": "(\\d+/\\d+(/\\d+)?)"}],"#
                    + #" "link": "a@href" } }"#
            )
        case "json": return try extract(importer: "inbox", kind: "post", file: "f.json", data: data, options: "{}")
        case "selector":
            let selector = try Selector(text)
            let document = try HTMLDocument(html: FuzzCampaign.selectorPage)
            return !document.root.select(selector).isEmpty
        case "date":
            let parser = DateParser(timeZone: TimeZone(identifier: "America/Denver") ?? .current, reference: Date(timeIntervalSince1970: 1_788_000_000))
            return parser.parse(text) != nil
        case "definition":
            // Through the file loader, as `sources` and `import` read definitions.
            let path = folder.appendingPathComponent("d.json")
            try data.write(to: path)
            let source = try SourceDefinition.load(file: path.path)
            _ = try ImporterRegistry.make(for: source)
            return true
        case "pattern":
            do {
                let pattern = try SafePattern(text)
                return pattern.firstMatch(in: FuzzCampaign.patternSubject) != nil
            } catch is SafePattern.SyntaxError {
                return false
            }
        default:
            throw TimeTrackError(.usage, "no fuzz target '\(target)'", fix: "targets: " + FuzzCampaign.targets.joined(separator: ", "))
        }
    }

    private func extract(importer: String, kind: String, file: String, data: Data, options: String) throws -> Bool {
        try data.write(to: folder.appendingPathComponent(file))
        let definition = """
            { "id": "fuzz", "importer": "\(importer)", "kind": "\(kind)", "url": "\(file)", "timeZone": "America/Denver",
              "baseURL": "https://fuzz.example/\(file)", "options": \(options) }
            """
        let path = folder.appendingPathComponent("fuzz.json")
        try Data(definition.utf8).write(to: path)
        let source = try SourceDefinition.load(file: path.path)
        var pipeline = ImportPipeline(importsRoot: folder)
        pipeline.now = { Date(timeIntervalSince1970: 1_788_000_000) }
        return !(try pipeline.extract(source).items.isEmpty)
    }

    // MARK: Mutations

    func mutate(_ input: inout [UInt8], dictionary: [String], rng: inout SplitMix) {
        let count = input.count
        switch Int.random(in: 0..<8, using: &rng) {
        case 0 where count > 0:  // flip a byte
            input[Int.random(in: 0..<count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
        case 1:  // insert a token of the format
            let token = Array((dictionary.randomElement(using: &rng) ?? "x").utf8)
            input.insert(contentsOf: token, at: Int.random(in: 0...count, using: &rng))
        case 2 where count > 1:  // delete a range
            let start = Int.random(in: 0..<count, using: &rng)
            input.removeSubrange(start..<min(count, start + Int.random(in: 1...64, using: &rng)))
        case 3 where count > 1:  // repeat a range many times (size and depth)
            let start = Int.random(in: 0..<count, using: &rng)
            let chunk = Array(input[start..<min(count, start + Int.random(in: 1...32, using: &rng))])
            let times = [2, 10, 100, 2_000].randomElement(using: &rng) ?? 2
            input.insert(contentsOf: Array([[UInt8]](repeating: chunk, count: times).joined()), at: start)
        case 4:  // an extreme number
            let number =
                ["9223372036854775807", "-9223372036854775808", "1e308", "1e-308", "99999999999999999999", "0", "-1", "4294967296", "NaN"]
                .randomElement(using: &rng) ?? "0"
            input.insert(contentsOf: Array(number.utf8), at: Int.random(in: 0...count, using: &rng))
        case 5 where count > 0:  // insert a control, bidi or other odd character
            let odd = ["\u{0}", "\u{1B}[2J", "\u{202E}", "\u{FEFF}", "\u{85}", "\r", "\u{D7FF}"].randomElement(using: &rng) ?? "\u{0}"
            input.insert(contentsOf: Array(odd.utf8), at: Int.random(in: 0...count, using: &rng))
        case 6 where count > 2:  // truncate
            input.removeLast(Int.random(in: 1...max(1, count / 2), using: &rng))
        default:  // an invalid UTF-8 byte
            input.insert([0xC3, 0xFF, 0x80, 0xED].randomElement(using: &rng) ?? 0xFF, at: Int.random(in: 0...count, using: &rng))
        }
        if input.count > 4_000_000 { input.removeLast(input.count - 4_000_000) }
    }

    // MARK: Seeds

    static let selectorPage =
        "<html><body><main><article class='a b' id='x' data-n='1'><h2>T</h2><p>1</p><p>2</p></article><ul><li>a</li><li>b</li></ul></main></body></html>"
    static let patternSubject = "Board meeting 2026-09-15 at 6:30 PM in Room 100 — café, 日本, " + String(repeating: "x", count: 200)

    static let seeds: [String: [String]] = [
        "ics": [
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:A\r\nDTSTART;TZID=America/Denver:20260915T180000\r\n"
                + "DTEND;TZID=America/Denver:20260915T200000\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10\r\n"
                + "EXDATE;TZID=America/Denver:20260921T180000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Custom\r\nBEGIN:DAYLIGHT\r\n"
                + "DTSTART:19700308T020000\r\nTZOFFSETFROM:-0700\r\nTZOFFSETTO:-0600\r\n"
                + "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
                + "BEGIN:VEVENT\r\nUID:2\r\nSUMMARY:B\r\nDTSTART;VALUE=DATE:20260907\r\n"
                + "DURATION:P1D\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231\r\n"
                + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:2\r\nRECURRENCE-ID;VALUE=DATE:20260930\r\n"
                + "SUMMARY:moved\r\nDTSTART;VALUE=DATE:20261001\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n",
        ],
        "html": [
            "<html><body><article><h2>Board</h2><time datetime='2026-09-15T18:30'>Sept 15</time><a href='/b'>more</a></article><ul><li><a"
                + " href='x.pdf'>Doc</a> <span class='date'>Oct 3</span></li></ul></body></html>",
            "<table><tr><td>9/15</td><td>Open house</td></tr><tr><td>10/2/2026</td><td><a href='//x.example/y'>Game</a></td></tr></table>",
        ],
        "json": [
            #"[{"id":"p1","authorName":"Maya","authorRole":"student","text":"Hi 🏈","#
                + #""imageURLs":["https://x.example/a.jpg"],"createdAt":"2026-09-18T21:42:00-06:00"}]"#
        ],
        "selector": ["article.a > h2", "main :not(p) + p", "ul li:nth-child(2)", "[data-n='1'] ~ ul", "xpath://article[@id='x']", "h2, p:first-child"],
        "date": ["Sept 15, 2026 6:30 PM", "2026-09-15T18:30:00-06:00", "10/2", "Thursday, October 17", "Oct 17 – 19", "noon", "1Sept 2025"],
        "definition": [
            #"{"id":"x","importer":"html","kind":"announcement","url":"p.html","#
                + #""timeZone":"America/Denver","schedule":"6h","options":{"item":"article","#
                + #""fields":{"title":"h2","date":{"select":"time","pattern":"(\\d+)"}},"#
                + #""maxPages":5}}"#,
            #"{"id":"y","importer":"ical","kind":"event","url":"c.ics","options":{"pastDays":30,"futureDays":365}}"#,
        ],
        "pattern": [#"_(\d{4}-\d{2}-\d{2})T"#, #"-\s*(\d{1,2}:\d{2}\s*[AP]M)"#, "^(All Day)$", "(?:Room|Rm\\.?)\\s+(\\w+)", "[^,]+"],
    ]

    static let dictionaries: [String: [String]] = [
        "ics": [
            "\r\nBEGIN:VEVENT\r\n", "\r\nEND:VEVENT\r\n", ";INTERVAL=", ";COUNT=", ";BYDAY=", "-9223372036854775808MO", ";BYSETPOS=", "\r\nDURATION:P", "\r\n ",
            "TZID=", "\\,", ";BYMONTHDAY=", "\r\nRRULE:FREQ=DAILY",
        ],
        "html": [
            "<div>", "</div>", "<article>", "<h2>", "<!--", "<script>", "&#", "<meta charset=utf-16>", "<base href='file:///'>", "<a href='", "/>",
            "<time datetime='",
        ],
        "json": ["[", "]", "{", "}", "\"id\":", "\"text\":", "\\u0000", "\\ud800", "null", "1e400", ","],
        "selector": [":not(", ":nth-child(", ")", "[", "]", ">", "+", "~", "*", "::", "\\", "'", ":has(", "xpath:", "#", "."],
        "date": ["Sept", "31", "99999", "-", "/", ":", "PM", "T", "Z", "+99:99", "–", "noon", "0000"],
        "definition": [
            "1e300", "-1", "\"infh\"", "\"1e300d\"", "null", "[]", "{}", "\"maxPages\":", "\"schedule\":", "\"pattern\":\"(x+x+)+y\"", "\"item\":\"a[\"",
        ],
        "pattern": ["(", ")", "*", "+", "?", "{1000}", "{1,", "|", "[", "]", "\\", "(?=", "(?<n>", "^", "$", "\\b", ".*"],
    ]
}

/// SplitMix64: a small, fast, seedable generator.
public struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
