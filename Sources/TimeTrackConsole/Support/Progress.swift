import Foundation

/// One self-rewriting status line on a terminal's stderr: pages, items, elapsed.
///
/// Silent in a pipe.
final class Progress {
    let label: String
    let enabled: Bool
    let start = Date()
    private var shown = false
    private var last = Date.distantPast

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func update(pages: Int, items: Int) {
        guard enabled, Date().timeIntervalSince(last) > 0.1 else { return }
        last = Date()
        shown = true
        let pagesText = pages > 0 ? "\(pages) pages · " : ""
        let text = String(format: "\r\u{1B}[2K  %@: %@%d items · %.1fs", label, pagesText, items, Date().timeIntervalSince(start))
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// A request in flight: the host, what has arrived, for how long (shown from the first moment).
    func transfer(host: String, bytes: Int, elapsed: TimeInterval) {
        guard enabled, elapsed == 0 || Date().timeIntervalSince(last) > 0.1 else { return }
        last = Date()
        shown = true
        let size = bytes >= 1_048_576 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.0f KB", Double(bytes) / 1024)
        let text = String(format: "\r\u{1B}[2K  %@: fetching from %@ · %@ · %.1fs", label, host, size, elapsed)
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        shown = false
    }
}
