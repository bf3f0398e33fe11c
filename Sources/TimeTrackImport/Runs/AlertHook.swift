import Foundation
import TimeTrackCore

/// The district's `onAlert` command (`_settings.json`): run when an emergency or urgent alert
/// is published or withdrawn, with the alert as JSON on its stdin, within `onAlertSeconds`.
///
/// Each run is audited on the alert (`alert-hook`, with what the command did); a failure never
/// undoes the decision or the import that caused it. See docs/alerts.md.
public struct AlertHook: Sendable {
    /// What happened to the alert.
    public enum Event: String, Sendable {
        case published, withdrawn
    }

    /// The program and its arguments.
    public var command: [String]
    /// Seconds before the command is killed.
    public var seconds: TimeInterval

    public init(command: [String], seconds: TimeInterval) {
        self.command = command
        self.seconds = seconds
    }

    /// The hook `_settings.json` in `folder` names, or nil.
    public static func configured(folder: String) -> AlertHook? {
        guard let settings = try? FetchSettings.load(folder: folder), let command = settings.onAlert else { return nil }
        return AlertHook(command: command, seconds: settings.onAlertSeconds)
    }

    /// What the app is told: the event, the item's id, kind and school, and its fields.
    public static func payload(_ item: Item, event: Event) -> Data {
        var object = item.content.fields()
        object["event"] = .string(event.rawValue)
        object["id"] = .string(item.id)
        object["kind"] = .string(item.kind.rawValue)
        object["school"] = item.school.map { .string($0) } ?? .null
        return Data(((try? JSONCoding.compactString(JSONValue.object(object))) ?? "{}").utf8)
    }

    /// Whether an item calls for the hook: an alert whose severity notifies.
    public static func applies(to item: Item) -> Bool {
        if case .alert(let alert) = item.content { return alert.severity.notifies }
        return false
    }

    /// Runs the hook for each item that calls for it and audits each outcome as `who`; returns
    /// one line per run ("w3 withdrawn: onAlert exited 0").
    public func notify(_ ids: [String], event: Event, store: any ItemStore, by who: String) -> [String] {
        var said: [String] = []
        for id in ids {
            guard let item = try? store.item(id), Self.applies(to: item) else { continue }
            let outcome = run(Self.payload(item, event: event))
            let line = "\(item.id) \(event.rawValue): onAlert \(outcome)"
            said.append(line)
            if let row = try? store.row(id: id) {
                try? store.appendAudit(
                    NewAuditEntry(
                        at: store.now(), operatorName: who, action: .alertHook, itemSeq: row.seq, itemID: row.id, reason: nil,
                        detail: "\(event.rawValue): \(outcome)"))
            }
        }
        return said
    }

    /// Runs the command with `input` on its stdin; what it did, in a few words.
    func run(_ input: Data) -> String {
        guard let program = command.first, FileManager.default.isExecutableFile(atPath: program) else {
            return "not run: \(command.first ?? "nothing") is not an executable file"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(command.dropFirst())
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            return "not run: \(error.localizedDescription)"
        }
        // The payload is small (one alert); a command that does not read it gets EPIPE, not us a hang.
        signal(SIGPIPE, SIG_IGN)
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            return "killed after \(NumberText.plain(seconds)) s"
        }
        return process.terminationReason == .uncaughtSignal
            ? "ended by signal \(process.terminationStatus)" : "exited \(process.terminationStatus)"
    }
}
