import Foundation

/// Who owns a field of an item: its source (what an import may set and compare) or the people
/// who decide on it (staff replies, a ticket's closed state, an absence's outcome, a post's
/// moderation note).
public enum FieldOwner: Sendable, Equatable {
    /// The page, feed or submission the item came from.
    case source
    /// The school's staff: set only by a decision, never by an import or a submission.
    case operators
}

extension ItemContent {
    /// The fields of `kind` that only a person's decision sets.
    ///
    /// An import never takes them from upstream, never compares them, and never changes them; a
    /// submission that carries them
    /// has them dropped where it enters.
    public static func operatorOwnedFields(of kind: ItemKind) -> Set<String> {
        switch kind {
        case .ticket: return ["replies", "closed"]
        case .absence: return ["outcome"]
        case .post: return ["moderationNote"]
        case .deadline: return ["score"]
        case .announcement, .event, .schoolInfo, .alert: return []
        }
    }

    /// Who owns `field` of `kind`.
    public static func owner(of field: String, kind: ItemKind) -> FieldOwner {
        operatorOwnedFields(of: kind).contains(field) ? .operators : .source
    }

    /// This content as a source may say it: every operator-owned field as a new submission has
    /// it (no replies, open, no outcome, no moderation note).
    public var sourceOwned: ItemContent {
        switch self {
        case .ticket(var ticket):
            ticket.replies = []
            ticket.closed = false
            return .ticket(ticket)
        case .absence(var report):
            report.outcome = nil
            return .absence(report)
        case .post(var post):
            post.moderationNote = nil
            return .post(post)
        case .deadline(var deadline):
            deadline.score = nil
            return .deadline(deadline)
        case .announcement, .event, .schoolInfo, .alert:
            return self
        }
    }

    /// The operator-owned fields this content sets (non-empty only for a submission that tried
    /// to set what staff decide), sorted.
    public var operatorFieldsSet: [String] {
        switch self {
        case .ticket(let ticket): return (ticket.closed ? ["closed"] : []) + (ticket.replies.isEmpty ? [] : ["replies"])
        case .absence(let report): return report.outcome == nil ? [] : ["outcome"]
        case .post(let post): return post.moderationNote == nil ? [] : ["moderationNote"]
        case .deadline(let deadline): return deadline.score == nil ? [] : ["score"]
        case .announcement, .event, .schoolInfo, .alert: return []
        }
    }

    /// This content with the operator-owned fields of `kept` (the item as people left it): what
    /// an import of this content would store.
    ///
    /// Contents of different kinds are returned as they are.
    public func keepingOperatorFields(of kept: ItemContent) -> ItemContent {
        switch (self, kept) {
        case (.ticket(var ticket), .ticket(let old)):
            ticket.replies = old.replies
            ticket.closed = old.closed
            return .ticket(ticket)
        case (.absence(var report), .absence(let old)):
            report.outcome = old.outcome
            return .absence(report)
        case (.post(var post), .post(let old)):
            post.moderationNote = old.moderationNote
            return .post(post)
        case (.deadline(var deadline), .deadline(let old)):
            deadline.score = old.score
            return .deadline(deadline)
        default:
            return self
        }
    }
}
