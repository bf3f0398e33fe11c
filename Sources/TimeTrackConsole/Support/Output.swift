import Foundation
import TimeTrackCore

/// Where a command writes: stdout for results, stderr for progress and errors.
public final class Output {
    /// Whether results are printed as JSON.
    public var json: Bool
    /// Whether colors may be used on stdout (a terminal and no NO_COLOR).
    public var color: Bool
    /// Whether colors may be used on stderr: decided from stderr itself, so `2>log` on a
    /// terminal writes no escape codes into the log.
    public var errorColor: Bool
    private var stdoutBuffer: [UInt8] = []

    public init(json: Bool, color: Bool, errorColor: Bool? = nil) {
        self.json = json
        self.color = color
        self.errorColor = errorColor ?? color
    }

    /// Writes a line to stdout.
    public func line(_ text: String = "") {
        stdoutBuffer.append(contentsOf: text.utf8)
        stdoutBuffer.append(10)
        if stdoutBuffer.count > 64 * 1024 { flush() }
    }

    /// Writes a line to stderr at once.
    public func note(_ text: String) {
        flush()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints an error on stderr: as text, or as a JSON object with `--json`.
    public func error(_ error: TimeTrackError) {
        if json {
            let text = SafeText.inertJSON((try? JSONCoding.compactString(JSONValue.object(["error": .object(error.jsonObject)]))) ?? error.description)
            note(text)
        } else {
            note((errorColor ? "\u{1B}[31merror: \u{1B}[0m" : "error: ") + error.description)
        }
    }

    /// Prints a value as pretty JSON on stdout.
    public func printJSON<T: Encodable>(_ value: T) {
        line(SafeText.inertJSON((try? JSONCoding.prettyString(value)) ?? "null"))
    }

    /// Sends buffered stdout to the file descriptor.
    public func flush() {
        guard !stdoutBuffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(stdoutBuffer))
        stdoutBuffer.removeAll(keepingCapacity: true)
    }

    /// Terminal colors used sparingly.
    public enum Color: String { case red = "31", green = "32", yellow = "33", bold = "1", dim = "2" }

    /// Wraps text in an ANSI color when colors are on.
    public func paint(_ text: String, _ color: Color) -> String {
        self.color ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
