import Foundation

/// Filters for `list` and review queues.
public struct ItemQuery: Sendable, Equatable {
    public var kind: ItemKind?
    public var status: ItemStatus?
    public var sourceID: String?
    /// Only the review queue: items with pending content, and items missing from their source
    /// for at least `missingThreshold` runs.
    public var needsReview: Bool
    /// Consecutive missing runs after which an item is proposed for archiving in review.
    public var missingThreshold: Int
    public var limit: Int
    public var offset: Int
    /// Only items whose list date (`sortDate`: an event's start, a deadline's due instant...)
    /// is in this range, soonest first (`list deadlines --due-within 7d`).
    public var dated: ClosedRange<Date>?

    public init(
        kind: ItemKind? = nil, status: ItemStatus? = nil, sourceID: String? = nil, needsReview: Bool = false, missingThreshold: Int = 3, limit: Int = 50,
        offset: Int = 0, dated: ClosedRange<Date>? = nil
    ) {
        self.dated = dated
        self.kind = kind
        self.status = status
        self.sourceID = sourceID
        self.needsReview = needsReview
        self.missingThreshold = missingThreshold
        self.limit = limit
        self.offset = offset
    }
}

/// An item as an importer found it, ready to reconcile with the store.
public struct ImportedRecord: Sendable, Equatable {
    /// Stable key within the source (canonical link, guid, UID+recurrence...).
    public var key: String
    /// The content as read upstream.
    ///
    /// Setting it drops a preparation made for the old content.
    public var content: ItemContent {
        didSet { prepared = nil }
    }
    /// The same content validated, with its canonical JSON and hash, when the caller prepared
    /// it ahead (on all cores, off the store's write path); nil: the store does it.
    public private(set) var prepared: PreparedContent?
    public var school: String?
    public var provenance: Provenance

    public init(key: String, content: ItemContent, school: String?, provenance: Provenance) {
        self.key = key
        self.content = content
        self.school = school
        self.provenance = provenance
    }

    /// A record whose content was validated and encoded ahead.
    public init(key: String, prepared: PreparedContent, school: String?, provenance: Provenance) {
        self.init(key: key, content: prepared.content, school: school, provenance: provenance)
        self.prepared = prepared
    }
}

/// Content that passed validation, with the canonical JSON a revision stores and its SHA-256.
///
/// Only this initializer makes one, so holding a `PreparedContent` means the checks ran.
public struct PreparedContent: Sendable, Equatable {
    public let content: ItemContent
    public let json: String
    public let hash: String

    /// Makes `content`'s text safe (`SafeText`), validates it (throwing `.validation` with every
    /// problem) and encodes it.
    public init(_ content: ItemContent, context: [String: String] = [:]) throws {
        let (safe, json) = content.madeSafe()
        try safe.requireValid(context: context)
        self.content = safe
        (self.json, hash) = (json, SHA256.hex(json))
    }

    private init(checked content: ItemContent, json: String) {
        self.content = content
        (self.json, hash) = (json, SHA256.hex(json))
    }

    /// Validates `content` once: prepared, or every problem found (for callers that word the
    /// failure themselves).
    public static func checked(_ content: ItemContent) -> (prepared: PreparedContent?, problems: [ValidationProblem]) {
        let (safe, json) = content.madeSafe()
        let problems = safe.validate()
        return problems.isEmpty ? (PreparedContent(checked: safe, json: json), []) : (nil, problems)
    }
}

/// What reconciling one imported record did.
public enum ImportOutcome: Sendable, Equatable {
    /// A new pending item.
    case new(id: String)
    /// A pending revision (or, for a still-pending item, updated pending content).
    /// `conflicts` lists locked fields whose upstream value differs from the operator's edit.
    case changed(id: String, changes: [FieldChange], conflicts: [String])
    /// Same content as before: nothing written.
    case unchanged(id: String)
    /// Not applied: the item is rejected or archived.
    case skipped(id: String, reason: String)

    /// The item's id.
    public var id: String {
        switch self {
        case .new(let id), .unchanged(let id): return id
        case .changed(let id, _, _), .skipped(let id, _): return id
        }
    }
}

/// One import run of one source.
public struct ImportRun: Codable, Sendable, Equatable {
    /// How a run ended.
    public enum Status: String, Codable, Sendable {
        case running, ok, failed, held, interrupted, partial
    }

    public var id: Int64
    public var sourceID: String
    public var startedAt: Date
    public var finishedAt: Date?
    public var status: Status
    public var operatorName: String
    public var found: Int
    public var new: Int
    public var changed: Int
    public var unchanged: Int
    public var missing: Int
    public var problems: Int
    public var message: String?

    public init(
        id: Int64, sourceID: String, startedAt: Date, finishedAt: Date?, status: Status, operatorName: String, found: Int = 0, new: Int = 0, changed: Int = 0,
        unchanged: Int = 0, missing: Int = 0, problems: Int = 0, message: String? = nil
    ) {
        self.id = id
        self.sourceID = sourceID
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.operatorName = operatorName
        self.found = found
        self.new = new
        self.changed = changed
        self.unchanged = unchanged
        self.missing = missing
        self.problems = problems
        self.message = message
    }
}

