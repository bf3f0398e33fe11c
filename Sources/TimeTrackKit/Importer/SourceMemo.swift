import Foundation
import TimeTrackCore

/// What a whole reading of a source found, remembered so that the next run can tell the source
/// unchanged without the pages' own memos: when every page it read still has the file stamp it
/// had, and every item it found is settled (`ItemMemo`), reading the pages again would find the
/// same items with the same raw values, so the run's result is those items, all settled.
///
/// Only a clean reading is remembered: local pages that all had a stamp, no problem, no page
/// unread, and every item covered by the item memo (none guessed, none refused). Every reading
/// that does read pages writes the entry again, empty when it was not clean, so an entry never
/// outlives the pages it describes. Stamps change whenever a file does (its status-change time
/// moves on every write and rename), so a page cannot come back to a remembered stamp.
public struct SourceMemo: Equatable, Sendable, MemoCodable {
    /// The page memo row holding it (not a URL any page can have).
    public static let url = "source:"
    /// Its `page_hash` column (the row is found by URL and signature).
    public static let pageHash = "source"

    public struct Item: Equatable, Sendable {
        public var key: String
        /// The digest of its raw values (`ItemMemo.digest`, as the importer combines them).
        public var digest: String
        /// Where it was found ("page 2 item 5").
        public var location: String

        public init(key: String, digest: String, location: String) {
            (self.key, self.digest, self.location) = (key, digest, location)
        }
    }

    /// A page read, and a 32-bit check of its file's stamp (FNV-1a: a changed page is found
    /// without looking at the rest; `stamps` is what decides).
    public struct Page: Equatable, Sendable {
        public var url: String
        public var check: UInt32

        public init(url: String, check: UInt32) {
            (self.url, self.check) = (url, check)
        }
    }

    /// The source's first page as the reading was given it (another `url`, or `--file`, is
    /// another reading).
    public var firstURL: String
    /// Every page read, in order.
    public var pages: [Page]
    /// The SHA-256 of the pages' file stamps, in order (`stampsDigest`).
    public var stamps: String
    /// Every item found, in order.
    public var items: [Item]
    public var duplicatesMerged: Int

    public init(firstURL: String, pages: [Page], stamps: String, items: [Item], duplicatesMerged: Int) {
        self.firstURL = firstURL
        self.pages = pages
        self.stamps = stamps
        self.items = items
        self.duplicatesMerged = duplicatesMerged
    }

    /// What a reading read: each page with its file's stamp.
    public init(firstURL: String, stamped: [(url: String, stamp: String)], items: [Item], duplicatesMerged: Int) {
        self.init(
            firstURL: firstURL, pages: stamped.map { Page(url: $0.url, check: Self.check($0.stamp)) }, stamps: Self.stampsDigest(stamped.map(\.stamp)),
            items: items,
            duplicatesMerged: duplicatesMerged)
    }

    /// One digest for the stamps of a reading's pages, in order.
    public static func stampsDigest(_ stamps: [String]) -> String {
        SHA256.hex(stamps.joined(separator: "\n"))
    }

