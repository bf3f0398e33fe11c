import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Local files a source or an export may touch: only those that really lie inside a root
/// folder (the imports folder), with every symbolic link resolved first, so neither `..` nor a
/// link can reach a file outside it.
public enum LocalPath {
    /// The real path of `path` (links and `..` resolved) when it names an existing regular file
    /// inside `root`; nil for anything else (outside, missing, a folder, a device, a FIFO).
    public static func regularFile(_ path: String, inside root: String) -> String? {
        guard let real = realPath(path), let base = realPath(root), isInside(real, base) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return real
    }

    /// Whether `path` is `base` or below it (both already real paths).
    static func isInside(_ path: String, _ base: String) -> Bool {
        base == "/" || path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// `realpath(3)`: nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
