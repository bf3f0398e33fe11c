import Foundation
import TimeTrackCore

/// A program from Debian run as a process (poppler's `pdfinfo`, `ocrmypdf`): found on `PATH`,
/// given no terminal, stopped after its time budget, its output read up to a cap.
///
/// A missing program is a configuration error naming the package that brings it.
public struct ExternalTool: Sendable {
    /// The program's name (`pdfinfo`).
    public var name: String
    /// The Debian package that installs it (`poppler-utils`).
    public var package: String
    /// Where it is when a definition names the program's path (`"tesseract": "/opt/bin/tesseract"`);
    /// nil: found on `PATH`.
    public var fixedPath: String?

    public init(_ name: String, package: String, path: String? = nil) {
        self.name = name
        self.package = package
        self.fixedPath = path
    }

    /// What a run gave.
    public struct Outcome: Sendable {
        public var status: Int32
        /// Standard output, up to the cap (UTF-8, invalid bytes replaced).
        public var output: String
        /// The last line of standard error, cleaned for printing.
        public var lastError: String
    }

    /// The program's path on `PATH`, or nil.
    public var path: String? {
        if let fixedPath { return FileManager.default.isExecutableFile(atPath: fixedPath) ? fixedPath : nil }
        let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return search.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the program is installed.
    public var installed: Bool { path != nil }

    /// Runs the program with `arguments`; throws when it is missing, cannot start or runs past
    /// `timeout` seconds.
    ///
    /// Output past `outputCap` bytes is dropped.
    public func run(_ arguments: [String], timeout: Int = 60, outputCap: Int = 4 << 20) throws -> Outcome {
        guard let path else {
            throw TimeTrackError(.configuration, "\(name) is not installed", fix: "apt-get install \(package)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("out"), errorFile = folder.appendingPathComponent("err")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil), FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        else {
            throw TimeTrackError(
                .system, "cannot write \(name)'s output in \(folder.path)", fix: "check the temporary folder (TMPDIR) has room and is writable")
        }
        let out = try FileHandle(forWritingTo: outputFile), err = try FileHandle(forWritingTo: errorFile)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            throw TimeTrackError(.configuration, "cannot start \(name): \(error.localizedDescription)", fix: "apt-get install --reinstall \(package)")
        }
        if done.wait(timeout: .now() + .seconds(timeout)) == .timedOut {
            process.terminate()
            if done.wait(timeout: .now() + .seconds(2)) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            throw TimeTrackError(.fetch, "\(name) took more than \(timeout) s", fix: "try again with a smaller document")
        }
        return Outcome(status: process.terminationStatus, output: Self.read(outputFile, cap: outputCap), lastError: Self.lastLine(of: errorFile))
    }

    static func read(_ file: URL, cap: Int) -> String {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: cap)) ?? nil
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    static func lastLine(of file: URL) -> String {
        let text = read(file, cap: 64 << 10)
        let line = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return SafeText.visible(String(line.prefix(200)))
    }
}
