import Foundation
import TimeTrackCore
import TimeTrackKit

/// The decisions the command line and the review prompt share, with the per-kind rules:
/// approving an absence report excuses it, rejecting one leaves it unexcused, tickets are
/// answered and closed rather than approved.
enum Decisions {
    static func approve(_ id: String, store: any ItemStore, by who: String) throws -> Item {
        let item = try store.item(id)
        if item.kind == .ticket {
            throw TimeTrackError(.usage, "tickets are answered, not approved", fix: "`reply \(item.id) TEXT`, then `close \(item.id)`", context: ["item": item.id])
        }
        if case .absence(var report) = item.pendingContent ?? item.content, report.outcome == nil {
            report.outcome = .excused
            _ = try store.amend(id, action: "excuse", by: who, note: nil) { _ in .absence(report) }
        }
        return try store.approve(id, by: who)
    }

    static func reject(_ id: String, reason: String, store: any ItemStore, by who: String) throws -> Item {
        let item = try store.item(id)
        if case .absence(var report) = item.pendingContent ?? item.content, report.outcome == nil {
            report.outcome = .unexcused
            _ = try store.amend(id, action: "unexcuse", by: who, note: reason) { _ in .absence(report) }
        }
        return try store.reject(id, reason: reason, by: who)
    }

    static func reply(_ id: String, text: String, store: any ItemStore, by who: String) throws -> Item {
        try store.amend(id, action: "reply", by: who, note: TextNormalizer.truncate(text, to: 200)) { content in
            guard case .ticket(var ticket) = content else {
                throw TimeTrackError(.usage, "\(id) is not a ticket; only tickets take replies", context: ["item": id])
            }
            guard !ticket.closed else { throw TimeTrackError(.illegalTransition, "\(id) is closed", context: ["item": id]) }
            ticket.replies.append(Ticket.Reply(by: who, at: Date(), text: text))
            return .ticket(ticket)
        }
    }

    static func close(_ id: String, store: any ItemStore, by who: String) throws -> Item {
        _ = try store.amend(id, action: "close", by: who, note: nil) { content in
            guard case .ticket(var ticket) = content else {
                throw TimeTrackError(.usage, "\(id) is not a ticket; close is for tickets", fix: "`archive \(id)` takes other items out of the app", context: ["item": id])
            }
            guard !ticket.closed else { throw TimeTrackError(.illegalTransition, "\(id) is already closed", context: ["item": id]) }
            ticket.closed = true
            return .ticket(ticket)
        }
        let item = try store.item(id)
        return item.pendingRevision != nil ? try store.approve(id, by: who) : item
    }
}
