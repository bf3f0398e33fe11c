import Foundation
import TimeTrackCore

/// New items' inserts a PostgreSQL connection holds to send many at once (`SQLSession.insertHeld`):
/// the statements (plain `INSERT … VALUES (…)`), and each item's values for each of them.
struct HeldInserts {
    /// Items held at most: one statement's values stay far under PostgreSQL's 65,535.
    static let most = 64
    private(set) var statements: [String] = []
    private var items: [[[SQLValue]]] = []

    var isEmpty: Bool { items.isEmpty }
    var isFull: Bool { items.count >= Self.most }

    /// Whether one item's inserts are these statements (or nothing is held).
    func takes(_ statements: [String]) -> Bool { items.isEmpty || statements == self.statements }

    mutating func add(_ statements: [String], _ values: [[SQLValue]]) {
        if items.isEmpty { self.statements = statements }
        items.append(values)
    }

    /// What is held, each statement with its tuple repeated for every item, and its values;
    /// nothing is held after.
    mutating func take() -> [(sql: String, values: [SQLValue])] {
        defer { items = [] }
        return statements.indices.map { part in
            (Self.multiRow(statements[part], count: items.count), items.flatMap { $0[part] })
        }
    }

    /// Forgets what is held (its transaction or savepoint rolled back).
    mutating func drop() { items = [] }

    /// `statement` (`INSERT … VALUES (…)`) with its tuple of placeholders repeated `count` times.
    static func multiRow(_ statement: String, count: Int) -> String {
        guard count > 1, let values = statement.range(of: "VALUES (", options: .backwards) else { return statement }
        let open = statement.index(before: values.upperBound)
        return statement[..<open] + Array(repeating: String(statement[open...]), count: count).joined(separator: ", ")
    }
}
