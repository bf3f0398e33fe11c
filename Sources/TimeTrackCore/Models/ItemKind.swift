/// The kinds of item the app shows, one per shared model.
public enum ItemKind: String, Codable, CaseIterable, Sendable, Comparable {
    case announcement
    case event
    case schoolInfo = "school-info"
    case post
    case absence
    case ticket

    /// The one-letter prefix of this kind's short ids (`a12`, `e7`, `i3`...).
    public var idPrefix: String {
        switch self {
        case .announcement: return "a"
        case .event: return "e"
        case .schoolInfo: return "i"
        case .post: return "p"
        case .absence: return "r"
        case .ticket: return "t"
        }
    }

    /// The plural word used in commands and tables (`list announcements`).
    public var plural: String {
        switch self {
        case .announcement: return "announcements"
        case .event: return "events"
        case .schoolInfo: return "school-info"
        case .post: return "posts"
        case .absence: return "absences"
        case .ticket: return "tickets"
        }
    }

    /// Parses a kind from what people type: singular, plural, or a few common aliases.
    public init?(word: String) {
        let w = word.lowercased()
        if let kind = ItemKind(rawValue: w) { self = kind; return }
        if let kind = ItemKind.allCases.first(where: { $0.plural == w }) { self = kind; return }
        switch w {
        case "news", "announce": self = .announcement
        case "info", "schoolinfo", "school_info", "document", "documents", "docs": self = .schoolInfo
        case "absence-report", "absence-reports", "absences-reports", "report", "reports": self = .absence
        case "help", "helpdesk": self = .ticket
        default: return nil
        }
    }

    /// The kind whose ids start with `prefix`.
    public static func forIDPrefix(_ prefix: Character) -> ItemKind? {
        allCases.first { $0.idPrefix == String(prefix).lowercased() }
    }

    /// Whether imported items of this kind are content only admins approve (posts, absences and tickets are staff work).
    public var isImportedContent: Bool { [.announcement, .event, .schoolInfo].contains(self) }

    public static func < (lhs: ItemKind, rhs: ItemKind) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// Where an item is in its lifecycle.
public enum ItemStatus: String, Codable, CaseIterable, Sendable {
    /// Waiting for review; the app does not show it.
    case pending
    /// Live in the app.
    case published
    /// Refused in review, with a reason.
    case rejected
    /// History: read-only, restorable.
    case archived
}
