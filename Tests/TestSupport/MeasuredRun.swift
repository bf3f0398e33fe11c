import Foundation

extension Binaries {
    /// A finished run with the child's peak resident memory, as the kernel counted it.
    public struct MeasuredResult: Sendable {
        public var result: Result
        /// The largest resident set the child reached (`ru_maxrss` from `wait4`), in bytes.
        public var peakBytes: Int
        public var peakMB: Double { Double(peakBytes) / 1_048_576 }
        /// The CPU time the child and what it waited for spent (user and system), in seconds:
        /// work done, whatever the machine's load.
        public var cpuSeconds: Double
    }

    /// Runs a product with no stdin and measures its peak memory.
    ///
    /// The kernel carries a process's peak across `exec`, and a child that this (large) test
    /// process starts begins with the test process's own memory in that figure. So a small
    /// Python process forks and execs the product, reaps it with `wait4` and writes the peak it
    /// reports: at most the Python process's own size (about 10 MB) is added.
    public static func runMeasured(_ name: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil)
        throws -> MeasuredResult
    {
        let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: peakFile) }
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], 'w').write('%d %f' % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
            sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
            """
        let result = try runPath(
            "/usr/bin/python3", ["-c", script, peakFile, path(name)] + arguments, environment: environment, currentDirectory: currentDirectory)
        let figures = ((try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? "").split(separator: " ")
        guard figures.count == 2, let kilobytes = Int(figures[0]), let cpu = Double(figures[1]) else {
            throw NSError(domain: "measured", code: 1, userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        return MeasuredResult(result: result, peakBytes: kilobytes * 1024, cpuSeconds: cpu)
    }
}
