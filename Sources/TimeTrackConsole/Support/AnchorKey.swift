import Foundation
import TimeTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// The Ed25519 key that signs audit anchors: a file of 64 hex digits readable by its owner only
/// (an admin), with its public half beside it in `FILE.pub` for anyone who verifies.
enum AnchorKey {
    /// `--key`, else `$TIMETRACK_ANCHOR_KEY`, else `~/.config/timetrack-admin/anchor.key`.
    static func path(_ given: String?) -> String {
        if let given { return given }
        if let env = Environment.value("TIMETRACK_ANCHOR_KEY"), !env.isEmpty { return env }
        let config = Environment.value("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (config as NSString).appendingPathComponent("timetrack-admin/anchor.key")
    }

    /// The private key; made (mode 0600, its `.pub` 0644) when the file does not exist yet.
    static func load(_ given: String?, session: Session) throws -> Ed25519.Bytes {
        if let reason = Ed25519.unavailable { throw TimeTrackError(.system, "cannot sign the anchor: \(reason)", fix: "apt-get install libssl3") }
        let file = path(given)
        if !FileManager.default.fileExists(atPath: file) {
            let key = Ed25519.newPrivateKey()
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try create(key.hex + "\n", at: file, mode: 0o600)
            try create(try Ed25519.publicKey(of: key).hex + "\n", at: file + ".pub", mode: 0o644)
            session.output.note("made a new anchor key: \(file) (keep it readable by admins only; \(file).pub is for verifying)")
            return key
        }
        var info = stat()
        if stat(file, &info) == 0, info.st_mode & 0o077 != 0 {
            throw TimeTrackError(
                .permission, "the anchor key can be read or written by others than its owner", fix: "chmod 600 \(file)", context: ["file": file])
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), let key = Ed25519.Bytes(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            key.count == 32
        else {
            throw TimeTrackError(
                .configuration, "the anchor key is not 64 hex digits", fix: "give the file `audit anchor` made, or remove it to make a new one",
                context: ["file": file])
        }
        return key
    }

    /// The public key anchors must be signed by: `FILE.pub` (or FILE itself when it is the
    /// `.pub`), else the private key's public half.
    ///
    /// Without either there is nothing to trust: an anchor checked only against its own key proves
    /// nothing (anyone can sign one).
    static func trustedPublicKey(_ given: String?) throws -> String {
        let file = path(given)
        let publicFile = file.hasSuffix(".pub") ? file : file + ".pub"
        func key(_ path: String) -> Ed25519.Bytes? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let bytes = Ed25519.Bytes(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)),
                bytes.count == 32
            else { return nil }
            return bytes
        }
        if let known = key(publicFile) { return known.hex }
        if publicFile != file, let privateKey = key(file) { return try Ed25519.publicKey(of: privateKey).hex }
        throw TimeTrackError(
            .notFound, "no key to check the anchor's signature against (\(publicFile))",
            fix: "give the admins' public key with --key FILE.pub: an anchor signed by any other key proves nothing", context: ["file": publicFile])
    }

    /// Appends `text` to a file (made 0644 when new), as one write.
    static func append(_ text: String, to file: String) throws {
        let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TimeTrackError(
                .system, "cannot write the anchor file: \(String(cString: strerror(errno)))", fix: "check that its folder exists and that you may write it",
                context: ["file": file])
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw TimeTrackError(.system, "cannot write the anchor file: \(String(cString: strerror(errno)))", context: ["file": file])
        }
    }

    static func create(_ text: String, at file: String, mode: mode_t) throws {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw TimeTrackError(.system, "cannot make the anchor key: \(String(cString: strerror(errno)))", context: ["file": file])
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else {
            throw TimeTrackError(.system, "cannot write the anchor key: \(String(cString: strerror(errno)))", context: ["file": file])
        }
    }
}
