import Foundation
import TestSupport
import Testing

@testable import TimeTrackKit

/// The backtracking-free matcher: same answers as NSRegularExpression on the syntax both accept,
/// linear time on the patterns that stall a backtracking engine, clear refusals for the rest.
@Suite struct SafePatternTests {
    /// A small deterministic generator (SplitMix64), so every run tries the same cases.
    typealias Seeded = SplitMix64

    static func randomPattern(_ rng: inout Seeded, depth: Int = 0) -> String {
        var out = ""
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            var atom: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1, 2: atom = ["a", "b", "c", "A", " "].randomElement(using: &rng) ?? "a"
            case 3: atom = "."
            case 4: atom = ["[ab]", "[^a]", "[a-c]", "\\d", "\\w", "\\s", "[\\dx]"].randomElement(using: &rng) ?? "."
            case 5: atom = "(" + randomPattern(&rng, depth: depth + 1) + ")"
            case 6 where depth < 3: atom = "(" + randomPattern(&rng, depth: depth + 1) + ")"
            case 7 where depth < 3: atom = "(?:" + randomPattern(&rng, depth: depth + 1) + "|" + randomPattern(&rng, depth: depth + 1) + ")"
            case 8: atom = ["\\b", "^", "$"].randomElement(using: &rng) ?? "^"
            default: atom = "1"
            }
            if !["\\b", "^", "$"].contains(atom), Int.random(in: 0..<3, using: &rng) == 0 {
                atom += ["*", "+", "?", "{2}", "{1,3}", "*?", "+?", "??"].randomElement(using: &rng) ?? "*"
            }
            out += atom
        }
        return out
    }

    @Test func agreesWithNSRegularExpressionOnGeneratedPatterns() throws {
        var rng = Seeded(state: 20_261_123)
        var compared = 0
        for _ in 0..<400 {
            let pattern = Self.randomPattern(&rng)
            guard let reference = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            let safe = try SafePattern(pattern)
            for _ in 0..<8 {
                let input = String(
                    (0..<Int.random(in: 0...12, using: &rng)).map { _ in ["a", "b", "c", "A", " ", "1", "x"].randomElement(using: &rng) ?? "a" })
                let ns = input as NSString
                let expected = reference.firstMatch(in: input, range: NSRange(location: 0, length: ns.length)).map { match -> [String?] in
                    (0..<match.numberOfRanges).map { i in match.range(at: i).location == NSNotFound ? nil : ns.substring(with: match.range(at: i)) }
                }
                let actual = safe.firstMatch(in: input).map { match -> [String?] in
                    [String(input[match.whole])] + match.groups.map { $0.map { String(input[$0]) } }
                }
                #expect(actual == expected, "pattern \(pattern) on '\(input)'")
                compared += 1
            }
        }
        #expect(compared > 2_000)
    }

    /// Counted in steps, not seconds: a backtracking engine takes exponentially many on these.
    @Test func catastrophicPatternsRunInLinearSteps() throws {
        let cases: [(String, (Int) -> String)] = [
            ("(x+x+)+y", { String(repeating: "x", count: 1_500 * $0) }),
            ("(a|aa)+$", { String(repeating: "a", count: 2_500 * $0) + "!" }),
            ("(a*)*b", { String(repeating: "a", count: 2_500 * $0) }),
            ("^(\\w+\\s?)*$", { String(repeating: "word ", count: 300 * $0) + "!" }),
            ("(.*a){12}", { String(repeating: "a", count: 1_000 * $0) + "b" }),
        ]
        for (pattern, text) in cases {
            let safe = try SafePattern(pattern)
            let (once, twice) = (text(1), text(2))
            let (small, size) = safe.cost(of: once)
            let large = safe.cost(of: twice).steps
            #expect(small <= 2 * (once.unicodeScalars.count + 1) * size, "\(pattern): \(small) steps")
            // Twice the text, about twice the steps (at most 2.5×; quadratic would be 4×, a backtracker far more).
            #expect(large * 2 <= small * 5, "\(pattern): \(small) then \(large) steps")
        }
        #expect(try SafePattern("(x+x+)+y").firstMatch(in: "xxxxy") != nil)
    }

    @Test func unsupportedSyntaxIsRefusedWithAReason() {
        for (pattern, words) in [
            ("(?=a)b", "lookahead"), ("(?<=a)b", "lookbehind"), ("(a)\\1", "backreferences"), ("a{2000}", "1000"),
            ("(a", "not closed"), ("a)", "unmatched"), ("*a", "nothing to repeat"), ("[z-a]", "backwards"), ("\\q", "escape"),
        ] {
            do {
                _ = try SafePattern(pattern)
                Issue.record("\(pattern) was accepted")
            } catch let error as SafePattern.SyntaxError {
                #expect(error.message.contains(words), "\(pattern): \(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func theDefinitionsPatternsStillWork() throws {
        #expect(try SafePattern(#"_(\d{4}-\d{2}-\d{2})T"#).firstCapture(in: "evt_2026-10-02T00:00") == "2026-10-02")
        #expect(try SafePattern(#"-\s*(\d{1,2}:\d{2}\s*[AP]M)"#).firstCapture(in: "6:00 pm - 8:30 PM") == "8:30 PM")
        #expect(try SafePattern("^(All Day)$").firstCapture(in: "all day") == "all day")
        #expect(try SafePattern("Café (\\w+)").firstCapture(in: "CAFÉ latte") == "latte")
    }
}
