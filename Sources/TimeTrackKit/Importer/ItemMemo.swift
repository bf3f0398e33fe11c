import Foundation
import TimeTrackCore

/// Remembers, per item, which content the raw values it was read from normalized to, so that an
/// unchanged item is counted unchanged without normalizing, encoding and hashing it again.
///
/// An item is *settled* when the digest of its raw values (and of how they are read: kind, zone,
/// options, importer and normalizer versions) is the one remembered, and the content hash
/// remembered with it is the store's base hash for the item, which is neither missing nor
/// locked: exactly the case where reconciling it would write nothing. Items whose reading had to
/// guess (a year, a day, a time: anything that depends on the run's date) are never remembered.
public final class ItemMemo: @unchecked Sendable {
    /// Bump when normalizing gives other content for the same raw values.
    public static let normalizerVersion = "1"
    /// Page memo URLs of item entries start with this.
    static let prefix = "item:"

    let signature: String
    let remembered: [String: MemoRecord]
    let settledHashes: [String: String]

    /// What the store remembers of `source`'s items: `remembered` is the memo's item entries by
    /// key (`split`); the store's base hashes are read in one query.
    public init(source: SourceDefinition, importer: String, remembered: [String: MemoRecord], memo: PageMemo) {
        var how = "\(importer)|\(ItemMemo.normalizerVersion)|\(source.kind.rawValue)|\(source.timeZone.identifier)|\(source.school ?? "")|"
        how += (source.baseURL?.absoluteString ?? "") + "|" + ((try? JSONCoding.compactString(JSONValue.object(source.options))) ?? "")
        signature = SHA256.hex(how)
        self.remembered = remembered
        settledHashes = memo.settledHashes(sourceID: source.id)
    }

    /// Splits everything the memo holds for a source (`recallAll` with an empty prefix) into
    /// its pages' entries, by URL, and its items' entries, by key.
    public static func split(_ all: [String: MemoRecord]) -> (pages: [String: MemoRecord], items: [String: MemoRecord]) {
        var pages: [String: MemoRecord] = [:]
        var items: [String: MemoRecord] = [:]
        for (url, record) in all {
            if url.hasPrefix(prefix) { items[String(url.dropFirst(prefix.count))] = record } else { pages[url] = record }
        }
        return (pages, items)
    }

    /// The digest of an item's raw values: names and values in name order, separated by bytes
    /// that cannot occur in either.
    public static func digest(_ raw: RawItem) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.values.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 })
        for key in raw.values.keys.sorted() {
            bytes.append(contentsOf: key.utf8)
            bytes.append(0x1F)
            bytes.append(contentsOf: (raw.values[key] ?? "").utf8)
            bytes.append(0x1E)
        }
        return SHA256.hex(bytes)
    }

    /// Whether the item read as `digest` is settled: the same raw values as when its stored
    /// content was made, and nothing in the store that reconciling would change.
    public func isSettled(key: String, digest: String) -> Bool { settled(key: key, digest: digest) != nil }

    /// The same, with whether the item's content is dated (the shrink guard counts dated items);
    /// nil when it is not settled.
    public func settled(key: String, digest: String) -> (hash: String, dated: Bool)? {
        guard let record = remembered[key], record.pageHash == digest, record.signature == signature, let stored = settledHashes[key],
            let (hash, dated) = ItemMemo.read(record.payload), hash == stored
        else { return nil }
        return (hash, dated)
    }

    /// The memo entry that says `digest` normalizes to `contentHash` for `key` (nil when the
    /// memo says so already).
    public func entry(key: String, digest: String, contentHash: String, dated: Bool) -> MemoEntry? {
        let payload = Data((contentHash + (dated ? " dated" : "")).utf8)
        if let record = remembered[key], record.pageHash == digest, record.signature == signature, record.payload == payload { return nil }
        return MemoEntry(url: ItemMemo.prefix + key, pageHash: digest, signature: signature, payload: payload)
    }

    /// A payload's content hash and whether the content is dated.
    static func read(_ payload: Data) -> (String, Bool)? {
        let text = String(decoding: payload, as: UTF8.self)
        let parts = text.split(separator: " ")
        guard let hash = parts.first, parts.count <= 2 else { return nil }
        return (String(hash), parts.count == 2 && parts[1] == "dated")
    }
}
