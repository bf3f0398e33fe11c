import Foundation

extension Binaries {
    /// A finished run with the child's peak resident memory, as the kernel counted it.
    public struct MeasuredResult: Sendable {
        public var result: Result
        /// The largest resident set the child reached (`ru_maxrss` from `wait4`), in bytes.
        public var peakBytes: Int
        public var peakMB: Double { Double(peakBytes) / 1_048_576 }
    }

    /// Runs a product with no stdin and measures its peak memory.
    ///
    /// The kernel carries a process's peak across `exec`, and a child that this (large) test
    /// process starts begins with the test process's own memory in that figure. So a small
    /// Python process forks and execs the product, reaps it with `wait4` and writes the peak it
    /// reports: at most the Python process's own size (about 10 MB) is added.
    public static func runMeasured(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> MeasuredResult {
        let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: peakFile) }
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], 'w').write(str(usage.ru_maxrss))
            sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
            """
        let result = try runPath("/usr/bin/python3", ["-c", script, peakFile, path(name)] + arguments, environment: environment)
        let kilobytes = Int((try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? "") ?? -1
        guard kilobytes >= 0 else { throw NSError(domain: "measured", code: 1, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return MeasuredResult(result: result, peakBytes: kilobytes * 1024)
    }
}
