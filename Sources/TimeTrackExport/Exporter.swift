import Foundation
import TimeTrackCore

/// Published items in the formats the app and other tools read.
///
/// - JSON: one document per kind (`announcements.json`, `events.json`, `school-info.json`,
///   `posts.json`), schema in docs/exports.md;
/// - iCalendar: events, RFC 5545 with a VTIMEZONE for every zone used;
/// - RSS 2.0: announcements.
/// Only published items are exported; absence reports and tickets never are (they are private).
public struct Exporter {
    let store: any PublishedItems
    public var now: Date = Date()
    public var calendarName = "Time Track"
    public var siteURL = "https://timetrack.example/"
    /// Called with the number of items read so far (for a progress line on a terminal).
    public var progress: ((Int) -> Void)?
    /// Where copies of posts' local photos go (without their location), and the link to that
    /// folder the JSON uses (`images/`).
    ///
    /// Nil: local photos are left out of the export.
    public var images: (folder: String, link: String)?
    /// The only folder local photos are copied from (the imports folder): a photo whose real
    /// path (links resolved) lies elsewhere is left out with a note.
    ///
    /// Nil: no local photo is copied.
    public var localRoot: String?
    /// Where the accessible copies of documents go, and the link to that folder the JSON uses
    /// (`documents/`); and the district's kept copies they are read from.
    ///
    /// Nil: documents are linked where they are.
    public var documents: (folder: String, link: String, copies: AccessibleCopies)?
    /// What the export left out or changed, for the person who ran it.
    public let notes = Notes()
    /// The schools' places: events without coordinates of their own get their place's pin
    /// (and address), and the place's name as `place`.
    public var gazetteer: Gazetteer?
    /// The courses deadlines belong to: their weights and reminders fill the deadlines' own.
    public var courses: [Course] = []

    /// Notes collected while exporting.
    public final class Notes: @unchecked Sendable {
        public private(set) var lines: [String] = []
        /// How many items the last document written held.
        public internal(set) var lastCount = 0
        func add(_ line: String) { lines.append(line) }
    }

    public init(store: any PublishedItems) { self.store = store }

    /// Every published item of a kind (of one school, when given), oldest first, in one query.
    public func published(_ kind: ItemKind, school: String? = nil) throws -> [PublishedItem] {
        let all = try store.published(kind).filter { school == nil || $0.school == school }
        // What is past its expiry (a closure alert whose day is over) or not yet at its
        // publishAt leaves what the app gets, even before `import --due` moves it.
        let expired = all.filter { $0.content.hasExpired(at: now) }.count
        let early = all.filter { !$0.content.hasExpired(at: now) && $0.content.isBeforePublishing(at: now) }.count
        let result = all.filter { $0.content.isShowable(at: now) }
        if expired > 0 { notes.add("\(expired) expired \(kind.plural) left out (past their expiry)") }
        if early > 0 { notes.add("\(early) \(kind.plural) left out until their publishAt") }
        progress?(result.count)
        notes.lastCount = result.count
        return result.sorted { ($0.content.sortDate ?? .distantPast, $0.id) < ($1.content.sortDate ?? .distantPast, $1.id) }
    }

    /// The JSON document for a kind.
    ///
    /// Private kinds (absence reports, tickets) are never exported: asking for one is refused.
    public func json(_ kind: ItemKind, school: String? = nil) throws -> Data {
        guard kind.traits.exported else {
            throw TimeTrackError(
                .usage, "\(kind.plural) are private and never exported", fix: "exports carry " + Exporter.jsonKinds.map(\.plural).joined(separator: ", "))
        }
        if kind == .deadline { return try deadlinesJSON(school: school) }
        let items = try published(kind, school: school)
        let iso = ISO8601DateFormatter()
        let rows: [JSONValue] = items.map { item in
            var object = item.content.fields()
            if case .event(let event) = item.content, let gazetteer {
                let (pinned, place) = gazetteer.pinned(event, school: item.school)
                object = ItemContent.event(pinned).fields()
                object["place"] = place.map { .string($0.name) } ?? .null
            }
            if case .schoolInfo(let info) = item.content, let copy = info.accessibleCopy, let served = exportedCopy(copy, of: item.id) {
                object["originalUrl"] = .string(info.url)
                object["url"] = .string(served)
            }
            if case .post(let post) = item.content {
                // Each photo exported with its description (null: nobody described it yet).
                var urls: [JSONValue] = [], alts: [JSONValue] = []
                for (index, url) in post.imageURLs.enumerated() {
                    guard let exported = exportedImage(url, of: item.id) else { continue }
                    urls.append(.string(exported))
                    let alt = index < (post.imageAlts?.count ?? 0) ? (post.imageAlts?[index] ?? "") : ""
                    alts.append(alt.isEmpty ? .null : .string(alt))
                }
                object["imageURLs"] = .array(urls)
                object["imageAlts"] = .array(alts)
            }
            if case .announcement(let announcement) = item.content, announcement.imageURL != nil, announcement.imageAlt == nil { object["imageAlt"] = .null }
            object["id"] = .string(item.id)
            object["school"] = item.school.map { .string($0) } ?? .null
            object["updatedAt"] = .string(iso.string(from: item.updatedAt))
            return .object(object)
        }
        let document = JSONValue.object([
            "schema": .string("timetrack-export/1"), "kind": .string(kind.rawValue), "generatedAt": .string(iso.string(from: now)),
            "count": .number(Double(rows.count)), "items": .array(rows),
        ])
        return Data(((try? JSONCoding.prettyString(document)) ?? "{}").utf8)
    }

