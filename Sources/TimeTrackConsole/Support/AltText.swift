import Foundation
import TimeTrackCore
import TimeTrackKit
import TimeTrackReview

/// `[l]` in review: a description for a picture the accessibility check flags (WCAG 1.1.1),
/// written as an edit (locked against re-imports, like any edit).
enum AltText {
    /// A picture to describe: the announcement's own (its `imageAlt`), or one in its body.
    enum Picture: Equatable {
        case imageAlt(url: String, suggestion: String)
        case inBody(src: String, suggestion: String)
        /// A post's photo (its `imageAlts` at `index`).
        case postPhoto(index: Int, url: String, suggestion: String)
    }

    /// The first picture of the content whose text alternative is missing or says nothing.
    static func firstToDescribe(_ content: ItemContent) -> Picture? {
        if case .post(let post) = content {
            let alts = post.imageAlts ?? []
            guard let index = post.imageURLs.indices.first(where: { $0 >= alts.count || alts[$0].trimmingCharacters(in: .whitespaces).isEmpty }) else {
                return nil
            }
            return .postPhoto(index: index, url: post.imageURLs[index], suggestion: String(post.text.prefix(80)))
        }
        guard case .announcement(let a) = content else { return nil }
        if let image = a.imageURL, !image.isEmpty, AccessibilityCheck.altProblem(a.imageAlt, image: image) != nil {
            return .imageAlt(url: image, suggestion: a.title)
        }
        guard let body = a.body, let document = try? HTMLDocument(html: "<div>" + body + "</div>") else { return nil }
        for image in (try? document.root.select("img")) ?? [] {
            guard let src = image.attribute("src"), AccessibilityCheck.altProblem(image.attribute("alt"), image: src) != nil else { continue }
            // The caption beside it, else the item's title, as a start.
            let caption = image.parent?.first("figcaption")?.text
            return .inBody(src: src, suggestion: caption.flatMap { $0.isEmpty ? nil : $0 } ?? a.title)
        }
        return nil
    }

    /// Asks for the description (Enter takes the suggestion) and writes it; true when written.
    static func describe(_ picture: Picture, item: Item, store: any ItemStore, session: Session) throws -> Bool {
        let out = session.output
        let (url, start): (String, String) = {
            switch picture {
            case .imageAlt(let url, let suggestion), .inBody(let url, let suggestion), .postPhoto(_, let url, let suggestion): return (url, suggestion)
            }
        }()
        out.line("  the picture: \(SafeText.visible(url)) (`preview --pending` shows it)")
        var suggestion = start
        if let read = textInPicture(url, item: item, session: session) {
            out.line("  text in the picture: \"\(read)\"")
            suggestion = "\(suggestion): \(read)"
        }
        out.flush()
        guard case .line(let typed) = session.reader?.read(prompt: "  what it shows [\(SafeText.visible(String(suggestion.prefix(60))))]: ", remember: false)
        else { return false }
        let text = typed.trimmingCharacters(in: .whitespaces).isEmpty ? suggestion : typed.trimmingCharacters(in: .whitespaces)
        let changes: [String: JSONValue]
        switch picture {
        case .imageAlt:
            changes = ["imageAlt": .string(text)]
        case .inBody(let src, _):
            guard case .announcement(let a) = item.pendingContent ?? item.content, let body = a.body else { return false }
            changes = ["body": .string(withAlt(body, src: src, alt: text))]
        case .postPhoto(let index, _, _):
            guard case .post(let post) = item.pendingContent ?? item.content else { return false }
            var alts = post.imageAlts ?? []
            while alts.count <= index { alts.append("") }
            alts[index] = text
            changes = ["imageAlts": .array(alts.map(JSONValue.string))]
        }
        _ = try Lifecycle(store).edit(item.id, changes: changes, by: session.operatorName, reason: "described a picture (WCAG 1.1.1)")
        out.line("  described; the description is locked against re-imports (`unlock \(item.id) \(changes.keys.first ?? "")` follows the source again)")
        return false
    }

    /// The text Tesseract reads in the picture (a flyer's words), when it reads three words or
    /// more: up to 150 characters, on one line.
    ///
    /// Nil when the picture cannot be read (no Tesseract, a remote picture the item's source may
    /// not fetch, not an image).
    static func textInPicture(_ url: String, item: Item, session: Session) -> String? {
        let tesseract = ExternalTool("tesseract", package: "tesseract-ocr")
        guard tesseract.installed, let address = URL(string: url) else { return nil }
        var data: Data?
        if address.isFileURL || address.scheme == nil {
            data = LocalPath.regularFile(address.path, inside: session.importsPath).flatMap { FileManager.default.contents(atPath: $0) }
        } else if let sourceID = item.provenance?.sourceID, let source = try? session.source(sourceID) {
            data = try? session.webClient(for: source, cache: nil).get(address, maxBytes: 10_000_000).data
        }
        guard let data, data.starts(with: [0xFF, 0xD8]) || data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("timetrack-alt-\(UUID().uuidString)")
        guard (try? data.write(to: file)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(at: file) }
        guard let read = try? tesseract.run([file.path, "stdout", "--psm", "3"], timeout: 60), read.status == 0 else { return nil }
        let words = read.output.split(whereSeparator: { $0.isWhitespace }).filter { $0.contains { $0.isLetter } }
        guard words.count >= 3 else { return nil }
        return SafeText.visible(String(words.joined(separator: " ").prefix(150)))
    }

    /// The body with `alt` on the image whose `src` is given (an alt there before is replaced).
    static func withAlt(_ body: String, src: String, alt: String) -> String {
        let escapedAlt = alt.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(
            of: "<", with: "&lt;")
        let escapedSrc = src.replacingOccurrences(of: "&", with: "&amp;")
        var out = ""
        var rest = Substring(body)
        while let start = rest.range(of: "<img") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.lowerBound...].firstIndex(of: ">") else { break }
            var tag = String(rest[start.lowerBound...end])
            if tag.contains("src=\"\(escapedSrc)\"") || tag.contains("src=\"\(src)\"") {
                if let alt = tag.range(of: #"\salt="[^"]*""#, options: .regularExpression) { tag.removeSubrange(alt) }
                tag = tag.replacingOccurrences(of: "<img", with: "<img alt=\"\(escapedAlt)\"")
            }
            out += tag
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }
}
