import Foundation
import TimeTrackCore

/// A run's items kept in a private temporary file instead of memory, for importers whose
/// output has no bound but a count (an external importer may hand over a million items): each
/// item is written as one line once normalized, and read back a batch at a time when the run
/// is applied, so memory holds one batch, never the run.
///
/// The file is made mode 0600 in `TMPDIR` and removed when the last reference goes.
public final class SpilledItems: @unchecked Sendable {
    /// The items' kind (every item of a source has its kind).
    public let kind: ItemKind
    /// Items written.
    public private(set) var count = 0
    /// Items with a date (the shrink guard counts them).
    public private(set) var dated = 0
    /// Dated items whose year was guessed against the page's headings (see `Guess`).
    public private(set) var datedContradictingHeadings = 0
    let path: String
    private let handle: FileHandle

    public init(kind: ItemKind) throws {
        self.kind = kind
        path = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-items-\(getpid())-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw TimeTrackError(
                .system, "cannot write the run's items to a temporary file (\(path))", fix: "check that TMPDIR has room and is writable")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Items read back with their item memo entries (`ItemMemo`), which the run remembers with
    /// the batch that stores them rather than all at its end.
    public struct Batch {
        public var items: [ExtractedItem]
        public var memo: [MemoEntry]
    }

    /// Writes `items` (prepared ones: an unprepared item is prepared first; one that does not
    /// validate is left out and returned), each with its entry of `memo` (by the entry's URL,
    /// the memo prefix and the item's key).
    @discardableResult
    public func append(_ items: [ExtractedItem], memo: [String: MemoEntry] = [:]) throws -> [ExtractedItem] {
        var out = Data()
        var refused: [ExtractedItem] = []
        for var item in items {
            item.prepare()
            guard let prepared = item.prepared else {
                refused.append(item)
                continue
            }
            var line: [String: JSONValue] = [
                "k": .string(item.key), "j": .string(prepared.json), "u": .string(item.pageURL), "h": .string(item.pageHash),
                "t": .number(item.fetchedAt.timeIntervalSince1970), "l": .string(item.location),
                "g": .array(item.guesses.map { .array([.string($0.note), .bool($0.contradictsHeading)]) }),
            ]
            if let former = item.formerKey { line["f"] = .string(former) }
            if let entry = memo[ItemMemoKeys.prefix + item.key] {
                line["m"] = .array([.string(entry.pageHash), .string(entry.signature), .string(String(decoding: entry.payload, as: UTF8.self))])
            }
            out.append(Data(try JSONCoding.compactString(JSONValue.object(line)).utf8))
            out.append(10)
            count += 1
            if prepared.content.sortDate != nil {
                dated += 1
                if item.guesses.contains(where: \.contradictsHeading) { datedContradictingHeadings += 1 }
            }
        }
        do { try handle.write(contentsOf: out) } catch {
            throw TimeTrackError(.system, "cannot write the run's items to \(path): \(error.localizedDescription)", fix: "check that TMPDIR has room")
        }
        return refused
    }

    /// The items in the order written, `size` at a time, with their memo entries.
    public func batches(of size: Int) throws -> AnyIterator<Batch> {
        try handle.synchronize()
        guard let reader = FileHandle(forReadingAtPath: path) else {
            throw TimeTrackError(.system, "cannot read the run's items back from \(path)", fix: "check that TMPDIR was not cleaned during the run")
        }
        // Lines are read from `buffer` at `position`; what was read is dropped when more comes.
        var buffer = Data()
        var position = 0
        var done = false
        let kind = self.kind
        return AnyIterator {
            var batch = Batch(items: [], memo: [])
            while batch.items.count < max(1, size) {
                if let newline = buffer[position...].firstIndex(of: 10) {
                    let line = buffer[position..<newline]
                    position = newline + 1
                    if let (item, memo) = SpilledItems.item(from: line, kind: kind) {
                        batch.items.append(item)
                        if let memo { batch.memo.append(memo) }
                    }
                    continue
                }
                if done { break }
                let chunk = reader.readData(ofLength: 1 << 20)
                if chunk.isEmpty {
                    done = true
                    try? reader.close()
                } else {
                    buffer = buffer.subdata(in: position..<buffer.count) + chunk
                    position = 0
                }
            }
            return batch.items.isEmpty ? nil : batch
        }
    }

    /// Every item, read back whole (a dry run that prints them).
    public func all() throws -> [ExtractedItem] {
        var items: [ExtractedItem] = []
        for batch in try batches(of: 10_000) { items += batch.items }
        return items
    }

    /// One line back as an item and its memo entry (nil for a line this run did not write whole).
    static func item(from line: Data, kind: ItemKind) -> (ExtractedItem, MemoEntry?)? {
        guard let object = (try? JSONValue(parsing: Data(line)))?.objectValue, let key = object["k"]?.stringValue, let json = object["j"]?.stringValue,
            let content = try? ItemContent.decode(kind: kind, json: json), let prepared = try? PreparedContent(content)
        else { return nil }
        var item = ExtractedItem(
            key: key, prepared: prepared, pageURL: object["u"]?.stringValue ?? "", pageHash: object["h"]?.stringValue ?? "",
            fetchedAt: Date(timeIntervalSince1970: object["t"]?.numberValue ?? 0), location: object["l"]?.stringValue ?? "")
        item.guesses = (object["g"]?.arrayValue ?? []).compactMap { entry in
            guard let pair = entry.arrayValue, let note = pair.first?.stringValue else { return nil }
            return Guess(note, contradictsHeading: pair.count > 1 && pair[1] == .bool(true))
        }
        item.formerKey = object["f"]?.stringValue
        var memo: MemoEntry?
        if let entry = object["m"]?.arrayValue, entry.count == 3, let digest = entry[0].stringValue, let signature = entry[1].stringValue,
            let payload = entry[2].stringValue
        {
            memo = MemoEntry(url: ItemMemoKeys.prefix + key, pageHash: digest, signature: signature, payload: Data(payload.utf8))
        }
        return (item, memo)
    }
}
