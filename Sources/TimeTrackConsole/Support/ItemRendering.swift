import Foundation
import TimeTrackCore
import TimeTrackExport
import TimeTrackKit
import TimeTrackReview

/// How items look in the console: field lines, diffs, and JSON.
enum ItemRendering {
    /// A field's value for people: dates in the zone, lists joined, long text cut.
    static func value(_ value: JSONValue, zone: TimeZone, limit: Int = 200) -> String {
        switch value {
        case .null: return "—"
        case .string(let s):
            if s.count == 20, s.hasSuffix("Z"), let date = ISO8601DateFormatter().date(from: s) { return Display.date(date, zone: zone) }
            return TextNormalizer.truncate(SafeText.visible(s).replacingOccurrences(of: "\n", with: " ⏎ "), to: limit)
        case .array(let items): return items.isEmpty ? "—" : items.map { Self.value($0, zone: zone, limit: 80) }.joined(separator: ", ")
        case .object(let o): return TextNormalizer.truncate(SafeText.visible((try? JSONCoding.compactString(JSONValue.object(o))) ?? ""), to: limit)
        default: return value.description
        }
    }

    /// `field: value` lines for every field of the content, in a stable order; dates in `zone`,
    /// the item's own (`Session.zone(of:)`).
    ///
    /// - Parameter full: long text whole, its lines as lines (`show --full`), instead of cut at
    ///   200 characters on one line.
    static func fieldLines(_ content: ItemContent, zone: TimeZone, indent: String = "  ", full: Bool = false) -> [String] {
        let fields = content.fields()
        let order = ItemContent.fieldNames(of: content.kind)
        let width = (order.map(\.count).max() ?? 8) + 1
        return order.flatMap { name -> [String] in
            // A ticket's thread has lines of its own (`replyLines`).
            if content.kind == .ticket && name == "replies" { return [] }
            guard let v = fields[name], v != .null else { return [] }
            if case .array(let a) = v, a.isEmpty { return [] }
            let label = indent + (name + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0)
            if full, case .string(var text) = v, text.count > 80 || text.contains("\n") {
                // A body is sanitized HTML: read as text, its blocks as lines.
                if name == "body", let document = try? HTMLDocument(data: Data(text.utf8), url: nil, declaredCharset: "utf-8") {
                    text = document.root.blockText
                }
                let pad = String(repeating: " ", count: label.count)
                return SafeText.visible(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                    ($0.offset == 0 ? label : pad) + $0.element
                }
            }
            // Reminder offsets read as people write them: "1d, 2h", not minutes.
            if ItemContent.fieldTypes(of: content.kind)[name] == .offsets, case .array(let minutes) = v {
                return [
                    label
                        + minutes.compactMap { $0.numberValue.flatMap { $0.isFinite && abs($0) < 1e9 ? ReminderOffset.text(Int($0)) : nil } }.joined(
                            separator: ", ") + " before"
                ]
            }
            return [label + value(v, zone: zone)]
        }
    }

    /// `⚠ privacy:` lines, the matching text highlighted (in red on a terminal, «between marks»
    /// everywhere, so a pipe or a log shows it too).
    static func privacyLines(_ findings: [PrivacyLint.Finding], output: Output) -> [String] {
        findings.map { f in
            let context = "…" + SafeText.visible(f.before) + output.paint("«" + SafeText.visible(f.match) + "»", .red) + SafeText.visible(f.after) + "…"
            return output.paint("  ⚠ privacy: \(f.kind.rawValue) in \(f.field): ", .yellow) + context
        }
    }

    /// The accessibility check's findings, each with the criterion and the fix.
    static func accessibilityLines(_ findings: [AccessibilityFinding], output: Output) -> [String] {
        findings.map { f in output.paint("  ♿ " + SafeText.visible(f.description), .yellow) + " — " + SafeText.visible(f.fix) }
    }

    /// Where the app's map puts an event: its own coordinates, its place's, or nowhere yet.
    static func pinLine(_ event: Event, school: String?, places: [Place]) -> String {
        if let latitude = event.latitude, let longitude = event.longitude { return "  pin:  \(latitude), \(longitude) (the event's own)" }
        guard let place = Gazetteer(places).pin(location: event.locationName, school: school) else {
            guard let name = event.locationName else { return "  pin:  none (no location, and no default place for the school: place add ... --default)" }
            return "  pin:  none ('\(SafeText.visible(name))' is no place yet: place add \"NAME\" --school S ... or --alias)"
        }
        let coordinates = place.latitude.map { "\($0), \(place.longitude ?? 0)" } ?? "no coordinates"
        return "  pin:  \(SafeText.visible(place.name)) (\(coordinates))" + (place.isDefault && event.locationName == nil ? ", the school's default place" : "")
    }

