import Foundation
import TimeTrackCore

/// Foundation's file errors in words a person can act on, instead of `NSCocoaErrorDomain
/// Code=513`: what failed, on which path, and what to check.
enum FoundationErrors {
    static func describe(_ error: any Error) -> TimeTrackError {
        let ns = error as NSError
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        let context = path.map { ["file": $0] } ?? [:]
        guard ns.domain == NSCocoaErrorDomain else {
            return TimeTrackError(.system, ns.localizedDescription, context: context)
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileWriteNoPermission, .fileReadNoPermission:
            return TimeTrackError(
                .permission, "permission denied" + (path.map { ": \($0)" } ?? ""),
                fix: "check that your account may write there (`ls -ld` on the folder), or choose another place", context: context)
        case .fileNoSuchFile, .fileReadNoSuchFile:
            return TimeTrackError(.notFound, "no such file or folder" + (path.map { ": \($0)" } ?? ""), fix: "check the path", context: context)
        case .fileWriteOutOfSpace:
            return TimeTrackError(
                .system, "the disk is full" + (path.map { " (writing \($0))" } ?? ""), fix: "free some space and run it again", context: context)
        case .fileWriteFileExists:
            return TimeTrackError(.system, "a file is in the way" + (path.map { ": \($0)" } ?? ""), fix: "move it, or choose another place", context: context)
        case .fileWriteVolumeReadOnly:
            return TimeTrackError(.system, "the disk is read-only" + (path.map { " (writing \($0))" } ?? ""), fix: "choose another place", context: context)
        default:
            if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
                return TimeTrackError(
                    .system, "cannot use \(path ?? "the file"): \(String(cString: strerror(Int32(posix.code))))", fix: "check the path and its folders",
                    context: context)
            }
            return TimeTrackError(
                .system, "cannot use \(path ?? "the file") (\(ns.localizedDescription))", fix: "check the path and its folders", context: context)
        }
    }
}
