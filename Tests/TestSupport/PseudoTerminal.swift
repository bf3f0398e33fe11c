import Foundation

/// Runs a program on a real pseudo-terminal (as its controlling terminal, through `setsid -c`),
/// so line editing, prompts and Ctrl-C behave as for a person at a terminal.
public final class PseudoTerminal {
    public let process = Process()
    private let master: Int32
    private var buffer = ""
    /// Everything the program wrote so far.
    public private(set) var transcript = ""

    /// Starts `executable` with `arguments` on a new pseudo-terminal.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], rows: UInt16 = 40, columns: UInt16 = 120) throws {
        // posix_openpt and friends are not in Swift's Glibc module; look them up in libc.
        typealias OpenFn = @convention(c) (Int32) -> Int32
        typealias IntFn = @convention(c) (Int32) -> Int32
        typealias NameFn = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let libc = dlopen(nil, RTLD_NOW)
        guard let openSym = dlsym(libc, "posix_openpt"), let grantSym = dlsym(libc, "grantpt"), let unlockSym = dlsym(libc, "unlockpt"),
            let nameSym = dlsym(libc, "ptsname")
        else { throw NSError(domain: "pty", code: 1, userInfo: [NSLocalizedDescriptionKey: "no pty functions in libc"]) }
        master = unsafeBitCast(openSym, to: OpenFn.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grantSym, to: IntFn.self)(master) == 0, unsafeBitCast(unlockSym, to: IntFn.self)(master) == 0,
            let name = unsafeBitCast(nameSym, to: NameFn.self)(master)
        else {
            throw NSError(domain: "pty", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal"])
        }
        let slavePath = String(cString: name)
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        // -w: wait for the program and exit with its status (setsid may fork to leave our process group).
        process.arguments = ["-w", "-c", executable] + arguments
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        env["NO_COLOR"] = "1"
        // No pager unless a test asks for one (less would wait for a key).
        env["PAGER"] = ""
        env["TIMETRACK_PAGER"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        // Started under the same lock as `Binaries` children, so neither inherits the other's pipes.
        Binaries.spawnLock.lock()
        defer { Binaries.spawnLock.unlock() }
        try process.run()
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Types text (use "\r" for Enter, "\u{3}" for Ctrl-C, "\u{4}" for Ctrl-D).
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until `text` appears in the output (after what earlier calls consumed); returns
    /// everything up to and including it, or nil after `timeout` seconds.
    @discardableResult
    public func expect(_ text: String, timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let range = buffer.range(of: text) {
                let seen = String(buffer[..<range.upperBound])
                buffer = String(buffer[range.upperBound...])
                return seen
            }
            if Date() > deadline { return nil }
            let count = read(master, &chunk, chunk.count)
            if count > 0 {
                let text = String(decoding: chunk[0..<count], as: UTF8.self)
                buffer += text
                transcript += text
            } else {
                usleep(10_000)
            }
        }
    }

    /// Waits for the program to end; nil if it is still running after `timeout`.
    public func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            _ = expect("\u{0}never\u{0}", timeout: 0.05)
        }
        // What the program wrote just before it ended is still in the terminal: read it too.
        _ = expect("\u{0}never\u{0}", timeout: 0.2)
        return process.isRunning ? nil : process.terminationStatus
    }
}
