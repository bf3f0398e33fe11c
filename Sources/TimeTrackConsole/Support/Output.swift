import Foundation
import TimeTrackCore

/// Where a command writes: stdout for results, stderr for progress and errors.
public final class Output {
    /// Whether results are printed as JSON.
    public var json: Bool
    /// The line of stdin being run in script mode (errors name it); nil elsewhere.
    public var scriptLine: Int?
    /// Whether tables are printed as CSV (RFC 4180), for spreadsheets (`--format csv`).
    public var csv = false
    /// Whether colors may be used on stdout (a terminal and no NO_COLOR).
    public var color: Bool
    /// Whether colors may be used on stderr: decided from stderr itself, so `2>log` on a
    /// terminal writes no escape codes into the log.
    public var errorColor: Bool
    private var stdoutBuffer: [UInt8] = []
    /// While true, stdout is kept until `release` decides whether it goes through the pager.
    var holding = false

    public init(json: Bool, color: Bool, errorColor: Bool? = nil) {
        self.json = json
        self.color = color
        self.errorColor = errorColor ?? color
    }

    /// Writes a line to stdout.
    public func line(_ text: String = "") {
        stdoutBuffer.append(contentsOf: Output.terminalSafe(text).utf8)
        stdoutBuffer.append(10)
        if stdoutBuffer.count > 64 * 1024 && !holding { flush() }
    }

    /// Writes a line to stderr at once.
    public func note(_ text: String) {
        flush()
        FileHandle.standardError.write(Data((Output.terminalSafe(text) + "\n").utf8))
    }

    /// The last guard between any text and the terminal: every control character that
    /// `SafeText` removes from stored text is shown as a visible stand-in, whatever path the
    /// text took (a run's message, a problem, a page's title, a plugin's stderr).
    ///
    /// The only escape sequences kept are this tool's own colors (`paint`), byte for byte.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { SafeText.isUnsafe($0.value) }) else { return text }
        var out = ""
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            out += SafeText.visible(String(rest[..<escape]))
            let tail = rest[escape...]
            if let own = ownColors.first(where: { tail.hasPrefix($0) }) {
                out += own
                rest = tail.dropFirst(own.count)
            } else {
                out += "\u{241B}"
                rest = tail.dropFirst()
            }
        }
        return out + SafeText.visible(String(rest))
    }

    /// The escape sequences `paint` and `error` write.
    static let ownColors: [String] = (["0"] + Color.allCodes).map { "\u{1B}[\($0)m" }

    /// Prints an error on stderr: as text, or as a JSON object with `--json`.
    public func error(_ error: TimeTrackError) {
        var error = error
        // Reading a script: which line failed, as psql says it.
        if let scriptLine, error.context["scriptLine"] == nil {
            var context = error.context
            context["scriptLine"] = String(scriptLine)
            error = TimeTrackError(error.code, "line \(scriptLine): " + error.message, fix: error.fix, context: context)
        }
        if json {
            let text = SafeText.inertJSON((try? JSONCoding.compactString(JSONValue.object(["error": .object(error.jsonObject)]))) ?? error.description)
            note(text)
        } else {
            note((errorColor ? "\u{1B}[31merror: \u{1B}[0m" : "error: ") + error.description)
        }
    }

    /// Prints a table: aligned columns no wider than `width`, or CSV with `--format csv`.
    public func printTable(_ table: Table, width: Int) {
        guard csv else {
            for row in table.render(width: width) { line(row) }
            return
        }
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        for row in [table.headers] + table.rows { line(row.map(field).joined(separator: ",")) }
    }

    /// Prints a value as pretty JSON on stdout.
    public func printJSON<T: Encodable>(_ value: T) {
        line(SafeText.inertJSON((try? JSONCoding.prettyString(value)) ?? "null"))
    }

    /// Sends buffered stdout to the file descriptor (kept while the pager may take it).
    public func flush() {
        guard !stdoutBuffer.isEmpty, !holding else { return }
        FileHandle.standardOutput.write(Data(stdoutBuffer))
        stdoutBuffer.removeAll(keepingCapacity: true)
    }

    /// Ends holding: output longer than `rows` lines goes through `pager` (run by /bin/sh, as git
    /// does), the rest straight to stdout.
    ///
    /// A pager that cannot start leaves the output on stdout.
    func release(pager: String?, rows: Int) {
        holding = false
        let lines = stdoutBuffer.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        guard let pager, lines >= rows, !stdoutBuffer.isEmpty else { return flush() }
        let data = stdoutBuffer
        guard Pager.show(data, command: pager) else { return flush() }
        stdoutBuffer.removeAll(keepingCapacity: true)
    }

    /// Terminal colors used sparingly.
    public enum Color: String, CaseIterable {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
        static var allCodes: [String] { allCases.map(\.rawValue) }
    }

    /// Wraps text in an ANSI color when colors are on.
    public func paint(_ text: String, _ color: Color) -> String {
        self.color ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
