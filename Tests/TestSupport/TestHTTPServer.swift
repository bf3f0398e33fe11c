import Foundation

/// A real HTTP/1.1 server on 127.0.0.1 for fetch tests: routes answer with a status, headers,
/// a body, an optional delay, and can change between requests.
///
/// Every request is recorded.
public final class TestHTTPServer: @unchecked Sendable {
    /// What a route answers.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Seconds to wait before answering.
        public var delay: TimeInterval
        /// Body bytes to stream in chunks (for huge bodies) instead of `body`.
        public var streamedBytes: Int
        /// Seconds between single bytes of `body` (a slowloris server); 0 sends it at once.
        public var trickle: TimeInterval = 0

        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: TimeInterval = 0, streamedBytes: Int = 0) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.streamedBytes = streamedBytes
        }

        public static func html(_ text: String, headers: [String: String] = [:]) -> Response {
            var h = headers
            h["Content-Type"] = h["Content-Type"] ?? "text/html; charset=utf-8"
            return Response(status: 200, headers: h, body: Data(text.utf8))
        }
    }

    /// One request as received.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]
    }

    public private(set) var port: UInt16 = 0
    private let socketFD: Int32
    private let lock = NSLock()
    private var routes: [String: [Response]] = [:]
    private var handler: (@Sendable (Request) -> Response?)?
    private var requestLog: [Request] = []
    private var running = true

    /// Starts listening on an ephemeral port of 127.0.0.1.
    public init() throws {
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw NSError(domain: "server", code: Int(errno)) }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else { throw NSError(domain: "server", code: Int(errno)) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// The base URL, `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Answers `path` with these responses in turn (the last one repeats).
    public func route(_ path: String, _ responses: Response...) {
        lock.lock(); routes[path] = responses; lock.unlock()
    }

    /// A function that answers any request first (return nil to fall through to routes).
    public func handle(_ handler: @escaping @Sendable (Request) -> Response?) {
        lock.lock(); self.handler = handler; lock.unlock()
    }

    /// The requests received so far.
    public var requests: [Request] { lock.lock(); defer { lock.unlock() }; return requestLog }

    /// Stops accepting connections.
    public func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning {
            shutdown(socketFD, Int32(SHUT_RDWR))
            close(socketFD)
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(socketFD, nil, nil)
            if client < 0 {
                lock.lock(); let stillRunning = running; lock.unlock()
                if !stillRunning { return }
                continue
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 8192)
        while !data.contains(Data("\r\n\r\n".utf8)) {
            let n = recv(client, &chunk, chunk.count, 0)
            if n <= 0 { return }
            data.append(contentsOf: chunk[0..<n])
            if data.count > 1 << 20 { return }
        }
        let head = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
        lock.lock()
        requestLog.append(request)
        let custom = handler
        var response: Response?
        if let queue = routes[request.path], !queue.isEmpty {
            response = queue[0]
            if queue.count > 1 { routes[request.path] = Array(queue.dropFirst()) }
        }
        lock.unlock()
        if let custom, let answer = custom(request) { response = answer }
        let answer = response ?? Response(status: 404, body: Data("not found".utf8))
        if answer.delay > 0 { Thread.sleep(forTimeInterval: answer.delay) }
        var headerText = "HTTP/1.1 \(answer.status) \(answer.status == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
        let length = answer.streamedBytes > 0 ? answer.streamedBytes : answer.body.count
        if answer.status != 304 { headerText += "Content-Length: \(length)\r\n" }
        for (key, value) in answer.headers { headerText += "\(key): \(value)\r\n" }
        headerText += "\r\n"
        guard sendAll(client, Data(headerText.utf8)) else { return }
        if request.method == "HEAD" || answer.status == 304 { return }
        if answer.streamedBytes > 0 {
            let block = Data(repeating: UInt8(ascii: "x"), count: 64 * 1024)
            var sent = 0
            while sent < answer.streamedBytes {
                let size = min(block.count, answer.streamedBytes - sent)
                guard sendAll(client, block.prefix(size)) else { return }
                sent += size
            }
        } else if answer.trickle > 0 {
            for byte in answer.body {
                guard sendAll(client, Data([byte])) else { return }
                Thread.sleep(forTimeInterval: answer.trickle)
            }
        } else {
            _ = sendAll(client, answer.body)
        }
    }

    private func sendAll(_ client: Int32, _ data: Data) -> Bool {
        var offset = 0
        return data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            while offset < data.count {
                let n = send(client, base + offset, data.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
