import Foundation
import TimeTrackCore
import TimeTrackKit

/// Reads pages for one source: local files (confined to a root folder) and, for a source with a
/// `baseURL`, public URLs under that base mapped to files beside the source's page (a local
/// mirror of the site, as the bundled sample district is).
///
/// Pages larger than `maxBytes` are refused with a message saying how to raise the limit.
///
/// Local files may be read on several threads at once (`fetchAll`): the only state a fetch
/// changes, the resolved-folder cache, is behind a lock; the rest is set up before fetching.
public final class Fetcher: PageFetcher, @unchecked Sendable {
    /// Largest page accepted, in bytes (default 25 MB).
    public var maxBytes: Int
    /// Local files must be inside this folder (nil: anywhere, for paths given on the command line).
    public var confinedTo: URL?
    /// Public URL prefix → local folder.
    var mirrors: [(String, URL)] = []
    /// The first page's file stands for this public URL.
    var aliases: [String: URL] = [:]
    let http: HTTPClient?

    /// A fetcher for a source: its local mirror (if any), the confinement folder and the size limit.
    /// The source's own page (always readable, local or not).
    let ownURL: URL
    /// Whether pages may lead to local files (`file:` links): only for a source whose
    /// definition names a local file.
    public var allowsLocalLinks: Bool
    /// Whether pages may lead to the web: a web source, or a local one whose definition says
    /// `followRemoteLinks`.
    public var allowsRemoteLinks: Bool

    /// A fetcher for a source: its local mirror (if any), the confinement folder and the size limit.
    ///
    /// - Parameter definition: the source as its file defines it, when `source` reads a local
    ///   copy instead (`--file`): its scheme decides which links may be followed.
    public init(source: SourceDefinition, definition: SourceDefinition? = nil, confinedTo root: URL?, maxBytes: Int = 25 * 1024 * 1024, http: HTTPClient? = nil) {
        let defined = definition ?? source
        ownURL = source.url
        allowsLocalLinks = defined.url.isFileURL
        allowsRemoteLinks = !defined.url.isFileURL || defined.followsRemoteLinks
        self.maxBytes = maxBytes
        self.confinedTo = root?.standardizedFileURL.resolvingSymlinksInPath()
        self.http = http
        if source.url.isFileURL, let base = source.baseURL {
            let publicFolder = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.deletingLastPathComponent().absoluteString
            mirrors.append((publicFolder, source.url.deletingLastPathComponent()))
            aliases[base.absoluteString] = source.url
        }
    }

    /// Asked before every fetch; true stops the source with an "interrupted" error (Ctrl-C at the console).
    public var shouldStop: (() -> Bool)?

