import Foundation

/// A fresh folder under the system temp folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    /// Creates the folder.
    public init(_ label: String = "timetrack") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes text to a file inside the folder; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target.path
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
