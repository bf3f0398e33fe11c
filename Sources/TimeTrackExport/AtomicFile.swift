import Foundation
import TimeTrackCore

/// Writes a file so readers never see half of it: a temporary file in the same folder, flushed,
/// then renamed over the target.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TimeTrackError(.system, "the folder \(folder.path) does not exist", fix: "create it first, or choose another --out", context: ["file": path])
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        do {
            try data.write(to: temporary)
            let fd = open(temporary.path, O_RDONLY)
            if fd >= 0 { fsync(fd); close(fd) }
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw TimeTrackError(.system, "cannot replace the file: \(reason)", context: ["file": path])
            }
        } catch let error as TimeTrackError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw TimeTrackError(
                .system, "cannot write the file", fix: "check the folder's permissions and free space", context: ["file": path], underlying: error)
        }
    }
}
