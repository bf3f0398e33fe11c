import Foundation
import TestSupport
import Testing

/// Issue 35: `undo` takes back exactly the operator's last action, of each kind, names it
/// before doing it, and puts the item back as it was (status, fields, what waits, locks).
@Suite struct UndoEveryActionTests {
    /// One kind of action: what sets it up, the action, and the item it is about.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Filled with the sample's ids: `{a}` an announcement, `{t}` a ticket, `{r}` an absence, `{e}` an event.
        var setup: [[String]]
        var action: [String]
        var item: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "approve", setup: [], action: ["approve", "{a}"], item: "{a}"),
        Case(name: "reject", setup: [], action: ["reject", "{a}", "--reason", "duplicate"], item: "{a}"),
        Case(name: "edit", setup: [], action: ["edit", "{e}", "title=Fall break"], item: "{e}"),
        Case(name: "edit of a published item", setup: [["approve", "{a}", "--anyway"]], action: ["edit", "{a}", "summary=New summary"], item: "{a}"),
        Case(name: "unlock", setup: [["edit", "{e}", "title=Fall break"]], action: ["unlock", "{e}", "title"], item: "{e}"),
        Case(
            name: "revert", setup: [["approve", "{a}", "--anyway"], ["edit", "{a}", "title=Second version"]], action: ["revert", "{a}"], item: "{a}"),
        Case(name: "reply", setup: [], action: ["reply", "{t}", "B lunch is at 12:10."], item: "{t}"),
        Case(name: "close", setup: [["reply", "{t}", "Fixed."]], action: ["close", "{t}"], item: "{t}"),
        Case(name: "reopen", setup: [["close", "{t}"]], action: ["reopen", "{t}", "--reason", "asked again"], item: "{t}"),
        Case(name: "archive", setup: [], action: ["archive", "{e}"], item: "{e}"),
        Case(name: "restore", setup: [["archive", "{e}"]], action: ["restore", "{e}"], item: "{e}"),
        Case(name: "approve of an absence (excused)", setup: [], action: ["approve", "{r}"], item: "{r}"),
    ]

    /// What a person sees of an item: status, fields, what waits, locks.
    static func seen(_ fixture: ConsoleFixture, _ id: String) throws -> [String: String] {
        let object = try fixture.json(["show", id]) as? [String: Any] ?? [:]
        var out: [String: String] = [:]
        for key in ["status", "fields", "pending", "lockedFields", "rejectReason", "archivedFrom"] {
            guard let value = object[key] else { continue }
            let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
            out[key] = String(decoding: data, as: UTF8.self)
        }
        return out
    }

    @Test(arguments: cases)
    func undoTakesBackExactlyThisAction(_ test: Case) throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let ids = [
            "{a}": try fixture.ids("announcements")[0], "{t}": try fixture.ids("tickets", status: "published").first ?? fixture.ids("tickets")[0],
            "{r}": try fixture.ids("absences")[0], "{e}": try fixture.ids("events")[0],
        ]
        func fill(_ words: [String]) -> [String] { words.map { ids[$0] ?? $0 } }
        for step in test.setup {
            let done = try fixture.run(["--as", "ana"] + fill(step))
            #expect(done.status == 0, "setup \(step): \(done.stderr)")
        }
        let id = ids[test.item] ?? test.item
        let before = try Self.seen(fixture, id)
        let acted = try fixture.run(["--as", "ana"] + fill(test.action))
        #expect(acted.status == 0, "\(test.action): \(acted.stdout)\(acted.stderr)")
        #expect(try Self.seen(fixture, id) != before, "the action changed nothing to take back")
        let undone = try fixture.run(["--as", "ana", "undo"])
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(undone.stdout.hasPrefix("taking back your \(test.action[0]) of \(id)"), "undo names what it takes back first: \(undone.stdout)")
        #expect(try Self.seen(fixture, id) == before, "undo of \(test.name) did not put \(id) back: \(undone.stdout)")
    }

    @Test func undoTakesBackTheLastActionNotAnOlderOne() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let news = try fixture.ids("announcements")[0], event = try fixture.ids("events")[0]
        #expect(try fixture.run(["--as", "ana", "approve", news, "--anyway"]).status == 0)
        #expect(try fixture.run(["--as", "ana", "edit", event, "title=Fall break"]).status == 0)
        let list = try fixture.run(["--as", "ana", "undo", "--list"]).stdout
        #expect(list.contains("next") && list.range(of: "next +edit +\(event)", options: .regularExpression) != nil, "\(list)")
        let undone = try fixture.run(["--as", "ana", "undo"])
        #expect(undone.stdout.hasPrefix("taking back your edit of \(event) (title)"), "\(undone.stdout)")
        #expect(try fixture.ids("announcements", status: "published").contains(news), "the approval stays")
        let shown = try fixture.json(["show", event]) as? [String: Any]
        #expect((shown?["fields"] as? [String: Any])?["title"] as? String != "Fall break")
        // The next undo takes back the approval; the one after says plainly there is nothing left.
        #expect(try fixture.run(["--as", "ana", "undo"]).stdout.hasPrefix("taking back your approve of \(news)"))
        let nothing = try fixture.run(["--as", "ana", "undo"])
        #expect(nothing.status == 0 && nothing.stdout.hasPrefix("nothing to undo"), "\(nothing.stdout)")
    }

    @Test func aBulkApprovalIsTakenBackWhole() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let news = Array(try fixture.ids("announcements").prefix(3))
        #expect(try fixture.run(["--as", "ana", "approve", "--anyway"] + news).status == 0)
        let undone = try fixture.run(["--as", "ana", "undo"])
        #expect(undone.stdout.hasPrefix("taking back your approve of \(news.joined(separator: ", "))"), "\(undone.stdout)")
        #expect(undone.stdout.contains("took back 3 of 3"), "\(undone.stdout)")
        #expect(Set(try fixture.ids("announcements")).isSuperset(of: news))
    }

    @Test func aDecisionSinceIsSaidPlainlyAndNothingIsTakenBack() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let event = try fixture.ids("events")[0]
        #expect(try fixture.run(["--as", "ana", "operator", "add", "lee", "--role", "admin"]).status == 0)
        #expect(try fixture.run(["--as", "ana", "edit", event, "title=Fall break"]).status == 0)
        #expect(try fixture.run(["--as", "lee", "archive", event]).status == 0)
        let undone = try fixture.run(["--as", "ana", "undo"])
        #expect(undone.status == 3, "\(undone.stdout)\(undone.stderr)")
        #expect(undone.stdout.contains("\(event): left alone: changed since (archive by lee"), "\(undone.stdout)")
    }
}
