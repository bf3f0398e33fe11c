import Foundation

extension Binaries {
    /// Whether a test may run the tool as another account: it needs root and util-linux's
    /// `setpriv`.
    public static var canRunAsNobody: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// Runs `timetrack-admin` as the account nobody (uid 65534, no groups) through `setpriv`,
    /// from a copy in `folder` (the build folder may be closed to nobody), with the folder
    /// opened for it to enter; `/tmp` is the working folder.
    public static func runAsNobody(in folder: TemporaryDirectory, _ arguments: [String]) throws -> Result {
        let copy = folder.path("timetrack-admin")
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.copyItem(atPath: path("timetrack-admin"), toPath: copy)
        }
        chmod(folder.url.path, 0o755)
        return try runPath(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", copy] + arguments, currentDirectory: "/tmp")
    }
}
