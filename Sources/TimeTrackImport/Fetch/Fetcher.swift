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
    public var confinedTo: URL? {
        didSet { confinedPath = confinedTo?.path }
    }
    /// `confinedTo`'s path, made once (asked for every page).
    private var confinedPath: String?
    /// Public URL prefix → local folder's path.
    var mirrors: [(String, String)] = []
    /// The first page's file stands for this public URL.
    var aliases: [String: URL] = [:]
    let http: HTTPClient?

    /// A fetcher for a source: its local mirror (if any), the confinement folder and the size limit.
    ///
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
    public init(source: SourceDefinition, definition: SourceDefinition? = nil, confinedTo root: URL?, maxBytes: Int = 25 * 1024 * 1024, http: HTTPClient? = nil)
    {
        let defined = definition ?? source
        ownURL = source.url
        allowsLocalLinks = defined.url.isFileURL
        allowsRemoteLinks = !defined.url.isFileURL || defined.followsRemoteLinks
        self.maxBytes = maxBytes
        self.confinedTo = root?.standardizedFileURL.resolvingSymlinksInPath()
        confinedPath = confinedTo?.path
        self.http = http
        if source.url.isFileURL, let base = source.baseURL {
            let publicFolder = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.deletingLastPathComponent().absoluteString
            mirrors.append((publicFolder, source.url.deletingLastPathComponent().path))
            aliases[base.absoluteString] = source.url
        }
    }

    /// Asked before every fetch; true stops the source with an "interrupted" error (Ctrl-C at the console).
    public var shouldStop: (() -> Bool)?

    /// When the source's time is up (`sourceSeconds` from its start, parsing and extraction
    /// included): every later fetch throws, so a source whose pages are slow to read stops at
    /// its next page instead of holding the import lock on.
    public var deadline: (at: Date, seconds: TimeInterval)?

    public func fetch(_ url: URL) throws -> FetchedPage {
        if shouldStop?() == true {
            throw TimeTrackError(
                .interrupted, "interrupted (Ctrl-C)", fix: "nothing of this source was written; run the import again", context: ["url": url.absoluteString])
        }
        if let deadline, Date() > deadline.at {
            throw TimeTrackError(
                .fetch,
                String(format: "stopped: this source's time (%.0f s, sourceSeconds) is used up, reading and parsing its pages included", deadline.seconds),
                fix: "raise sourceSeconds in _settings.json if the site is just large; lower maxPages otherwise",
                context: ["url": url.absoluteString]
            ).with(.budgetSpent)
        }
        if let file = try localFile(url) { return try readFile(file, standsFor: url) }
        let text = url.absoluteString
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

    /// The local file a URL is read from: a `file:` URL, or a public URL of the source's local
    /// mirror; nil for a web page.
    ///
    /// A `file:` link from a web source is refused.
    func localFile(_ url: URL) throws -> String? {
        if url.isFileURL {
            guard allowsLocalLinks || url.standardizedFileURL == ownURL.standardizedFileURL else {
                throw TimeTrackError(
                    .fetch, "refused: a page of this web source leads to the local file \(url.path); a web source never reads local files",
                    fix: "nothing to do unless the link is meant: then import that file as a source of its own", context: ["url": url.absoluteString])
            }
            return url.path
        }
        let text = url.absoluteString
        if let file = aliases[text] { return file.path }
        for (prefix, folder) in mirrors where text.hasPrefix(prefix) {
            var rest = text.utf8.dropFirst(prefix.utf8.count)
            if let cut = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = rest[..<cut] }
            var name = String(Substring(rest))
            if name.isEmpty || name.hasSuffix("/") { name += "index.html" }
            if name.utf8.contains(UInt8(ascii: "%")) { name = name.removingPercentEncoding ?? name }
            return folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }
        return nil
    }

    /// A local page's file and stamp, without reading it: nil for a web page, and for a file
    /// that `fetch` would refuse or could not read (it says why), or that is changing.
    ///
    /// A file made unreadable since has another stamp (`chmod` changes its status-change time).
    public func stamp(of url: URL) -> (location: String, stamp: String)? {
        guard shouldStop?() != true, let file = try? localFile(url) else { return nil }
        let (path, linked) = resolvedPath(file)
        guard confined(path) else { return nil }
        var info = linked ?? stat()
        guard linked != nil || stat(path, &info) == 0, Int(info.st_size) <= maxBytes, let stamp = FileStamp.of(info) else { return nil }
        return (path, stamp)
    }

    /// Whether `path` (resolved) is inside the imports folder, when there is one.
    func confined(_ path: String) -> Bool {
        guard let root = confinedPath else { return true }
        // Compared as bytes: the file system does not treat "é" and "e" + U+0301 as one name,
        // as String comparison would.
        let (pathBytes, rootBytes) = (path.utf8, root.utf8)
        guard pathBytes.starts(with: rootBytes) else { return false }
        let rest = pathBytes.dropFirst(rootBytes.count)
        return rest.isEmpty || rootBytes.last == UInt8(ascii: "/") || rest.first == UInt8(ascii: "/")
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

    /// Whether a path has `.` or `..` components or doubled slashes (to be standardized).
    static func needsStandardizing(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var (third, second, last): (UInt8, UInt8, UInt8) = (0, 0, 0)  // the bytes before this one
        for byte in path.utf8 {
            if byte == slash {
                if last == slash { return true }
                if last == dot, second == slash { return true }
                if last == dot, second == dot, third == slash { return true }
            }
            (third, second, last) = (second, last, byte)
        }
        return path.hasSuffix("/.") || path.hasSuffix("/..")
    }

    /// The file's path with its folder's symlinks resolved (cached per folder: a corpus has few),
    /// and the file's own `lstat` when it is not a link itself (nil: it is, or it is missing).
    func resolvedPath(_ file: String) -> (path: String, info: stat?) {
        var path = file
        if Self.needsStandardizing(path) {
            path = URL(fileURLWithPath: file).standardizedFileURL.path
        }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (URL(fileURLWithPath: file).resolvingSymlinksInPath().path, nil) }
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
        guard lstat(resolved, &info) == 0 else { return (resolved, nil) }
        if info.st_mode & S_IFMT == S_IFLNK {
            return (URL(fileURLWithPath: resolved).resolvingSymlinksInPath().path, nil)
        }
        return (resolved, info)
    }

    func readFile(_ file: String, standsFor url: URL) throws -> FetchedPage {
        let path = resolvedPath(file).path
        if !confined(path), let root = confinedTo?.path {
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
                throw TimeTrackError(
                    .fetch, "no such file: \(path)", fix: "check the source's url (relative paths resolve against the definition's folder)",
                    context: ["url": url.absoluteString]
                ).with(.httpStatus(404))
            }
            throw TimeTrackError(
                .fetch, "cannot read \(path): \(String(cString: strerror(reason)))", fix: "check its permissions", context: ["url": url.absoluteString])
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
        // Read until end of file (it may have changed size since fstat), never past the limit,
        // into memory that is not zeroed first (every byte kept is read into it).
        var capacity = min(maxBytes + 1, max(size, 0) + 1)
        guard var buffer = malloc(capacity) else {
            throw TimeTrackError(.fetch, "no memory to read \(path) (\(capacity) bytes)", context: ["url": url.absoluteString])
        }
        var owned = true
        defer { if owned { free(buffer) } }
        var filled = 0
        while true {
            if filled == capacity {
                guard capacity <= maxBytes else { break }
                let larger = min(maxBytes + 1, capacity * 2)
                guard let moved = realloc(buffer, larger) else {
                    throw TimeTrackError(.fetch, "no memory to read \(path) (\(larger) bytes)", context: ["url": url.absoluteString])
                }
                (buffer, capacity) = (moved, larger)
            }
            let n = read(fd, buffer + filled, capacity - filled)
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
        owned = false
        let data = Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
        var page = FetchedPage(url: url, location: path, data: data, contentType: nil, charset: nil, fetchedAt: Date())
        // Stamped only if it did not change while it was read (and had settled before).
        var after = stat()
        if fstat(fd, &after) == 0, after.st_size == filled, after.st_mtim.tv_sec == info.st_mtim.tv_sec, after.st_mtim.tv_nsec == info.st_mtim.tv_nsec,
            after.st_ctim.tv_sec == info.st_ctim.tv_sec, after.st_ctim.tv_nsec == info.st_ctim.tv_nsec
        {
            page.stamp = FileStamp.of(after)
        }
        return page
    }
}
