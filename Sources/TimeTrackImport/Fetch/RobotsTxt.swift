import Foundation

/// The rules of a robots.txt (RFC 9309) that apply to one user-agent token.
public struct RobotsTxt: Sendable {
    struct Rule: Sendable {
        var allow: Bool
        var path: String
    }

    var rules: [Rule]

    /// Everything allowed (no robots.txt, or a 4xx for it).
    public static let allowAll = RobotsTxt(rules: [])
    /// Everything disallowed (robots.txt unreachable or a 5xx, as RFC 9309 says).
    public static let disallowAll = RobotsTxt(rules: [Rule(allow: false, path: "/")])

    init(rules: [Rule]) { self.rules = rules }

    /// Parses a robots.txt for `agent` (matched case-insensitively as a product token; `*` otherwise).
    public init(text: String, agent: String) {
        var groups: [(agents: [String], rules: [Rule])] = []
        var current: (agents: [String], rules: [Rule])?
        var lastWasAgent = false
        for rawLine in text.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character: CRLF files too
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "user-agent":
                if !lastWasAgent {
                    if let current { groups.append(current) }
                    current = ([], [])
                }
                current?.agents.append(value.lowercased())
                lastWasAgent = true
            case "allow", "disallow":
                lastWasAgent = false
                guard current != nil else { continue }
                if key == "disallow" && value.isEmpty { continue }
                current?.rules.append(Rule(allow: key == "allow", path: value))
            default:
                lastWasAgent = false
            }
        }
        if let current { groups.append(current) }
        let token = agent.lowercased()
        let specific = groups.filter { $0.agents.contains { token.hasPrefix($0) && $0 != "*" } }
        let chosen = specific.isEmpty ? groups.filter { $0.agents.contains("*") } : specific
        rules = chosen.flatMap(\.rules)
    }

    /// Whether a path (with query) may be fetched: the longest matching rule wins; allow wins ties.
    public func allows(_ path: String) -> Bool {
        var best: Rule?
        for rule in rules where RobotsTxt.matches(rule.path, path) {
            if best == nil || rule.path.count > (best?.path.count ?? 0) || (rule.path.count == best?.path.count && rule.allow) { best = rule }
        }
        return best?.allow ?? true
    }

    /// `*` matches any run of characters; a trailing `$` anchors the end.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = pattern
        let anchored = pattern.hasSuffix("$")
        if anchored { pattern.removeLast() }
        let parts = pattern.components(separatedBy: "*")
        // Anchored: the last piece must end the path (`/*.pdf$` matches `/a.pdf.pdf`).
        if anchored, parts.count > 1, let last = parts.last, !last.isEmpty {
            guard path.hasSuffix(last), let first = parts.first, path.hasPrefix(first) else { return false }
            let middle = parts.dropFirst().dropLast()
            var rest = path.dropFirst(first.count).dropLast(last.count)
            guard first.count + last.count <= path.count else { return false }
            for part in middle where !part.isEmpty {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
        var index = path.startIndex
        for (n, part) in parts.enumerated() {
            if n == 0 {
                guard path.hasPrefix(part) else { return false }
                index = path.index(path.startIndex, offsetBy: part.count)
                continue
            }
            if part.isEmpty { continue }
            guard let range = path[index...].range(of: part) else { return false }
            index = range.upperBound
        }
        if anchored { return index == path.endIndex || (parts.last?.isEmpty ?? false) }
        return true
    }
}
