import Foundation
import TestSupport
import Testing

/// Issue 45, acceptance 3: the recipe of docs/discover.md ("Adding a platform from a capture"),
/// followed with the recognizer file the page gives, on a page in Granicus's real markup.
@Suite struct DiscoverRecipeTests {
    /// The recognizer between the recipe's markers.
    static func recipeRecognizer() throws -> String {
        let text = try String(contentsOf: ConsoleFixture.root.appendingPathComponent("docs/discover.md"), encoding: .utf8)
        let open = try #require(text.range(of: "<!-- recipe-recognizer -->"))
        let close = try #require(text.range(of: "<!-- /recipe-recognizer -->"))
        return String(text[open.upperBound..<close.lowerBound]).replacingOccurrences(of: "```json", with: "").replacingOccurrences(of: "```", with: "")
    }

    @Test func theRecipeMakesDiscoverRecognizeThePlatform() throws {
        let site = try DiscoverSite("discover-recipe")
        site.route("/ViewPublisher.php?view_id=1", PlatformPages.granicus)
        let arguments = ["discover", site.server.base + "/ViewPublisher.php?view_id=1", "--allow-private", "--zone", "America/Denver"]
        // Step 2: before the recognizer, no platform; the table is inferred.
        let before = try site.run(arguments)
        #expect(before.stdout.contains("platform: none recognized"), "\(before.stdout)")
        // Step 5: the file saved in recognizers/, discover again.
        try site.dir.write("imports/recognizers/granicus.json", try Self.recipeRecognizer())
        let after = try site.run(arguments)
        #expect(after.stdout.contains("platform: Granicus (a Granicus ViewPublisher address; Granicus's archive rows (tr.listingRow))"), "\(after.stdout)")
        #expect(after.stdout.contains("found by: Granicus recognizer: archive"), "\(after.stdout)")
        #expect(after.stdout.contains("event · html · 3 items, 0 problems · confidence high"), "\(after.stdout)")
        #expect(!after.stdout.contains("recognizer not used"), "\(after.stdout) \(after.stderr)")
    }
}
