import Foundation
import TestSupport
import Testing

/// Issue 46 (its second point): a source that may be empty.
///
/// A source that says `"mayBeEmpty": true` (an emergency pop-up, empty on most days) is healthy
/// when empty: exit 0, no problem, nothing held; an alert that
/// comes is imported, and when the page is empty again it is counted missing. An ordinary
/// listing that empties is still held.
@Suite struct EmptySourceTests {
    /// A Finalsite-style pop-up module: empty on a quiet day, one alert on another.
    static func popup(_ alert: String?) -> String {
        let body = alert.map { #"<div class="fsPopup"><div class="fsElementContent"><h2 class="fsTitle">\#($0)</h2><p>Schools are closed.</p></div></div>"# }
        return "<html><body><div class=\"fsPopups\">\(body ?? "")</div></body></html>"
    }

    @Test func anEmptyPopupIsAHealthyRunAndATakenDownAlertIsCountedMissing() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        let box = PageBox(Self.popup(nil))
        setup.server.handle { request in request.path == "/fs/pages/2/page-pops" ? .html(box.get()) : nil }
        try setup.dir.write(
            "imports/closures.json",
            """
            { "id": "closures", "importer": "html", "kind": "announcement", "url": "\(setup.server.base)/fs/pages/2/page-pops",
              "timeZone": "America/Denver", "schedule": "15m", "mayBeEmpty": true, "allowPrivateNetwork": ["127.0.0.1"],
              "options": { "item": "div.fsPopup", "fields": { "title": ".fsTitle", "summary": "p" } } }
            """)
        for _ in 1...10 {
            let quiet = try setup.run(["import", "closures"])
            #expect(quiet.status == 0, "\(quiet.stdout) \(quiet.stderr)")
            #expect(!quiet.stderr.contains("matched nothing") && !quiet.stderr.contains("held"), "\(quiet.stderr)")
        }
        #expect(try setup.sql("SELECT count(*) FROM import_runs WHERE source_id = 'closures' AND status = 'ok'") == "10")
        box.set(Self.popup("All schools closed today: snow"))
        let alert = try setup.run(["import", "closures"])
        #expect(alert.status == 0 && alert.stderr.contains("1 new"), "\(alert.stderr)")
        box.set(Self.popup(nil))
        let gone = try setup.run(["import", "closures"])
        #expect(gone.status == 0 && gone.stderr.contains("1 missing"), "\(gone.stderr)")
        #expect(try setup.sql("SELECT missing_runs FROM items WHERE title LIKE 'All schools closed%'") == "1")
    }

    @Test func anOrdinaryListingThatEmptiesIsStillHeld() throws {
        let setup = try UnattendedRunTests.Setup()
        defer { setup.remove() }
        let box = PageBox(UnattendedRunTests.page(12))
        setup.server.handle { request in request.path == "/news.html" ? .html(box.get()) : nil }
        try setup.source("news", path: "/news.html")
        #expect(try setup.run(["import", "news"]).status == 0)
        box.set("<html><body><p>Site maintenance</p></body></html>")
        let emptied = try setup.run(["import", "news"])
        #expect(emptied.status != 0, "\(emptied.stderr)")
        #expect(try setup.sql("SELECT count(*) FROM items WHERE missing_runs > 0") == "0", "nothing counted missing on a broken page")
    }
}

/// A page a test changes between runs while the server answers from another thread.
final class PageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var page: String
    init(_ page: String) { self.page = page }
    func get() -> String { lock.withLock { page } }
    func set(_ value: String) { lock.withLock { page = value } }
}
