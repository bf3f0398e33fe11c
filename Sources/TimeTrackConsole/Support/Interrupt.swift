import Foundation

/// Ctrl-C handling: a SIGINT sets a flag that long operations check between steps, and that the
/// line reader uses to cancel the current line instead of leaving the console.
enum Interrupt {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    /// Installs the handler (without SA_RESTART, so a blocked read returns EINTR).
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupt.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked; the console needs it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether Ctrl-C was pressed since the last `clear()`.
    static var requested: Bool { flag != 0 }

    static func clear() { flag = 0 }
}
