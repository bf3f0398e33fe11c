import Foundation

/// The stored state of one item, without its content (content lives in its revisions).
public struct ItemRow: Sendable, Equatable {
    /// The store's sequence number; the id is the kind's prefix and this number.
    public var seq: Int64
    public var id: String
    public var kind: ItemKind
    public var status: ItemStatus
    public var school: String?
    public var sourceID: String?
    public var sourceKey: String?
    public var sourceURL: String?
    public var fetchedAt: Date?
    public var pageHash: String?
    public var importer: String?
    public var importerVersion: String?
    /// What the importer guessed for the content it last brought (`Provenance.guessed`).
    public var guessed: [String] = []
    public var liveRevision: Int?
    public var pendingRevision: Int?
    /// The content hash of the base revision (what an unchanged import compares with).
    public var baseHash: String
    public var approvedBy: String?
    public var approvedAt: Date?
    public var rejectReason: String?
    public var archivedFrom: ItemStatus?
    public var missingRuns: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        seq: Int64, id: String, kind: ItemKind, status: ItemStatus, school: String?, sourceID: String?, sourceKey: String?, sourceURL: String?,
        fetchedAt: Date?, pageHash: String?, importer: String?, importerVersion: String?, liveRevision: Int?, pendingRevision: Int?,
        baseHash: String, approvedBy: String?, approvedAt: Date?, rejectReason: String?, archivedFrom: ItemStatus?, missingRuns: Int,
        createdAt: Date, updatedAt: Date
    ) {
        self.seq = seq
        self.id = id
        self.kind = kind
        self.status = status
        self.school = school
        self.sourceID = sourceID
        self.sourceKey = sourceKey
        self.sourceURL = sourceURL
        self.fetchedAt = fetchedAt
        self.pageHash = pageHash
        self.importer = importer
        self.importerVersion = importerVersion
        self.liveRevision = liveRevision
        self.pendingRevision = pendingRevision
        self.baseHash = baseHash
        self.approvedBy = approvedBy
        self.approvedAt = approvedAt
        self.rejectReason = rejectReason
        self.archivedFrom = archivedFrom
        self.missingRuns = missingRuns
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The revision new work builds on: the pending one if any, else the live one.
    public var baseRevision: Int? { pendingRevision ?? liveRevision }

    /// Copies an import's provenance onto the row.
    public mutating func take(_ provenance: Provenance) {
        sourceID = provenance.sourceID
        sourceURL = provenance.sourceURL
        fetchedAt = provenance.fetchedAt
        pageHash = provenance.pageHash
        importer = provenance.importer
        importerVersion = provenance.importerVersion
        guessed = provenance.guessed
    }
}

/// A revision to write: the content with its canonical JSON and hash, who made it and why.
public struct NewRevision: Sendable {
    public var number: Int
    public var state: Revision.State
    public var json: String
    public var hash: String
    public var at: Date
    public var by: String
    public var runID: Int64?
    public var note: String?

    public init(number: Int, state: Revision.State, json: String, hash: String, at: Date, by: String, runID: Int64?, note: String?) {
        self.number = number
        self.state = state
        self.json = json
        self.hash = hash
        self.at = at
        self.by = by
        self.runID = runID
        self.note = note
    }
}

/// An audit entry to write.
public struct NewAuditEntry: Sendable {
    public var at: Date
    public var operatorName: String
    public var action: AuditAction
    public var itemSeq: Int64?
    public var itemID: String?
    public var reason: String?
    public var detail: String?
    /// Decisions taken together (a bulk approval, an `undo`) share a batch, so `undo` finds them all.
    public var batch: String?
    /// The item as it was before the decision, for `undo` (`AuditEntry.undo`).
    public var undo: String?

    public init(
        at: Date, operatorName: String, action: AuditAction, itemSeq: Int64?, itemID: String?, reason: String?, detail: String?, batch: String? = nil,
        undo: String? = nil
    ) {
        self.undo = undo
        self.at = at
        self.operatorName = operatorName
        self.action = action
        self.itemSeq = itemSeq
        self.itemID = itemID
        self.reason = reason
        self.detail = detail
        self.batch = batch
    }
}

