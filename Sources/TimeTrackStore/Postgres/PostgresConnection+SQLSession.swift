import Foundation
import TimeTrackCore

/// A row of a PostgreSQL result: every column as text (libpq's text format), read into the
/// same types as a SQLite row.
///
/// `bytea` arrives as `\x` and hex digits.
struct PostgresRow: SQLRow {
    let values: [String?]

    private func value(_ column: Int32) -> String? { Int(column) < values.count ? values[Int(column)] : nil }
    func isNull(_ column: Int32) -> Bool { value(column) == nil }
    func int(_ column: Int32) -> Int { optionalInt(column) ?? 0 }
    func int64(_ column: Int32) -> Int64 { value(column).flatMap { Int64($0) } ?? 0 }
    func optionalInt(_ column: Int32) -> Int? { value(column).flatMap { Int($0) } }
    func optionalDouble(_ column: Int32) -> Double? { value(column).flatMap { Double($0) } }
    func text(_ column: Int32) -> String { value(column) ?? "" }
    func optionalText(_ column: Int32) -> String? { value(column) }
    func date(_ column: Int32) -> Date? { value(column).flatMap(StoreDate.parse) }
    func textBytes(_ column: Int32) -> Data { Data(text(column).utf8) }
    func data(_ column: Int32) -> Data {
        guard let text = value(column) else { return Data() }
        return StoreCopy.unhex(text) ?? Data(text.utf8)
    }
}

extension PostgresConnection: SQLSession {
    var dialect: SQLDialect { .postgres }

    func select<T>(_ sql: String, _ values: [SQLValue], _ map: (any SQLRow) throws -> T) throws -> [T] {
        try executePrepared(sql, values.map(Self.parameter), text: Self.numbered).rows.map { try map(PostgresRow(values: $0)) }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try executePrepared(sql, values.map(Self.parameter), text: Self.numbered).changed
    }

    var inTransaction: Bool { depth > 0 }

    func insertHeld(_ statements: [String], _ values: [[SQLValue]]) throws {
        guard inTransaction else {
            try run(SQLDialect.postgres.combining(statements) ?? "", values.flatMap { $0 })
            return
        }
        if !held.takes(statements) { try sendHeld() }
        held.add(statements, values)
        if held.isFull { try sendHeld() }
    }

    /// A value as libpq's text parameter (`bytea` as `\x` and hex digits).
    static func parameter(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let v): return String(v)
        case .real(let v): return "\(v)"
        case .text(let v): return v
        case .blob(let v): return StoreCopy.hex(v)
        }
    }

    /// `?` placeholders numbered as PostgreSQL's `$1`, `$2`… (none stands inside a quoted
    /// string or identifier in the store's SQL, but they are skipped all the same).
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
