import Foundation
import TimeTrackCore
import TimeTrackKit

/// Fetches http(s) pages.
///
/// The unattended-runs work (issue 6) adds politeness, robots.txt,
/// validators and address checks here; this protocol is where they plug in.
public protocol HTTPClient: AnyObject {
    /// GETs a URL, refusing bodies over `maxBytes`.
    func get(_ url: URL, maxBytes: Int) throws -> FetchedPage
    /// Seconds one source may take, reading and parsing included (`sourceSeconds`).
    var sourceSeconds: TimeInterval { get }
}

extension HTTPClient {
    /// The default budget of `FetchSettings`.
    public var sourceSeconds: TimeInterval { FetchSettings().sourceSeconds }
}
