import Foundation

/// What a student needs on the work still to come for a target grade, from category weights:
/// the calculator behind `timetrack-admin grades` (and, with coursework deadlines, the app).
///
/// Each category has a weight, the points earned and possible on graded work, and the points
/// of the work still to come. The final grade is the weighted mean of each category's
/// fraction `(earned + future) / (possible + remaining)`; categories with no work at all do
/// not count, and the others' weights are scaled to fill their place. The answer assumes the
/// same score on every piece of remaining work.
public struct GradePlan: Codable, Sendable, Equatable {
    public struct Category: Codable, Sendable, Equatable {
        public var name: String
        public var weight: Double
        public var earned: Double
        public var possible: Double
        public var remaining: Double

        public init(name: String, weight: Double, earned: Double = 0, possible: Double = 0, remaining: Double = 0) {
            (self.name, self.weight, self.earned, self.possible, self.remaining) = (name, weight, earned, possible, remaining)
        }

        enum CodingKeys: String, CodingKey { case name, weight, earned, possible, remaining }

        /// Points not given are 0.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try c.decode(String.self, forKey: .name), weight: try c.decode(Double.self, forKey: .weight),
                earned: try c.decodeIfPresent(Double.self, forKey: .earned) ?? 0, possible: try c.decodeIfPresent(Double.self, forKey: .possible) ?? 0,
                remaining: try c.decodeIfPresent(Double.self, forKey: .remaining) ?? 0)
        }
    }

    /// The answer for one target.
    public struct Answer: Codable, Sendable, Equatable {
        /// The grade on graded work only (nil before anything is graded), in percent.
        public var current: Double?
        /// The final grade with every remaining point earned, and with none.
        public var best: Double
        public var worst: Double
        /// The score needed on all remaining work, in percent (nil when nothing remains).
        public var needed: Double?
        public enum Verdict: String, Codable, Sendable { case reachable, impossible, secured, met, missed }
        public var verdict: Verdict
    }

    public var categories: [Category]

    public init(categories: [Category]) { self.categories = categories }

    /// Refuses what cannot be a grade book: negative or non-finite numbers, more earned than
    /// possible, no weight at all.
    ///
    /// The message names the category.
    public func check() throws {
        guard !categories.isEmpty else {
            throw TimeTrackError(.validation, "no categories", fix: "give at least one: {\"name\": \"tests\", \"weight\": 50, ...}")
        }
        for c in categories {
            for (label, value) in [("weight", c.weight), ("earned", c.earned), ("possible", c.possible), ("remaining", c.remaining)]
            where !(value.isFinite && value >= 0 && value < 1e9) {
                throw TimeTrackError(.validation, "\(c.name): \(label) must be a number from 0 up", context: ["field": label])
            }
            // 1e-320 is a number, but dividing by it is not arithmetic (it printed "-nan%").
            for (label, value) in [("weight", c.weight), ("possible", c.possible), ("remaining", c.remaining)] where value != 0 && value < 0.001 {
                throw TimeTrackError(
                    .validation, "\(c.name): \(label) \(value) is too small to be points or a weight", fix: "give 0 or at least 0.001",
                    context: ["field": label])
            }
            if c.earned > c.possible {
                throw TimeTrackError(.validation, "\(c.name): earned \(c.earned) is more than possible \(c.possible)", context: ["field": "earned"])
            }
        }
        guard categories.contains(where: { $0.weight > 0 && $0.possible + $0.remaining > 0 }) else {
            throw TimeTrackError(.validation, "no category has both a weight and some work", fix: "give possible or remaining points to a weighted category")
        }
    }

    /// The answer for a target in percent (90 for an A on the usual scale).
    public func answer(target: Double) throws -> Answer {
        try check()
        let counted = categories.filter { $0.weight > 0 && $0.possible + $0.remaining > 0 }
        let totalWeight = counted.reduce(0) { $0 + $1.weight }
        // final(f) = base + f × slope, f the fraction scored on remaining work.
        var base = 0.0, slope = 0.0
        for c in counted {
            let share = c.weight / totalWeight / (c.possible + c.remaining)
            base += share * c.earned
            slope += share * c.remaining
        }
        let graded = counted.filter { $0.possible > 0 }
        let gradedWeight = graded.reduce(0) { $0 + $1.weight }
        let current = gradedWeight > 0 ? graded.reduce(0) { $0 + $1.weight / gradedWeight * $1.earned / $1.possible } * 100 : nil
        let best = (base + slope) * 100, worst = base * 100
        let goal = target / 100
        guard slope > 0 else {
            return Answer(current: current, best: best, worst: worst, needed: nil, verdict: base >= goal - 1e-12 ? .met : .missed)
        }
        let needed = (goal - base) / slope * 100
        let verdict: Answer.Verdict = needed > 100 + 1e-9 ? .impossible : (needed <= 0 ? .secured : .reachable)
        return Answer(current: current, best: best, worst: worst, needed: needed, verdict: verdict)
    }

    /// The usual letter scale: A 90, B 80, C 70, D 60; a number is taken as it is.
    public static func target(_ text: String) -> Double? {
        switch text.uppercased() {
        case "A": return 90
        case "B": return 80
        case "C": return 70
        case "D": return 60
        default:
            guard let n = Double(text.replacingOccurrences(of: "%", with: "")), n.isFinite, (0...100).contains(n) else { return nil }
            return n
        }
    }
}
