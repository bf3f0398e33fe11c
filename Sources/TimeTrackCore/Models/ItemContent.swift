import Foundation

/// The fields of an item of any kind: one case per shared model.
public enum ItemContent: Equatable, Sendable {
    case announcement(Announcement)
    case event(Event)
    case schoolInfo(SchoolInfoItem)
    case post(Post)
    case absence(AbsenceReport)
    case ticket(Ticket)
    case deadline(Deadline)
    case alert(Alert)

    /// The kind of item this content belongs to.
    public var kind: ItemKind {
        switch self {
        case .announcement: return .announcement
        case .event: return .event
        case .schoolInfo: return .schoolInfo
        case .post: return .post
        case .absence: return .absence
        case .ticket: return .ticket
        case .deadline: return .deadline
        case .alert: return .alert
        }
    }

    /// A one-line label for lists and review prompts.
    public var title: String {
        switch self {
        case .announcement(let a): return a.title
        case .event(let e): return e.title
        case .schoolInfo(let i): return i.title
        case .post(let p): return "\(p.authorName): \(p.text)"
        case .absence(let r): return "\(r.student) \(r.dates.joined(separator: ", "))"
        case .ticket(let t): return t.subject
        case .deadline(let d): return d.title + " [\(d.courseName ?? d.course)]"
        case .alert(let a): return a.title
        }
    }

    /// The date lists sort by: published date, event start, post creation, first absence day.
    public var sortDate: Date? {
        switch self {
        case .announcement(let a): return a.publishedAt
        case .event(let e): return e.start
        case .schoolInfo: return nil
        case .post(let p): return p.createdAt
        case .absence(let r):
            return r.dates.sorted().first.flatMap { ISO8601DateFormatter.calendarDay.date(from: $0) }
        case .ticket: return nil
        case .deadline(let d): return d.due
        case .alert(let a): return a.publishedAt ?? a.publishAt ?? a.expiresAt
        }
    }

    /// The problems that keep this content from being stored.
    public func validate() -> [ValidationProblem] {
        switch self {
        case .announcement(let a): return a.validate()
        case .event(let e): return e.validate()
        case .schoolInfo(let i): return i.validate()
        case .post(let p): return p.validate()
        case .absence(let r): return r.validate()
        case .ticket(let t): return t.validate()
        case .deadline(let d): return d.validate()
        case .alert(let a): return a.validate()
        }
    }

    /// Throws a `.validation` error listing every problem, if there are any.
    ///
    /// The content returned has its text made safe (`SafeText`): every way into the store
    /// (imports, `submit`, `edit`, decisions that change content) stores what this returns.
    public func validated(context: [String: String] = [:]) throws -> ItemContent {
        let safe = madeSafe().content
        try safe.requireValid(context: context)
        return safe
    }

    /// Throws a `.validation` error listing every problem of this content as it is.
    func requireValid(context: [String: String]) throws {
        let problems = validate()
        guard problems.isEmpty else {
            throw TimeTrackError(
                .validation, "invalid \(kind.rawValue): " + problems.map(\.description).joined(separator: "; "),
                context: context)
        }
    }

    /// The fields as a JSON object (keys as in the model's JSON).
    public func fields() -> [String: JSONValue] {
        let value: JSONValue?
        switch self {
        case .announcement(let a): value = try? JSONCoding.value(a)
        case .event(let e): value = try? JSONCoding.value(e)
        case .schoolInfo(let i): value = try? JSONCoding.value(i)
        case .post(let p): value = try? JSONCoding.value(p)
        case .absence(let r): value = try? JSONCoding.value(r)
        case .ticket(let t): value = try? JSONCoding.value(t)
        case .deadline(let d): value = try? JSONCoding.value(d)
        case .alert(let a): value = try? JSONCoding.value(a)
        }
        return value?.objectValue ?? [:]
    }

