import Foundation
import TimeTrackCore
import TimeTrackKit

/// Fetches http(s) pages. The unattended-runs work (issue 6) adds politeness, robots.txt,
/// validators and address checks here; this protocol is where they plug in.
public protocol HTTPClient: AnyObject {
    /// GETs a URL, refusing bodies over `maxBytes`.
    func get(_ url: URL, maxBytes: Int) throws -> FetchedPage
}
