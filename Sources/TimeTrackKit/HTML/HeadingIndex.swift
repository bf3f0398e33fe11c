import Foundation

/// The headings of a page in document order, for "nearest heading before this item".
public final class HeadingIndex {
    public let headings: [HTMLNode]

    public init(document: HTMLDocument, selector: Selector) {
        headings = document.root.select(selector)
    }

    /// The headings of `index` that `keep` keeps, in the same order.
    public init(_ index: HeadingIndex, keeping keep: (HTMLNode) -> Bool) {
        headings = index.headings.filter(keep)
    }

    /// The last heading that comes before `node` in the document.
    public func nearest(before node: HTMLNode) -> HTMLNode? {
        // Binary search on document order.
        var low = 0, high = headings.count
        while low < high {
            let mid = (low + high) / 2
            if HTMLNode.precedes(headings[mid], node) { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? headings[low - 1] : nil
    }
}
