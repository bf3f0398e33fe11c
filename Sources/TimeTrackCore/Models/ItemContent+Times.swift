import Foundation

/// An item's times: when it goes live, when it leaves the app, when a person should look again.
///
/// Every kind the app shows carries them as fields (`publishAt`, `expiresAt`, `reviewBy`), read
/// from sources that give them and editable like any field; absence reports and tickets, never
/// shown, have none. `import --due` applies them (`Lifecycle.applyDue`); the published views,
/// exports and preview also read them, so nothing shows past its expiry even before cron runs.
public struct ItemTimes: Sendable, Equatable {
    public var publishAt: Date?
    public var expiresAt: Date?
    public var reviewBy: Date?

    public init(publishAt: Date? = nil, expiresAt: Date? = nil, reviewBy: Date? = nil) {
        (self.publishAt, self.expiresAt, self.reviewBy) = (publishAt, expiresAt, reviewBy)
    }

    /// Which of the three times: what `import --due` applies and `agenda` lists.
    public enum Moment: String, Sendable, Equatable, CaseIterable {
        /// An approved item goes live.
        case publishAt
        /// A shown item leaves the app.
        case expiresAt
        /// A published item waits in review, still shown.
        case reviewBy

        /// What happens then, as `agenda` says it.
        public var happening: String {
            switch self {
            case .publishAt: return "goes live"
            case .expiresAt: return "expires"
            case .reviewBy: return "review by"
            }
        }
    }
}

extension ItemContent {
    /// The content's times (all nil for absence reports and tickets).
    public var times: ItemTimes {
        switch self {
        case .announcement(let a): return ItemTimes(publishAt: a.publishAt, expiresAt: a.expiresAt, reviewBy: a.reviewBy)
        case .event(let e): return ItemTimes(publishAt: e.publishAt, expiresAt: e.expiresAt, reviewBy: e.reviewBy)
        case .schoolInfo(let i): return ItemTimes(publishAt: i.publishAt, expiresAt: i.expiresAt, reviewBy: i.reviewBy)
        case .post(let p): return ItemTimes(publishAt: p.publishAt, expiresAt: p.expiresAt, reviewBy: p.reviewBy)
        case .deadline(let d): return ItemTimes(publishAt: d.publishAt, expiresAt: d.expiresAt, reviewBy: d.reviewBy)
        case .alert(let a): return ItemTimes(publishAt: a.publishAt, expiresAt: a.expiresAt, reviewBy: a.reviewBy)
        case .absence, .ticket: return ItemTimes()
        }
    }

    /// When the content stops being shown, if it says.
    public var expiresAt: Date? { times.expiresAt }

    /// Whether the content's expiry has passed at `now`.
    public func hasExpired(at now: Date) -> Bool { expiresAt.map { $0 <= now } ?? false }

    /// Whether the content waits for its `publishAt` at `now`.
    public func isBeforePublishing(at now: Date) -> Bool { times.publishAt.map { now < $0 } ?? false }

    /// Whether the app may show this content at `now`, as far as its times go.
    public func isShowable(at now: Date) -> Bool { !hasExpired(at: now) && !isBeforePublishing(at: now) }
}

extension ItemContent {
    /// This content with its times replaced.
    ///
    /// An alert keeps its expiry when `times` has none (an alert always ends). Absence reports
    /// and tickets have no times and come back as they are.
    public func withTimes(_ times: ItemTimes) -> ItemContent {
        switch self {
        case .announcement(var a):
            (a.publishAt, a.expiresAt, a.reviewBy) = (times.publishAt, times.expiresAt, times.reviewBy)
            return .announcement(a)
        case .event(var e):
            (e.publishAt, e.expiresAt, e.reviewBy) = (times.publishAt, times.expiresAt, times.reviewBy)
            return .event(e)
        case .schoolInfo(var i):
            (i.publishAt, i.expiresAt, i.reviewBy) = (times.publishAt, times.expiresAt, times.reviewBy)
            return .schoolInfo(i)
        case .post(var p):
            (p.publishAt, p.expiresAt, p.reviewBy) = (times.publishAt, times.expiresAt, times.reviewBy)
            return .post(p)
        case .deadline(var d):
            (d.publishAt, d.expiresAt, d.reviewBy) = (times.publishAt, times.expiresAt, times.reviewBy)
            return .deadline(d)
        case .alert(var a):
            (a.publishAt, a.reviewBy) = (times.publishAt, times.reviewBy)
            a.expiresAt = times.expiresAt ?? a.expiresAt
            return .alert(a)
        case .absence, .ticket:
            return self
        }
    }
}
