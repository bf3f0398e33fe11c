import Foundation
import Testing
import TimeTrackCore

/// Issue 36: behaviour is decided by types, never by the wording of an audit action, a guess
/// or a problem.
///
/// Reads every Swift file of Sources and Plugins and fails on a comparison of
/// such text, naming the file and line.
@Suite struct TypedSignalsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What is looked for, and why it is refused.
    static let rules: [(pattern: String, why: String)] = [
        (#"\.action\s*(==|!=)\s*""#, "an audit action compared as text: use AuditEntry.kind"),
        (#"\baction\.(hasPrefix|hasSuffix|contains)\("#, "an audit action searched as text: use AuditEntry.kind"),
        (
            #"\.action\b[^\n]*\b(case|==|!=|contains)\b[^\n]*"(\#(AuditAction.allCases.map { NSRegularExpression.escapedPattern(for: $0.rawValue) }.joined(separator: "|")))""#,
            "an audit action's text decides: use AuditAction"
        ),
        (
            #"guess(es)?\b[^\n]*\.(contains|hasPrefix|hasSuffix)\s*(\(|\{)\s*("|\$0\.(contains|hasPrefix))"#,
            "a guess's wording decides: use Guess's typed facts"
        ),
        (#"\.note\.(contains|hasPrefix|hasSuffix)\("#, "a note's wording decides"),
        (
            #"(message|problem\.message|error\.message)\.(hasPrefix|hasSuffix)\(|problem\.message\.contains\(|error\.message\.contains\("#,
            "a problem's text decides: use its code, severity or context"
        ),
        // Issue 48: an error's context is where it happened, for people; what code acts on is
        // its `signals`.
        (#"context\["[A-Za-z]+"\]\s*(==|!=)|context\["[A-Za-z]+"\]\.flatMap"#, "an error's context decides: use its signals"),
        (#"context\["file"\][^\n]*hasPrefix"#, "an error's file decides: use its definitionFile signal"),
        (#"contains\([^\n]*context\[""#, "an error's context decides: use its signals"),
        (#"hasPrefix\("undo:"\)|"undo:" \+"#, "a batch name's text decides: use BatchName"),
        (#"tunnel == ""#, "a tunnel's failure as text: use PinningProxy.TunnelFailure"),
        (#"importer\s*(==|!=)\s*"|\]\.contains\([a-z.]*importer\)"#, "an importer's name as text decides: use ImporterName"),
    ]

    /// Comparisons that are not decisions: formatting that avoids saying a thing twice, and
    /// the stderr of external programs (their words, not ours).
    static let allowed: [(file: String, text: String)] = [
        ("Sources/TimeTrackCore/Errors/TimeTrackError.swift", "!message.contains($0)"),
        ("Sources/TimeTrackCore/Errors/TimeTrackError.swift", "!message.contains(underlying)"),
        // Fill a line number in only when the error has none yet: formatting, not a decision.
        ("Sources/TimeTrackConsole/Support/Output.swift", #"error.context["scriptLine"] == nil"#),
        ("Sources/TimeTrackCore/Errors/TimeTrackError.swift", #"error.context["source"] == nil"#),
    ]

    @Test func noDecisionReadsTheWordingOfAnActionAGuessOrAProblem() throws {
        var found: [String] = []
        var files = 0
        for folder in ["Sources", "Plugins"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                files += 1
                let relative = String(url.path.dropFirst(Self.root.path.count + 1))
                let text = try String(contentsOf: url, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    for rule in Self.rules where code.range(of: rule.pattern, options: .regularExpression) != nil {
                        if Self.allowed.contains(where: { $0.file == relative && code.contains($0.text) }) { continue }
                        found.append("\(relative):\(number + 1): \(rule.why): \(code.prefix(120))")
                    }
                }
            }
        }
        #expect(files > 200, "the sources were found (\(files) files)")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The check finds what it is for (a rule that matches nothing would pass anything).
    @Test func theRulesCatchTheFormsTheyAreFor() {
        let bad = [
            #"if entry.action == "approve" {"#, #"guard !entry.action.hasPrefix("import-") else"#, #"switch entry.action { case "approve": revert() }"#,
            #"item.guesses.contains { $0.contains("the page's heading says") }"#, #"problem.message.contains("not terminated") ? .error : .warning"#,
            #"where error.message.hasPrefix("refused")"#, #"catch let error as TimeTrackError where error.context["retry"] == "yes" {"#,
            #"if error.context["budget"] != nil { throw error }"#, #"httpStatus: error.context["status"].flatMap { Int($0) }"#,
            #"let batch = "undo:" + key"#, #"if (entry.batch ?? "").hasPrefix("undo:") {"#, #"case _ where tunnel == "refused":"#,
        ]
        for line in bad {
            #expect(Self.rules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil }, "not caught: \(line)")
        }
        let good = [
            #"if entry.kind == .approve {"#, #"item.guesses.contains(where: \.contradictsHeading)"#, #"ImportProblem(problem.severity, problem.message)"#,
            #"where error.signals.contains(.retryable) && attempt < settings.retries {"#, #"httpStatus: error.httpStatus))"#,
        ]
        for line in good {
            #expect(!Self.rules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil }, "caught: \(line)")
        }
    }
}
