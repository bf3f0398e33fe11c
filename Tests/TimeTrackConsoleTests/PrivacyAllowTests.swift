import Foundation
import TestSupport
import Testing

/// The privacy check and the district's own contacts (issue 35: the district's e-mail and office
/// phone were flagged in most ordinary news, and there was no allow list): e-mails at the
/// district's own site domains pass by default, `privacy allow` adds phones, addresses and
/// domains, anything else is still flagged, and `A` goes on past flagged items, naming them.
@Suite struct PrivacyAllowTests {
    static let page = """
        <html><body><main>
        <article class="news"><h2><a href="/news/1">Picture Day Is Friday</a></h2><p>Questions? E-mail info@district.example or call the office at\
         (555) 555-0100.</p></article>
        <article class="news"><h2><a href="/news/2">Bus Routes Posted</a></h2><p>Routes are online; the transportation office is at\
         transport@district.example.</p></article>
        <article class="news"><h2><a href="/news/3">Booster Club Sale</a></h2><p>Orders go to jane.parent@gmail.com by Friday.</p></article>
        <article class="news"><h2><a href="/news/4">Library Hours</a></h2><p>The library is open until 5.</p></article>
        </main></body></html>
        """

    func setUp() throws -> (TemporaryDirectory, (([String]) throws -> Binaries.Result)) {
        let dir = try TemporaryDirectory("privacy-allow")
        try dir.write("imports/news.html", Self.page)
        try dir.write(
            "imports/news.json",
            #"{"id": "news", "importer": "html", "kind": "announcement", "url": "news.html", "baseURL": "https://www.district.example/news","#
                + #" "timeZone": "America/Chicago", "options": {"item": "article.news", "fields": {"title": "h2 a", "link": "h2 a@href", "summary": "p"}}}"#
        )
        let run: ([String]) throws -> Binaries.Result = { words in
            try Binaries.run("timetrack-admin", ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana"] + words)
        }
        #expect(try run(["import", "news", "--no-review"]).status == 0)
        return (dir, run)
    }

    @Test func theDistrictsOwnContactsPassOthersAreFlagged() throws {
        let (dir, run) = try setUp()
        defer { dir.remove() }
        let listed = try run(["review"]).stdout
        // The office phone is flagged until allowed; the district's e-mail never; a parent's always.
        #expect(listed.contains("NEW ⚠ phone number") && listed.contains("Picture Day"), "\(listed)")
        #expect(!(listed.split(separator: "\n").first { $0.contains("Bus Routes") } ?? "").contains("⚠"), "\(listed)")
        #expect((listed.split(separator: "\n").first { $0.contains("Booster Club") } ?? "").contains("⚠ e-mail address"), "\(listed)")
        #expect(try run(["approve", "a1"]).status != 0)
        #expect(try run(["approve", "a2"]).status == 0)
        let allowed = try run(["privacy", "allow", "(555) 555-0100"])
        #expect(allowed.status == 0 && allowed.stdout.contains("allowed: phone"), "\(allowed.stdout)\(allowed.stderr)")
        #expect(try String(contentsOfFile: dir.path("imports/_privacy.json"), encoding: .utf8).contains("555"))
        #expect(try run(["approve", "a1"]).status == 0)
        #expect(try run(["approve", "a3"]).status != 0, "a parent's gmail address is still flagged")
        #expect(try run(["privacy", "allow", "not a value"]).status == 2)
        #expect(try run(["privacy"]).stdout.contains("district.example"))
    }

    @Test func bulkApprovalGoesOnPastFlaggedItems() throws {
        let (dir, _) = try setUp()
        defer { dir.remove() }
        let pty = try PseudoTerminal(
            Binaries.path("timetrack-admin"),
            ["--store", dir.path("s.sqlite"), "--imports", dir.path("imports"), "--as", "ana", "review", "--kind", "announcements"], rows: 24,
            columns: 80)
        #expect(pty.expect("[a]pprove") != nil, "\(pty.transcript)")
        pty.send("A\r")
        #expect(pty.expect("[y/N]") != nil, "\(pty.transcript)")
        pty.send("y\r")
        #expect(pty.expect("left for you by the privacy check: a1, a3") != nil, "\(pty.transcript)")
        #expect(pty.waitForExit() == 0, "\(pty.transcript)")
        #expect(pty.transcript.contains("approved a2") && pty.transcript.contains("approved a4"), "\(pty.transcript)")
    }
}
