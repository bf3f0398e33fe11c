import CLinux
import Foundation
import TimeTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// A plugin's process: started in a session (and process group) of its own with a cleared
/// environment, its stdin, stdout and stderr on pipes read without blocking past a deadline.
///
/// `stop()` kills the whole group: TERM, then KILL after a grace second.
///
/// A descendant that leaves the group (`setsid()`, `setpgid()`) and outlives the plugin is
/// not lost: this process is made the child subreaper of its descendants, so such orphans
/// become its children, and every plugin's end kills the ones that are in no plugin's group.
final class PluginProcess {
    /// The plugins running now, by their group leader's pid (the sweep leaves their groups
    /// alone); read and written under `runningLock` only.
    nonisolated(unsafe) private static var running: Set<pid_t> = []
    private static let runningLock = NSLock()
    /// Made once, before the first plugin starts.
    private static let subreaper: Bool = timetrack_become_child_subreaper() == 0

    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private var outputBuffer: [UInt8] = []
    private var outputOpen = true
    private var inputOpen = true
    private var inputClosed = false
    private var errorOpen = true
    private var totalOutput = 0
    private var errorBytes: [UInt8] = []
    private var exitStatus: Int32?
    private static let errorKeep = 4_000

    init(command: [String], directory: String, environment: [String: String]) throws {
        signal(SIGPIPE, SIG_IGN)  // a plugin that closes stdin early is a problem, not our death
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw TimeTrackError(.fetch, "could not make pipes for the plugin: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // Nothing else of this process's reaches the plugin: not the store's file, the run lock,
        // another plugin's pipes or the fetch proxy's socket.
        timetrack_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling, nothing blocked.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // A session of its own (so its own process group too, and no terminal to read or signal).
        posix_spawnattr_setflags(&attributes, timetrack_spawn_setsid_flag() | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let program = command[0]
        // Started through sh, which moves into the plugin's folder and execs the command (so a
        // bare name is looked up in the cleared PATH, and ./plugin.sh is the plugin's own file).
        let launcher = ["/bin/sh", "-c", "cd \"$1\" || exit 126; shift; exec \"$@\"", "sh", directory] + command
        let arguments = launcher.map { strdup($0) } + [nil]
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in env { free(pointer) }
        }
        var child: pid_t = 0
        _ = PluginProcess.subreaper
        // Spawned and registered under the lock, so no other plugin's sweep takes it for an orphan.
        let rc = PluginProcess.runningLock.withLock { () -> Int32 in
            let rc = posix_spawn(&child, "/bin/sh", &actions, &attributes, arguments, env)
            if rc == 0 { PluginProcess.running.insert(child) }
            return rc
        }
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            close(errPipe[0])
            throw TimeTrackError(
                .configuration, "the plugin's command '\(program)' could not be started: \(String(cString: strerror(rc)))",
                fix: "check \"command\" in \(directory)/plugin.json (and that its program is installed)",
                context: ["file": directory + "/plugin.json", "field": "command"])
        }
        pid = child
        input = inPipe[1]
        output = outPipe[0]
        errors = errPipe[0]
        for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// The end of what the plugin wrote to stderr, as `" (stderr: …)"`, or "".
    var stderrTail: String {
        let text = String(decoding: errorBytes.suffix(PluginProcess.errorKeep), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : " (stderr: \(SafeText.visible(text.replacingOccurrences(of: "\n", with: " ⏎ "))))"
    }

    /// Writes all of `data` to the plugin's stdin before the deadline.
    ///
    /// A plugin that closed its stdin (or never reads it) is not an error here: what it prints
    /// still counts.
    func write(_ data: Data, deadline: Date) throws {
        guard inputOpen else { return }
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && errno != EAGAIN && errno != EINTR {
                inputOpen = false
                return
            }
            try pump(until: deadline, forWrite: true, maxOutput: Int.max, shouldStop: nil)
        }
    }

    /// The next line of stdout (without its newline), or nil at its end.
    ///
    /// Throws past the deadline, past `maxOutput` bytes, or when `shouldStop` says so; the group is
    /// killed then.
    func readLine(deadline: Date, maxOutput: Int, shouldStop: (() -> Bool)?) throws -> String? {
        while true {
            if let newline = outputBuffer.firstIndex(of: 10) {
                let line = String(decoding: outputBuffer[..<newline], as: UTF8.self)
                outputBuffer.removeSubrange(...newline)
                return line
            }
            if !outputOpen {
                guard !outputBuffer.isEmpty else { return nil }
                defer { outputBuffer.removeAll() }
                return String(decoding: outputBuffer, as: UTF8.self)
            }
            try pump(until: deadline, forWrite: false, maxOutput: maxOutput, shouldStop: shouldStop)
        }
    }

    /// Waits for output (or room to write) and reads what is there.
    private func pump(until deadline: Date, forWrite: Bool, maxOutput: Int, shouldStop: (() -> Bool)?) throws {
        if shouldStop?() == true {
            stop()
            throw TimeTrackError(.interrupted, "interrupted")
        }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else {
            stop()
            throw TimeTrackError(
                .fetch, "the plugin did not finish within its time limit (\"timeout\" in plugin.json); its processes were stopped" + stderrTail)
        }
        var fds: [pollfd] = []
        if outputOpen { fds.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
        if errorOpen { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
        if forWrite { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        if fds.isEmpty { return }
        _ = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 0.2) * 1000) + 1)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        if outputOpen {
            let count = read(output, &chunk, chunk.count)
            if count > 0 {
                totalOutput += count
                outputBuffer.append(contentsOf: chunk[0..<count])
                if totalOutput > maxOutput {
                    stop()
                    throw TimeTrackError(
                        .fetch,
                        "the plugin printed more than \(maxOutput / 1_000_000) MB (\"maxOutputMB\" in plugin.json); stopped, nothing of this run is kept"
                            + stderrTail)
                }
                // A line longer than the cap's worth never ends: the cap above catches it.
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                outputOpen = false
            }
        }
        if errorOpen {
            let count = read(errors, &chunk, chunk.count)
            if count > 0 {
                errorBytes.append(contentsOf: chunk[0..<count])
                if errorBytes.count > 2 * PluginProcess.errorKeep { errorBytes.removeFirst(errorBytes.count - PluginProcess.errorKeep) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                errorOpen = false
            }
        }
    }

    /// The exit status (a signal's number + 128), waiting until the deadline; past it, the
    /// group is killed.
    func wait(deadline: Date) -> Int32 {
        closeInput()
        while exitStatus == nil {
            var status: Int32 = 0
            let rc = waitpid(pid, &status, WNOHANG)
            if rc == pid {
                exitStatus = PluginProcess.decode(status)
                // What it left behind in its group, and anything that left the group.
                kill(-pid, SIGKILL)
                PluginProcess.finished(pid)
                break
            }
            if rc < 0 { break }
            if Date() > deadline {
                stop()
                break
            }
            // Keep draining stderr so a chatty plugin cannot block on a full pipe.
            try? pump(until: deadline.addingTimeInterval(1), forWrite: false, maxOutput: Int.max, shouldStop: nil)
            usleep(10_000)
        }
        return exitStatus ?? -1
    }

    static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Kills the plugin's whole process group (TERM, a second's grace, KILL) and reaps it.
    func stop() {
        guard exitStatus == nil else { return }
        kill(-pid, SIGTERM)
        let grace = Date().addingTimeInterval(1)
        var status: Int32 = 0
        while Date() < grace {
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = PluginProcess.decode(status)
                break
            }
            usleep(10_000)
        }
        // Whatever is left of the group (children that ignore TERM, or outlived the leader).
        kill(-pid, SIGKILL)
        if exitStatus == nil, waitpid(pid, &status, 0) == pid { exitStatus = PluginProcess.decode(status) }
        PluginProcess.finished(pid)
    }

