import Foundation
import TimeTrackCore

/// A CONNECT proxy inside the process, on 127.0.0.1, through which https requests go so that
/// the TLS connection reaches the very address `AddressPolicy` checked.
///
/// The HTTP library (libcurl under URLSession) would resolve the name again when it connects,
/// and a name that answered a public address to the check could answer a private one then (DNS
/// rebinding). With this proxy, libcurl sends `CONNECT host:443`; the proxy connects to the
/// address the web client registered for that host just before the request, and relays bytes.
/// TLS still runs end to end between libcurl and the server, so the certificate is checked for
/// the name as usual. A CONNECT for a host with no registered address is refused.
///
/// libcurl finds the proxy through `https_proxy`, set once for the process. When the
/// environment already names an https proxy (a district behind its own proxy), that one is kept
/// and requests are not pinned (`shared` is nil).
public final class PinningProxy: @unchecked Sendable {
    /// The process's proxy, started on first use; nil when it cannot run here.
    public static let shared: PinningProxy? = PinningProxy.start()

    /// The port on 127.0.0.1.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var targets: [String: [String]] = [:]
    private var failures: [String: TunnelFailure] = [:]

    /// Why a tunnel could not be opened.
    public enum TunnelFailure: Sendable, Equatable {
        /// The server refused the connection (nothing listens on the port).
        case refused
        /// Anything else, as the system says it.
        case other(String)
    }

    private init(listener: Int32, port: UInt16) {
        self.listener = listener
        self.port = port
    }

    private static func start() -> PinningProxy? {
        let environment = ProcessInfo.processInfo.environment
        if ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains(where: { !(environment[$0] ?? "").isEmpty }) { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 32) == 0 else {
            close(fd)
            return nil
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let proxy = PinningProxy(listener: fd, port: UInt16(bigEndian: address.sin_port))
        // Only https goes through it (plain http is pinned by address in the URL). A host that
        // `no_proxy` names is reached directly, unpinned, as the environment asks.
        setenv("https_proxy", "http://127.0.0.1:\(proxy.port)", 1)
        Thread.detachNewThread { proxy.acceptLoop() }
        return proxy
    }

    /// Pins `host:port` to `addresses` (tried in order) for the next connections: the web client
    /// calls it with the addresses it just checked; one request per host is under way at a time.
    public func pin(host: String, port: Int, to addresses: [String]) {
        lock.lock()
        targets["\(host.lowercased()):\(port)"] = addresses
        failures["\(host.lowercased()):\(port)"] = nil
        lock.unlock()
    }

    /// Why the last connection to `host:port` failed, if it did (for the web client's message).
    public func failure(host: String, port: Int) -> TunnelFailure? {
        lock.lock()
        defer { lock.unlock() }
        return failures["\(host.lowercased()):\(port)"]
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head = [UInt8]()
        var byte: UInt8 = 0
        // The request head, byte by byte (a few hundred bytes, from libcurl itself).
        while head.count < 8_192 {
            guard recv(client, &byte, 1, 0) == 1 else { return }
            head.append(byte)
            if head.count >= 4, head.suffix(4) == [13, 10, 13, 10] { break }
        }
        let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0] == "CONNECT" else { return reply(client, 405) }
        let target = String(line[1]).lowercased()
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else { return reply(client, 400) }
        var host = String(target[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        lock.lock()
        let addresses = targets["\(host):\(port)"] ?? []
        lock.unlock()
        guard !addresses.isEmpty else { return reply(client, 403) }
        var upstream: (fd: Int32, error: TunnelFailure) = (-1, .other("no address"))
        for address in addresses {
            upstream = PinningProxy.connect(address: address, port: port)
            if upstream.fd >= 0 { break }
        }
        guard upstream.fd >= 0 else {
            lock.lock()
            failures["\(host):\(port)"] = upstream.error
            lock.unlock()
            return reply(client, 502)
        }
        defer { close(upstream.fd) }
        reply(client, 200)
        relay(client, upstream.fd)
    }

    private func reply(_ client: Int32, _ status: Int) {
        let text = status == 200 ? "HTTP/1.1 200 Connection established\r\n\r\n" : "HTTP/1.1 \(status) Refused\r\nContent-Length: 0\r\n\r\n"
        _ = text.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// A TCP connection to a numeric address, or the reason it failed.
    static func connect(address: String, port: Int) -> (fd: Int32, error: TunnelFailure) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address, String(port), &hints, &result) == 0, let info = result else { return (-1, .other("not a numeric address")) }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return (-1, .other(String(cString: strerror(errno)))) }
        // A silent address is given up after 10 s (Linux applies the send timeout to connect).
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
            let reason: TunnelFailure = errno == ECONNREFUSED ? .refused : .other(String(cString: strerror(errno)))
            close(fd)
            return (-1, reason)
        }
        var none = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        return (fd, .other(""))
    }

    /// Copies bytes both ways until either side closes.
    private func relay(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            // An idle tunnel ends after 10 minutes (libcurl's own timeouts end it sooner).
            let ready = poll(&fds, 2, 600_000)
            if ready <= 0 { return }
            for (from, to) in [(0, 1), (1, 0)] where fds[from].revents != 0 {
                let n = recv(fds[from].fd, &buffer, buffer.count, 0)
                if n <= 0 { return }
                var sent = 0
                while sent < n {
                    let m = buffer.withUnsafeBytes { send(fds[to].fd, $0.baseAddress.map { $0 + sent }, n - sent, Int32(MSG_NOSIGNAL)) }
                    if m <= 0 { return }
                    sent += m
                }
            }
        }
    }
}
