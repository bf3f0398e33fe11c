import Foundation
import TestSupport
import Testing

/// Deadlines end to end through the binary: a Canvas feed imported, courses from its rules and
/// `course add`, a due date moved upstream shown as CHANGED with both dates, `list deadlines
/// --due-within 7d`, and the exports: one calendar per course with VALARMs (read back by the
/// project's ical importer and by python's icalendar) and the JSON feed with weights.
@Suite struct DeadlineTests {
    static func utc(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: date)
    }

    /// A Canvas feed: two chemistry deadlines and one English, due in `days` days at 23:59 UTC-ish.
    static func feed(_ days: [Double], now: Date) -> String {
        let day = 86_400.0
        func event(_ uid: String, _ summary: String, _ offset: Double, _ url: String) -> [String] {
            let due = now.addingTimeInterval(offset * day)
            return [
                "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(utc(now))", "DTSTART:\(utc(due))", "DTEND:\(utc(due))", "SUMMARY:\(summary)", "URL:\(url)",
                "END:VEVENT",
            ]
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Instructure, Inc.//Canvas LMS//EN"]
        lines += event("event-assignment-1", "Lab report 3 [AP Chemistry]", days[0], "https://canvas.example.edu/courses/12/assignments/1")
        lines += event("event-assignment-2", "Stoichiometry check [AP Chemistry]", days[1], "https://canvas.example.edu/courses/12/quizzes/2")
        lines += event("event-assignment-3", "Gatsby essay [English 11]", days[2], "https://canvas.example.edu/courses/13/assignments/3")
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A python that has icalendar (the toolchain's or Debian's).
    static var python: String? {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"]
            + ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" })
        {
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            if (try? Binaries.runPath(candidate, ["-c", "import icalendar"]))?.status == 0 { return candidate }
        }
        return nil
    }

    @Test func importReviewMoveExportAndRemind() throws {
        let dir = try TemporaryDirectory("deadlines")
        defer { dir.remove() }
        let now = Date()
        try dir.write("imports/feeds/canvas.ics", Self.feed([2, 5, 10], now: now))
        try dir.write(
            "imports/canvas.json",
            """
            { "id": "canvas", "importer": "lms", "kind": "deadline", "url": "feeds/canvas.ics", "timeZone": "America/Denver", "school": "hillcrest",
              "options": { "courses": [
                { "code": "CHEM-AP", "name": "AP Chemistry", "teacher": "Ms. Patel", "weights": { "test": 40, "quiz": 20, "homework": 30, "project": 10 } },
                { "code": "ENG-11", "name": "English 11", "reminders": ["2d", "1h"] } ] } }
            """)
        func run(_ words: [String]) throws -> Binaries.Result {
            try Binaries.run("timetrack-admin", ["--store", dir.path("t.sqlite"), "--imports", dir.path("imports")] + words)
        }
        let first = try run(["import", "canvas", "--no-review"])
        #expect(first.status == 0 && first.stderr.contains("3 new"), "\(first.stdout)\(first.stderr)")
        // The rules' courses are in the store; `course add` changes one, an import never does.
        let courses = try run(["courses"]).stdout
        #expect(courses.contains("CHEM-AP") && courses.contains("homework 30%") && courses.contains("ENG-11") && courses.contains("2d, 1h"), "\(courses)")
        let changed = try run(["course", "add", "CHEM-AP", "--reminders", "3d,1h", "--weight", "quiz=25"])
        #expect(
            changed.status == 0 && changed.stdout.contains("course changed") && changed.stdout.contains("reminders 3d, 1h"),
            "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stderr.contains("add up to 105%"), "\(changed.stderr)")
        let refused = try run(["course", "add", "BIO", "--name", "Biology", "--weight", "labs=30"])
        #expect(refused.status == 2 && refused.stderr.contains("is not CATEGORY=PERCENT"), "\(refused.stderr)")
        #expect(try run(["import", "canvas", "--no-review"]).status == 0)
        #expect(try run(["courses"]).stdout.contains("3d, 1h"), "an import overwrote what course add set")

        let approved = try run(["approve", "d1", "d2", "d3"])
        #expect(approved.status == 0, "\(approved.stderr)")
        // Due within a week: the two chemistry deadlines, soonest first; the essay (10 days) not.
        let week = try run(["list", "deadlines", "--due-within", "7d"]).stdout
        let lines = week.split(separator: "\n").filter { $0.hasPrefix("d") }
        #expect(lines.count == 2 && lines.first?.contains("Lab report 3") == true && lines.last?.contains("Stoichiometry check") == true, "\(week)")
        #expect(week.contains("MST") || week.contains("MDT"), "dates in the school's zone: \(week)")
        #expect(try run(["list", "events", "--due-within", "7d"]).stderr.contains("lists deadlines"))

        // The teacher moves the lab report two days later: CHANGED, with the old and the new date.
        try dir.write("imports/feeds/canvas.ics", Self.feed([4, 5, 10], now: now))
        let moved = try run(["import", "canvas", "--no-review"])
        #expect(moved.stderr.contains("1 changed"), "\(moved.stderr)")
        let shown = try run(["show", "d1"]).stdout
        let denver = DateFormatter()
        denver.locale = Locale(identifier: "en_US_POSIX")
        denver.timeZone = TimeZone(identifier: "America/Denver")
        denver.dateFormat = "yyyy-MM-dd HH:mm"
        let before = denver.string(from: now.addingTimeInterval(2 * 86_400)), after = denver.string(from: now.addingTimeInterval(4 * 86_400))
        #expect(shown.contains("- \(before)") && shown.contains("+ \(after)"), "\(shown)")
        #expect(try run(["approve", "d1"]).status == 0)
        // A deadline's own reminders, typed and shown as offsets.
        #expect(try run(["edit", "d3", "reminders=1d,30m"]).status == 0)
        #expect(try run(["show", "d3"]).stdout.contains("reminders:      1d, 30m before"))

        // One calendar per course, with a VALARM per reminder offset.
        let exported = try run(["export", "--format", "ics", "--kind", "deadlines", "--out", dir.path("ics")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path("ics")).sorted()
        #expect(files == ["CHEM-AP.ics", "ENG-11.ics"], "\(files)")
        let chemistry = try String(contentsOfFile: dir.path("ics/CHEM-AP.ics"), encoding: .utf8)
        #expect(chemistry.components(separatedBy: "BEGIN:VALARM").count - 1 == 4, "two deadlines × 3d, 1h")
        #expect(chemistry.contains("TRIGGER;RELATED=START:-P3D") && chemistry.contains("TRIGGER;RELATED=START:-PT1H"))
        #expect(chemistry.contains("X-TIMETRACK-WEIGHT:25") && chemistry.contains("Quiz: 25% of the grade"), "\(chemistry)")
        // Read back by the project's own ical importer: the same deadlines at the same instants.
        let definition = try dir.write(
            "ics/back.json",
            #"{ "id": "back", "importer": "ical", "kind": "event", "url": "CHEM-AP.ics", "timeZone": "America/Denver", "options": { "pastDays": 3660 } }"#)
        let back = try run(["--json", "extract", definition])
        let events = ((try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
            $0["fields"] as? [String: Any]
        }
        #expect(events.count == 2, "\(back.stdout)\(back.stderr)")
        let starts = Set(
            events.compactMap { ($0["start"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map { Int($0.timeIntervalSince1970 / 60) } })
        #expect(
            starts == Set([now.addingTimeInterval(4 * 86_400), now.addingTimeInterval(5 * 86_400)].map { Int($0.timeIntervalSince1970 / 60) }), "\(events)")
        // And by python's icalendar.
        if let python = Self.python {
            let script = """
                import sys, icalendar
                for path in sys.argv[1:]:
                    cal = icalendar.Calendar.from_ical(open(path, 'rb').read())
                    for ev in cal.walk('VEVENT'):
                        alarms = [str(a.get('TRIGGER').dt) for a in ev.walk('VALARM')]
                        print(path.split('/')[-1], ev.get('SUMMARY'), ev.decoded('DTSTART').isoformat(), '|'.join(alarms))
                """
            let parsed = try Binaries.runPath(python, ["-c", script, dir.path("ics/CHEM-AP.ics"), dir.path("ics/ENG-11.ics")])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            let rows = parsed.stdout.split(separator: "\n")
            #expect(rows.count == 3, "\(parsed.stdout)")
            #expect(rows.filter { $0.hasPrefix("CHEM-AP.ics") }.allSatisfy { $0.hasSuffix("-3 days, 0:00:00|-1 day, 23:00:00") }, "\(parsed.stdout)")
            // The essay's own reminders (edited above) over its course's 2d, 1h.
            #expect(rows.first { $0.hasPrefix("ENG-11.ics") }?.hasSuffix("-1 day, 0:00:00|-1 day, 23:30:00") == true, "\(parsed.stdout)")
        } else {
            let message = "python's icalendar is missing (.ci/run installs python3-icalendar)"
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record(Comment(rawValue: message)) }
            print("DeadlineTests: \(message); the calendars were read back by the ical importer only")
        }

        // The app's JSON: weights and reminders resolved, the courses with their weights.
        #expect(try run(["export", "--format", "json", "--out", dir.path("site")]).status == 0)
        let feed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("site/deadlines.json")))) as? [String: Any] ?? [:]
        let items = feed["items"] as? [[String: Any]] ?? []
        let quiz = items.first { $0["title"] as? String == "Stoichiometry check" }
        #expect(quiz?["weight"] as? Double == 25 && quiz?["category"] as? String == "quiz" && quiz?["reminders"] as? [Int] == [4320, 60], "\(items)")
        #expect((feed["courses"] as? [[String: Any]])?.count == 2)
        #expect(FileManager.default.fileExists(atPath: dir.path("site/courses/ENG-11.ics")))
    }
}
