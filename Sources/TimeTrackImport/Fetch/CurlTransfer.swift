import CCurl
import Foundation
import TimeTrackCore

/// One HTTP GET through libcurl's easy interface, on the calling thread.
///
/// The body is decompressed (gzip, deflate, and whatever else libcurl reads) chunk by chunk as
/// it arrives, and every decompressed chunk passes through `receive` before it is kept: past
/// `maxBytes` of decompressed bytes, or past `maxRatio` decompressed bytes per byte on the wire
/// once the body is over `ratioFloor`, the transfer stops at once. Memory is the cap, never
/// what a small compressed answer expands to.
final class CurlTransfer {
    /// libcurl's option and info numbers (its stable ABI: type base + number).
    enum Option {
        static let writeData: Int32 = 10_001, url: Int32 = 10_002, errorBuffer: Int32 = 10_010, httpHeader: Int32 = 10_023
        static let headerData: Int32 = 10_029, progressData: Int32 = 10_057, acceptEncoding: Int32 = 10_102
        static let writeFunction: Int32 = 20_011, headerFunction: Int32 = 20_079, progressFunction: Int32 = 20_219
        static let lowSpeedLimit: Int32 = 19, lowSpeedTime: Int32 = 20, noProgress: Int32 = 43, followLocation: Int32 = 52
        static let noSignal: Int32 = 99, timeoutMS: Int32 = 155, connectTimeoutMS: Int32 = 156, protocols: Int32 = 181
        static let maxFileSize: Int32 = 30_117
    }
    enum Info {
        static let responseCode: Int32 = 0x20_0002
        static let sizeDownload: Int32 = 0x60_0008
    }
    /// libcurl's result codes that the web client tells apart.
    enum Code {
        static let couldNotResolveHost: Int32 = 6, couldNotConnect: Int32 = 7, partialFile: Int32 = 18, writeError: Int32 = 23
        static let timedOut: Int32 = 28, abortedByCallback: Int32 = 42, gotNothing: Int32 = 52, receiveError: Int32 = 56
        static let badContentEncoding: Int32 = 61, fileSizeExceeded: Int32 = 63
    }

    /// Why the transfer was stopped from this side.
    enum Stop: Equatable {
        /// More decompressed bytes than the cap.
        case tooLarge
        /// A compression ratio no real page has: (decompressed, on the wire).
        case compressionRatio(decompressed: Int, wire: Int)
        /// `shouldStop` said so (Ctrl-C).
        case interrupted
    }

    /// What came back: the status and headers of the last response, the body so far, and
    /// libcurl's code (0 when the transfer completed).
    struct Outcome {
        var code: Int32
        var message: String
        var status: Int
        var headers: [String: String]
        var body: Data
        var stop: Stop?
        /// Bytes of the body as they came over the wire (before decompression).
        var wireBytes: Int
    }

    /// Decompressed bytes kept at most.
    let maxBytes: Int
    /// Decompressed bytes per byte on the wire, past `ratioFloor`, that stop the transfer.
    static let maxRatio = 100
    /// Decompressed bytes below which the ratio is not checked (small pages compress well).
    static let ratioFloor = 1_048_576
    /// Asked while the transfer runs; true stops it.
    var shouldStop: (() -> Bool)?
    /// Called about every tenth of a second with the decompressed bytes so far.
    var onProgress: ((Int) -> Void)?

    private var handle: UnsafeMutableRawPointer?
    private var body = Data()
    private var headers: [String: String] = [:]
    private var stop: Stop?
    private var lastProgress = Date.distantPast

