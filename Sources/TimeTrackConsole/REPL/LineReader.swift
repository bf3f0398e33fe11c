import Foundation
import TimeTrackCore

/// What reading a line gave.
enum LineInput: Equatable {
    case line(String)
    /// Ctrl-C: the line is dropped; the console stays.
    case interrupted
    /// Ctrl-D or the end of input.
    case end
}

/// Reads lines from the person at the console.
protocol LineReader: AnyObject {
    /// Shows `prompt` and reads one line.
    func read(prompt: String, remember: Bool) -> LineInput
    /// Saves the history (if the reader keeps one).
    func save()
}

/// Reads from a terminal without line editing: the fallback when libedit is not installed.
final class PlainLineReader: LineReader {
    private var pending: [UInt8] = []

    func read(prompt: String, remember: Bool) -> LineInput {
        FileHandle.standardOutput.write(Data(prompt.utf8))
        Interrupt.clear()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = Self.withoutKeySequences(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
                return .line(line)
            }
            let count = Foundation.read(0, &buffer, buffer.count)
            if count < 0 && errno == EINTR {
                if Interrupt.requested {
                    Interrupt.clear()
                    pending.removeAll()
                    FileHandle.standardOutput.write(Data("\n".utf8))
                    return .interrupted
                }
                continue
            }
            if count <= 0 {
                if pending.isEmpty { return .end }
                let line = Self.withoutKeySequences(String(decoding: pending, as: UTF8.self))
                pending.removeAll()
                return .line(line)
            }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    func save() {}

    /// The line without the sequences keys send (arrows, Home, function keys: `ESC [ ... final`,
    /// `ESC O x`), then what `SafeText` calls unsafe: without a line editor those keys cannot
    /// edit, and their bytes must not become part of a value.
    static func withoutKeySequences(_ line: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = line.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                guard let next = scalars.next() else { break }
                if next == "[" {
                    // CSI: parameters and intermediates up to a final byte in @...~.
                    while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
                } else if next == "O" {
                    _ = scalars.next()
                }
                continue
            }
            if SafeText.isUnsafe(scalar.value) { continue }
            out.append(scalar)
        }
        return String(out)
    }
}

/// A line reader made when first asked: a one-shot command that never prompts never loads
/// libedit; one that does (the review after `import`) gets the same line editor as the console.
final class LazyLineReader: LineReader {
    private let make: () -> LineReader
    private var made: LineReader?

    init(_ make: @escaping () -> LineReader) { self.make = make }

    private var reader: LineReader {
        if let made { return made }
        let reader = make()
        made = reader
        return reader
    }

    func read(prompt: String, remember: Bool) -> LineInput { reader.read(prompt: prompt, remember: remember) }
    func save() { made?.save() }
}