    /// Forgets a plugin that ended and kills the orphans plugins left: this process's children
    /// (re-parented to it as the subreaper) that are in no running plugin's group and not in
    /// this process's own group (the tool's own helpers, like Tesseract, are), with every
    /// descendant of theirs.
    ///
    /// A whole orphaned tree is stopped before any of it is killed, so none of it can fork past
    /// the sweep; its members, re-parented here as they die, are reaped by pid. A few passes
    /// catch what was in flight during the first.
    static func finished(_ leader: pid_t) {
        runningLock.withLock {
            running.remove(leader)
            guard subreaper else { return }
            let me = getpid(), myGroup = getpgrp()
            for _ in 0..<5 {
                let table = processTable()
                let orphans = table.filter { entry in
                    entry.parent == me && entry.pid != leader && !running.contains(entry.pid) && !running.contains(entry.group) && entry.group != myGroup
                }
                guard !orphans.isEmpty else { return }
                let doomed = orphans.flatMap { descendants(of: $0.pid, in: table) + [$0.pid] }
                for pid in doomed { kill(pid, SIGSTOP) }
                for pid in doomed { kill(pid, SIGKILL) }
                for pid in doomed { reap(pid) }
            }
        }
    }

    /// Waits (briefly) for a killed process that is, or is about to become, this one's child.
    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        for _ in 0..<100 {
            let rc = waitpid(pid, &status, WNOHANG)
            if rc == pid || (rc < 0 && errno != ECHILD) { return }
            // ECHILD: not re-parented here yet (its parent is dying); 0: not dead yet.
            if rc < 0, kill(pid, 0) != 0 { return }
            usleep(2_000)
        }
    }

    /// One row of the process table: a process, its parent and its process group.
    struct ProcessEntry {
        var pid: pid_t
        var parent: pid_t
        var group: pid_t
    }

    /// Every process's parent and group, from /proc.
    static func processTable() -> [ProcessEntry] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> ProcessEntry? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state, ppid, pgrp, session, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, let parent = pid_t(fields[1]), let group = pid_t(fields[2]) else { return nil }
            return ProcessEntry(pid: pid, parent: parent, group: group)
        }
    }

    /// Every descendant of `root` in `table` (children, their children, …), each once.
    static func descendants(of root: pid_t, in table: [ProcessEntry]) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for entry in table { children[entry.parent, default: []].append(entry.pid) }
        var found: [pid_t] = [], seen: Set<pid_t> = [root], queue = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where seen.insert(child).inserted {
                found.append(child)
                queue.append(child)
            }
        }
        return found
    }

    /// Closes stdin once (a second close could hit a descriptor another thread opened since).
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        inputOpen = false
        close(input)
    }

    deinit {
        stop()
        closeInput()
        close(output)
        close(errors)
    }
}