    /// FNV-1a of a stamp's bytes.
    public static func check(_ stamp: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in stamp.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// Format version: a reader of another version finds nothing.
    static let version = 1

    /// Numbers and lengths in as few bytes as they need; URLs and keys as the bytes they share
    /// with the one before, and the rest (a source's pages and keys mostly differ in their last
    /// path segment).
    public func write(to writer: inout MemoWriter) {
        writer.writeCompact(Self.version)
        writer.writeCompact(firstURL)
        writer.writeCompact(stamps)
        writer.writeCompact(duplicatesMerged)
        writer.writeCompact(pages.count)
        var previous = ""
        for page in pages {
            Self.writeShared(page.url, after: previous, into: &writer)
            previous = page.url
            writer.writeCompact(Int(page.check))
        }
        writer.writeCompact(items.count)
        previous = ""
        for item in items {
            Self.writeShared(item.key, after: previous, into: &writer)
            previous = item.key
            writer.writeCompact(item.digest)
            writer.writeCompact(item.location)
        }
    }

    /// Decodes an entry; nil for an empty one (the last reading was not clean) or anything malformed.
    public init?(reading reader: inout MemoReader) {
        guard reader.readCompact() == Self.version, let firstURL = reader.readCompactString(), let stamps = reader.readCompactString(),
            let merged = reader.readCompact(),
            let pageCount = reader.readCompact(), pageCount > 0, pageCount <= reader.remaining
        else { return nil }
        var pages: [Page] = []
        pages.reserveCapacity(pageCount)
        var previous = ""
        for _ in 0..<pageCount {
            guard let url = Self.readShared(after: previous, from: &reader), let check = reader.readCompact(), let check32 = UInt32(exactly: check) else {
                return nil
            }
            pages.append(Page(url: url, check: check32))
            previous = url
        }
        guard let itemCount = reader.readCompact(), itemCount <= reader.remaining else { return nil }
        var items: [Item] = []
        items.reserveCapacity(itemCount)
        previous = ""
        for _ in 0..<itemCount {
            guard let key = Self.readShared(after: previous, from: &reader), let digest = reader.readCompactString(), let location = reader.readCompactString()
            else { return nil }
            items.append(Item(key: key, digest: digest, location: location))
            previous = key
        }
        guard reader.isAtEnd else { return nil }
        self.init(firstURL: firstURL, pages: pages, stamps: stamps, items: items, duplicatesMerged: merged)
    }

    /// How many UTF-8 bytes `text` shares with `previous` (cut at a scalar's start), then the rest.
    static func writeShared(_ text: String, after previous: String, into writer: inout MemoWriter) {
        var shared = 0
        for (a, b) in zip(text.unicodeScalars, previous.unicodeScalars) {
            guard a == b else { break }
            shared += UTF8.width(a)
        }
        writer.writeCompact(shared)
        writer.writeCompact(String(decoding: text.utf8.dropFirst(shared), as: UTF8.self))
    }

    static func readShared(after previous: String, from reader: inout MemoReader) -> String? {
        guard let shared = reader.readCompact(), shared <= previous.utf8.count, let rest = reader.readCompactString() else { return nil }
        return String(decoding: previous.utf8.prefix(shared), as: UTF8.self) + rest
    }
}

extension ImportContext {
    /// The source memo written for `signature` (one query), if its last reading was clean.
    public func rememberedSource(signature: String) -> SourceMemo? {
        memo?.recall(sourceID: source.id, url: SourceMemo.url, pageHash: SourceMemo.pageHash, signature: signature).flatMap(SourceMemo.init)
    }

    /// Queues the source memo to write after the run: `saved`, or an empty entry that says the
    /// reading was not clean (so an older entry cannot serve).
    public func rememberSource(_ saved: SourceMemo?, signature: String) {
        guard memo != nil else { return }
        memoEntries.append(MemoEntry(url: SourceMemo.url, pageHash: SourceMemo.pageHash, signature: signature, payload: saved?.encoded ?? Data()))
    }

    /// The result of reading the source again when nothing it read can have changed: every
    /// remembered item settled, every remembered page's file with its remembered stamp.
    ///
    /// nil as soon as anything differs (then the source is read as usual). Reads no page.
    public func unchangedReading(_ saved: SourceMemo) -> ImportResult? {
        guard let items, saved.firstURL == source.url.absoluteString else { return nil }
        var result = ImportResult()
        result.settled.reserveCapacity(saved.items.count)
        for item in saved.items {
            guard let settled = items.settled(key: item.key, digest: item.digest) else { return nil }
            result.settled.append(SettledItem(key: item.key, dated: settled.dated, location: item.location))
        }
        var stamps: [String] = []
        stamps.reserveCapacity(saved.pages.count)
        for page in saved.pages {
            guard shouldStop?() != true, let url = URL(string: page.url), let stamp = fetcher.stamp(of: url)?.stamp, SourceMemo.check(stamp) == page.check
            else { return nil }
            stamps.append(stamp)
        }
        guard SourceMemo.stampsDigest(stamps) == saved.stamps else { return nil }
        result.pagesFetched = saved.pages.count
        result.duplicatesMerged = saved.duplicatesMerged
        return result
    }
}