/// What the store remembers about a source between runs.
public struct SourceState: Sendable, Equatable {
    public var sourceID: String
    public var lastRunAt: Date?
    public var lastGoodRun: Int64?
    /// Items found by the last run that was applied.
    public var lastGoodCount: Int?
    /// Of those, items with a date.
    public var lastGoodDated: Int?
    /// Why the source is held (a run that found far fewer items), if it is.
    public var heldReason: String?
    public var heldRun: Int64?

    public init(
        sourceID: String, lastRunAt: Date? = nil, lastGoodRun: Int64? = nil, lastGoodCount: Int? = nil, lastGoodDated: Int? = nil, heldReason: String? = nil,
        heldRun: Int64? = nil
    ) {
        self.sourceID = sourceID
        self.lastRunAt = lastRunAt
        self.lastGoodRun = lastGoodRun
        self.lastGoodCount = lastGoodCount
        self.lastGoodDated = lastGoodDated
        self.heldReason = heldReason
        self.heldRun = heldRun
    }
}

/// The app's store, as importers and the console need it: the repository the lifecycle
/// service decides through (`ItemRepository`), plus listing, operators and import runs.
///
/// `SQLiteStore` and `PostgresStore` implement it.
///
/// Decisions (approve, reject, edit, each imported record...) are not here: they are
/// `TimeTrackReview.Lifecycle`'s, written once over any repository, each one transaction with
/// one audit entry.
/// A published item as the exports read it: what the app shows, and when.

public struct PublishedItem: Sendable, Equatable {
    public var id: String
    public var school: String?
    /// The live content.
    public var content: ItemContent
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, school: String?, content: ItemContent, createdAt: Date, updatedAt: Date) {
        (self.id, self.school, self.content, self.createdAt, self.updatedAt) = (id, school, content, createdAt, updatedAt)
    }
}

/// A connection to a store, which its owner closes.
public protocol StoreConnection: AnyObject {
    /// Closes the store; further calls fail.
    func close()
}

/// What an export reads: the published items of a kind, and nothing it could change.
public protocol PublishedItems: AnyObject {
    /// Every published item of a kind with its live content, in one query (the exports').
    func published(_ kind: ItemKind) throws -> [PublishedItem]
}

public protocol ItemStore: ItemRepository, PublishedItems, StoreConnection {
    /// Audit entries this process has appended through this store so far (rolled-back ones
    /// included): the console anchors the log's head after a command that wrote any.
    var auditEntriesWritten: Int { get }
    /// The district's places (`place add`), for pinning events on the app's map.
    func places() throws -> [Place]
    /// Adds a place (or replaces the one of the same school and name); audited.
    func addPlace(_ place: Place, by operatorName: String) throws -> Place
    /// Removes a place by id; audited. False when there was none.
    func removePlace(_ id: Int64, by operatorName: String) throws -> Bool
    /// Location names of published and pending events that no place pins and that carry no
    /// coordinates of their own: (school, name, how many events).
    func unmatchedLocations() throws -> [(school: String?, name: String, events: Int)]
    /// The courses deadlines belong to (`course add`), by code.
    func courses() throws -> [Course]
    /// Adds a course or replaces the one with its code; audited. With `onlyIfMissing`, a course
    /// already there is left as it is (a source's rules never overwrite what a person set).
    /// True when something was written.
    @discardableResult func saveCourse(_ course: Course, by operatorName: String, onlyIfMissing: Bool) throws -> Bool
    /// Removes a course by code; audited. Its deadlines keep their course's code and name.
    /// False when there was none.
    func removeCourse(_ code: String, by operatorName: String) throws -> Bool
    /// The schema version of the open store.
    var schemaVersion: Int { get }
    /// The account the store itself authenticated (PostgreSQL's `session_user`), which is then
    /// the operator's login; nil for a file, whose user is the Unix account running the tool.
    var account: String? { get }

    /// Item counts per kind and status.
    func counts() throws -> [ItemKind: [ItemStatus: Int]]
    /// A page of items matching the query, newest first.
    func list(_ query: ItemQuery) throws -> [ItemSummary]
    /// How many items match the query's kind, status, source and dates, counted up to `cap`
    /// (a count never walks a million rows to print "1–50 of …").
    func count(_ query: ItemQuery, cap: Int) throws -> Int
    /// How many items wait in the review queue, counted up to `cap`.
    func reviewCount(kind: ItemKind?, sourceID: String?, missingThreshold: Int, cap: Int) throws -> Int

