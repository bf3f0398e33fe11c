import Foundation

/// A person (or `cron`) who works in the console.
public struct Operator: Codable, Equatable, Sendable {
    /// What an operator may do (see `Access`).
    public enum Role: String, Codable, CaseIterable, Sendable {
        /// Everything: sources, imports, imported content, operators, the audit log, and all staff do.
        case admin
        /// Runs imports and nothing else: for cron.
        case importer
        /// Reviews posts, absence reports and help desk tickets (of their schools), and reads what
        /// their schools publish.
        case staff
        /// Reads published items (never absence reports or tickets).
        case viewer
    }

    public var name: String
    public var role: Role
    public var createdAt: Date
    /// The Unix account this operator is (peer authentication): the tool acts as the operator
    /// whose login is the account running it.
    ///
    /// Nil: nobody can be this operator but through an admin's `--as`.
    public var login: String?
    /// The schools a staff member works for; empty: every school.
    public var schools: [String]
    /// False once removed: the audit keeps the name, nobody can act as it.
    public var active: Bool
    /// The alerts right: a staff member who may approve alerts (of their schools).
    ///
    /// Admins always may. `operator add NAME --role staff --alerts`.
    public var alerts = false

    public init(name: String, role: Role, createdAt: Date = Date(), login: String? = nil, schools: [String] = [], active: Bool = true) {
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.login = login
        self.schools = schools
        self.active = active
    }

    /// Whether a name is acceptable: 1–64 letters, digits, `.`, `_`, `-` or `@`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0) }
    }
}

/// What an operator may read and decide: the one place the rules of roles and schools live.
public struct Access: Sendable {
    public let op: Operator

    public init(_ op: Operator) { self.op = op }

    /// Whether `school` is one of the operator's (an operator without schools has them all).
    ///
    /// District-wide items (no school) belong to every school's reading but to no school's decisions.
    func covers(_ school: String?) -> Bool {
        op.schools.isEmpty || school.map { op.schools.contains($0) } ?? false
    }

    public var mayImport: Bool {
        switch op.role {
        case .admin, .importer: return true
        case .staff, .viewer: return false
        }
    }

    /// Adding, removing and changing operators; reading the audit log.
    public var mayAdminister: Bool { op.role == .admin }

    /// Writing exports for the app (published items of exported kinds only).
    public var mayExport: Bool {
        switch op.role {
        case .admin, .staff, .viewer: return true
        case .importer: return false
        }
    }

    /// Whether the operator may see an item of `kind` with `status` from `school`.
    public func mayRead(_ kind: ItemKind, status: ItemStatus, school: String?) -> Bool {
        switch op.role {
        case .admin: return true
        case .importer: return false
        case .viewer: return kind.traits.exported && status == .published
        case .staff:
            switch kind.traits.review {
            case .staffWork, .helpDesk: return covers(school)
            case .importedContent: return status == .published && (school == nil || covers(school))
            }
        }
    }

    /// Whether the operator may decide on an item of `kind` from `school`.
    public func mayDecide(_ kind: ItemKind, school: String?) -> Bool {
        if kind == .alert { return op.role == .admin || (op.role == .staff && op.alerts && covers(school)) }
        switch op.role {
        case .admin: return true
        case .importer, .viewer: return false
        case .staff:
            switch kind.traits.review {
            case .staffWork, .helpDesk: return covers(school)
            case .importedContent: return false
            }
        }
    }

    /// Who may do what the operator may not: for refusals that say how to get the right.
    public static func whoMay(decide kind: ItemKind) -> String {
        if kind == .alert { return "admins, and staff of the item's school given the alerts right (`operator add NAME --role staff --alerts`)" }
        switch kind.traits.review {
        case .importedContent: return "admins"
        case .staffWork, .helpDesk: return "admins, and staff of the item's school"
        }
    }
}
