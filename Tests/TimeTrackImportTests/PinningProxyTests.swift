import Foundation
import Testing

@testable import TimeTrackImport

/// The CONNECT proxy that keeps https on the checked address: a pinned name is tunnelled to
/// the pinned address, anything else is refused.
@Suite struct PinningProxyTests {
    /// A listener on 127.0.0.1 that hands back the first bytes of its first connection.
    final class Listener: @unchecked Sendable {
        let fd: Int32
        let port: UInt16
        private let lock = NSLock()
        private var received = Data()
        let done = DispatchSemaphore(value: 0)

        init() throws {
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            listen(socketFD, 4)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) } }
            fd = socketFD
            port = UInt16(bigEndian: address.sin_port)
        }

        func start() {
            Thread.detachNewThread { [self] in
                let client = accept(fd, nil, nil)
                var buffer = [UInt8](repeating: 0, count: 64)
                let n = recv(client, &buffer, buffer.count, 0)
                lock.lock(); if n > 0 { received = Data(buffer[0..<n]) }; lock.unlock()
                close(client)
                done.signal()
            }
        }
        var bytes: Data { lock.lock(); defer { lock.unlock() }; return received }
    }

    func ask(_ proxy: PinningProxy, _ request: String, then payload: String? = nil) throws -> String {
        let result = PinningProxy.connect(address: "127.0.0.1", port: Int(proxy.port))
        #expect(result.fd >= 0)
        defer { close(result.fd) }
        _ = request.withCString { send(result.fd, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(result.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let n = recv(result.fd, &buffer, buffer.count, 0)
        if let payload { _ = payload.withCString { send(result.fd, $0, strlen($0), 0) } }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    @Test func aPinnedNameIsTunnelledToItsAddressAndNothingElse() throws {
        let proxy = try #require(PinningProxy.shared, "https_proxy is set in this environment")
        let listener = try Listener()
        listener.start()
        defer { close(listener.fd) }
        // The name is fiction: only the pin says where it goes (no DNS lookup happens).
        // An unreachable first address is passed over for the next.
        proxy.pin(host: "school.invalid", port: Int(listener.port), to: ["::1", "127.0.0.1"])
        let answer = try ask(proxy, "CONNECT school.invalid:\(listener.port) HTTP/1.1\r\nHost: school.invalid\r\n\r\n", then: "through the tunnel")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(listener.done.wait(timeout: .now() + 5) == .success)
        #expect(String(decoding: listener.bytes, as: UTF8.self) == "through the tunnel")

        // A name nobody pinned, and a pinned name on another port: refused.
        #expect(try ask(proxy, "CONNECT other.invalid:443 HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 403"))
        #expect(try ask(proxy, "CONNECT school.invalid:1 HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 403"))
        #expect(try ask(proxy, "GET http://school.invalid/ HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 405"))
        // libcurl finds it.
        #expect(ProcessInfo.processInfo.environment["https_proxy"] == "http://127.0.0.1:\(proxy.port)")
    }

    @Test func aRefusedConnectionIsReportedAsSuch() throws {
        let proxy = try #require(PinningProxy.shared)
        let closed = try Listener()
        let port = Int(closed.port)
        close(closed.fd)
        proxy.pin(host: "down.invalid", port: port, to: ["127.0.0.1"])
        #expect(try ask(proxy, "CONNECT down.invalid:\(port) HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 502"))
        #expect(proxy.failure(host: "down.invalid", port: port) == .refused)
    }
}
