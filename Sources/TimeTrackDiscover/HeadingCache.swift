import Foundation
import TimeTrackKit

/// The page's headings of each shape, found once for all the groups read (a binary search for
/// the nearest one before a block: no group costs the page's size again).
final class HeadingCache {
    private var indexes: [String: HeadingIndex?] = [:]

    func index(_ shape: String, in document: HTMLDocument) -> HeadingIndex? {
        if let known = indexes[shape] { return known }
        let index = (try? Selector.compiled(shape)).map { HeadingIndex(document: document, selector: $0) }
        indexes[shape] = index
        return index
    }
}
