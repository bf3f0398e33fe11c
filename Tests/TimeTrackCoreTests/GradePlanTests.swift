import Foundation
import Testing
import TimeTrackCore

/// The grade calculator against answers worked out by hand.
@Suite struct GradePlanTests {
    func close(_ a: Double?, _ b: Double, _ tolerance: Double = 0.01) -> Bool { a.map { abs($0 - b) <= tolerance } ?? false }

    @Test func aReachableA() throws {
        // Homework 20%: 180/200 graded, 50 to come. Tests 50%: 160/200, 100 to come. Project 30%: 0/0, 100 to come.
        // final(f) = .2·(180+50f)/250 + .5·(160+100f)/300 + .3·(100f)/100
        //          = .144 + .04f + .26667 + .16667f + .3f = .41067 + .50667f
        // A (90): f = (.9 − .41067)/.50667 = 96.58 %. Current (graded only): (.2·.9 + .5·.8)/.7 = 82.86 %.
        let plan = GradePlan(categories: [
            .init(name: "homework", weight: 20, earned: 180, possible: 200, remaining: 50),
            .init(name: "tests", weight: 50, earned: 160, possible: 200, remaining: 100),
            .init(name: "project", weight: 30, earned: 0, possible: 0, remaining: 100),
        ])
        let a = try plan.answer(target: 90)
        #expect(close(a.needed, 96.58), "\(a)")
        #expect(a.verdict == .reachable)
        #expect(close(a.current, 82.86))
        #expect(close(a.best, 91.73) && close(a.worst, 41.07))
        // A B (80): (.8 − .41067)/.50667 = 76.84 %.
        #expect(close(try plan.answer(target: 80).needed, 76.84))
    }

    /// Numbers too small to divide by are refused, never answered with NaN ("-nan%").
    @Test func vanishingPointsAreRefusedNotNaN() throws {
        for tiny in [1e-320, 5e-324, 1e-12] {
            let plan = GradePlan(categories: [.init(name: "quizzes", weight: 10, earned: 0, possible: tiny, remaining: 0)])
            #expect(throws: TimeTrackError.self) { try plan.answer(target: 90) }
            let weighted = GradePlan(categories: [.init(name: "quizzes", weight: tiny, earned: 1, possible: 2, remaining: 3)])
            #expect(throws: TimeTrackError.self) { try weighted.answer(target: 90) }
        }
        // Every answer that is given is a number.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let values = (0..<4).map { _ in [0, 0.001, 1, 37.5, 1e8][Int.random(in: 0...4, using: &random)] }
            let plan = GradePlan(categories: [.init(name: "c", weight: values[0], earned: min(values[1], values[2]), possible: values[2], remaining: values[3])]
            )
            guard let answer = try? plan.answer(target: 90) else { continue }
            #expect(answer.best.isFinite && answer.worst.isFinite && (answer.needed?.isFinite ?? true) && (answer.current?.isFinite ?? true), "\(plan)")
        }
    }

    @Test func anImpossibleTarget() throws {
        // One category, 50/100 graded, 20 to come: the best is 70/120 = 58.33 %; an A needs
        // (.9·120 − 50)/20 = 290 %.
        let a = try GradePlan(categories: [.init(name: "all", weight: 1, earned: 50, possible: 100, remaining: 20)]).answer(target: 90)
        #expect(a.verdict == .impossible)
        #expect(close(a.needed, 290))
        #expect(close(a.best, 58.33))
    }

    @Test func alreadySecured() throws {
        // Quizzes 40%: 95/100, 10 to come; final 60%: 190/200, 20 to come.
        // worst = .4·95/110 + .6·190/220 = .34545 + .51818 = 86.36 % ≥ 80: a B is secured,
        // needed (.8 − .86364)/(.4·10/110 + .6·20/220) = −.06364/.09091 = −70 %.
        let plan = GradePlan(categories: [
            .init(name: "quizzes", weight: 40, earned: 95, possible: 100, remaining: 10),
            .init(name: "final", weight: 60, earned: 190, possible: 200, remaining: 20),
        ])
        let b = try plan.answer(target: 80)
        #expect(b.verdict == .secured)
        #expect(close(b.worst, 86.36) && close(b.needed, -70))
    }

    @Test func aWeightedCategoryWithNoWorkDoesNotCount() throws {
        // Labs (25%) have nothing yet nor to come: the others fill their place.
        // Tests 75%: 70/100, 100 to come → alone: (70 + 100f)/200; an A needs f = (180 − 70)/100 = 110 %.
        let plan = GradePlan(categories: [
            .init(name: "labs", weight: 25),
            .init(name: "tests", weight: 75, earned: 70, possible: 100, remaining: 100),
        ])
        let a = try plan.answer(target: 90)
        #expect(a.verdict == .impossible && close(a.needed, 110))
        #expect(close(try plan.answer(target: 70).needed, 70))
    }

    @Test func nothingLeftToDo() throws {
        // All graded: 85/100 and 45/50 at equal weights → 87.5 %: a B is met, an A missed.
        let plan = GradePlan(categories: [.init(name: "a", weight: 1, earned: 85, possible: 100), .init(name: "b", weight: 1, earned: 45, possible: 50)])
        #expect(try plan.answer(target: 80).verdict == .met)
        let a = try plan.answer(target: 90)
        #expect(a.verdict == .missed && a.needed == nil && close(a.best, 87.5))
    }

    @Test func badGradeBooksAreRefused() {
        #expect(throws: TimeTrackError.self) { try GradePlan(categories: []).answer(target: 90) }
        #expect(throws: TimeTrackError.self) { try GradePlan(categories: [.init(name: "x", weight: 1, earned: 11, possible: 10)]).answer(target: 90) }
        #expect(throws: TimeTrackError.self) { try GradePlan(categories: [.init(name: "x", weight: .infinity, earned: 1, possible: 10)]).answer(target: 90) }
        #expect(throws: TimeTrackError.self) { try GradePlan(categories: [.init(name: "x", weight: 0, earned: 1, possible: 10)]).answer(target: 90) }
        #expect(GradePlan.target("A") == 90 && GradePlan.target("87.5") == 87.5 && GradePlan.target("101") == nil && GradePlan.target("nan") == nil)
    }
}
