import Foundation
import TimeTrackCore

/// How the fetcher behaves on the network.
///
/// Read from `_settings.json` in the imports folder (files starting with `_` are not source
/// definitions); every field is optional.
///
/// ```json
/// { "contact": "webmaster@district.example", "requestDelay": 1.0, "connectTimeout": 10,
///   "totalTimeout": 30, "maxPageMB": 25, "maxRedirects": 5, "retries": 2, "retryDelay": 2,
///   "sourceSeconds": 600, "runSeconds": 3600 }
/// ```
public struct FetchSettings: Sendable, Equatable {
    /// Who to contact about our requests; goes into the User-Agent.
    public var contact: String?
    /// Seconds between two requests to the same host.
    public var requestDelay: TimeInterval = 1
    /// Seconds to wait for a connection or for the next bytes.
    public var connectTimeout: TimeInterval = 10
    /// Seconds a whole response may take.
    public var totalTimeout: TimeInterval = 30
    /// Largest body accepted, in bytes.
    public var maxBytes = 25 * 1024 * 1024
    public var maxRedirects = 5
    /// Extra attempts after a timeout, a connection failure or a 5xx.
    public var retries = 2
    /// Seconds before the first retry; doubles each time.
    public var retryDelay: TimeInterval = 2
    /// Seconds one source may spend on the network in a run, retries included: a slow or
    /// trickling server stops that source, never the run.
    public var sourceSeconds: TimeInterval = 600
    /// Seconds one import command may spend on the network in all.
    public var runSeconds: TimeInterval = 3600
    /// Where the audit log's head is anchored after every command that wrote to the log (an
    /// import, a decision): a file (relative to the imports folder) or `syslog`; nil: only when
    /// someone runs `audit anchor`.
    public var anchor: String?
    /// The anchor signing key's file (default: `audit anchor`'s).
    public var anchorKey: String?
    /// The command run when an emergency or urgent alert is published or withdrawn (`onAlert`:
    /// a program's path, relative to the imports folder, or a list of the program and its
    /// arguments), with the alert as JSON on its stdin; docs/alerts.md.
    public var onAlert: [String]?
    /// Seconds the `onAlert` command may take before it is killed.
    public var onAlertSeconds: TimeInterval = 10

    public init() {}

    /// The User-Agent header: the tool, its version and the contact.
    public func userAgent(version: String) -> String {
        "timetrack-admin/\(version) (+https://timetrack.example/bot" + (contact.map { "; \($0)" } ?? "") + ")"
    }

    /// Reads `_settings.json` from a folder; the defaults when there is none.
    public static func load(folder: String) throws -> FetchSettings {
        let path = (folder as NSString).appendingPathComponent("_settings.json")
        var settings = FetchSettings()
        if let contact = Environment.value("TIMETRACK_CONTACT"), !contact.isEmpty { settings.contact = contact }
        guard let data = FileManager.default.contents(atPath: path) else { return settings }
        func fail(_ field: String, _ message: String) -> TimeTrackError {
            TimeTrackError(.configuration, message, context: ["file": path, "field": field])
        }
        guard let object = (try? JSONValue(parsing: data))?.objectValue else {
            throw TimeTrackError(.configuration, "not a JSON object", context: ["file": path])
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let value = object[key] else { return nil }
            guard let n = value.numberValue, range.contains(n) else { throw fail(key, "must be a number from \(range.lowerBound) to \(range.upperBound)") }
            return n
        }
        for key in object.keys
        where ![
            "contact", "requestDelay", "connectTimeout", "totalTimeout", "maxPageMB", "maxRedirects", "retries", "retryDelay", "sourceSeconds", "runSeconds",
            "anchor", "anchorKey", "onAlert", "onAlertSeconds", "$comment",
        ].contains(key) {
            throw fail(key, "is not a setting", )
        }
        if let contact = object["contact"] {
            guard let text = contact.stringValue else { throw fail("contact", "must be a string (an email address or URL)") }
            settings.contact = text
        }
        settings.requestDelay = try number("requestDelay", 0...60) ?? settings.requestDelay
        settings.connectTimeout = try number("connectTimeout", 0.1...300) ?? settings.connectTimeout
        settings.totalTimeout = try number("totalTimeout", 0.1...3600) ?? settings.totalTimeout
        if let mb = try number("maxPageMB", 0.001...1024) { settings.maxBytes = Int(mb * 1024 * 1024) }
        settings.maxRedirects = Int(try number("maxRedirects", 0...20) ?? Double(settings.maxRedirects))
        settings.retries = Int(try number("retries", 0...10) ?? Double(settings.retries))
        settings.retryDelay = try number("retryDelay", 0...300) ?? settings.retryDelay
        settings.sourceSeconds = try number("sourceSeconds", 1...86_400) ?? settings.sourceSeconds
        settings.runSeconds = try number("runSeconds", 1...86_400) ?? settings.runSeconds
        for key in ["anchor", "anchorKey"] {
            guard let value = object[key] else { continue }
            guard let text = value.stringValue, !text.isEmpty else {
                throw fail(key, key == "anchor" ? "must be a file's path or \"syslog\"" : "must be the path of the anchor key's file")
            }
            let resolved = text == "syslog" && key == "anchor" || text.hasPrefix("/") ? text : (folder as NSString).appendingPathComponent(text)
            if key == "anchor" { settings.anchor = resolved } else { settings.anchorKey = resolved }
        }
        settings.onAlertSeconds = try number("onAlertSeconds", 0.1...600) ?? settings.onAlertSeconds
        if let hook = object["onAlert"] {
            let words = hook.stringValue.map { [$0] } ?? hook.arrayValue?.compactMap(\.stringValue) ?? []
            guard let program = words.first, !program.isEmpty, words.count == (hook.arrayValue?.count ?? 1) else {
                throw fail("onAlert", "must be a program's path, or a list of the program and its arguments (strings)")
            }
            settings.onAlert = [program.hasPrefix("/") ? program : (folder as NSString).appendingPathComponent(program)] + words.dropFirst()
        }
        return settings
    }
}
