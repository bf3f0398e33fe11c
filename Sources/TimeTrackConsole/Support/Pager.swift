import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the pager the way git does, so that it works under any shell with job control.
///
/// The pager is started in this process's own process group, which is the terminal's foreground
/// group: it may read the keyboard (`q`, the arrows) and the terminal never stops it. (Started
/// in a group of its own, as `Process` does, `less` was stopped by SIGTTIN at its first read, and
/// the terminal froze on a blank screen.) While it runs, this process ignores Ctrl-C and
/// Ctrl-\\, which reach both: the pager decides what they mean, and this process carries on.
enum Pager {
    /// Sends `data` through `command` (run by /bin/sh) and waits for it; false when it could
    /// not be started (the caller prints the output itself).
    static func show(_ data: [UInt8], command: String) -> Bool {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        // Default handling of the signals this process ignores while the pager runs.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments = words.map { strdup($0) } + [nil]
        defer { for pointer in arguments { free(pointer) } }
        var child: pid_t = 0
        let previous = (interrupt: signal(SIGINT, SIG_IGN), quit: signal(SIGQUIT, SIG_IGN), pipe: signal(SIGPIPE, SIG_IGN))
        defer {
            signal(SIGINT, previous.interrupt)
            signal(SIGQUIT, previous.quit)
            signal(SIGPIPE, previous.pipe)
        }
        let started = posix_spawn(&child, "/bin/sh", &actions, &attributes, arguments, environ)
        close(pipeEnds[0])
        guard started == 0 else {
            close(pipeEnds[1])
            return false
        }
        // A pager that quits early (q in less) closes its end: the rest is not written.
        var offset = 0
        data.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = write(pipeEnds[1], bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        close(pipeEnds[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return true
    }
}
