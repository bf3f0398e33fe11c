import Foundation
import TestSupport
import Testing

/// Issue 38: every picture the export carries has its description beside it: a post's photos
/// are described one by one (`imageAlts`, texts that may hold commas, separated by `|`), and an
/// announcement's picture nobody described says so (`imageAlt: null`).
@Suite struct PhotoDescriptionTests {
    @Test func postPhotosAreDescribedOneByOneAndExportedWithTheirDescriptions() throws {
        let fixture = try ConsoleFixture()
        defer { fixture.remove() }
        let posts = try fixture.json(["list", "posts", "--status", "pending"]) as? [[String: Any]] ?? []
        var withTwo: String?
        for row in posts {
            guard let id = row["id"] as? String, let item = try fixture.json(["show", id]) as? [String: Any] else { continue }
            let content = (item["fields"] as? [String: Any]) ?? [:]
            if (content["imageURLs"] as? [String])?.count == 2 { withTwo = id }
        }
        let id = try #require(withTwo, "the sample has a post with two photos")
        #expect(try fixture.run(["show", id]).stdout.contains("photos 1 ("), "both photos are flagged")
        let edited = try fixture.run(["--as", "ana", "edit", id, "imageAlts=Students browsing the book fair, grades 3 to 5 | Parent volunteers at the till"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(!(try fixture.run(["show", id]).stdout.contains("WCAG 1.1.1")))
        #expect(try fixture.run(["--as", "ana", "approve", "--anyway", id]).status == 0)
        let announcements = try fixture.ids("announcements")
        #expect(try fixture.run(["--as", "ana", "approve", "--anyway"] + announcements).status == 0)
        #expect(try fixture.run(["export", "--format", "json", "--out", fixture.dir.path("out")]).status == 0)
        let exported = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.dir.path("out/posts.json")))) as? [String: Any]
        let post = try #require((exported?["items"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id })
        #expect((post["imageURLs"] as? [String])?.count == 2)
        #expect(post["imageAlts"] as? [String] == ["Students browsing the book fair, grades 3 to 5", "Parent volunteers at the till"], "\(post)")
        let news = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.dir.path("out/announcements.json")))) as? [String: Any]
        for item in news?["items"] as? [[String: Any]] ?? [] where item["imageURL"] != nil {
            #expect(item.keys.contains("imageAlt"), "every picture has its description's key: \(item)")
        }
    }
}
