import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TimeTrackCore
import TimeTrackKit

/// http and https for importers: timeouts, a size cap, redirects only to public http(s), a
/// User-Agent with a contact, robots.txt, one request at a time per host with a delay, retries
/// with backoff on timeouts and 5xx, and ETag / Last-Modified so an unchanged page costs a 304.
public final class WebClient: HTTPClient {
    public let settings: FetchSettings
    public let allowPrivateNetwork: PrivateNetworkAllowance
    let cache: FetchCache?
    let userAgent: String
    /// Whose turn it is at each host; shared by the clients of one import command.
    let hosts: HostSchedule
    private var robots: [String: RobotsTxt] = [:]
    /// Requests made (for the run's report).
    public private(set) var requestCount = 0
    /// Pages answered 304 Not Modified.
    public private(set) var notModifiedCount = 0

    public init(settings: FetchSettings, allowPrivateNetwork: PrivateNetworkAllowance, cache: FetchCache?, version: String, hosts: HostSchedule = HostSchedule()) {
        self.settings = settings
        self.hosts = hosts
        self.allowPrivateNetwork = allowPrivateNetwork
        self.cache = cache
        self.userAgent = settings.userAgent(version: version)
    }

    public func get(_ url: URL, maxBytes: Int) throws -> FetchedPage {
        try checkRobots(url)
        let cached = try? cache?.cachedResponse(for: url.absoluteString)
        var current = url
        var redirects = 0
        while true {
            let response = try fetchWithRetries(current, maxBytes: min(maxBytes, settings.maxBytes), cached: current == url ? cached : nil)
            switch response.status {
            case 200...299:
                let type = response.header("content-type")
                if let cache, response.etag != nil || response.lastModified != nil {
                    try? cache.saveResponse(CachedResponse(etag: response.etag, lastModified: response.lastModified, contentType: type, body: response.body), for: url.absoluteString)
                }
                var page = FetchedPage(url: url, location: current.absoluteString, data: response.body, contentType: WebClient.mediaType(type), charset: WebClient.charset(type))
                page.notModified = false
                return page
            case 304:
                guard let cached else {
                    throw TimeTrackError(.fetch, "the server answered 304 Not Modified to a request without validators", context: ["url": current.absoluteString])
                }
                notModifiedCount += 1
                var page = FetchedPage(url: url, location: current.absoluteString, data: cached.body, contentType: WebClient.mediaType(cached.contentType), charset: WebClient.charset(cached.contentType))
                page.notModified = true
                return page
            case 300...399:
                guard let location = response.header("location"), let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw TimeTrackError(.fetch, "HTTP \(response.status) without a Location", context: ["url": current.absoluteString])
                }
                redirects += 1
                guard redirects <= settings.maxRedirects else {
                    throw TimeTrackError(.fetch, "more than \(settings.maxRedirects) redirects", fix: "point the source's url at the final address", context: ["url": url.absoluteString])
                }
                guard let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                    throw TimeTrackError(.fetch, "refused a redirect to \(next.absoluteString): only http and https are followed", context: ["url": current.absoluteString])
                }
                try checkRobots(next)
                current = next
            default:
                throw TimeTrackError(
                    .fetch, "HTTP \(response.status) from the server",
                    fix: response.status == 404 || response.status == 410 ? "the page moved or is gone: check the source's url" : "try again later",
                    context: ["url": current.absoluteString])
            }
        }
    }

    // MARK: robots.txt

    func checkRobots(_ url: URL) throws {
        guard let host = url.host, let scheme = url.scheme else { return }
        let origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        let rules: RobotsTxt
        if let known = robots[origin] {
            rules = known
        } else {
            var fetched = RobotsTxt.allowAll
            if let robotsURL = URL(string: origin + "/robots.txt") {
                do {
                    let response = try fetchWithRetries(robotsURL, maxBytes: 512 * 1024, cached: nil)
                    switch response.status {
                    case 200...299: fetched = RobotsTxt(text: String(decoding: response.body, as: UTF8.self), agent: "timetrack-admin")
                    case 500...599: fetched = .disallowAll
                    default: fetched = .allowAll
                    }
                } catch let error as TimeTrackError where error.message.hasPrefix("refused") {
                    throw error
                } catch {
                    fetched = .disallowAll
                }
            }
            robots[origin] = fetched
            rules = fetched
        }
        let path = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?\($0)" } ?? "")
        guard rules.allows(path) else {
            throw TimeTrackError(
                .fetch, "robots.txt of \(host) does not allow fetching \(path)",
                fix: "ask the district's webmaster to allow timetrack-admin, or use their feed or export instead", context: ["url": url.absoluteString])
        }
    }

    // MARK: requests

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        func header(_ name: String) -> String? { headers[name.lowercased()] }
        var etag: String? { header("etag") }
        var lastModified: String? { header("last-modified") }
    }

    func fetchWithRetries(_ url: URL, maxBytes: Int, cached: CachedResponse?) throws -> Response {
        var attempt = 0
        var delay = settings.retryDelay
        while true {
            do {
                let response = try request(url, maxBytes: maxBytes, cached: cached)
                if (500...599).contains(response.status) && attempt < settings.retries {
                    attempt += 1
                    Thread.sleep(forTimeInterval: delay)
                    delay *= 2
                    continue
                }
                return response
            } catch let error as TimeTrackError where error.context["retry"] == "yes" && attempt < settings.retries {
                attempt += 1
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
            } catch var error as TimeTrackError {
                error.context["retry"] = nil
                throw error
            }
        }
    }

    func request(_ url: URL, maxBytes: Int, cached: CachedResponse?) throws -> Response {
        try AddressPolicy.check(url, allowance: allowPrivateNetwork)
        // One request at a time per host, with a pause between them, across every client
        // sharing the schedule.
        return try hosts.turn(host: url.host, delay: settings.requestDelay) { try send(url, maxBytes: maxBytes, cached: cached) }
    }

    private func send(_ url: URL, maxBytes: Int, cached: CachedResponse?) throws -> Response {
        requestCount += 1
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: settings.connectTimeout)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("text/html,application/xhtml+xml,application/json,text/calendar,application/rss+xml;q=0.9,*/*;q=0.8", forHTTPHeaderField: "Accept")
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let modified = cached?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        let delegate = TransferDelegate(maxBytes: maxBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.connectTimeout
        configuration.timeoutIntervalForResource = settings.totalTimeout
        configuration.httpMaximumConnectionsPerHost = 1
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        if delegate.done.wait(timeout: .now() + settings.totalTimeout + 1) == .timedOut {
            task.cancel()
            throw TimeTrackError(.fetch, String(format: "no complete answer within %.0f s", settings.totalTimeout), fix: "the server is slow or down; try again later", context: ["url": url.absoluteString, "retry": "yes"])
        }
        let result = delegate.result()
        if result.tooLarge {
            throw TimeTrackError(
                .fetch, String(format: "cut off: the page is larger than the %.1f MB limit", Double(maxBytes) / 1_048_576),
                fix: "a page this large is usually a mistake; raise maxPageMB in _settings.json if it is not", context: ["url": url.absoluteString])
        }
        if let error = result.error {
            let nsError = error as NSError
            let timedOut = nsError.code == NSURLErrorTimedOut
            throw TimeTrackError(
                .fetch, timedOut ? String(format: "timed out after %.0f s", settings.totalTimeout) : "the request failed: \(nsError.localizedDescription)",
                fix: "check the URL and the network; try again later", context: ["url": url.absoluteString, "retry": "yes"])
        }
        guard let http = result.response else {
            throw TimeTrackError(.fetch, "no HTTP response", context: ["url": url.absoluteString, "retry": "yes"])
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let k = key as? String, let v = value as? String { headers[k.lowercased()] = v }
        }
        return Response(status: http.statusCode, headers: headers, body: result.body)
    }

    /// `text/html` from `text/html; charset=utf-8`.
    static func mediaType(_ contentType: String?) -> String? {
        contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The charset parameter of a Content-Type.
    static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        }
        return nil
    }
}

/// Collects one response for `WebClient`: headers, a capped body, and the end.
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let maxBytes: Int
    private var body = Data()
    private var response: HTTPURLResponse?
    private var error: (any Error)?
    private var tooLarge = false
    private var finished = false

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func result() -> (response: HTTPURLResponse?, body: Data, error: (any Error)?, tooLarge: Bool) {
        lock.lock(); defer { lock.unlock() }
        return (response, body, error, tooLarge)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        self.response = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        if declared > Int64(maxBytes) { tooLarge = true }
        let tooBig = tooLarge
        lock.unlock()
        completionHandler(tooBig ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if body.count + data.count > maxBytes {
            tooLarge = true
            lock.unlock()
            dataTask.cancel()
            return
        }
        body.append(data)
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // Redirects are followed by WebClient itself, after checking where they lead.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        if !tooLarge { self.error = error }
        let first = !finished
        finished = true
        lock.unlock()
        if first { done.signal() }
    }
}
