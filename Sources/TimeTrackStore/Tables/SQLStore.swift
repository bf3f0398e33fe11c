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

/// The connection of a `SQLStore`, as the shared table code sees it.
///
/// Made by the store.
public final class SQLEngine {
    let session: any SQLSession
    /// Audit entries appended through this connection (`ItemStore.auditEntriesWritten`).
    var auditAppends = 0
    init(_ session: any SQLSession) { self.session = session }
}

/// What the shared store code asks of a connection.
///
/// SQL is written with `?` placeholders in the subset both engines read the same way; `dialect`
/// says the rest.
protocol SQLSession: AnyObject {
    var dialect: SQLDialect { get }
    /// Every row of a query, mapped.
    func select<T>(_ sql: String, _ values: [SQLValue], _ map: (any SQLRow) throws -> T) throws -> [T]
    /// Runs a statement that returns no rows; the number of rows it changed.
    @discardableResult func run(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// One transaction, all or nothing; nested calls are savepoints that roll back alone.
    @discardableResult func transaction<T>(_ body: () throws -> T) throws -> T
    /// Whether a transaction is open on the connection.
    var inTransaction: Bool { get }
    /// The audit chain's last entry as this transaction wrote it (id and hash), so the next
    /// append in the same transaction needs no lock and no read. The connection forgets it
    /// whenever a transaction or savepoint rolls back, and when the outermost one ends.
    var auditHead: (id: Int64, hash: String)? { get set }
    /// The query for the audit chain's last entry (id, hash): the table itself, or on a
    /// PostgreSQL store after `store grant`, the function that tells it to roles that may not
    /// read the log.
    var auditHeadQuery: String { get }
    /// Tells listening consoles that `id` has new pending content, once the transaction
    /// commits (nothing where the engine has no notifications: SQLite).
    func announcePending(_ id: String) throws
    /// The last item number this transaction gave, so the next needs no read (forgotten with
    /// the audit head).
    var itemHead: Int64? { get set }
    /// Runs `statements` (plain `INSERT … VALUES (?, …)`) with `values`, one list each, for one
    /// new item; an engine may hold them and send several items' at once, before anything else
    /// runs on the connection (PostgreSQL: one statement for up to 64 items). Inside a
    /// transaction only; a failure then surfaces with a later statement and ends the transaction.
    func insertHeld(_ statements: [String], _ values: [[SQLValue]]) throws
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
///
/// Every difference is a
/// `switch` over every case: a third engine does not compile until each one says its SQL.
enum SQLDialect {
    case sqlite, postgres

    /// Equality that holds for two NULLs (`a IS b` in SQLite, `IS NOT DISTINCT FROM` in PostgreSQL).
    var same: String {
        switch self {
        case .sqlite: return "IS"
        case .postgres: return "IS NOT DISTINCT FROM"
        }
    }

    /// What a row read inside a transaction adds to hold the row to its end: nothing on SQLite
    /// (`BEGIN IMMEDIATE` holds the whole store), `FOR UPDATE` on PostgreSQL, so two desks
    /// deciding one item take turns and the second sees the first's outcome.
    var forUpdate: String {
        switch self {
        case .sqlite: return ""
        case .postgres: return " FOR UPDATE"
        }
    }

    /// `statements` (writes whose results nobody reads) as one statement, their values bound in
    /// order; nil where the engine cannot (SQLite).
    func combining(_ statements: [String]) -> String? {
        switch self {
        case .sqlite: return nil
        case .postgres: break
        }
        guard let last = statements.last else { return nil }
        let before = statements.dropLast().enumerated().map { "w\($0.offset) AS (\($0.element))" }
        return before.isEmpty ? last : "WITH " + before.joined(separator: ", ") + " " + last
    }

    /// A JSON text column's top-level `key` as text.
    func jsonText(_ column: String, _ key: String) -> String {
        switch self {
        case .sqlite: return "json_extract(\(column), '$.\(key)')"
        case .postgres: return "(\(column)::jsonb ->> '\(key)')"
        }
    }

    /// SQLite's `INDEXED BY name` (its planner needs the hint on the review queue's partial
    /// indexes); PostgreSQL plans without hints.
    func indexed(_ name: String) -> String {
        switch self {
        case .sqlite: return "INDEXED BY \(name)"
        case .postgres: return ""
        }
    }

    /// Whether the server can guard the operators table with its own function (`store grant`).
    var guardsOperators: Bool {
        switch self {
        case .sqlite: return false
        case .postgres: return true
        }
    }
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
    /// A text column's UTF-8 bytes, without making a `String` of them first.
    func textBytes(_ column: Int32) -> Data
    func date(_ column: Int32) -> Date?
}

extension Statement: SQLRow {
    /// SQLite hands a text value's bytes out as a blob as well.
    func textBytes(_ column: Int32) -> Data { data(column) }
}

extension Database: SQLSession {
    var dialect: SQLDialect { .sqlite }

    func select<T>(_ sql: String, _ values: [SQLValue], _ map: (any SQLRow) throws -> T) throws -> [T] {
        try rows(sql, values) { try map($0) }
    }

    /// A file has no listeners to tell.
    func announcePending(_ id: String) throws {}

    /// Run at once: in process, holding them saved nothing measurable (55.4 and 55.9 µs of
    /// store CPU per new item over 11 alternating first imports).
    func insertHeld(_ statements: [String], _ values: [[SQLValue]]) throws {
        for (statement, bound) in zip(statements, values) { try run(statement, bound) }
    }
}
