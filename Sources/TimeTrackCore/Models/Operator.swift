import Foundation

/// A person (or `cron`) who works in the console.
public struct Operator: Codable, Equatable, Sendable {
    /// What an operator may do.
    public enum Role: String, Codable, CaseIterable, Sendable {
        /// Manages sources and imports, approves imported content, and everything staff do.
        case admin
        /// Reviews posts, absence reports and help desk tickets.
        case staff
    }

    public var name: String
    public var role: Role
    public var createdAt: Date

    public init(name: String, role: Role, createdAt: Date = Date()) {
        self.name = name
        self.role = role
        self.createdAt = createdAt
    }

    /// Whether a name is acceptable: 1–64 letters, digits, `.`, `_`, `-` or `@`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0) }
    }
}
