import Foundation
import TimeTrackCore

extension Console {
    /// `grades FILE [--target A|B|C|D|N]`: what the remaining work needs for a grade.
    static var gradesCommand: CommandSpec {
        CommandSpec(
            "grades", usage: "FILE [--target A|B|C|D|N]",
            summary: "what is needed on the remaining work for a grade, from category weights (a grade book as JSON)",
            options: [OptionSpec("target", value: "T", completes: .words(["A", "B", "C", "D"]), help: "a letter (A 90, B 80, C 70, D 60) or a percentage (default: every letter)")],
            positional: 1...1, arguments: [.path]
        ) { args, session in
            let path = args.positional[0]
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TimeTrackError(.notFound, "grades: no file \(path)", fix: "write the grade book as JSON: {\"categories\": [{\"name\": \"tests\", \"weight\": 50, \"earned\": 160, \"possible\": 200, \"remaining\": 100}]}")
            }
            let plan: GradePlan
            do { plan = try JSONDecoder().decode(GradePlan.self, from: data) } catch {
                let why = (error as? DecodingError).map(DecodingError.describe) ?? "not JSON"
                throw TimeTrackError(
                    .configuration, "\(path) is not a grade book: \(why)",
                    fix: "{\"categories\": [{\"name\", \"weight\", \"earned\", \"possible\", \"remaining\"}]}: numbers in points", context: ["file": path])
            }
            var targets: [(String, Double)] = [("A", 90), ("B", 80), ("C", 70), ("D", 60)]
            if let text = args.option("target") {
                guard let value = GradePlan.target(text) else { throw TimeTrackError(.usage, "grades: --target \(text) is not A, B, C, D or a percentage from 0 to 100") }
                targets = [(text.uppercased(), value)]
            }
            let answers = try targets.map { ($0.0, $0.1, try plan.answer(target: $0.1)) }
            if session.output.json {
                session.output.printJSON(
                    JSONValue.array(
                        answers.map { label, target, a in
                            .object([
                                "target": .string(label), "percent": .number(target), "verdict": .string(a.verdict.rawValue),
                                "needed": a.needed.map { .number(($0 * 100).rounded() / 100) } ?? .null, "current": a.current.map { .number(($0 * 100).rounded() / 100) } ?? .null,
                                "best": .number((a.best * 100).rounded() / 100), "worst": .number((a.worst * 100).rounded() / 100),
                            ])
                        }))
                return 0
            }
            if let a = answers.first?.2 {
                session.output.line(
                    (a.current.map { String(format: "now %.1f%% on graded work; ", $0) } ?? "nothing graded yet; ") + String(format: "the final grade will be %.1f%% to %.1f%%", a.worst, a.best))
            }
            for (label, target, a) in answers {
                let what: String
                switch a.verdict {
                case .reachable: what = String(format: "needs %.1f%% on the remaining work", a.needed ?? 0)
                case .impossible: what = String(format: "out of reach (it would need %.0f%% of the remaining work; the best is %.1f%%)", a.needed ?? 0, a.best)
                case .secured: what = "secured, even with nothing more"
                case .met: what = "met (nothing remains)"
                case .missed: what = "missed (nothing remains)"
                }
                session.output.line(String(format: "%@ (%.0f%%): ", label, target) + what)
            }
            return 0
        }
    }
}
