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
    /// Who is working.
    public var operatorName: String
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
    public func store(create: Bool = false) throws -> any ItemStore {
        try sqliteStore(create: create)
    }

    private func sqliteStore(create: Bool) throws -> SQLiteStore {
        if let openStore { return openStore }
        let store = try SQLiteStore(path: storePath, create: create)
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
}
