import Foundation
import TimeTrackCore
import TimeTrackKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    /// robots.txt per origin: its rules, or why it could not be read.
    private var robots: [String: RobotsState] = [:]
    enum RobotsState {
        case rules(RobotsTxt)
        case unavailable(String)
    }
    /// Seconds this client's source has spent on its own requests and retry pauses (waiting for
    /// another source's turn at the host is not counted): its budget is `sourceSeconds`.
    private var usedSeconds: TimeInterval = 0
    /// When the import command has used up its network time (`runSeconds`).
    let runDeadline: Date
    /// Requests made (for the run's report).
    public private(set) var requestCount = 0
    /// Pages answered 304 Not Modified.
    public private(set) var notModifiedCount = 0
    /// Asked every tenth of a second while a request is in flight; true cancels it at once
    /// (Ctrl-C), with an `.interrupted` error.
    public var shouldStop: (() -> Bool)?
    /// Called about every tenth of a second while a request is in flight, from its start: the
    /// host, the bytes received so far, the seconds since it was sent (a progress line).
    public var onTransfer: ((_ host: String, _ bytes: Int, _ elapsed: TimeInterval) -> Void)?

    public init(
        settings: FetchSettings, allowPrivateNetwork: PrivateNetworkAllowance, cache: FetchCache?, version: String, hosts: HostSchedule = HostSchedule()
    ) {
        self.settings = settings
        self.hosts = hosts
        self.allowPrivateNetwork = allowPrivateNetwork
        self.cache = cache
        self.userAgent = settings.userAgent(version: version)
        runDeadline = hosts.startedAt.addingTimeInterval(settings.runSeconds)
        // Started before any request: https connections go through it (see PinningProxy).
        _ = PinningProxy.shared
    }

    /// Seconds one source may take (`sourceSeconds`): its requests, and its parsing too (the
    /// pipeline's deadline for the source, which every fetch checks).
    public var sourceSeconds: TimeInterval { settings.sourceSeconds }

    /// Seconds left of the source's and the run's budgets; throws when either is used up.
    func remainingBudget(_ url: URL) throws -> TimeInterval {
        let now = Date()
        let source = settings.sourceSeconds - usedSeconds
        let run = runDeadline.timeIntervalSince(now)
        if source <= 0 || run <= 0 {
            let which =
                source <= 0
                ? String(format: "this source's network time (%.0f s, sourceSeconds)", settings.sourceSeconds)
                : String(format: "this import's network time (%.0f s, runSeconds)", settings.runSeconds)
            throw TimeTrackError(
                .fetch, "stopped: \(which) is used up",
                fix: "a slow server is the usual cause; raise sourceSeconds or runSeconds in _settings.json if the site is just large",
                context: ["url": url.absoluteString]
            ).with(.budgetSpent)
        }
        return min(source, run)
    }

    public func get(_ url: URL, maxBytes: Int) throws -> FetchedPage {
        if let host = url.host, host.contains(":") {
            // The HTTP library (FoundationNetworking on Linux) refuses every URL with an IPv6
            // literal ("bad URL", -1000); say so, and what works instead.
            throw TimeTrackError(
                .fetch, "\(host) is an IPv6 address written into the URL, which the HTTP library here cannot fetch",
                fix:
                    "give the server a name with an IPv4 address (DNS, or /etc/hosts) and use it in the URL; list the name in allowPrivateNetwork if"
                    + " it is private",
                context: ["url": url.absoluteString])
        }
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
                    try? cache.saveResponse(
                        CachedResponse(etag: response.etag, lastModified: response.lastModified, contentType: type, body: response.body),
                        for: url.absoluteString)
                }
                var page = FetchedPage(
                    url: url, location: current.absoluteString, data: response.body, contentType: WebClient.mediaType(type), charset: WebClient.charset(type))
                page.notModified = false
                return page
            case 304:
                guard let cached else {
                    throw TimeTrackError(
                        .fetch, "the server answered 304 Not Modified to a request without validators", context: ["url": current.absoluteString])
                }
                notModifiedCount += 1
                var page = FetchedPage(
                    url: url, location: current.absoluteString, data: cached.body, contentType: WebClient.mediaType(cached.contentType),
                    charset: WebClient.charset(cached.contentType))
                page.notModified = true
                return page
            case 300...399:
                guard let location = response.header("location"), let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw TimeTrackError(.fetch, "HTTP \(response.status) without a Location", context: ["url": current.absoluteString])
                }
                redirects += 1
                guard redirects <= settings.maxRedirects else {
                    throw TimeTrackError(
                        .fetch, "more than \(settings.maxRedirects) redirects", fix: "point the source's url at the final address",
                        context: ["url": url.absoluteString])
                }
                guard let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                    throw TimeTrackError(
                        .fetch, "refused a redirect to \(next.absoluteString): only http and https are followed",
                        context: ["url": current.absoluteString]
                    ).with(.refused)
                }
                try checkRobots(next)
                current = next
            default:
                throw TimeTrackError(
                    .fetch, "HTTP \(response.status) from the server",
                    fix: response.status == 404 || response.status == 410 ? "the page moved or is gone: check the source's url" : "try again later",
                    context: ["url": current.absoluteString]
                ).with(.httpStatus(response.status))
            }
        }
    }

    // MARK: robots.txt

    /// `scheme://host[:port]`, with an IPv6 literal in brackets.
    static func origin(_ url: URL) -> String? {
        guard let host = url.host, !host.isEmpty, let scheme = url.scheme else { return nil }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(hostPart)" + (url.port.map { ":\($0)" } ?? "")
    }

    func checkRobots(_ url: URL) throws {
        guard let host = url.host, let origin = WebClient.origin(url) else {
            throw TimeTrackError(.fetch, "the URL has no host", context: ["url": url.absoluteString])
        }
        let state: RobotsState
        if let known = robots[origin] {
            state = known
        } else {
            guard let robotsURL = URL(string: origin + "/robots.txt") else {
                throw TimeTrackError(.fetch, "cannot make the robots.txt address of \(origin)", context: ["url": url.absoluteString])
            }
            do {
                let response = try fetchWithRetries(robotsURL, maxBytes: 512 * 1024, cached: nil)
                switch response.status {
                case 200...299: state = .rules(RobotsTxt(text: String(decoding: response.body, as: UTF8.self), agent: "timetrack-admin"))
                case 500...599: state = .unavailable("the server answered HTTP \(response.status)")
                default: state = .rules(.allowAll)  // 4xx: no robots.txt, everything allowed (RFC 9309)
                }
            } catch let error as TimeTrackError where error.code == .refusedAddress || !error.signals.isDisjoint(with: [.refused, .budgetSpent]) {
                throw error
            } catch let error as TimeTrackError {
                state = .unavailable(error.message)
            }
            robots[origin] = state
        }
        let rules: RobotsTxt
        switch state {
        case .rules(let known): rules = known
        case .unavailable(let reason):
            throw TimeTrackError(
                .fetch, "robots.txt of \(host) could not be read (\(reason)), so nothing was fetched from \(host)",
                fix: "the server is down or unreachable; the next run tries again (an unreadable robots.txt means 'wait', RFC 9309)",
                context: ["url": url.absoluteString])
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
        let started = Date()
        /// Sleeps before a retry, never past the budget.
        func pause() throws {
            let left = try remainingBudget(url)
            Thread.sleep(forTimeInterval: min(delay, left))
            usedSeconds += min(delay, left)
            delay *= 2
            _ = try remainingBudget(url)
        }
        while true {
            do {
                let response = try request(url, maxBytes: maxBytes, cached: cached)
                if (500...599).contains(response.status) && attempt < settings.retries {
                    attempt += 1
                    try pause()
                    continue
                }
                return response
            } catch let error as TimeTrackError where error.signals.contains(.retryable) && attempt < settings.retries {
                attempt += 1
                try pause()
            } catch var error as TimeTrackError {
                if error.signals.contains(.retryable) && attempt > 0 {
                    error.message += String(format: " (%d attempts over %.0f s)", attempt + 1, Date().timeIntervalSince(started))
                }
                error.signals.remove(.retryable)
                throw error
            }
        }
    }

    func request(_ url: URL, maxBytes: Int, cached: CachedResponse?) throws -> Response {
        _ = try remainingBudget(url)
        let addresses = try AddressPolicy.checkAll(url, allowance: allowPrivateNetwork)
        // One request at a time per host, with a pause between them, across every client
        // sharing the schedule.
        return try hosts.turn(host: url.host, delay: settings.requestDelay) {
            let started = Date()
            defer { usedSeconds += Date().timeIntervalSince(started) }
            return try send(url, pinnedTo: addresses, maxBytes: maxBytes, cached: cached, budget: try remainingBudget(url))
        }
    }

    /// The URL to connect to: for plain http, the checked address itself with the host kept in
    /// the Host header, so the name is not resolved a second time (DNS rebinding).
    ///
    /// https needs the name for its certificate and is resolved by the HTTP library again.
    static func pinned(_ url: URL, to address: String?) -> (URL, host: String?) {
        guard let address, url.scheme?.lowercased() == "http", let host = url.host, host != address,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return (url, nil) }
        let literal = address.contains(":") ? "[\(address)]" : address
        components.percentEncodedHost = literal
        guard let pinned = components.url else { return (url, nil) }
        return (pinned, host + (url.port.map { ":\($0)" } ?? ""))
    }

    private func send(_ url: URL, pinnedTo addresses: [String], maxBytes: Int, cached: CachedResponse?, budget: TimeInterval) throws -> Response {
        requestCount += 1
        // Plain http connects to the checked address written into the URL, which can only be an
        // IPv4 one (the HTTP library refuses IPv6 literals): a server with only IPv6 addresses
        // is refused rather than reached by a second, unchecked lookup.
        let secure = url.scheme?.lowercased() == "https"
        let usable = secure ? addresses.first : addresses.first { !$0.contains(":") }
        if !secure, usable == nil, !addresses.isEmpty {
            throw TimeTrackError(
                .fetch, "\(url.host ?? "the server") has only IPv6 addresses, which plain http here cannot reach safely",
                fix: "use https:// for it, or an address with IPv4", context: ["url": url.absoluteString])
        }
        let (target, hostHeader) = WebClient.pinned(url, to: usable)
        let port = url.port ?? (secure ? 443 : 80)
        if secure { try pinTunnel(url, to: addresses, port: port) }
        let totalTimeout = min(settings.totalTimeout, max(0.1, budget))
        let started = Date()
        let transfer = CurlTransfer(maxBytes: maxBytes)
        transfer.shouldStop = shouldStop
        let host = url.host ?? ""
        if let onTransfer {
            onTransfer(host, 0, 0)
            transfer.onProgress = { onTransfer(host, $0, Date().timeIntervalSince(started)) }
        }
        let outcome = try transfer.get(
            target, headers: requestHeaders(hostHeader: hostHeader, cached: cached), connectTimeout: settings.connectTimeout, totalTimeout: totalTimeout)
        switch outcome.stop {
        case .tooLarge:
            throw TimeTrackError(
                .fetch, String(format: "cut off: the page is larger than the %.1f MB limit", Double(maxBytes) / 1_048_576),
                fix: "a page this large is usually a mistake; raise maxPageMB in _settings.json if it is not", context: ["url": url.absoluteString])
        case .compressionRatio(let decompressed, let wire):
            throw TimeTrackError(
                .fetch,
                String(
                    format: "refused a compressed answer that expands more than %d times (%@ sent, over %@ unpacked before it was stopped): a"
                        + " decompression bomb, not a page", CurlTransfer.maxRatio, CurlTransfer.megabytes(wire), CurlTransfer.megabytes(decompressed)),
                fix: "nothing of it was kept; ask the site's webmaster, or point the source at another address", context: ["url": url.absoluteString])
        case .interrupted:
            throw TimeTrackError(
                .interrupted, "interrupted (Ctrl-C) while fetching \(url.absoluteString)", fix: "nothing of this source was written; run the import again",
                context: ["url": url.absoluteString])
        case nil: break
        }
        if outcome.code != 0 {
            let elapsed = Date().timeIntervalSince(started)
            let message = failure(outcome, url: url, port: port, elapsed: elapsed, totalTimeout: totalTimeout)
            let damaged = outcome.code == CurlTransfer.Code.badContentEncoding
            throw TimeTrackError(
                .fetch, message,
                fix: damaged ? "the server sent a broken compressed answer; tell the site's webmaster" : "check the URL and the network; try again later",
                context: ["url": url.absoluteString]
            ).with(damaged ? .refused : .retryable)
        }
        guard outcome.status > 0 else {
            throw TimeTrackError(.fetch, "no HTTP response", context: ["url": url.absoluteString]).with(.retryable)
        }
        return Response(status: outcome.status, headers: outcome.headers, body: outcome.body)
    }

    /// TLS needs the name: the proxy's tunnel goes to the checked address instead of a second lookup.
    private func pinTunnel(_ url: URL, to addresses: [String], port: Int) throws {
        guard let proxy = PinningProxy.shared, let host = url.host else { return }
        let pins = addresses.isEmpty ? AddressPolicy.addresses(host) : addresses
        guard !pins.isEmpty else {
            throw TimeTrackError(
                .fetch, "cannot resolve \(host) (DNS)", fix: "check the URL and the network; try again later",
                context: ["url": url.absoluteString]
            ).with(.retryable)
        }
        proxy.pin(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port, to: pins)
    }

    /// The request's headers: the original host named, conditional on the cached copy.
    private func requestHeaders(hostHeader: String?, cached: CachedResponse?) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let hostHeader { headers.append(("Host", hostHeader)) }
        headers.append(("User-Agent", userAgent))
        headers.append(("Accept", "text/html,application/xhtml+xml,application/json,text/calendar,application/rss+xml;q=0.9,*/*;q=0.8"))
        if let etag = cached?.etag { headers.append(("If-None-Match", CurlTransfer.headerValue(etag))) }
        if let modified = cached?.lastModified { headers.append(("If-Modified-Since", CurlTransfer.headerValue(modified))) }
        return headers
    }

    /// What went wrong with a transfer, as a person can act on it.
    private func failure(_ outcome: CurlTransfer.Outcome, url: URL, port: Int, elapsed: TimeInterval, totalTimeout: TimeInterval) -> String {
        let host = url.host ?? "the server"
        let secure = url.scheme?.lowercased() == "https"
        let tunnel = secure ? PinningProxy.shared?.failure(host: host, port: port) : nil
        switch outcome.code {
        case CurlTransfer.Code.timedOut:
            if elapsed >= totalTimeout - 0.5 { return String(format: "no complete answer from %@ within %.0f s", host, totalTimeout) }
            let answered = outcome.status > 0 ? "the answer stalled" : "no answer"
            return String(format: "%@ sent nothing for %.0f s (%@)", host, settings.connectTimeout, answered)
        case _ where tunnel == .refused:
            return "\(host) refused the connection on port \(port)"
        case _ where tunnel != nil:
            if case .other(let reason) = tunnel { return "cannot connect to \(host) on port \(port): \(reason)" }
            return "cannot connect to \(host) on port \(port)"
        case CurlTransfer.Code.couldNotConnect:
            return "\(host) refused the connection" + (url.port.map { " on port \($0)" } ?? "")
        case CurlTransfer.Code.couldNotResolveHost:
            return "cannot resolve \(host) (DNS)"
        case CurlTransfer.Code.gotNothing, CurlTransfer.Code.receiveError, CurlTransfer.Code.partialFile:
            return "\(host) closed the connection before the answer was complete"
        case CurlTransfer.Code.badContentEncoding:
            return "\(host) sent a compressed answer that cannot be unpacked (\(SafeText.visible(outcome.message)))"
        default:
            return "the request to \(host) failed: \(SafeText.visible(outcome.message))"
        }
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