    public func fetch(_ url: URL) throws -> FetchedPage {
        if shouldStop?() == true {
            throw TimeTrackError(.interrupted, "interrupted (Ctrl-C)", fix: "nothing of this source was written; run the import again", context: ["url": url.absoluteString])
        }
        if url.isFileURL {
            guard allowsLocalLinks || url.standardizedFileURL == ownURL.standardizedFileURL else {
                throw TimeTrackError(
                    .fetch, "refused: a page of this web source leads to the local file \(url.path); a web source never reads local files",
                    fix: "nothing to do unless the link is meant: then import that file as a source of its own", context: ["url": url.absoluteString])
            }
            return try readFile(url, standsFor: url)
        }
        let text = url.absoluteString
        if let file = aliases[text] { return try readFile(file, standsFor: url) }
        for (prefix, folder) in mirrors where text.hasPrefix(prefix) {
            var rest = String(text.dropFirst(prefix.count))
            if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = String(rest[..<cut]) }
            if rest.isEmpty || rest.hasSuffix("/") { rest += "index.html" }
            let file = folder.appendingPathComponent(rest.removingPercentEncoding ?? rest)
            return try readFile(file, standsFor: url)
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw TimeTrackError(.fetch, "only http, https and local files can be fetched", context: ["url": text])
        }
        guard allowsRemoteLinks else {
            throw TimeTrackError(
                .fetch, "refused: a page of this local source leads to \(text) on the web",
                fix: "set \"followRemoteLinks\": true in the source's definition if it should read web pages", context: ["url": text])
        }
        guard let http else {
            throw TimeTrackError(.fetch, "no HTTP client configured for this run", context: ["url": text])
        }
        return try http.get(url, maxBytes: maxBytes)
    }

    /// Folders already resolved (symlinks followed), by their standardized path.
    private var resolvedFolders: [String: String] = [:]
    private let lock = NSLock()

    /// Whether `url` is read from a local file (no network).
    func isLocal(_ url: URL) -> Bool {
        if url.isFileURL { return true }
        let text = url.absoluteString
        return aliases[text] != nil || mirrors.contains { text.hasPrefix($0.0) }
    }

    /// Local pages are read on all cores; if any page is on the web, one after another.
    public func fetchAll(_ urls: [URL]) throws -> [Result<FetchedPage, TimeTrackError>] {
        guard urls.count > 1, urls.allSatisfy(isLocal) else {
            return try urls.map { url in
                do { return .success(try fetch(url)) } catch let error as TimeTrackError where error.code != .interrupted { return .failure(error) }
            }
        }
        let results = Parallel.map(urls) { url -> Result<FetchedPage, TimeTrackError> in
            do { return .success(try self.fetch(url)) } catch let error as TimeTrackError { return .failure(error) } catch {
                return .failure(TimeTrackError(.fetch, "\(error)", context: ["url": url.absoluteString]))
            }
        }
        if let stop = results.first(where: {
            if case .failure(let error) = $0 { return error.code == .interrupted }; return false
        }), case .failure(let error) = stop {
            throw error
        }
        return results
    }

    /// The file's path with its folder's symlinks resolved (cached per folder: a corpus has few).
    func resolvedPath(_ file: URL) -> String {
        var path = file.path
        if path.contains("/./") || path.contains("/../") || path.contains("//") || path.hasSuffix("/.") || path.hasSuffix("/..") {
            path = file.standardizedFileURL.path
        }
        guard let slash = path.lastIndex(of: "/") else { return file.resolvingSymlinksInPath().path }
        let folder = String(path[..<slash])
        let name = path[path.index(after: slash)...]
        lock.lock()
        let cached = resolvedFolders[folder]
        lock.unlock()
        let known: String
        if let cached {
            known = cached
        } else {
            known = URL(fileURLWithPath: folder.isEmpty ? "/" : folder).resolvingSymlinksInPath().path
            lock.lock()
            resolvedFolders[folder] = known
            lock.unlock()
        }
        let resolved = (known.hasSuffix("/") ? known : known + "/") + name
        // The file itself may be a link out of the folder.
        var info = stat()
        if lstat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return URL(fileURLWithPath: resolved).resolvingSymlinksInPath().path
        }
        return resolved
    }

    func readFile(_ file: URL, standsFor url: URL) throws -> FetchedPage {
        let path = resolvedPath(file)
        if let root = confinedTo?.path, !(path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")) {
            throw TimeTrackError(
                .fetch, "\(path) is outside the imports folder \(root)",
                fix: "keep source pages inside the imports folder, or give the file on the command line with --file", context: ["url": url.absoluteString])
        }
        // open + fstat + read: one descriptor, no FileHandle, the size known before reading.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno
            if reason == ENOENT || reason == ENOTDIR {
                // Status 404, as a web server would say: importers tell "gone" from "failed" by it.
                throw TimeTrackError(.fetch, "no such file: \(path)", fix: "check the source's url (relative paths resolve against the definition's folder)", context: ["url": url.absoluteString, "status": "404"])
            }
            throw TimeTrackError(.fetch, "cannot read \(path): \(String(cString: strerror(reason)))", fix: "check its permissions", context: ["url": url.absoluteString])
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw TimeTrackError(.fetch, "cannot read \(path)", fix: "check its permissions", context: ["url": url.absoluteString])
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw TimeTrackError(.fetch, "\(path) is a folder, not a page", context: ["url": url.absoluteString])
        }
        let size = Int(info.st_size)
        if size > maxBytes {
            throw TimeTrackError(
                .fetch, String(format: "the page is %.1f MB, over the %.1f MB limit", Double(size) / 1_048_576, Double(maxBytes) / 1_048_576),
                fix: "a page this large is usually a mistake; check the url", context: ["url": url.absoluteString])
        }
        // Read until end of file (it may have changed size since fstat), never past the limit.
        var data = Data(count: min(maxBytes + 1, max(size, 0) + 1))
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= maxBytes else { break }
                data.count = min(maxBytes + 1, data.count * 2)
            }
            let n = data.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw TimeTrackError(.fetch, "cannot read \(path): \(String(cString: strerror(errno)))", context: ["url": url.absoluteString])
            }
            if n == 0 { break }
            filled += n
        }
        if filled > maxBytes {
            throw TimeTrackError(.fetch, "the page grew over the \(maxBytes / 1_048_576) MB limit while reading", context: ["url": url.absoluteString])
        }
        data.count = filled
        return FetchedPage(url: url, location: path, data: data, contentType: nil, charset: nil, fetchedAt: Date())
    }
}
