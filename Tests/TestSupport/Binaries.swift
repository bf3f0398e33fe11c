import Foundation
import TimeTrackStore

/// Finds and runs the package's real executables (`timetrack-admin`, helpers) from tests.
public enum Binaries {
    /// The build products folder that holds the executables.
    public static var productsDirectory: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug"),
        ]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("timetrack-admin").path) {
            return candidate
        }
        return candidates[1]
    }

    /// The path of an executable product.
    public static func path(_ name: String) -> String { productsDirectory.appendingPathComponent(name).path }

    /// What a query prints from a store file (rows a line each, `|` between columns), read by
    /// the `timetrack-torture` helper's own SQLite connection.
    public static func sql(_ store: String, _ query: String) throws -> String {
        if PostgresConnection.isAddress(store) {
            // A PostgreSQL store: psql, unaligned rows with '|' between columns as sqlite3 prints them.
            return try runPath("/usr/bin/psql", ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", store, "-c", query]).stdout
        }
        return try run("timetrack-torture", ["sql", store, query]).stdout
    }

    /// The result of running a process to completion.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs an executable with arguments and optional stdin text; waits for it.
    public static func run(_ name: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], currentDirectory: String? = nil)
        throws -> Result
    {
        try runPath(path(name), arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory)
    }

    /// Held while a child is started (see `runPath`).
    static let spawnLock = NSLock()

    /// Runs any executable by its path (a system tool, or a product run through one).
    public static func runPath(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // A proxy this test process started for itself (PinningProxy) is not the child's.
        env["https_proxy"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        // Pipes are made and the child started under one lock, each end close-on-exec (the child
        // gets its copies through dup2): no other child started meanwhile (a PostgreSQL server that
        // lives on) inherits a write end and keeps this one's reader from ever seeing its end.
        let outPipe: Pipe, errPipe: Pipe, inPipe: Pipe
        spawnLock.lock()
        do {
            defer { spawnLock.unlock() }
            (outPipe, errPipe, inPipe) = (Pipe(), Pipe(), Pipe())
            for pipe in [outPipe, errPipe, inPipe] {
                for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            }
            process.standardOutput = outPipe
            process.standardError = errPipe
            process.standardInput = inPipe
            try process.run()
        }
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes on their own threads so a full pipe never blocks the child.
        let outBox = DataBox(), errBox = DataBox()
        let group = DispatchGroup()
        for (handle, box) in [(outPipe.fileHandleForReading, outBox), (errPipe.fileHandleForReading, errBox)] {
            group.enter()
            Thread.detachNewThread {
                box.set(handle.readDataToEndOfFile())
                group.leave()
            }
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outBox.get(), as: UTF8.self), stderr: String(decoding: errBox.get(), as: UTF8.self))
    }
}

/// A lock-protected Data, filled by a reader thread.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// The Unix account running the tests: the login the tool's operators are bound to.
public enum Account {
    public static var current: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "uid \(geteuid())" }
        return String(cString: name)
    }
}
