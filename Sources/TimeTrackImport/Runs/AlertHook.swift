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
    /// Where it runs: the imports folder.
    public var folder: String

    public init(command: [String], seconds: TimeInterval, folder: String) {
        self.command = command
        self.seconds = seconds
        self.folder = folder
    }

    /// The hook `_settings.json` in `folder` names, or nil.
    public static func configured(folder: String) -> AlertHook? {
        guard let settings = try? FetchSettings.load(folder: folder), let command = settings.onAlert else { return nil }
        return AlertHook(command: command, seconds: settings.onAlertSeconds, folder: folder)
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
            var line = "\(item.id) \(event.rawValue): onAlert \(outcome)"
            do {
                let row = try store.requireRow(id)
                try store.appendAudit(
                    NewAuditEntry(
                        at: store.now(), operatorName: who, action: .alertHook, itemSeq: row.seq, itemID: row.id, reason: nil,
                        detail: "\(event.rawValue): \(outcome)"))
            } catch let error as TimeTrackError {
                line += " (not audited: \(error.message))"
            } catch {
                line += " (not audited: \(error))"
            }
            said.append(line)
        }
        return said
    }

    /// Runs the command with `input` on its stdin; what it did, in a few words.
    ///
    /// Started as plugins are (`PluginProcess`): in a session of its own, in the imports folder,
    /// with a cleared environment (`PATH`, `LANG`, `HOME`), nothing of this process's open files;
    /// what it prints is read and dropped (at most 64 KB); past `seconds`, its whole process
    /// group is killed.
    func run(_ input: Data) -> String {
        guard let program = command.first, FileManager.default.isExecutableFile(atPath: program) else {
            return "not run: \(command.first ?? "nothing") is not an executable file"
        }
        let deadline = Date().addingTimeInterval(seconds)
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        environment["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        let process: PluginProcess
        do {
            process = try PluginProcess(command: command, directory: folder, environment: environment)
        } catch let error as TimeTrackError {
            return "not run: " + error.message
        } catch {
            return "not run: \(error)"
        }
        do {
            try process.write(input, deadline: deadline)
            process.closeInput()  // the whole alert is there: its reader sees the end
            while try process.readLine(deadline: deadline, maxOutput: 65_536, shouldStop: nil) != nil {}
        } catch {
            process.stop()
            return Date() >= deadline ? "killed after \(NumberText.plain(seconds)) s" : "stopped: it printed more than 64 KB"
        }
        let status = process.wait(deadline: deadline)
        if Date() >= deadline && status != 0 { return "killed after \(NumberText.plain(seconds)) s" }
        return status > 128 ? "ended by signal \(status - 128)" : "exited \(status)"
    }
}