    /// A post's photo as the export links it: web photos as they are; a local file as a copy in
    /// `images` with its location removed (EXIF GPS, XMP), named by its content; nil (left out,
    /// with a note) when it cannot be read or is not a JPEG or PNG whose location can be checked.
    func exportedImage(_ url: String, of id: String) -> String? {
        guard let parsed = URL(string: url), parsed.isFileURL else { return url }
        guard let images else {
            notes.add("\(id): the local photo \(parsed.lastPathComponent) was left out (no images folder for this export)")
            return nil
        }
        guard let localRoot, let path = LocalPath.regularFile(parsed.path, inside: localRoot) else {
            notes.add("\(id): the photo \(parsed.path) is not a file inside the imports folder \(localRoot ?? "(none)"); left out")
            return nil
        }
        var size = stat()
        guard stat(path, &size) == 0, size.st_size <= 50_000_000, let data = FileManager.default.contents(atPath: path) else {
            notes.add("\(id): the photo \(parsed.path) could not be read (missing, or over 50 MB); left out")
            return nil
        }
        let result = PhotoLocation.strip(data)
        guard result.understood else {
            notes.add("\(id): \(parsed.lastPathComponent) is not a JPEG or PNG, so its location cannot be checked; left out")
            return nil
        }
        let ext = data.starts(with: [0xFF, 0xD8]) ? "jpg" : "png"
        let name = String(SHA256.hex(result.data).prefix(20)) + "." + ext
        do {
            try FileManager.default.createDirectory(atPath: images.folder, withIntermediateDirectories: true)
            try AtomicFile.write(result.data, to: (images.folder as NSString).appendingPathComponent(name))
        } catch {
            notes.add("\(id): the copy of \(parsed.lastPathComponent) could not be written: \(error); left out")
            return nil
        }
        if !result.removed.isEmpty { notes.add("\(id): \(parsed.lastPathComponent): removed \(result.removed.joined(separator: ", ")) from the exported copy") }
        return images.link + name
    }

    /// A document's accessible copy as the export links it: copied beside the JSON as
    /// `documents/HASH.pdf`; nil (the original served, with a note) when the kept copy is
    /// missing or its bytes no longer match its name.
    func exportedCopy(_ hash: String, of id: String) -> String? {
        guard let documents else {
            notes.add("\(id): its accessible copy was not exported (no documents folder for this export); the original is linked")
            return nil
        }
        guard let data = documents.copies.read(hash) else {
            notes.add(
                "\(id): its accessible copy \(hash.prefix(12))… is missing from \(documents.copies.folder) or was changed; the original is linked"
                    + " (`ocr \(id)` makes it again)"
            )
            return nil
        }
        let name = hash + ".pdf"
        do {
            try FileManager.default.createDirectory(atPath: documents.folder, withIntermediateDirectories: true)
            try AtomicFile.write(data, to: (documents.folder as NSString).appendingPathComponent(name))
        } catch {
            notes.add("\(id): its accessible copy could not be written: \(error); the original is linked")
            return nil
        }
        return documents.link + name
    }

    /// Kinds the app reads as JSON.
    public static var jsonKinds: [ItemKind] { ItemKind.allCases.filter(\.traits.exported) }
}
