import Foundation

/// One capture's expectation (see `Tests/Fixtures/Discover/realworld-expectations.json`).
struct CorpusCase: Sendable {
    struct Named: Sendable {
        var title: String?
        var date: String?
        var prefix: Bool
    }

    var file: String
    var family: String
    var path: String
    var type: String
    var routes: [String: String]
    var zone: String
    /// The item kind as the store writes it (`event`, `alert`, `school-info`).
    var kind: String
    var count: Int
    var named: [Named]
    var range: (String, String)?

    static func load(_ url: URL) throws -> [CorpusCase] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return (object?["cases"] as? [[String: Any]] ?? []).map { entry in
            let named = (entry["items"] as? [[String: Any]] ?? []).map {
                Named(title: $0["title"] as? String, date: $0["date"] as? String, prefix: $0["prefix"] as? Bool ?? false)
            }
            let range = (entry["range"] as? [String]).flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
            let kind = entry["kind"] as? String ?? ""
            return CorpusCase(
                file: entry["file"] as? String ?? "", family: entry["family"] as? String ?? "", path: entry["path"] as? String ?? "/",
                type: entry["type"] as? String ?? "text/html", routes: entry["routes"] as? [String: String] ?? [:],
                zone: entry["zone"] as? String ?? "America/Chicago", kind: kind == "schoolInfo" ? "school-info" : kind, count: entry["count"] as? Int ?? 0,
                named: named, range: range)
        }
    }

    /// The capture's score: what was read right, and what was read.
    ///
    /// Right: each named item found once (its title, its date to the minute), then the rest of
    /// the right kind, titled and dated within the range, up to the count. Junk: the rest read.
    func score(_ items: [CorpusItem], proposedKinds: Set<String>) -> CorpusOutcome {
        var used = Set<Int>()
        var right = 0
        for want in named {
            let match = items.indices.first { index in
                let item = items[index]
                guard !used.contains(index), item.kind == kind else { return false }
                if let title = want.title {
                    let wanted = title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    guard want.prefix ? item.title.hasPrefix(String(wanted.prefix(60))) : item.title == wanted else { return false }
                }
                if let date = want.date, !(item.when ?? "").hasPrefix(date) { return false }
                return true
            }
            if let match {
                used.insert(match)
                right += 1
            }
        }
        let rest = items.indices.filter { index in
            let item = items[index]
            guard !used.contains(index), item.kind == kind, !item.title.isEmpty else { return false }
            guard let (low, high) = range else { return true }
            guard let when = item.when?.prefix(10) else { return false }
            return low <= when && when < high
        }
        right += min(rest.count, max(0, count - named.count))
        return CorpusOutcome(
            file: file, family: family, kind: kind, expected: count, right: right, read: items.count, proposedKinds: proposedKinds,
            titles: items.prefix(5).map(\.title))
    }
}

/// An item as the store holds it, its time in the case's zone (`2024-10-08 17:30`, or a day).
struct CorpusItem: Sendable {
    var kind: String
    var title: String
    var when: String?

    static func local(_ text: String, _ zone: String) -> String? {
        guard !text.isEmpty else { return nil }
        if text.count == 10 { return text }
        let reader = ISO8601DateFormatter()
        guard let date = reader.date(from: text) else { return nil }
        let writer = DateFormatter()
        writer.locale = Locale(identifier: "en_US_POSIX")
        writer.timeZone = TimeZone(identifier: zone)
        writer.dateFormat = "yyyy-MM-dd HH:mm"
        return writer.string(from: date)
    }
}

struct CorpusOutcome: Sendable {
    var file: String
    var family: String
    var kind: String
    var expected: Int
    var right: Int
    var read: Int
    var proposedKinds: Set<String>
    var titles: [String]
    var junk: Int { read - right }
}

/// The figures, per capture, per platform family and overall.
struct CorpusReport {
    struct Family {
        var name: String
        var expected = 0
        var right = 0
        var read = 0
    }

    var outcomes: [CorpusOutcome]
    var families: [Family]

    init(_ outcomes: [CorpusOutcome]) {
        self.outcomes = outcomes
        var byName: [String: Family] = [:]
        for outcome in outcomes {
            var family = byName[outcome.family] ?? Family(name: outcome.family)
            family.expected += outcome.expected
            family.right += outcome.right
            family.read += outcome.read
            byName[outcome.family] = family
        }
        families = byName.values.sorted { $0.name < $1.name }
    }

    var expected: Int { families.reduce(0) { $0 + $1.expected } }
    var right: Int { families.reduce(0) { $0 + $1.right } }
    var read: Int { families.reduce(0) { $0 + $1.read } }
    var junk: Int { read - right }

    func share(_ part: Int, of whole: Int) -> Double { whole == 0 ? 1 : Double(part) / Double(whole) }

    var text: String {
        var lines = ["discover on the real captures (zero-touch: discover --write --enable, import --all):"]
        for outcome in outcomes {
            lines.append("  \(outcome.file): \(outcome.right)/\(outcome.expected) right, \(outcome.read) read")
        }
        for family in families {
            let percent = family.expected == 0 ? "-" : String(format: "%.1f%%", 100 * share(family.right, of: family.expected))
            lines.append(
                "  family \(family.name): \(family.right)/\(family.expected) right (\(percent)), junk \(family.read - family.right) of \(family.read) read")
        }
        lines.append(
            String(
                format: "  overall: %d/%d right (%.1f%%), junk %d of %d read (%.1f%%)", right, expected, 100 * share(right, of: expected), junk, read,
                100 * share(junk, of: max(1, read))))
        return lines.joined(separator: "\n")
    }
}
