import Foundation

/// The audit chain's head written outside the store (`audit anchor`): how many entries there
/// were, the last one's id and hash, when, and an Ed25519 signature by a key only admins read.
///
/// Whoever can write the store can rewrite the log and chain it again, but cannot change what
/// an anchor says: `audit verify --anchor FILE` then finds the anchored entry changed, gone, or
/// the log shorter than the anchor, and a forged anchor fails its signature.
///
/// One anchor is one line of text (a file keeps the lines it was given, oldest first; syslog
/// keeps them too): `timetrack-audit-anchor/1 entries=N last=ID head=HASH at=ISO key=HEX sig=HEX`.
public struct AuditAnchor: Sendable, Equatable {
    /// Entries in the log when the anchor was written.
    public var entries: Int
    /// The id of the last entry then (0 for an empty log).
    public var lastID: Int64
    /// That entry's hash (empty for an empty log).
    public var head: String
    public var at: Date
    /// The signing key's public half (hex).
    public var publicKey: String
    /// The signature of `signedText` (hex).
    public var signature: String

    static let tag = "timetrack-audit-anchor/1"

    /// The text the signature covers.
    public var signedText: String {
        "\(Self.tag) entries=\(entries) last=\(lastID) head=\(head) at=\(ISO8601DateFormatter().string(from: at)) key=\(publicKey)"
    }

    /// The anchor as one line.
    public var line: String { signedText + " sig=\(signature)" }

    /// Signs the head of a log with a private key.
    public static func signed(entries: Int, lastID: Int64, head: String, at: Date, privateKey: Ed25519.Bytes) throws -> AuditAnchor {
        let publicKey = try Ed25519.publicKey(of: privateKey).hex
        var anchor = AuditAnchor(entries: entries, lastID: lastID, head: head, at: at, publicKey: publicKey, signature: "")
        anchor.signature = try Ed25519.sign(Array(anchor.signedText.utf8), privateKey: privateKey).hex
        return anchor
    }

    /// Reads one anchor line; nil for a line that is not one (another program's syslog line).
    public init?(line text: Substring) {
        guard let start = text.range(of: Self.tag) else { return nil }
        var fields: [Substring: Substring] = [:]
        for word in text[start.upperBound...].split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[word[..<equals]] = word[word.index(after: equals)...]
        }
        guard let entries = fields["entries"].flatMap({ Int($0) }), let lastID = fields["last"].flatMap({ Int64($0) }), let head = fields["head"],
            let at = fields["at"].flatMap({ ISO8601DateFormatter().date(from: String($0)) }), let key = fields["key"], let signature = fields["sig"]
        else { return nil }
        self.init(entries: entries, lastID: lastID, head: String(head), at: at, publicKey: String(key), signature: String(signature))
    }

    public init(entries: Int, lastID: Int64, head: String, at: Date, publicKey: String, signature: String) {
        self.entries = entries
        self.lastID = lastID
        self.head = head
        self.at = at
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Whether the signature holds and was made by `trustedKey` (hex).
    public func signatureHolds(trustedKey: String) throws -> Bool {
        guard trustedKey.lowercased() == publicKey.lowercased() else { return false }
        guard let key = Ed25519.Bytes(hex: publicKey), let signature = Ed25519.Bytes(hex: signature) else { return false }
        return try Ed25519.verify(signature, of: Array(signedText.utf8), publicKey: key)
    }

    /// The last anchor among a file's lines (at most the last 1 MB of the file is read).
    public static func last(inFile path: String) throws -> AuditAnchor {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TimeTrackError(.notFound, "cannot read the anchor file", fix: "give the file `audit anchor --out FILE` wrote", context: ["file": path])
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 1_000_000 ? size - 1_000_000 : 0)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        guard let anchor = text.split(separator: "\n").reversed().lazy.compactMap({ AuditAnchor(line: $0) }).first else {
            throw TimeTrackError(.validation, "the file holds no audit anchor", fix: "`audit anchor --out FILE` writes one", context: ["file": path])
        }
        return anchor
    }
}
