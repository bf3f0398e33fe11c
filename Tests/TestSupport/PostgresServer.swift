import Foundation

/// A real PostgreSQL server for a test: `initdb` in a temporary folder, started as the
/// unprivileged `postgres` account on a Unix socket in that folder (no TCP port), trust
/// authentication for local connections, stopped and removed by `stop()`.
///
/// `.ci/run` installs
/// Debian's `postgresql` when it is missing.
public final class PostgresServer {
    public let dir: TemporaryDirectory
    let pgCtl: String
    let uid: uid_t, gid: gid_t
    var running = false

    /// Why a server cannot be started here (not root, no PostgreSQL, no postgres account), or nil.
    public static var unavailable: String? {
        if geteuid() != 0 { return "not root: cannot start PostgreSQL as the postgres account" }
        if binaries == nil { return "PostgreSQL's server is not installed (apt-get install postgresql)" }
        if getpwnam("postgres") == nil { return "there is no postgres account (apt-get install postgresql makes it)" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") { return "setpriv is missing (util-linux)" }
        return nil
    }

    /// The newest installed server's bin folder (`/usr/lib/postgresql/15/bin`).
    static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl") }
    }

    /// A libpq address of the server's `postgres` database (or `database`), as `user`.
    public func address(database: String = "postgres", user: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(dir.url.path)&user=\(user)"
    }

    /// Makes and starts a server; throws with PostgreSQL's own output when it cannot.
    public init() throws {
        guard let bin = Self.binaries, let account = getpwnam("postgres") else { throw NSError(domain: Self.unavailable ?? "no PostgreSQL", code: 1) }
        (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        pgCtl = "\(bin)/pg_ctl"
        dir = try TemporaryDirectory("pg")
        chown(dir.url.path, uid, gid)
        chmod(dir.url.path, 0o700)
        let data = dir.path("data")
        let made = try asPostgres("\(bin)/initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        guard made.status == 0 else { throw NSError(domain: "initdb failed: \(made.stderr)\(made.stdout)", code: 1) }
        try start()
    }

    /// Starts the server (again); waits until it accepts connections.
    public func start() throws {
        let options = "-k \(dir.url.path) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        // The server outlives pg_ctl: its output goes to files, never to this process's pipes
        // (which would then stay open, and reading them would never end).
        // Spawned and waited for directly: Foundation's Process does not see the end of a child
        // whose own child (the server) lives on.
        let status = Self.spawn(
            "/usr/bin/setpriv",
            [
                "--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "/bin/sh", "-c", "exec \"$@\" > \"\(dir.path("pg_ctl.out"))\" 2>&1 < /dev/null", "sh",
                pgCtl, "-D",
                dir.path("data"), "-o", options, "-l", dir.path("log"), "-w", "-t", "60", "start",
            ])
        guard status == 0 else {
            let output = (try? String(contentsOfFile: dir.path("pg_ctl.out"), encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: dir.path("log"), encoding: .utf8)) ?? ""
            throw NSError(domain: "pg_ctl start failed: \(output)\n\(log.suffix(2000))", code: 1)
        }
        running = true
    }

    /// Stops the server: `fast` (clients disconnected, clean) or `immediate` (as a crash).
    public func stop(mode: String = "fast") throws {
        guard running else { return }
        let stopped = try asPostgres(pgCtl, ["-D", dir.path("data"), "-m", mode, "-w", "stop"])
        guard stopped.status == 0 else { throw NSError(domain: "pg_ctl stop failed: \(stopped.stderr)", code: 1) }
        running = false
    }

    /// Stops the server and removes its folder.
    public func remove() {
        try? stop()
        dir.remove()
    }

    /// posix_spawn and waitpid: the exit status, or -1 when the program could not start.
    static func spawn(_ program: String, _ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, program, nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    func asPostgres(_ program: String, _ arguments: [String]) throws -> Binaries.Result {
        try Binaries.runPath("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--init-groups", program] + arguments, currentDirectory: dir.url.path)
    }

    /// One server for the whole test process (started on first use, stopped when the process
    /// exits); `database()` gives each test a fresh database on it.
    public static func shared() throws -> PostgresServer {
        try sharedLock.withLock {
            if let server = sharedServer { return server }
            let server = try PostgresServer()
            sharedServer = server
            atexit { PostgresServer.sharedServer?.remove() }
            return server
        }
    }

    nonisolated(unsafe) static var sharedServer: PostgresServer?
    static let sharedLock = NSLock()
    nonisolated(unsafe) static var databases = 0

    /// A new, empty database on this server: its address.
    public func database() throws -> String {
        let name = Self.sharedLock.withLock { () -> String in
            Self.databases += 1
            return "test\(Self.databases)"
        }
        let created = try asPostgres("\(URL(fileURLWithPath: pgCtl).deletingLastPathComponent().path)/createdb", ["-h", dir.url.path, "-U", "postgres", name])
        guard created.status == 0 else { throw NSError(domain: "createdb failed: \(created.stderr)", code: 1) }
        return address(database: name)
    }
}
