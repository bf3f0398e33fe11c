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

    /// Loads what the store remembers of `source` in two queries.
    public init(source: SourceDefinition, importer: String, memo: PageMemo) {
        var how = "\(importer)|\(ItemMemo.normalizerVersion)|\(source.kind.rawValue)|\(source.timeZone.identifier)|\(source.school ?? "")|"
        how += (source.baseURL?.absoluteString ?? "") + "|" + ((try? JSONCoding.compactString(JSONValue.object(source.options))) ?? "")
        signature = SHA256.hex(how)
        remembered = memo.recallAll(sourceID: source.id, urlPrefix: ItemMemo.prefix)
        settledHashes = memo.settledHashes(sourceID: source.id)
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
    public func isSettled(key: String, digest: String) -> Bool {
        guard let record = remembered[key], record.pageHash == digest, record.signature == signature,
            let stored = settledHashes[key]
        else { return false }
        return record.payload.elementsEqual(stored.utf8)
    }

    /// The memo entry that says `digest` normalizes to `contentHash` for `key`.
    public func entry(key: String, digest: String, contentHash: String) -> (url: String, pageHash: String, signature: String, payload: Data)? {
        if let record = remembered[key], record.pageHash == digest, record.signature == signature, record.payload.elementsEqual(contentHash.utf8) { return nil }
        return (ItemMemo.prefix + key, digest, signature, Data(contentHash.utf8))
    }
}
