/// The kinds of item the app shows, one per shared model.
public enum ItemKind: String, Codable, CaseIterable, Sendable, Comparable {
    case announcement
    case event
    case schoolInfo = "school-info"
    case post
    case absence
    case ticket
    case deadline
    case alert

    /// Everything about a kind that is not its model, in one place: adding a kind adds a case
    /// here, and the compiler then lists every other switch that must learn it (none has a
    /// `default:`).
    ///
    /// See docs/architecture.md, "Adding a kind".
    public struct Traits: Sendable {
        /// The one-letter prefix of short ids (`a12`, `e7`, `i3`...).
        public var idPrefix: String
        /// The plural word used in commands and tables (`list announcements`).
        public var plural: String
        /// Other words people type for it (`news`, `docs`, `reports`).
        public var aliases: [String]
        /// One line for help and docs.
        public var summary: String
        /// How it is reviewed: which decisions apply and who makes them.
        public var review: ReviewStyle
        /// Whether exports for the app carry it (`announcements.json`...).
        ///
        /// Private kinds never are.
        public var exported: Bool
    }

    /// How items of a kind are reviewed.
    public enum ReviewStyle: Sendable {
        /// Imported content: admins approve, reject or edit, and may approve the rest of a run at once.
        case importedContent
        /// Staff work (posts, absence reports): staff approve, reject or edit, one at a time.
        case staffWork
        /// Help desk: staff reply and close; never approved.
        case helpDesk
    }

    /// The table of kinds.
    public var traits: Traits {
        switch self {
        case .announcement:
            return Traits(
                idPrefix: "a", plural: "announcements", aliases: ["news", "announce"], summary: "district and school news (the app's slideshow)",
                review: .importedContent, exported: true)
        case .event:
            return Traits(
                idPrefix: "e", plural: "events", aliases: ["calendar"], summary: "dated events with a place (the app's map)", review: .importedContent,
                exported: true)
        case .schoolInfo:
            return Traits(
                idPrefix: "i", plural: "school-info", aliases: ["info", "schoolinfo", "school_info", "document", "documents", "docs"],
                summary: "School Info documents and links", review: .importedContent, exported: true)
        case .post:
            return Traits(
                idPrefix: "p", plural: "posts", aliases: ["photos", "feed"], summary: "social feed posts from families and staff", review: .staffWork,
                exported: true)
        case .absence:
            return Traits(
                idPrefix: "r", plural: "absences", aliases: ["absence-report", "absence-reports", "report", "reports"],
                summary: "absence reports (private: never exported)", review: .staffWork, exported: false)
        case .ticket:
            return Traits(
                idPrefix: "t", plural: "tickets", aliases: ["help", "helpdesk"], summary: "help desk tickets (private: never exported)", review: .helpDesk,
                exported: false)
        case .deadline:
            return Traits(
                idPrefix: "d", plural: "deadlines", aliases: ["due", "assignments", "assignment", "homework", "coursework"],
                summary: "coursework due dates with weights and reminders", review: .importedContent, exported: true)
        case .alert:
            return Traits(
                idPrefix: "w", plural: "alerts", aliases: ["alert", "warnings", "emergency", "emergencies"],
                summary: "emergency and urgent alerts that end (approved by operators with the alerts right)", review: .importedContent, exported: true)
        }
    }

    /// The one-letter prefix of this kind's short ids (`a12`, `e7`, `i3`...).
    public var idPrefix: String { traits.idPrefix }

    /// The plural word used in commands and tables (`list announcements`).
    public var plural: String { traits.plural }

    /// Every kind's plural, in order: for help, completions and messages.
    public static var plurals: [String] { allCases.map(\.plural) }

    /// Parses a kind from what people type: singular, plural, or an alias.
    public init?(word: String) {
        let w = word.lowercased()
        guard let kind = ItemKind(rawValue: w) ?? ItemKind.allCases.first(where: { $0.plural == w || $0.traits.aliases.contains(w) }) else { return nil }
        self = kind
    }

    /// The kind whose ids start with `prefix`.
    public static func forIDPrefix(_ prefix: Character) -> ItemKind? {
        allCases.first { $0.idPrefix == String(prefix).lowercased() }
    }

    /// Whether imported items of this kind are content only admins approve (posts, absences and tickets are staff work).
    public var isImportedContent: Bool {
        switch traits.review {
        case .importedContent: return true
        case .staffWork, .helpDesk: return false
        }
    }

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
    /// Approved, and waiting for its `publishAt` to go live (`import --due` makes it published).
    case scheduled
    /// Was published; its `expiresAt` passed (`import --due` moved it here). Restorable after
    /// its expiry is edited.
    case expired
    /// An alert the district took down: the next import withdrew it from the app ("taken down by
    /// the district" in review). Undoable; restorable.
    case withdrawn

    /// Whether the app may show an item of this status (its times permitting).
    public var isLive: Bool { self == .published }
}
