import Foundation
import TimeTrackCore

/// A repository in memory: the lifecycle suite runs against it as against SQLite, in
/// microseconds.
///
/// Transactions are real (a failing body leaves nothing behind; nested ones roll
/// back alone). Not shared between processes, never saved.
public final class InMemoryRepository: ItemRepository {
    struct StoredRevision {
        var number: Int
        var state: Revision.State
        var json: String
        var hash: String
        var at: Date
        var by: String
        var note: String?
        var wentLiveAt: Date?
    }

    struct Tables {
        var rows: [Int64: ItemRow] = [:]
        var revisions: [Int64: [StoredRevision]] = [:]
        var locks: [Int64: [String: FieldLock]] = [:]
        var audit: [AuditEntry] = []
        var reviewNoted: [Int64: Date] = [:]
    }

    private var tables = Tables()
    public let location = ":memory:"
    public var now: () -> Date = { Date() }

    public init() {}

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let saved = tables
        depth += 1
        defer { depth -= 1 }
        do {
            return try body()
        } catch {
            tables = saved
            throw error
        }
    }

    private var depth = 0
    public var inTransaction: Bool { depth > 0 }

    public func row(id: String) throws -> ItemRow? {
        guard let (kind, seq) = ItemKind.parseID(id), let row = tables.rows[seq], row.kind == kind else { return nil }
        return row
    }

    public func row(sourceID: String, key: String) throws -> ItemRow? {
        tables.rows.values.first { $0.sourceID == sourceID && $0.sourceKey == key }
    }

    public func sourceKeys(sourceID: String) throws -> Set<String> {
        Set(tables.rows.values.filter { $0.sourceID == sourceID }.compactMap(\.sourceKey))
    }

    public func presenceToCount(sourceID: String, seenKeys: Set<String>) throws -> [(id: String, key: String?, missingRuns: Int)] {
        try activeRows(sourceID: sourceID).filter { row in row.missingRuns > 0 || !(row.sourceKey.map(seenKeys.contains) ?? false) }
            .map { ($0.id, $0.sourceKey, $0.missingRuns) }
    }

    public func activeRows(sourceID: String) throws -> [ItemRow] {
        tables.rows.values.filter { $0.sourceID == sourceID && [.pending, .published, .scheduled].contains($0.status) }.sorted { $0.seq < $1.seq }
    }

    private func stored(_ row: ItemRow, _ number: Int) throws -> StoredRevision {
        guard let revision = tables.revisions[row.seq]?.first(where: { $0.number == number }) else {
            throw TimeTrackError(.database, "revision \(number) of \(row.id) is missing", context: ["item": row.id])
        }
        return revision
    }

    public func absenceStudents() throws -> [String] {
        var names: Set<String> = []
        for row in tables.rows.values where row.kind == .absence {
            for revision in tables.revisions[row.seq] ?? [] {
                if case .absence(let report)? = try? ItemContent.decode(kind: .absence, json: revision.json) { names.insert(report.student) }
            }
        }
        return names.sorted()
    }

    public func content(of row: ItemRow, revision: Int) throws -> ItemContent {
        try ItemContent.decode(kind: row.kind, json: try stored(row, revision).json)
    }

    public func revisionStates(of row: ItemRow) throws -> [(number: Int, state: Revision.State)] {
        try revisions(of: row).map { ($0.number, $0.state) }
    }

    public func revisions(of row: ItemRow) throws -> [Revision] {
        try (tables.revisions[row.seq] ?? []).map {
            Revision(
                itemID: row.id, number: $0.number, state: $0.state, content: try ItemContent.decode(kind: row.kind, json: $0.json), contentHash: $0.hash,
                createdAt: $0.at, createdBy: $0.by, note: $0.note, wentLiveAt: $0.wentLiveAt)
        }
    }

    public func lastRevisionNumber(of row: ItemRow) throws -> Int {
        tables.revisions[row.seq]?.map(\.number).max() ?? 0
    }

    public func locks(of row: ItemRow) throws -> [FieldLock] {
        (tables.locks[row.seq] ?? [:]).values.sorted { $0.field < $1.field }
    }

    public func audit(itemID: String?, limit: Int) throws -> [AuditEntry] {
        let id = try itemID.map { try requireRow($0).id }
        return Array(tables.audit.reversed().filter { id == nil || $0.itemID == id }.prefix(limit))
    }

    public func audit(operatorName: String, limit: Int) throws -> [AuditEntry] {
        Array(tables.audit.reversed().filter { $0.operatorName == operatorName }.prefix(limit))
    }

    public func insertRow(_ row: ItemRow, content: ItemContent) throws -> ItemRow {
        var row = row
        row.seq = (tables.rows.keys.max() ?? 0) + 1
        row.id = row.kind.idPrefix + String(row.seq)
        tables.rows[row.seq] = row
        return row
    }

    public func updateRow(_ row: ItemRow) throws {
        guard tables.rows[row.seq] != nil else { throw TimeTrackError(.notFound, "no item \(row.id)", context: ["item": row.id]) }
        tables.rows[row.seq] = row
    }

    public func project(_ content: ItemContent, of row: ItemRow) throws {}

    public func addRevision(_ revision: NewRevision, to row: ItemRow) throws {
        if tables.revisions[row.seq]?.contains(where: { $0.number == revision.number }) == true {
            throw TimeTrackError(.database, "revision \(revision.number) of \(row.id) exists already", context: ["item": row.id])
        }
        tables.revisions[row.seq, default: []].append(
            StoredRevision(
                number: revision.number, state: revision.state, json: revision.json, hash: revision.hash, at: revision.at, by: revision.by,
                note: revision.note, wentLiveAt: revision.state == .live ? revision.at : nil))
    }

    public func setRevisionState(_ state: Revision.State, number: Int, of row: ItemRow, at: Date) throws {
        guard let index = tables.revisions[row.seq]?.firstIndex(where: { $0.number == number }) else {
            throw TimeTrackError(.database, "revision \(number) of \(row.id) is missing", context: ["item": row.id])
        }
        tables.revisions[row.seq]?[index].state = state
        if state == .live && tables.revisions[row.seq]?[index].wentLiveAt == nil { tables.revisions[row.seq]?[index].wentLiveAt = at }
    }

    public func putLock(_ lock: FieldLock, upstreamAt: Date?, on row: ItemRow) throws {
        tables.locks[row.seq, default: [:]][lock.field] = lock
    }

    public func removeLock(_ field: String, from row: ItemRow) throws {
        tables.locks[row.seq]?[field] = nil
    }

    public func appendAudit(_ entry: NewAuditEntry) throws {
        tables.audit.append(
            AuditEntry(
                id: Int64(tables.audit.count + 1), at: entry.at, operatorName: entry.operatorName, action: entry.action.rawValue, itemID: entry.itemID,
                reason: entry.reason, detail: entry.detail, batch: entry.batch, undo: entry.undo))
    }

    public func dueRows(at: Date) throws -> [String] {
        try tables.rows.values.sorted { $0.seq < $1.seq }.compactMap { row -> String? in
            guard let live = row.liveRevision else { return nil }
            let times = try content(of: row, revision: live).times
            let expires = [.published, .scheduled].contains(row.status) && times.expiresAt.map { $0 <= at } == true
            let goesLive = row.status == .scheduled && times.publishAt.map { $0 <= at } == true
            let review = row.status == .published && times.reviewBy.map { $0 <= at && tables.reviewNoted[row.seq] != $0 } == true
            return expires || goesLive || review ? row.id : nil
        }
    }

    public func reviewNoted(of row: ItemRow) throws -> Date? { tables.reviewNoted[row.seq] }

    public func noteReviewDue(_ row: ItemRow, reviewBy: Date) throws { tables.reviewNoted[row.seq] = reviewBy }
}
