import Foundation
import TimeTrackCore
import TimeTrackKit

/// A source `discover` proposes: its definition, how it was found, and what it reads now.
public struct Proposal: Sendable {
    /// How sure the tool is that the definition reads the source right.
    public enum Confidence: String, Sendable, Comparable {
        case low, medium, high
        public static func < (a: Confidence, b: Confidence) -> Bool {
            let order: [Confidence] = [.low, .medium, .high]
            return (order.firstIndex(of: a) ?? 0) < (order.firstIndex(of: b) ?? 0)
        }
    }

    /// What was read with the definition: how many items, the first three, the problems.
    public struct Sample: Sendable {
        public var count: Int
        public var items: [ExtractedItem]
        public var problems: [ImportProblem]
        /// Every item's title, folded (case, spaces): what tells two proposals of the same
        /// content apart from two sources.
        public var titles: Set<String> = []
    }

    /// Where a proposal comes from: a feed or API the site declares, a recognized platform's
    /// page, or inference (read, and dropped when it reads nothing).
    public enum Origin: Sendable, Equatable { case declared, recognized, inferred }

    public var id: String
    public var origin: Origin
    public var kind: ItemKind
    public var importer: ImporterName
    /// The whole definition, as it would be written (without `enabled`).
    public var definition: [String: JSONValue]
    /// "Finalsite recognizer: news page", "a feed", "inferred".
    public var how: String
    /// Why: the fingerprints that matched, or what the inference saw.
    public var why: String
    public var sample: Sample?
    public var confidence: Confidence = .low
    /// Proposals folded into this one because they read the same items (a feed and the page it
    /// mirrors): their ids and addresses, named, not written.
    public var sameContent: [(id: String, url: String)] = []

    /// The source's address.
    public var url: String { definition["url"]?.stringValue ?? "" }
}

/// What `discover` found on a site.
public struct DiscoveryResult: Sendable {
    public var proposals: [Proposal] = []
    /// Each platform recognized, and why.
    public var platforms: [(platform: String, why: [String])] = []
    public var pagesRead = 0
    /// Pages that could not be read, and recognizer files that could not be used.
    public var notes: [String] = []
    /// The crawl stopped early (Ctrl-C): what was found so far.
    public var interrupted = false
}
