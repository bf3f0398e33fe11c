import Foundation

/// The accessible copies a district keeps of its documents (searchable PDFs made by `ocr`):
/// files in one folder of the imports folder (`_accessible/`), each named by the SHA-256 of its
/// bytes.
///
/// An item names its copy by that hash only, so nothing in the store can point an export
/// at another file; a copy whose bytes no longer match its name is not served.
public struct AccessibleCopies: Sendable {
    /// The folder (`<imports>/_accessible`).
    public let folder: String
    /// Copies larger than this are neither kept nor served.
    public static let maxBytes = 200_000_000

    public init(importsFolder: String) {
        folder = (importsFolder as NSString).appendingPathComponent("_accessible")
    }

    /// The copy's path for a hash (the hash checked to be 64 hex digits first).
    public func path(of hash: String) -> String? {
        guard SHA256.isHex(hash, lowercase: true) else { return nil }
        return (folder as NSString).appendingPathComponent(hash + ".pdf")
    }

    /// Keeps `data` as a copy; returns its hash.
    public func keep(_ data: Data) throws -> String {
        let hash = SHA256.hex(data)
        guard data.count <= Self.maxBytes, let path = path(of: hash) else {
            throw TimeTrackError(.validation, "the copy is over \(Self.maxBytes / 1_000_000) MB", fix: "ask for a smaller original document")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw TimeTrackError(.system, "cannot keep the copy in \(folder): \(error.localizedDescription)", fix: "check the imports folder is writable")
        }
        return hash
    }

    /// The bytes of the copy named `hash`, when it is a regular file in the folder whose bytes
    /// still have that hash; nil otherwise.
    public func read(_ hash: String) -> Data? {
        guard let path = path(of: hash), let real = LocalPath.regularFile(path, inside: folder) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, info.st_size <= Self.maxBytes, let data = FileManager.default.contents(atPath: real) else { return nil }
        return SHA256.hex(data) == hash ? data : nil
    }
}