/// What the lifecycle service (`TimeTrackReview.Lifecycle`) needs of a store: rows, revisions,
/// locks and audit entries read and written, and transactions.
///
/// A repository holds storage only: no rule of the product (who may move an item where) lives here,
/// so a second store
/// implements these few calls and gets every decision from the one service.
///
/// `SQLiteStore` implements it on a file; `InMemoryRepository` (in `TimeTrackReview`) in memory
/// for fast tests.
public protocol ItemRepository: AnyObject {
    /// Where the data lives (a file path for SQLite).
    var location: String { get }
    /// The clock decisions are stamped with (replaceable in tests).
    var now: () -> Date { get }

    /// Runs `body` as one transaction, all or nothing; nested calls are nested savepoints that
    /// roll back alone.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Whether a transaction is open: rows read now are held until it ends (no other writer
    /// changes them in between).
    var inTransaction: Bool { get }

    /// The row of the item with this id (case-insensitive), or nil.
    func row(id: String) throws -> ItemRow?
    /// The row of a source's item with this key, or nil.
    func row(sourceID: String, key: String) throws -> ItemRow?
    /// The rows of a source's items that are pending or published.
    func activeRows(sourceID: String) throws -> [ItemRow]
    /// Of a source's pending and published items, the ones a run that saw `seenKeys` has to
    /// count: each one not seen (or without a key), and each seen one still counted missing.
    /// Their id, key and missing-run count, in item order. An item seen and not counted missing
    /// is not read at all (on an unchanged run, that is every item).
    func presenceToCount(sourceID: String, seenKeys: Set<String>) throws -> [(id: String, key: String?, missingRuns: Int)]
    /// The keys of every item of a source, whatever its status: one read for an import, so that
    /// a key not among them is written as new without being looked up.
    func sourceKeys(sourceID: String) throws -> Set<String>
    /// The content of one revision of an item.
    func content(of row: ItemRow, revision: Int) throws -> ItemContent
    /// Every revision of an item, oldest first.
    func revisions(of row: ItemRow) throws -> [Revision]
    /// Each revision's number and state, without its content (what `undo` keeps of a decision).
    func revisionStates(of row: ItemRow) throws -> [(number: Int, state: Revision.State)]
    /// The highest revision number the item has (0 for none).
    func lastRevisionNumber(of row: ItemRow) throws -> Int
    /// The item's locked fields, by field name.
    func locks(of row: ItemRow) throws -> [FieldLock]
    /// The newest audit entries, for one item or all.
    func audit(itemID: String?, limit: Int) throws -> [AuditEntry]
    /// The newest audit entries of one operator's decisions, newest first.
    func audit(operatorName: String, limit: Int) throws -> [AuditEntry]

    /// Writes a new item row with its content's title and sort date (and any typed copy the
    /// store keeps of it); assigns and returns the sequence number and id.
    func insertRow(_ row: ItemRow, content: ItemContent) throws -> ItemRow
    /// Writes a new item: its row (numbered by the store, as `insertRow`), its first revision and
    /// the audit entry `decision` makes of the numbered row, in one write where the store can.
    func insertItem(_ row: ItemRow, content: ItemContent, revision: NewRevision, decision: (ItemRow) -> NewAuditEntry) throws -> ItemRow
    /// Writes every field of an existing row.
    func updateRow(_ row: ItemRow) throws
    /// Writes the content that readers of the row see (title, sort date, typed copy).
    func project(_ content: ItemContent, of row: ItemRow) throws
    /// Adds a revision.
    func addRevision(_ revision: NewRevision, to row: ItemRow) throws
    /// Changes the state of a revision; `.live` also records when it went live, once.
    func setRevisionState(_ state: Revision.State, number: Int, of row: ItemRow, at: Date) throws
    /// Writes (or replaces) a field lock; `upstreamAt` is when its upstream value was first seen.
    func putLock(_ lock: FieldLock, upstreamAt: Date?, on row: ItemRow) throws
    /// Removes a field lock.
    func removeLock(_ field: String, from row: ItemRow) throws
    /// Appends an audit entry.
    func appendAudit(_ entry: NewAuditEntry) throws
    /// Adds a revision and appends its decision's audit entry, in one write where the store can.
    func addRevision(_ revision: NewRevision, to row: ItemRow, audit entry: NewAuditEntry) throws
    /// The names of the students in absence reports (any revision): public items must not name them.
    func absenceStudents() throws -> [String]
    /// The ids of items with a time due at `at` (a scheduled item's `publishAt`, a shown item's
    /// `expiresAt`, a published item's `reviewBy` not yet put in review), in item order.
    func dueRows(at: Date) throws -> [String]
    /// The `reviewBy` that was last put in review for this item, if any.
    func reviewNoted(of row: ItemRow) throws -> Date?
    /// Marks the item's `reviewBy` as put in review (once per value).
    func noteReviewDue(_ row: ItemRow, reviewBy: Date) throws
}

