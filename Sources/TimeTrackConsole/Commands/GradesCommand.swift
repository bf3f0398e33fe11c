import Foundation
import TimeTrackCore
import TimeTrackReview

extension Console {
    /// `grades FILE | --course CODE [--target A|B|C|D|N]`: what the remaining work needs for a grade.
    static var gradesCommand: CommandSpec { GradesCommand.spec }

    struct GradesCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "grades",
            summary: "what is needed on the remaining work for a grade: from a course in the store (its weights, its deadlines' points and scores) or a"
                + " grade book as JSON")
        @Positional("FILE", count: 0...1, completes: [.path]) var words: [String]
        @Option(
            "target", value: "T", completes: .words(["A", "B", "C", "D"]), help: "a letter (A 90, B 80, C 70, D 60) or a percentage (default: every letter)")
        var target: String?
        @Option(
            "course", value: "CODE", help: "the course's grade book from the store: weights from `course add --weight`, points and scores from its deadlines")
        var course: String?

        func run(_ session: Session) throws -> Int32 {
            let plan: GradePlan
            // Deadlines still to come whose points are not known: the plan cannot weigh them, so
            // "nothing remains" would be false.
            var uncounted = 0
            switch (words.first, course) {
            case (let path?, nil): plan = try gradeBook(path)
            case (nil, let code?): (plan, uncounted) = try courseGradeBook(code, session: session)
            default:
                throw TimeTrackError(
                    .usage, "grades: give a grade book FILE or --course CODE, one of them", fix: "usage: grades FILE | --course CODE [--target A]")
            }
            var targets: [(String, Double)] = [("A", 90), ("B", 80), ("C", 70), ("D", 60)]
            if let text = target {
                guard let value = GradePlan.target(text) else {
                    throw TimeTrackError(.usage, "grades: --target \(text) is not A, B, C, D or a percentage from 0 to 100")
                }
                targets = [(text.uppercased(), value)]
            }
            let answers = try targets.map { ($0.0, $0.1, try plan.answer(target: $0.1)) }
            if session.output.json {
                session.output.printJSON(
                    JSONValue.array(
                        answers.map { label, target, a in
                            .object([
                                "target": .string(label), "percent": .number(target), "verdict": .string(a.verdict.rawValue),
                                "needed": a.needed.map { .number(($0 * 100).rounded() / 100) } ?? .null,
                                "current": a.current.map { .number(($0 * 100).rounded() / 100) } ?? .null,
                                "best": .number((a.best * 100).rounded() / 100), "worst": .number((a.worst * 100).rounded() / 100),
                                "uncounted": .number(Double(uncounted)),
                            ])
                        }))
                return 0
            }
            if let a = answers.first?.2 {
                session.output.line(
                    (a.current.map { String(format: "now %.1f%% on graded work; ", $0) } ?? "nothing graded yet; ")
                        + String(format: "the final grade will be %.1f%% to %.1f%%", a.worst, a.best))
            }
            for (label, target, a) in answers {
                let what: String
                switch a.verdict {
                case .reachable: what = String(format: "needs %.1f%% on the remaining work", a.needed ?? 0)
                case .impossible: what = String(format: "out of reach (it would need %.0f%% of the remaining work; the best is %.1f%%)", a.needed ?? 0, a.best)
                case .secured: what = "secured, even with nothing more"
                case .met where uncounted > 0, .missed where uncounted > 0:
                    what = "not known yet: \(uncounted) deadline(s) still to come have no points (`edit ID points=N` counts them)"
                case .met: what = "met (nothing remains)"
                case .missed: what = "missed (nothing remains)"
                }
                session.output.line(String(format: "%@ (%.0f%%): ", label, target) + what)
            }
            return 0
        }
    }

    /// A grade book written by hand (JSON).
    static func gradeBook(_ path: String) throws -> GradePlan {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let kind =
                switch info.st_mode & S_IFMT {
                case S_IFDIR: "a folder"
                case S_IFIFO: "a named pipe (FIFO)"
                case S_IFSOCK: "a socket"
                default: "a device"
                }
            throw TimeTrackError(
                .usage, "grades: \(path) is \(kind), not a file", fix: "give the path of the grade book's JSON file, or use --course CODE",
                context: ["file": path])
        }
        if stat(path, &info) == 0, info.st_size > 1_048_576 {
            throw TimeTrackError(
                .usage, "grades: \(path) is \(info.st_size / 1024) KB, too large for a grade book (1 MB at most)",
                fix: "give the path of the grade book's JSON file", context: ["file": path])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TimeTrackError(
                .notFound, "grades: no file \(path)",
                fix:
                    "write the grade book as JSON: {\"categories\": [{\"name\": \"tests\", \"weight\": 50, \"earned\": 160, \"possible\": 200,"
                    + " \"remaining\": 100}]}, or use --course CODE"
            )
        }
        do { return try JSONDecoder().decode(GradePlan.self, from: data) } catch {
            let why = (error as? DecodingError).map(DecodingError.describe) ?? "not JSON"
            throw TimeTrackError(
                .configuration, "\(path) is not a grade book: \(why)",
                fix: "{\"categories\": [{\"name\", \"weight\", \"earned\", \"possible\", \"remaining\"}]}: numbers in points", context: ["file": path])
        }
    }

    /// A course's grade book from the store: its weights, and its deadlines (waiting or
    /// published) with their points and scores.
    ///
    /// Says which deadlines could not count.
    static func courseGradeBook(_ code: String, session: Session) throws -> (GradePlan, uncounted: Int) {
        let store = try session.store()
        guard let course = try store.courses().first(where: { $0.code.lowercased() == code.lowercased() }) else {
            throw TimeTrackError(.notFound, "no course '\(code)'", fix: "`courses` lists them; `course add CODE --weight test=40 …` adds one")
        }
        guard !course.weights.isEmpty else {
            throw TimeTrackError(
                .configuration, "course \(course.code) has no weights",
                fix: "course add \(course.code) --weight homework=20 --weight test=50 --weight project=30")
        }
        var deadlines: [(id: String, deadline: Deadline)] = []
        for status in [ItemStatus.pending, .published] {
            for row in try session.listVisible(ItemQuery(kind: .deadline, status: status, limit: 100_000), in: store) {
                let item = try store.item(row.id)
                if case .deadline(let deadline) = item.pendingContent ?? item.content, deadline.course == course.code { deadlines.append((item.id, deadline)) }
            }
        }
        let (plan, withoutPoints, unweighted) = GradePlan.from(course: course, deadlines: deadlines.map(\.deadline))
        func ids(_ left: [Int]) -> String { left.map { deadlines[$0].id }.joined(separator: ", ") }
        if !session.output.json {
            let graded = deadlines.filter { $0.deadline.score != nil }.count
            session.output.line("\(course.code) \(course.name): \(deadlines.count) deadline(s), \(graded) graded (`score ID 18/20` enters a score)")
            if !withoutPoints.isEmpty { session.output.line("  left out, no points: \(ids(withoutPoints)) (`edit ID points=20`)") }
            if !unweighted.isEmpty {
                session.output.line("  left out, a category the course does not weigh: \(ids(unweighted)) (`course add \(course.code) --weight CATEGORY=N`)")
            }
        }
        let uncounted = withoutPoints.filter { deadlines[$0].deadline.score == nil }.count
        return (plan, uncounted)
    }

    /// `score ID 18/20`: the points earned on a deadline (and the points it was out of).
    static var scoreCommand: CommandSpec { ScoreCommand.spec }

    struct ScoreCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "score", summary: "enter the points earned on a deadline (18/20 also sets its points); `grades --course` counts it")
        @Positional("ID EARNED[/POSSIBLE]", count: 2...2, completes: [.ids, .none]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            let item = try store.item(words[0])
            guard item.kind == .deadline else {
                throw TimeTrackError(.usage, "\(item.id) is not a deadline; scores are for coursework", fix: "`list deadlines` shows them")
            }
            try session.requireDecision(on: item.kind, school: item.school, action: "edit", in: store)
            let parts = words[1].split(separator: "/", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...2).contains(parts.count), let earned = parts[0], earned.isFinite, earned >= 0,
                parts.count == 1 || (parts[1].map { $0.isFinite && $0 > 0 } ?? false)
            else {
                throw TimeTrackError(.usage, "score: '\(words[1])' is not EARNED or EARNED/POSSIBLE", fix: "score \(item.id) 18/20")
            }
            var changes: [String: JSONValue] = ["score": .number(earned)]
            if parts.count == 2, let possible = parts[1] { changes["points"] = .number(possible) }
            let edited = try Lifecycle(store).edit(item.id, changes: changes, by: session.operatorName, reason: "score")
            guard case .deadline(let deadline) = edited.pendingContent ?? edited.content else { return 0 }
            let outOf =
                deadline.points.map { String(format: " of %g (%.0f%%)", $0, $0 > 0 ? earned / $0 * 100 : 0) } ?? " (no points yet: `edit \(item.id) points=N`)"
            session.output.line("\(item.id): scored \(String(format: "%g", earned))\(outOf)")
            return 0
        }
    }

}