/// libedit's readline interface, loaded at run time so the program runs without it.
final class EditLineReader: LineReader {
    typealias ReadlineFn = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    typealias HistoryFn = @convention(c) (UnsafePointer<CChar>?) -> Int32
    typealias StifleFn = @convention(c) (Int32) -> Void
    typealias GeneratorFn = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias MatchesFn = @convention(c) (UnsafePointer<CChar>?, GeneratorFn?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    typealias AttemptedFn = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    private let handle: UnsafeMutableRawPointer
    private let readline: ReadlineFn
    private let addHistory: HistoryFn
    private let writeHistory: HistoryFn
    private let historyPath: String?

    /// Candidates for TAB completion given the whole line so far and the word being completed.
    nonisolated(unsafe) static var completer: ((_ line: String, _ word: String) -> [String])?
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0
    nonisolated(unsafe) static var completionMatches: MatchesFn?
    nonisolated(unsafe) static var lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// Loads libedit, or returns nil when it is not installed.
    ///
    /// Without a history path, lines are neither read from nor saved to a history file (prompts
    /// inside one command).
    init?(historyPath: String?) {
        EditLineReader.useUTF8Characters()
        var loaded: UnsafeMutableRawPointer?
        for name in ["libedit.so.2", "libedit.so", "libedit.so.0", "libedit.dylib"] {
            if let h = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                loaded = h
                break
            }
        }
        guard let handle = loaded,
            let readline = dlsym(handle, "readline"), let add = dlsym(handle, "add_history"),
            let readHistory = dlsym(handle, "read_history"), let write = dlsym(handle, "write_history")
        else { return nil }
        self.handle = handle
        self.readline = unsafeBitCast(readline, to: ReadlineFn.self)
        self.addHistory = unsafeBitCast(add, to: HistoryFn.self)
        self.writeHistory = unsafeBitCast(write, to: HistoryFn.self)
        self.historyPath = historyPath
        if let stifle = dlsym(handle, "stifle_history") { unsafeBitCast(stifle, to: StifleFn.self)(1000) }
        if let historyPath { _ = unsafeBitCast(readHistory, to: HistoryFn.self)(historyPath) }
        if let name = dlsym(handle, "rl_readline_name") {
            name.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(strdup("timetrack-admin"))
        }
        if let matches = dlsym(handle, "rl_completion_matches") ?? dlsym(handle, "completion_matches"),
            let attempted = dlsym(handle, "rl_attempted_completion_function")
        {
            EditLineReader.completionMatches = unsafeBitCast(matches, to: MatchesFn.self)
            EditLineReader.lineBuffer = dlsym(handle, "rl_line_buffer")?.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
            let function: AttemptedFn = { text, _, _ in
                guard let matcher = EditLineReader.completionMatches else { return nil }
                return matcher(text) { text, state in
                    if state == 0 {
                        let word = text.map { String(cString: $0) } ?? ""
                        let line = EditLineReader.lineBuffer?.pointee.map { String(cString: $0) } ?? word
                        EditLineReader.matches = EditLineReader.completer?(line, word) ?? []
                        EditLineReader.matchIndex = 0
                    }
                    guard EditLineReader.matchIndex < EditLineReader.matches.count else { return nil }
                    defer { EditLineReader.matchIndex += 1 }
                    return strdup(EditLineReader.matches[EditLineReader.matchIndex])
                }
            }
            attempted.assumingMemoryBound(to: AttemptedFn?.self).pointee = function
        }
    }

    func read(prompt: String, remember: Bool) -> LineInput {
        Interrupt.clear()
        guard let raw = readline(prompt) else {
            if Interrupt.requested {
                Interrupt.clear()
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .interrupted
            }
            return .end
        }
        defer { free(raw) }
        let line = String(cString: raw)
        if Interrupt.requested {
            Interrupt.clear()
            return .interrupted
        }
        if remember && !line.trimmingCharacters(in: .whitespaces).isEmpty { _ = addHistory(line) }
        return .line(line)
    }

    func save() {
        // libedit makes the file it saves to private (mode 0600): only a regular file, or none
        // yet, is saved to. A history path naming /dev/null or another device is left alone
        // (as root, its mode changed for every user of the machine).
        guard let historyPath, EditLineReader.isRegularOrMissing(historyPath) else { return }
        _ = writeHistory(historyPath)
    }

    /// Makes the C library read characters as UTF-8, as the tool writes them.
    ///
    /// libedit decodes
    /// the prompt and the line with the locale's character set, and in the "C" locale a prompt
    /// holding an emoji or an accented letter decoded to nothing, which libedit then read
    /// through (a segmentation fault). The environment's locale is taken when it is UTF-8,
    /// else C.UTF-8 (glibc's, always there). Only character handling changes (LC_CTYPE).
    static func useUTF8Characters() {
        func utf8() -> Bool {
            guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
            let name = String(cString: codeset).lowercased()
            return name == "utf-8" || name == "utf8"
        }
        if setlocale(LC_CTYPE, "") != nil, utf8() { return }
        if setlocale(LC_CTYPE, "C.UTF-8") == nil { _ = setlocale(LC_CTYPE, "C.utf8") }
    }

    static func isRegularOrMissing(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