extension ItemRepository {
    /// The row, the revision, then the entry.
    public func insertItem(_ row: ItemRow, content: ItemContent, revision: NewRevision, decision: (ItemRow) -> NewAuditEntry) throws -> ItemRow {
        let row = try insertRow(row, content: content)
        try addRevision(revision, to: row, audit: decision(row))
        return row
    }

    /// The revision, then the entry.
    public func addRevision(_ revision: NewRevision, to row: ItemRow, audit entry: NewAuditEntry) throws {
        try addRevision(revision, to: row)
        try appendAudit(entry)
    }

    /// The row for an id, or a `.notFound` error saying "no item X".
    public func requireRow(_ id: String) throws -> ItemRow {
        guard let row = try row(id: id) else {
            throw TimeTrackError(.notFound, "no item \(id)", fix: "`list` shows item ids", context: ["item": id])
        }
        return row
    }

    /// The item with this id (case-insensitive): its shown content, any pending change, locks.
    public func item(_ id: String) throws -> Item { try item(of: try requireRow(id)) }

    /// The item a row describes.
    public func item(of row: ItemRow) throws -> Item {
        // Neither live nor pending (rejected, or archived from review): its last revision, the
        // one the decision left (a rejected absence's says it is not excused).
        let shownRevision = try row.liveRevision ?? row.pendingRevision ?? lastRevisionNumber(of: row)
        let content = try content(of: row, revision: shownRevision)
        var pending: ItemContent?
        if row.liveRevision != nil, let number = row.pendingRevision { pending = try self.content(of: row, revision: number) }
        var provenance: Provenance?
        if let sourceID = row.sourceID, let url = row.sourceURL {
            provenance = Provenance(
                sourceID: sourceID, sourceURL: url, fetchedAt: row.fetchedAt ?? row.createdAt, pageHash: row.pageHash ?? "",
                importer: row.importer ?? "", importerVersion: row.importerVersion ?? "", guessed: row.guessed)
        }
        return Item(
            id: row.id, kind: row.kind, status: row.status, school: row.school, content: content, pendingContent: pending,
            pendingRevision: row.pendingRevision, provenance: provenance, sourceKey: row.sourceKey, createdAt: row.createdAt,
            updatedAt: row.updatedAt, approvedBy: row.approvedBy, approvedAt: row.approvedAt, rejectReason: row.rejectReason,
            lockedFields: try locks(of: row).map(\.field), missingRuns: row.missingRuns, archivedFrom: row.archivedFrom)
    }

    /// Every revision of the item with this id, oldest first.
    public func revisions(of id: String) throws -> [Revision] { try revisions(of: try requireRow(id)) }

    /// The item's locked fields, with the source's value where it differs.
    public func fieldLocks(_ id: String) throws -> [FieldLock] { try locks(of: try requireRow(id)) }
}

extension ItemKind {
    /// The kind and sequence number an item id names (`e12` → event 12), or nil when the id
    /// cannot be one of ours.
    public static func parseID(_ id: String) -> (ItemKind, Int64)? {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, let kind = ItemKind.forIDPrefix(first), let seq = Int64(trimmed.dropFirst()), seq > 0 else { return nil }
        return (kind, seq)
    }
}
