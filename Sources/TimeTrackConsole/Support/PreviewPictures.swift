import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackKit

/// The pictures a preview shows inline, as `data:` URIs: local files inside the imports folder
/// (posts' photos), and pictures on a site that a local source mirrors (the sample district's
/// pages and their images), read from the mirror.
///
/// Anything else stays a link: the page loads nothing from the web. Location data is removed from
/// JPEG and PNG files, as in an export.
enum PreviewPictures {
    /// Pictures larger than this are linked, not inlined.
    static let maxBytes = 5_000_000
    /// And past this many bytes of pictures in one page, the rest are linked too.
    static let pageBytes = 40_000_000

    /// address → `data:` URI, for the pictures of `contents` that can be read locally.
    static func inline(_ contents: [ItemContent], session: Session) -> [String: String] {
        let mirrors = session.sources().sources.compactMap { source -> (site: URL, folder: URL)? in
            guard let base = source.baseURL, source.url.isFileURL else { return nil }
            return (base.deletingLastPathComponent(), source.url.deletingLastPathComponent())
        }
        var out: [String: String] = [:]
        var total = 0
        for content in contents {
            for address in pictures(of: content) where out[address] == nil {
                guard let path = localPath(address, mirrors: mirrors, importsPath: session.importsPath), let uri = dataURI(path) else { continue }
                guard total + uri.utf8.count <= pageBytes else { return out }
                total += uri.utf8.count
                out[address] = uri
            }
        }
        return out
    }

    static func pictures(of content: ItemContent) -> [String] {
        switch content {
        case .announcement(let a): return a.imageURL.map { [$0] } ?? []
        case .post(let p): return p.imageURLs
        case .event, .schoolInfo, .absence, .ticket, .deadline, .alert: return []
        }
    }

    /// The file a picture's address stands for, inside the imports folder, or nil.
    static func localPath(_ address: String, mirrors: [(site: URL, folder: URL)], importsPath: String) -> String? {
        guard let url = URL(string: address) else { return nil }
        if url.isFileURL || url.scheme == nil { return LocalPath.regularFile(url.path, inside: importsPath) }
        for mirror in mirrors where mirror.site.host == url.host && mirror.site.scheme == url.scheme {
            let siteParts = mirror.site.pathComponents.filter { $0 != "/" }
            let parts = url.pathComponents.filter { $0 != "/" }
            let shared = zip(siteParts, parts).prefix { $0 == $1 }.count
            let relative = Array(repeating: "..", count: siteParts.count - shared) + parts[shared...]
            let candidate = relative.reduce(mirror.folder) { $0.appendingPathComponent($1) }.standardizedFileURL.path
            if let path = LocalPath.regularFile(candidate, inside: importsPath) { return path }
        }
        return nil
    }

    static func dataURI(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size <= maxBytes, let data = FileManager.default.contents(atPath: path) else { return nil }
        let type: String
        if data.starts(with: [0xFF, 0xD8]) {
            type = "image/jpeg"
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            type = "image/png"
        } else if data.starts(with: Array("GIF8".utf8)) {
            type = "image/gif"
        } else {
            return nil
        }
        let stripped = PhotoLocation.strip(data)
        guard type == "image/gif" || stripped.understood else { return nil }
        return "data:\(type);base64," + (type == "image/gif" ? data : stripped.data).base64EncodedString()
    }
}
