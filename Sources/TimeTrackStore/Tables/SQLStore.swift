import Foundation
import TimeTrackCore

/// A store kept in a SQL database, SQLite or PostgreSQL: the tables beside the lifecycle's
/// (operators, runs, source state, places, courses, the page memo, the HTTP cache) and the
/// listing queries are written once, in `SQLStore`'s extensions, over `engine`; each engine
/// adds only how it connects, its transactions and the SQL it says differently (`SQLDialect`).
public protocol SQLStore: ItemRepository {
    /// The connection the shared tables are read and written through.
    var engine: SQLEngine { get }
}

/// The connection of a `SQLStore`, as the shared table code sees it. Made by the store.
public final class SQLEngine {
    let session: any SQLSession
    init(_ session: any SQLSession) { self.session = session }
}

/// What the shared store code asks of a connection. SQL is written with `?` placeholders in the
/// subset both engines read the same way; `dialect` says the rest.
protocol SQLSession: AnyObject {
    var dialect: SQLDialect { get }
    /// Every row of a query, mapped.
    func select<T>(_ sql: String, _ values: [SQLValue], _ map: (any SQLRow) throws -> T) throws -> [T]
    /// Runs a statement that returns no rows; the number of rows it changed.
    @discardableResult func run(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// One transaction, all or nothing; nested calls are savepoints that roll back alone.
    @discardableResult func transaction<T>(_ body: () throws -> T) throws -> T
    /// Inside a transaction: waits for every other writer of the store's shared tables and holds
    /// them off until the transaction ends (a read that decides a write: the first admin, the
    /// last admin). SQLite's `BEGIN IMMEDIATE` already does; PostgreSQL takes an advisory lock.
    func serializeWrites() throws
}

extension SQLSession {
    /// The first row of a query, mapped, or nil.
    func first<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (any SQLRow) throws -> T) throws -> T? {
        try select(sql, values, map).first
    }

    /// The first column of the first row as an integer (nil for no row or NULL).
    func integer(_ sql: String, _ values: [SQLValue] = []) throws -> Int? {
        try first(sql, values) { $0.optionalInt(0) } ?? nil
    }
}

/// Where the two engines' SQL differs in what the shared code writes.
enum SQLDialect {
    case sqlite, postgres

    /// Equality that holds for two NULLs (`a IS b` in SQLite, `IS NOT DISTINCT FROM` in PostgreSQL).
    var same: String { self == .sqlite ? "IS" : "IS NOT DISTINCT FROM" }

    /// A condition that `column` starts with `prefix`, with its values. On SQLite a range of the
    /// key (an index range scan); PostgreSQL's collations need not order a prefix before its
    /// longer strings, so there it is `starts_with`.
    func startsWith(_ column: String, _ prefix: String) -> (sql: String, values: [SQLValue]) {
        switch self {
        case .sqlite: return ("\(column) >= ? AND \(column) < ?", [.text(prefix), .text(prefix + "\u{10FFFF}")])
        case .postgres: return ("starts_with(\(column), ?)", [.text(prefix)])
        }
    }

    /// SQLite's `INDEXED BY name` (its planner needs the hint on the review queue's partial
    /// indexes); PostgreSQL plans without hints.
    func indexed(_ name: String) -> String { self == .sqlite ? "INDEXED BY \(name)" : "" }
}

/// One row of a result, read the same way from either engine (columns from 0).
protocol SQLRow {
    func isNull(_ column: Int32) -> Bool
    func int(_ column: Int32) -> Int
    func int64(_ column: Int32) -> Int64
    func optionalInt(_ column: Int32) -> Int?
    func optionalDouble(_ column: Int32) -> Double?
    func text(_ column: Int32) -> String
    func optionalText(_ column: Int32) -> String?
    func data(_ column: Int32) -> Data
    func date(_ column: Int32) -> Date?
}

extension Statement: SQLRow {}

extension Database: SQLSession {
    var dialect: SQLDialect { .sqlite }

    func select<T>(_ sql: String, _ values: [SQLValue], _ map: (any SQLRow) throws -> T) throws -> [T] {
        try rows(sql, values) { try map($0) }
    }

    /// `BEGIN IMMEDIATE` took the write lock when the transaction began.
    func serializeWrites() throws {}
}
