import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackStore

/// What one console or CLI process works with: the store, the imports folder, the operator, output.
public final class Session {
    /// The store path when neither `--store` nor `TIMETRACK_STORE` is given.
    public static let defaultStorePath = SQLiteStore.defaultPath

    /// Path of the store file.
    public var storePath: String
    /// Folder of source definitions.
    public var importsPath: String
    /// Folder of external importers (`NAME/plugin.json`).
    public var pluginsPath = "./Plugins.d"
    /// Who decisions are recorded as: the operator's name once the store is open
    /// (`NAME (by ADMIN)` under `--as`); empty until then without `--as` (the account is looked
    /// up only when a command needs it, so `help` starts fast).
    public var operatorName: String
    /// The pager for long output (a terminal, not `--no-pager`); nil: none.
    public var pager: String?
    /// `--group`: a new store is made 0660 in this group.
    public var storeGroup: gid_t?
    /// The operator named by `--as`, if any (admins only).
    public var actingAs: String?
    /// The operator this session works as, once checked against the store.
    var resolved: Operator?
    /// Whether the session may ask questions (a terminal, and no --no-input).
    public var interactive: Bool
    public let output: Output
    /// Where questions are read from, when the session may ask (the REPL sets it).
    var reader: LineReader?
    private var openStore: SQLiteStore?
    /// Each source's time zone, read from the definitions once per session (`zone(of:)`).
    var sourceZones: [String: TimeZone]?

    public init(storePath: String, importsPath: String, operatorName: String, interactive: Bool, output: Output) {
        self.storePath = storePath
        self.importsPath = importsPath
        self.operatorName = operatorName
        self.interactive = interactive
        self.output = output
    }

    /// The store, opened on first use. `create` makes a new file when there is none.
    ///
    /// The console sees only the `ItemStore` protocol; this is the one place that picks SQLite.
    ///
    /// Every command that opens the store works as a checked operator: the account is looked up
    /// (and on a new store becomes its first admin) before anything is read.
    public func store(create: Bool = false) throws -> any ItemStore {
        let store = try sqliteStore(create: create)
        _ = try currentOperator(in: store)
        return store
    }

    private func sqliteStore(create: Bool) throws -> SQLiteStore {
        if let openStore { return openStore }
        // A server address is not a file name: say so, rather than make a file called
        // "postgresql:" (and never repeat the password it may hold).
        if let address = Session.serverAddress(storePath) {
            throw TimeTrackError(
                .configuration, "\(address) is a database server's address; this version keeps the store in a SQLite file",
                fix: "give --store (or TIMETRACK_STORE) a file path, like /srv/timetrack/district.sqlite")
        }
        let store = try SQLiteStore(path: storePath, create: create, group: storeGroup)
        openStore = store
        return store
    }

    /// The import runner over the session's store (created if missing): it takes the store's
    /// run lock for as long as it lives, and opens its read-ahead lanes read-only.
    public func importRunner() throws -> ImportRunner {
        let runner = try ImportRunner(sqlite: try sqliteStore(create: true), by: operatorName)
        runner.version = Console.version
        return runner
    }

    /// Closes the store if open.
    public func close() {
        openStore?.close()
        openStore = nil
    }

    /// `postgresql://user@host/db` (password left out) when the store location is a server's
    /// address (`scheme://…`, or `postgres:`/`postgresql:` with a socket folder); nil for a path.
    static func serverAddress(_ location: String) -> String? {
        let lower = location.lowercased()
        let schemes = ["postgresql:", "postgres:", "mysql:", "mariadb:", "sqlserver:"]
        let hasScheme = location.range(of: #"^[a-zA-Z][a-zA-Z0-9+.-]*://"#, options: .regularExpression) != nil
        guard hasScheme || schemes.contains(where: { lower.hasPrefix($0) }) else { return nil }
        return PostgresConnection.redacted(location)
    }
}
