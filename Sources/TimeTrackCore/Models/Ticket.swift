import Foundation

/// A help desk ticket from an app user, with staff replies.
public struct Ticket: Codable, Equatable, Sendable {
    /// What the user is asking for.
    public enum Kind: String, Codable, CaseIterable, Sendable { case question, bugReport = "bug-report" }

    /// One reply in a ticket's thread.
    public struct Reply: Codable, Equatable, Sendable {
        public var by: String
        public var at: Date
        public var text: String
        public init(by: String, at: Date, text: String) {
            self.by = by
            self.at = at
            self.text = text
        }
    }

    public var from: String
    public var kind: Kind
    public var subject: String
    public var message: String
    public var replies: [Reply]
    /// Whether staff closed the ticket.
    public var closed: Bool

    public init(from: String, kind: Kind, subject: String, message: String, replies: [Reply] = [], closed: Bool = false) {
        self.from = from
        self.kind = kind
        self.subject = subject
        self.message = message
        self.replies = replies
        self.closed = closed
    }

    private enum CodingKeys: String, CodingKey { case from, kind, subject, message, replies, closed }

    /// Reads a ticket; `replies` and `closed` are staff's and may be absent (a new submission).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decode(String.self, forKey: .from)
        kind = try container.decode(Kind.self, forKey: .kind)
        subject = try container.decode(String.self, forKey: .subject)
        message = try container.decode(String.self, forKey: .message)
        replies = try container.decodeIfPresent([Reply].self, forKey: .replies) ?? []
        closed = try container.decodeIfPresent(Bool.self, forKey: .closed) ?? false
    }

    /// The problems that keep this ticket from being stored.
    public func validate() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        Check.text(from, "from", max: 200, into: &problems)
        Check.text(subject, "subject", into: &problems)
        Check.text(message, "message", max: 20_000, into: &problems)
        for (index, reply) in replies.enumerated() { Check.text(reply.text, "replies[\(index)].text", max: 20_000, into: &problems) }
        return problems
    }
}