    /// For posts: each local photo that carries a location, and that exports remove it.
    static func photoLines(_ content: ItemContent) -> [String] {
        guard case .post(let post) = content else { return [] }
        return post.imageURLs.enumerated().compactMap { index, url in
            guard let parsed = URL(string: url), parsed.isFileURL, let data = FileManager.default.contents(atPath: parsed.path) else { return nil }
            let found = PhotoLocation.find(data)
            guard !found.isEmpty else { return nil }
            return "  photo \(index + 1): GPS removed (\(found.joined(separator: ", ")) taken out of the exported copy; the original stays as it was)"
        }
    }

    /// A ticket's replies, one block each: who, when (in `zone`), the text.
    static func replyLines(_ content: ItemContent, zone: TimeZone) -> [String] {
        guard case .ticket(let ticket) = content else { return [] }
        guard !ticket.replies.isEmpty else { return ["  replies:  none yet"] }
        return ["  replies:"]
            + ticket.replies.flatMap { reply in
                ["    \(Display.date(reply.at, zone: zone))  \(SafeText.visible(reply.by)):"]
                    + SafeText.visible(reply.text).split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            }
    }

    /// The status as people read it: an absence report is `excused` or `not excused` (it is
    /// never published), a ticket `open` or `closed`.
    static func statusWord(_ item: Item) -> String {
        var closed = false
        if case .ticket(let ticket) = item.content { closed = ticket.closed }
        let word = statusWord(kind: item.kind, status: item.status, closed: closed)
        // An event's state follows its time: over, it has passed (and left the upcoming views).
        if case .event(let event) = item.content, item.status == .published, event.hasPassed(at: Date()) { return word + " (passed)" }
        return word
    }

    /// The same from an item's kind, status and, for a ticket, whether it is closed.
    static func statusWord(kind: ItemKind, status: ItemStatus, closed: Bool) -> String {
        switch (kind, status) {
        case (.absence, .published): return "excused"
        case (.absence, .rejected): return "not excused"
        case (.ticket, .pending), (.ticket, .published): return closed ? "closed" : "open"
        default: return status.rawValue
        }
    }

    /// `- old / + new` lines for changed fields.
    static func diffLines(_ changes: [FieldChange], zone: TimeZone, output: Output) -> [String] {
        changes.flatMap { change -> [String] in
            [
                "  \(change.field):",
                output.paint("    - " + value(change.old, zone: zone), .red),
                output.paint("    + " + value(change.new, zone: zone), .green),
            ]
        }
    }

    static func summaryJSON(_ s: ItemSummary) -> JSONValue {
        .object([
            "id": .string(s.id), "kind": .string(s.kind.rawValue), "status": .string(s.status.rawValue), "title": .string(s.title),
            "school": s.school.map { .string($0) } ?? .null, "source": s.sourceID.map { .string($0) } ?? .null,
            "date": s.sortDate.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
            "pendingChange": .bool(s.hasPendingRevision && s.status == .published), "missingRuns": .number(Double(s.missingRuns)),
            "updatedAt": .string(ISO8601DateFormatter().string(from: s.updatedAt)),
        ])
    }

    static func itemJSON(_ item: Item) -> JSONValue {
        let iso = ISO8601DateFormatter()
        var object: [String: JSONValue] = [
            "id": .string(item.id), "kind": .string(item.kind.rawValue), "status": .string(item.status.rawValue),
            "school": item.school.map { .string($0) } ?? .null, "fields": .object(item.content.fields()),
            "createdAt": .string(iso.string(from: item.createdAt)), "updatedAt": .string(iso.string(from: item.updatedAt)),
            "lockedFields": .array(item.lockedFields.map { .string($0) }), "missingRuns": .number(Double(item.missingRuns)),
            "approvedBy": item.approvedBy.map { .string($0) } ?? .null, "approvedAt": item.approvedAt.map { .string(iso.string(from: $0)) } ?? .null,
            "rejectReason": item.rejectReason.map { .string($0) } ?? .null,
        ]
        if let p = item.provenance {
            object["provenance"] = .object([
                "source": .string(p.sourceID), "url": .string(p.sourceURL), "fetchedAt": .string(iso.string(from: p.fetchedAt)),
                "pageHash": .string(p.pageHash), "importer": .string(p.importer), "importerVersion": .string(p.importerVersion),
                "guessed": .array(p.guessed.map { .string($0) }),
                "key": item.sourceKey.map { .string($0) } ?? .null,
            ])
        }
        if let pending = item.pendingContent {
            object["pending"] = .object(pending.fields())
            object["changes"] = .array(ItemContent.changedFields(from: item.content, to: pending).map { (try? JSONCoding.value($0)) ?? .null })
        }
        return .object(object)
    }
}