    /// Canonical JSON text of the fields (sorted keys, nil fields left out): what the store keeps
    /// in a revision.
    ///
    /// Encoded from the model directly.
    public func canonicalJSON() -> String {
        let text: String?
        switch self {
        case .announcement(let a): text = a.handWrittenJSON() ?? (try? JSONCoding.compactString(a))
        case .event(let e): text = e.handWrittenJSON() ?? (try? JSONCoding.compactString(e))
        case .schoolInfo(let i): text = i.handWrittenJSON() ?? (try? JSONCoding.compactString(i))
        case .post(let p): text = try? JSONCoding.compactString(p)
        case .absence(let r): text = try? JSONCoding.compactString(r)
        case .ticket(let t): text = try? JSONCoding.compactString(t)
        case .deadline(let d): text = try? JSONCoding.compactString(d)
        case .alert(let a): text = try? JSONCoding.compactString(a)
        }
        return text ?? "{}"
    }

    /// SHA-256 of the canonical JSON: equal content has equal hashes.
    public var contentHash: String { SHA256.hex(canonicalJSON()) }

    /// The canonical JSON and its hash, computed once.
    public var canonicalForm: (json: String, hash: String) {
        let json = canonicalJSON()
        return (json, SHA256.hex(json))
    }

    /// Rebuilds content of `kind` from a JSON object of fields.
    public static func decode(kind: ItemKind, fields: [String: JSONValue]) throws -> ItemContent {
        let value = JSONValue.object(fields)
        do {
            switch kind {
            case .announcement: return .announcement(try JSONCoding.decode(Announcement.self, from: value))
            case .event: return .event(try JSONCoding.decode(Event.self, from: value))
            case .schoolInfo: return .schoolInfo(try JSONCoding.decode(SchoolInfoItem.self, from: value))
            case .post: return .post(try JSONCoding.decode(Post.self, from: value))
            case .absence: return .absence(try JSONCoding.decode(AbsenceReport.self, from: value))
            case .ticket: return .ticket(try JSONCoding.decode(Ticket.self, from: value))
            case .deadline: return .deadline(try JSONCoding.decode(Deadline.self, from: value))
            case .alert: return .alert(try JSONCoding.decode(Alert.self, from: value))
            }
        } catch let error as DecodingError {
            throw TimeTrackError(.validation, "the fields do not make a valid \(kind.rawValue): \(DecodingError.describe(error))")
        }
    }

    /// Rebuilds content of `kind` from canonical JSON text.
    public static func decode(kind: ItemKind, json: String) throws -> ItemContent {
        guard let value = try? JSONValue(parsing: json), let object = value.objectValue else {
            throw TimeTrackError(.database, "stored \(kind.rawValue) fields are not a JSON object", fix: "run `PRAGMA integrity_check` on the store")
        }
        return try decode(kind: kind, fields: object)
    }

    /// The names of the fields whose values differ between two contents of the same kind, sorted.
    public static func changedFields(from old: ItemContent, to new: ItemContent) -> [FieldChange] {
        let a = old.fields()
        let b = new.fields()
        return Set(a.keys).union(b.keys).sorted().compactMap { key in
            let before = a[key] ?? .null
            let after = b[key] ?? .null
            return before == after ? nil : FieldChange(field: key, old: before, new: after)
        }
    }
}

/// A field an operator edited, kept against re-imports; and what the source says now, when it
/// says something else.
public struct FieldLock: Codable, Equatable, Sendable {
    public var field: String
    public var lockedBy: String
    public var lockedAt: Date
    /// The source's value, when it differs from the operator's (recorded once per new value).
    public var upstream: JSONValue?
    public init(field: String, lockedBy: String, lockedAt: Date, upstream: JSONValue?) {
        self.field = field
        self.lockedBy = lockedBy
        self.lockedAt = lockedAt
        self.upstream = upstream
    }
}

/// One field that differs between two versions of an item.
public struct FieldChange: Codable, Equatable, Sendable {
    public var field: String
    public var old: JSONValue
    public var new: JSONValue
    public init(field: String, old: JSONValue, new: JSONValue) {
        self.field = field
        self.old = old
        self.new = new
    }
}

extension DecodingError {
    /// A one-line account of a decoding error: which key and what was wrong.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "'\(key.stringValue)' is missing" + (context.codingPath.isEmpty ? "" : " in \(parent)")
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(typeName(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) should be \(typeName(type)), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON (\(context.debugDescription))" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "a list"
        default: return "a \(String(describing: type))"
        }
    }
}

extension ISO8601DateFormatter {
    /// `yyyy-MM-dd` in UTC.
    public static var calendarDay: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return formatter
    }
}
