import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackReview
import TimeTrackStore

/// What one console or CLI process works with: the store, the imports folder, the operator, output.
public final class Session {
    /// The store path when neither `--store` nor `TIMETRACK_STORE` is given.
    public static let defaultStorePath = SQLiteStore.defaultPath

    /// Path of the store file, or a PostgreSQL server's address (`postgresql://…`).
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
    /// `--utc`: times of runs, sources, the audit log and previews in UTC.
    public var utc = false
    /// The operator this session works as, once checked against the store.
    var resolved: Operator?
    /// Whether the session may ask questions (a terminal, and no --no-input).
    public var interactive: Bool
    public let output: Output
    /// Where questions are read from, when the session may ask (the REPL sets it).
    var reader: LineReader?
    private var openStore: (any ImportStore)?
    /// The store when a command has opened it (nothing is opened to ask).
    var openedItemStore: (any ItemStore)? { openStore }
    /// How many of the store's audit entries the last anchor covered (`auditEntriesWritten`).
    var anchoredEntries = 0
    private var opened: StoreLocation.Opened?
    /// Each source's time zone, read from the definitions once per session (`zone(of:)`).
    var sourceZones: [String: TimeZone]?
    /// The privacy check's allow list, read once per session (`privacy allow` drops it).
    var privacyAllowed: PrivacyAllowList?

    public init(storePath: String, importsPath: String, operatorName: String, interactive: Bool, output: Output) {
        self.storePath = storePath
        self.importsPath = importsPath
        self.operatorName = operatorName
        self.interactive = interactive
        self.output = output
    }

    /// The store, opened on first use: a SQLite file, or a PostgreSQL database when the
    /// location is a server's address.
    ///
    /// `create` makes a new file when there is none (a
    /// PostgreSQL store's schema is made in its empty database whenever it is opened).
    ///
    /// The console sees only the `ItemStore` protocol; this is the one place that picks an engine.
    ///
    /// Every command that opens the store works as a checked operator: the account is looked up
    /// (and on a new store becomes its first admin) before anything is read.
    public func store(create: Bool = false) throws -> any ItemStore {
        let store = try importStore(create: create)
        _ = try currentOperator(in: store)
        return store
    }

    private func importStore(create: Bool) throws -> any ImportStore {
        try openedStore(create: create).store
    }

    /// The store through the store module's one door (`StoreLocation`), opened once.
    private func openedStore(create: Bool) throws -> StoreLocation.Opened {
        if let opened { return opened }
        let opened = try StoreLocation.open(storePath, create: create, group: storeGroup)
        self.opened = opened
        openStore = opened.store
        return opened
    }

    /// Items that became pending at other desks or in other runs since the last look, when the
    /// open store announces them (PostgreSQL); none otherwise.
    func newlyPending() -> [String] { (openStore as? any PendingAnnouncements)?.newlyPending() ?? [] }

    /// Whether there is a store to ask without making one: the file exists, or it is a server's.
    var storeExists: Bool { Session.serverAddress(storePath) != nil || FileManager.default.fileExists(atPath: storePath) }

    /// A short name for the prompt: the file's name, or the PostgreSQL database's.
    var storeName: String {
        guard Session.serverAddress(storePath) != nil else { return (storePath as NSString).lastPathComponent }
        if let parts = URLComponents(string: storePath), parts.path.count > 1 { return SafeText.visible(String(parts.path.dropFirst())) }
        return "postgresql"
    }

    /// The store's location as it may be shown (a server address without its password).
    var storeLabel: String { Session.serverAddress(storePath) ?? storePath }

    /// The import runner over the session's store (created if missing): it takes the store's
    /// run lock for as long as it lives (a lock file beside a SQLite store, an advisory lock on
    /// PostgreSQL), and opens its read-ahead lanes read-only.
    public func importRunner() throws -> ImportRunner {
        let opened = try openedStore(create: true)
        let runner = try ImportRunner(store: opened.store, lock: try opened.runLock(), reader: opened.reader, by: operatorName)
        runner.version = Console.version
        return runner
    }

    /// Closes the store if open.
    public func close() {
        openStore?.close()
        openStore = nil
        opened = nil
    }

    /// `postgresql://user@host/db` (password left out) when the store location is a server's
    /// address (`scheme://…`, or `postgres:`/`postgresql:` with a socket folder); nil for a path.
    static func serverAddress(_ location: String) -> String? {
        StoreLocation.isServerAddress(location) ? PostgresConnection.redacted(location) : nil
    }
}
