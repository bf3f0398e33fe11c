import Foundation

/// Where an imported item came from.
public struct Provenance: Codable, Equatable, Sendable {
    /// The source definition's id.
    public var sourceID: String
    /// The page the item was read from.
    public var sourceURL: String
    public var fetchedAt: Date
    /// SHA-256 of the fetched page's bytes.
    public var pageHash: String
    public var importer: String
    public var importerVersion: String
    /// What the importer had to guess, each for a reviewer to check ("year guessed: 2026 (start)").
    public var guessed: [String]

    public init(
        sourceID: String, sourceURL: String, fetchedAt: Date, pageHash: String, importer: String, importerVersion: String, guessed: [String] = []
    ) {
        self.guessed = guessed
        self.sourceID = sourceID
        self.sourceURL = sourceURL
        self.fetchedAt = fetchedAt
        self.pageHash = pageHash
        self.importer = importer
        self.importerVersion = importerVersion
    }
}

/// An item as the store holds it: its lifecycle state and its live (or first pending) content.
public struct Item: Sendable, Equatable {
    /// Short, stable, typable id (`a12`, `e7`).
    public var id: String
    public var kind: ItemKind
    public var status: ItemStatus
    /// The school's id, or nil for the district.
    public var school: String?
    /// The published content, or for an item never published, the pending content.
    public var content: ItemContent
    /// A pending revision on top of `content`, waiting for review.
    public var pendingContent: ItemContent?
    /// The number of the pending revision, if any.
    public var pendingRevision: Int?
    public var provenance: Provenance?
    /// Stable key of the item within its source (link, guid, UID...).
    public var sourceKey: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var approvedBy: String?
    public var approvedAt: Date?
    /// Why it was rejected, while rejected.
    public var rejectReason: String?
    /// Fields an operator edited: imports do not overwrite them.
    public var lockedFields: [String]
    /// Consecutive import runs that did not find this item.
    public var missingRuns: Int
    /// The status an archived item returns to when restored.
    public var archivedFrom: ItemStatus?

    public init(
        id: String, kind: ItemKind, status: ItemStatus, school: String?, content: ItemContent, pendingContent: ItemContent? = nil,
        pendingRevision: Int? = nil, provenance: Provenance? = nil, sourceKey: String? = nil, createdAt: Date, updatedAt: Date,
        approvedBy: String? = nil, approvedAt: Date? = nil, rejectReason: String? = nil, lockedFields: [String] = [],
        missingRuns: Int = 0, archivedFrom: ItemStatus? = nil
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.school = school
        self.content = content
        self.pendingContent = pendingContent
        self.pendingRevision = pendingRevision
        self.provenance = provenance
        self.sourceKey = sourceKey
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.approvedBy = approvedBy
        self.approvedAt = approvedAt
        self.rejectReason = rejectReason
        self.lockedFields = lockedFields
        self.missingRuns = missingRuns
        self.archivedFrom = archivedFrom
    }
}

/// One version of an item's content.
///
/// Every version is kept.
public struct Revision: Sendable, Equatable {
    /// Where a revision stands.
    public enum State: String, Codable, Sendable {
        /// Waiting for review.
        case pending
        /// The version the app shows now.
        case live
        /// Was live or pending; a newer version replaced it.
        case superseded
        /// Refused in review.
        case rejected
    }

    public var itemID: String
    public var number: Int
    public var state: State
    public var content: ItemContent
    public var contentHash: String
    public var createdAt: Date
    /// Operator or `import:<source>` that made this version.
    public var createdBy: String
    public var note: String?
    /// When this version first went live (nil: never published).
    ///
    /// `revert` goes back to the
    /// newest such version before the live one.
    public var wentLiveAt: Date?

    public init(
        itemID: String, number: Int, state: State, content: ItemContent, contentHash: String, createdAt: Date, createdBy: String, note: String?,
        wentLiveAt: Date? = nil
    ) {
        self.wentLiveAt = wentLiveAt
        self.itemID = itemID
        self.number = number
        self.state = state
        self.content = content
        self.contentHash = contentHash
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.note = note
    }
}

/// One decision in the audit log: who, when, what, why.
public struct AuditEntry: Codable, Sendable, Equatable {
    public var id: Int64
    public var at: Date
    public var operatorName: String
    /// `import-new`, `import-change`, `approve`, `reject`, `edit`, `archive`, `restore`, `submit`...
    public var action: String
    public var itemID: String?
    public var reason: String?
    public var detail: String?
    /// Decisions taken together (a bulk approval, an `undo`) share a batch name.
    public var batch: String?
    /// What `undo` needs to take the decision back: the item as it was before (JSON written by
    /// the lifecycle service; not part of the audit chain's hash, and checked against the item
    /// before it is used).
    ///
    /// Nil for entries written before it was kept.
    public var undo: String?

    /// The action as a case; nil for one this version does not know (a newer version's, or
    /// text written into the store by hand).
    public var kind: AuditAction? { AuditAction(rawValue: action) }

    public init(
        id: Int64, at: Date, operatorName: String, action: String, itemID: String?, reason: String?, detail: String?, batch: String? = nil, undo: String? = nil
    ) {
        self.batch = batch
        self.undo = undo
        self.id = id
        self.at = at
        self.operatorName = operatorName
        self.action = action
        self.itemID = itemID
        self.reason = reason
        self.detail = detail
    }
}

/// A short row for lists and review queues.
public struct ItemSummary: Codable, Sendable, Equatable {
    public var id: String
    public var kind: ItemKind
    public var status: ItemStatus
    public var title: String
    public var school: String?
    public var sourceID: String?
    public var sortDate: Date?
    public var hasPendingRevision: Bool
    public var missingRuns: Int
    public var updatedAt: Date

    /// An event's own zone (the one its dates are read in), when it has one.
    public var timeZone: String?
    /// When the shown content leaves the app, if it says (`expiresAt`).
    public var expiresAt: Date?

    public init(
        id: String, kind: ItemKind, status: ItemStatus, title: String, school: String?, sourceID: String?, sortDate: Date?, hasPendingRevision: Bool,
        missingRuns: Int, updatedAt: Date, timeZone: String? = nil
    ) {
        self.timeZone = timeZone
        self.id = id
        self.kind = kind
        self.status = status
        self.title = title
        self.school = school
        self.sourceID = sourceID
        self.sortDate = sortDate
        self.hasPendingRevision = hasPendingRevision
        self.missingRuns = missingRuns
        self.updatedAt = updatedAt
    }
}
