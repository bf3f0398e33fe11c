import Foundation

/// What an importer had to guess about an item, for a reviewer to check: the note people read
/// ("year guessed: 2026 (start)"), and what code decides by, as typed facts (never the note's
/// wording).
public struct Guess: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// For people.
    public var note: String
    /// A year guessed against what the page's nearest heading says (an old calendar read as
    /// this year's): a run whose every dated item has one is held.
    public var contradictsHeading = false

    public init(_ note: String, contradictsHeading: Bool = false) {
        self.note = note
        self.contradictsHeading = contradictsHeading
    }

    public init(stringLiteral value: String) { self.init(value) }
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    public var description: String { note }
}
