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
    static let prefix = ItemMemoKeys.prefix

    let signature: String
    let remembered: [String: RememberedItem]

    /// What the store remembers of `source`'s items, with their stored hashes: one query.
    public init(source: SourceDefinition, importer: String, memo: any PageMemoReader) {
        var how = "\(importer)|\(ItemMemo.normalizerVersion)|\(source.kind.rawValue)|\(source.timeZone.identifier)|\(source.school ?? "")|"
        how += (source.baseURL?.absoluteString ?? "") + "|" + JSONValue.object(source.options).canonicalText
        signature = SHA256.hex(how)
        remembered = memo.rememberedItems(sourceID: source.id, signature: signature)
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
        guard let record = remembered[key], record.digest == digest, let stored = record.storedHash, let dated = ItemMemo.dated(record.payload, saying: stored)
        else {
            return nil
        }
        return (stored, dated)
    }

    /// The memo entry that says `digest` normalizes to `contentHash` for `key` (nil when the
    /// memo says so already).
    public func entry(key: String, digest: String, contentHash: String, dated: Bool) -> MemoEntry? {
        let payload = Data((contentHash + (dated ? " dated" : "")).utf8)
        if let record = remembered[key], record.digest == digest, record.payload == payload { return nil }
        return MemoEntry(url: ItemMemo.prefix + key, pageHash: digest, signature: signature, payload: payload)
    }

    /// Whether the content `payload` describes is dated, when its hash is `hash` (the payload is
    /// the hash, then ` dated` for a dated item); nil when it says another hash.
    ///
    /// Compared as bytes: this runs for every item of every unchanged source.
    static func dated(_ payload: Data, saying hash: String) -> Bool? {
        var hash = hash
        return hash.withUTF8 { expected -> Bool? in
            payload.withUnsafeBytes { bytes -> Bool? in
                guard !expected.isEmpty, bytes.count >= expected.count, bytes.prefix(expected.count).elementsEqual(expected) else { return nil }
                if bytes.count == expected.count { return false }
                return bytes.dropFirst(expected.count).elementsEqual(" dated".utf8) ? true : nil
            }
        }
    }
}