    /// Whether libcurl could be loaded, and if not, why.
    static var unavailable: String? {
        ttcurl_load() == 1 ? nil : String(cString: ttcurl_load_error())
    }

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// Runs a GET of `url` with `headers`, within the timeouts, and returns what came back.
    func get(_ url: URL, headers requestHeaders: [(String, String)], connectTimeout: TimeInterval, totalTimeout: TimeInterval) throws -> Outcome {
        if let why = CurlTransfer.unavailable {
            throw TimeTrackError(
                .fetch, "the HTTP library (libcurl) could not be loaded: \(why)", fix: "install libcurl4 (apt-get install libcurl4)",
                context: ["url": url.absoluteString])
        }
        guard let easy = ttcurl_easy_init() else {
            throw TimeTrackError(.fetch, "the HTTP library (libcurl) could not start a transfer", context: ["url": url.absoluteString])
        }
        handle = easy
        defer {
            ttcurl_easy_cleanup(easy)
            handle = nil
        }
        var list: UnsafeMutableRawPointer?
        for (name, value) in requestHeaders { list = ttcurl_slist_append(list, "\(name): \(value)") }
        defer { ttcurl_slist_free_all(list) }
        let errors = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        errors.initialize(repeating: 0, count: 256)
        defer { errors.deallocate() }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let idle = max(1, Int(connectTimeout.rounded(.up)))
        url.absoluteString.withCString { _ = ttcurl_setopt_pointer(easy, Option.url, $0) }
        _ = ttcurl_setopt_pointer(easy, Option.httpHeader, list)
        _ = ttcurl_setopt_pointer(easy, Option.errorBuffer, errors)
        // Every encoding libcurl reads is accepted and decoded here, under the cap.
        "".withCString { _ = ttcurl_setopt_pointer(easy, Option.acceptEncoding, $0) }
        _ = ttcurl_setopt_long(easy, Option.followLocation, 0)
        _ = ttcurl_setopt_long(easy, Option.protocols, 3)  // CURLPROTO_HTTP | CURLPROTO_HTTPS
        _ = ttcurl_setopt_long(easy, Option.noSignal, 1)
        _ = ttcurl_setopt_long(easy, Option.connectTimeoutMS, max(100, Int(connectTimeout * 1000)))
        _ = ttcurl_setopt_long(easy, Option.timeoutMS, max(100, Int(totalTimeout * 1000)))
        _ = ttcurl_setopt_long(easy, Option.lowSpeedLimit, 1)
        _ = ttcurl_setopt_long(easy, Option.lowSpeedTime, idle)
        _ = ttcurl_setopt_offset(easy, Option.maxFileSize, Int64(maxBytes))
        _ = ttcurl_setopt_pointer(easy, Option.writeData, me)
        _ = ttcurl_setopt_write_callback(easy, Option.writeFunction, curlWrite)
        _ = ttcurl_setopt_pointer(easy, Option.headerData, me)
        _ = ttcurl_setopt_write_callback(easy, Option.headerFunction, curlHeader)
        _ = ttcurl_setopt_long(easy, Option.noProgress, 0)
        _ = ttcurl_setopt_pointer(easy, Option.progressData, me)
        _ = ttcurl_setopt_progress_callback(easy, Option.progressFunction, curlProgress)
        var code = ttcurl_easy_perform(easy)
        var status = 0
        _ = ttcurl_getinfo_long(easy, Info.responseCode, &status)
        var wire: Int64 = 0
        _ = ttcurl_getinfo_offset(easy, Info.sizeDownload, &wire)
        if code == Code.fileSizeExceeded { stop = .tooLarge }
        if stop != nil { code = Code.writeError }
        let detail = String(cString: errors)
        let message = detail.isEmpty ? String(cString: ttcurl_easy_strerror(code)) : detail
        return Outcome(code: code, message: message, status: status, headers: headers, body: body, stop: stop, wireBytes: Int(wire))
    }

    /// `1.2 MB`, or `38 KB` under a megabyte.
    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_048_576 ? "\(max(1, (bytes + 1023) / 1024)) KB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    /// A header value with no control character (a value from the store's cache cannot add a
    /// header line of its own).
    static func headerValue(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// A decompressed chunk: kept, or the transfer stopped (0 returned) past a limit.
    fileprivate func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard stop == nil else { return false }
        if body.count + bytes.count > maxBytes {
            stop = .tooLarge
            return false
        }
        body.append(contentsOf: bytes)
        if body.count > CurlTransfer.ratioFloor, let handle {
            var wire: Int64 = 0
            _ = ttcurl_getinfo_offset(handle, Info.sizeDownload, &wire)
            if wire > 0, Int64(body.count) > wire * Int64(CurlTransfer.maxRatio) {
                stop = .compressionRatio(decompressed: body.count, wire: Int(wire))
                return false
            }
        }
        return true
    }

    /// A header line of a response (a status line starts the headers anew: 1xx answers).
    fileprivate func header(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":"), headers.count < 200 else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }

    /// The progress callback: false stops the transfer.
    fileprivate func progress() -> Bool {
        if shouldStop?() == true {
            stop = .interrupted
            return false
        }
        let now = Date()
        if now.timeIntervalSince(lastProgress) >= 0.1 {
            lastProgress = now
            onProgress?(body.count)
        }
        return true
    }
}

private func curlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private func curlHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context, let data else { return 0 }
    let total = size * count
    Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().header(UnsafeRawBufferPointer(start: data, count: total))
    return total
}

private func curlProgress(_ context: UnsafeMutableRawPointer?, _ downloadTotal: Int64, _ downloaded: Int64, _ uploadTotal: Int64, _ uploaded: Int64) -> Int32 {
    guard let context else { return 1 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().progress() ? 0 : 1
}