    /// The operator with this name, if any (active or removed).
    func operatorNamed(_ name: String) throws -> Operator?
    /// The active operator whose login is this Unix account, if any.
    func operatorWithLogin(_ account: String) throws -> Operator?
    /// All operators, removed ones included.
    func operators() throws -> [Operator]
    /// Walks the audit log's hash chain and says whether it holds.
    func verifyAudit(anchor: AuditAnchor?) throws -> AuditVerification
    /// Puts the audit log's append-only guards (triggers) back where they were dropped or
    /// replaced; returns the ones restored.
    func repairAuditGuards() throws -> [String]
    /// Adds an operator, or changes an existing one's role, login and schools (and makes a
    /// removed one active again). The first operator of a store is always an admin; the last
    /// active admin cannot be made anything else; a login belongs to one active operator.
    func addOperator(_ name: String, role: Operator.Role, login: String?, schools: [String], by operatorName: String) throws -> Operator
    /// What happens between two instants, soonest first (at most `limit`): scheduled items that
    /// go live, shown items that expire, published items due for review (`agenda`).
    func agenda(from: Date, to: Date, limit: Int) throws -> [AgendaEntry]
    /// Gives or takes away an operator's alerts right (approving alerts); audited.
    func setAlertsRight(_ name: String, _ on: Bool, by operatorName: String) throws
    /// Changes an operator's role (the last active admin keeps theirs).
    func setRole(_ name: String, _ role: Operator.Role, by operatorName: String) throws -> Operator
    /// Deactivates an operator: nobody can act as them any more, the audit keeps the name. The
    /// last active admin cannot be removed.
    func removeOperator(_ name: String, by operatorName: String) throws -> Operator
    /// Makes `name` (with `login`) the store's first admin, in one transaction, if the store has
    /// no operator yet; nil when it already has one (another process may have claimed it a moment ago).
    func claimFirstAdmin(_ name: String, login: String?) throws -> Operator?

    /// Throws `.storeUnusable` when the store is damaged (a full consistency check: imports ask
    /// before their first write).
    func requireHealthy() throws

    /// Opens a run record for a source.
    func beginRun(sourceID: String, by operatorName: String) throws -> ImportRun
    /// Closes a run record with its outcome.
    func finishRun(_ run: ImportRun) throws
    /// The newest runs.
    func runs(sourceID: String?, limit: Int) throws -> [ImportRun]
    /// Marks runs still `running` as `interrupted` (call while holding the run lock); returns how many.
    func markInterruptedRuns() throws -> Int

    /// What the store remembers about a source, or nil before its first run.
    func sourceState(_ sourceID: String) throws -> SourceState?
    /// Records an applied run: its counts become the shrink guard's reference; any hold ends.
    func recordGoodRun(sourceID: String, runID: Int64, count: Int, dated: Int) throws
    /// Marks a source held by a run, with the reason.
    func holdSource(sourceID: String, runID: Int64, reason: String) throws
}

/// A store that tells its consoles of items becoming pending as they arrive (PostgreSQL's
/// LISTEN/NOTIFY), so a prompt can say "3 new pending" without asking the store again and again.
public protocol PendingAnnouncements: AnyObject {
    /// Ids of items that became pending through other connections since the last call, read
    /// from what the server already sent (never waits). The first call starts listening.
    func newlyPending() -> [String]
}

/// What an import writes to: items and runs, the page memo and the HTTP cache, on one connection.
///
/// `SQLiteStore` is one; reading lanes need only `ReadingLane`.
public typealias ImportStore = ItemStore & PageMemo & FetchCache

/// What a read-ahead lane reads through its own connection: remembered pages and items and
/// cached HTTP validators; none of the store's writing calls.
public typealias ReadingLane = PageMemoReader & FetchCacheReader & StoreConnection

/// One thing `agenda` lists: an item's time to come.
public struct AgendaEntry: Sendable, Equatable {
    public var at: Date
    /// A scheduled item's `publishAt`, a shown item's `expiresAt`, a published item's `reviewBy`.
    public var what: ItemTimes.Moment
    public var id: String
    public var kind: ItemKind
    public var status: ItemStatus
    public var title: String
    public var school: String?
    public var sourceID: String?

    public init(at: Date, what: ItemTimes.Moment, id: String, kind: ItemKind, status: ItemStatus, title: String, school: String?, sourceID: String?) {
        (self.at, self.what, self.id, self.kind, self.status, self.title, self.school, self.sourceID) = (at, what, id, kind, status, title, school, sourceID)
    }
}

/// What walking the audit log's hash chain found.
public struct AuditVerification: Codable, Sendable, Equatable {
    /// Entries walked.
    public var entries: Int
    /// The first entry that does not hold, and what is wrong with it; nil when the chain holds.
    public var brokenEntry: Int64?
    public var problem: String?

    public init(entries: Int, brokenEntry: Int64? = nil, problem: String? = nil) {
        self.entries = entries
        self.brokenEntry = brokenEntry
        self.problem = problem
    }

    /// The append-only guards (triggers) the store lacks: someone dropped or replaced them
    /// (`store repair` puts them back).
    public var missingGuards: [String] = []
    /// Whether an anchor was compared with the log.
    public var anchored = false
    /// The last entry's id and stored hash: the head `audit anchor` signs.
    public var lastID: Int64?
    public var lastHash: String?

    /// Whether the chain, the guards and the anchor (when given) all hold.
    public var holds: Bool { brokenEntry == nil && problem == nil && missingGuards.isEmpty }
}

extension ItemStore {
    /// Walks the whole audit chain and checks its guards, without an anchor.
    public func verifyAudit() throws -> AuditVerification { try verifyAudit(anchor: nil) }
}
