/// An importer's name as a definition says it (`"importer": "html"`), typed: code decides by
/// these values, never by a string written where it decides.
///
/// The built-in importers are the constants; an external importer's name (its plugin's) is any
/// other value.
public struct ImporterName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Listings and pages read by selectors.
    public static let html = ImporterName(rawValue: "html")
    /// RSS and Atom feeds.
    public static let feed = ImporterName(rawValue: "feed")
    /// iCalendar files and `webcal:` addresses.
    public static let ical = ImporterName(rawValue: "ical")
    /// JSON answers.
    public static let json = ImporterName(rawValue: "json")
    /// WordPress's REST API.
    public static let wordpress = ImporterName(rawValue: "wordpress")
    /// An article page's own metadata (JSON-LD, OpenGraph).
    public static let metadata = ImporterName(rawValue: "metadata")
    /// Document libraries (School Info links).
    public static let documents = ImporterName(rawValue: "documents")

    /// Whether its items come structured (a feed, a calendar, an API) rather than read from a
    /// page's markup.
    public var isStructured: Bool { [.feed, .ical, .json, .wordpress].contains(self) }
}

extension SourceDefinition {
    /// The definition's importer, typed.
    public var importerName: ImporterName { ImporterName(rawValue: importer) }
}
