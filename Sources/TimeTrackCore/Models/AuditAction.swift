import Foundation

/// What an audit entry records: every decision, import step and setting change has one.
///
/// The store keeps the raw value; code decides by the case, never by the text.
public enum AuditAction: String, CaseIterable, Codable, Sendable {
    // A person's decisions on an item.
    case submit, approve, reject, edit, reply, close, reopen, keep, unlock, archive, restore, revert
    /// An undo (the whole of it), and its step on one item.
    case undo, undoItem = "undo-item"
    /// An absence's outcome following its decision (never a decision of its own).
    case excuse, unexcuse, undecide
    // What imports do.
    case importNew = "import-new", importChange = "import-change"
    /// An import noted the source's new value of a locked field; the item is unchanged.
    case importLocked = "import-locked"
    /// An import found an alert gone from its source: withdrawn from the app.
    case withdraw
    // What time does (`import --due`).
    case goLive = "go-live", expire, reviewDue = "review-due"
    /// The district's `onAlert` command ran for an alert (its outcome in `detail`).
    case alertHook = "alert-hook"
    // Settings.
    case placeAdd = "place-add", placeChange = "place-change", placeRemove = "place-remove"
    case courseAdd = "course-add", courseChange = "course-change", courseRemove = "course-remove"
    case operatorAdd = "operator-add", operatorChange = "operator-change", operatorRole = "operator-role", operatorRemove = "operator-remove"

    /// An absence's outcome set by a decision (`undo` passes over these).
    public var isOutcome: Bool { self == .excuse || self == .unexcuse || self == .undecide }
}
