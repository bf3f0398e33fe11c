import Foundation
import TimeTrackCore

/// One thing in a public item that fails WCAG 2.1 AA (or, `advisory`, makes it hard to read):
/// the success criterion, where, what, and the fix.
public struct AccessibilityFinding: Sendable, Equatable, CustomStringConvertible {
    /// `1.1.1`, `1.2.2`, `1.3.1`, `2.4.4`, `3.1.2`, or `advisory`.
    public var criterion: String
    /// The criterion's name ("Non-text Content").
    public var name: String
    /// The field it is in (`imageAlt`, `body`, `title`, `url`).
    public var field: String
    public var problem: String
    public var fix: String

    public var description: String {
        (criterion == "advisory" ? "advisory (\(name))" : "WCAG \(criterion) \(name)") + ": \(field): \(problem)"
    }
}

/// Checks what the app publishes against WCAG 2.1 AA where a tool can tell: images without a
/// text alternative (1.1.1), video without verified captions (1.2.2), structure shown only by
/// looks (1.3.1: skipped heading levels, bold lines as headings, tables without header cells),
/// link text that says nothing out of context (2.4.4), a body in another language than the
/// district's (3.1.2), and text in capitals longer than a line (advisory).
///
/// Colors are not checked: the sanitizer drops styles, so color carries no meaning in what is
/// published.
public enum AccessibilityCheck {
    /// The findings of an item's content; `language` is the district's (`en`).
    public static func findings(_ content: ItemContent, language: String = "en") -> [AccessibilityFinding] {
        var out: [AccessibilityFinding] = []
        switch content {
        case .announcement(let a):
            if let image = a.imageURL, !image.isEmpty, let problem = altProblem(a.imageAlt, image: image) {
                out.append(nonText("imageAlt", "the picture (\(short(image))) \(problem)"))
            }
            out += text("title", a.title) + text("summary", a.summary)
            if let body = a.body { out += html("body", body, language: language) }
            for linked in a.linkedDocuments ?? [] {
                out += linked.problems.sorted().map { document($0, which: "the linked PDF \(short(linked.url))", in: .linkedFromBody) }
            }
            if let link = a.link, isVideo(link) { out.append(captions("link", link)) }
        case .event(let e):
            out += text("title", e.title) + text("description", e.description)
            if let link = e.link, isVideo(link) { out.append(captions("link", link)) }
        case .schoolInfo(let info):
            if let problem = linkTextProblem(info.title, href: info.url) {
                out.append(
                    AccessibilityFinding(
                        criterion: "2.4.4", name: "Link Purpose", field: "title", problem: "the document's title \(problem)",
                        fix: "name the document: `edit ID title=\"2026-27 Bell Schedule\"`"))
            }
            if info.documentType == .video || isVideo(info.url) { out.append(captions("url", info.url)) }
            out += (info.documentProblems ?? []).sorted().map {
                document($0, which: info.accessibleCopy != nil ? "the accessible copy" : "the PDF", in: .schoolInfo)
            }
            if let other = otherDocument(info) { out.append(other) }
        case .post(let post):
            let undescribed = post.imageURLs.indices.filter { index in
                (post.imageAlts?[safe: index] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }
            if !undescribed.isEmpty {
                let which = undescribed.map { "\($0 + 1) (\(short(post.imageURLs[$0])))" }.joined(separator: ", ")
                out.append(
                    AccessibilityFinding(
                        criterion: "1.1.1", name: "Non-text Content", field: "imageAlts",
                        problem: "photo\(undescribed.count == 1 ? "" : "s") \(which) of \(post.imageURLs.count) with no description",
                        fix: "describe what each photo shows: [l] in review, or `edit ID imageAlts=\"first photo | second photo\"`"))
            }
            out += text("text", post.text)
        case .alert(let alert):
            out += text("title", alert.title) + text("message", alert.message)
        case .absence, .ticket, .deadline:
            break
        }
        return out
    }

    // MARK: rules

    /// A School Info document that is not a PDF or a page: a picture of a document (a flyer) has
    /// no text at all; an office file opens outside the app, so it needs an accessible
    /// alternative (a page or a tagged PDF) beside it.
    static func otherDocument(_ info: SchoolInfoItem) -> AccessibilityFinding? {
        switch info.documentType {
        case .image:
            return AccessibilityFinding(
                criterion: "1.1.1", name: "Non-text Content", field: "url",
                problem: "the document is a picture (\(short(info.url))): its text cannot be read aloud",
                fix: "publish its text as a page or a tagged PDF, and link the picture from it")
        case .document, .spreadsheet:
            return AccessibilityFinding(
                criterion: "advisory", name: "accessible alternative", field: "url",
                problem:
                    "a \(info.documentType == .spreadsheet ? "spreadsheet" : "file") (\(short(info.url))) that opens outside the app and cannot be"
                    + " checked from here",
                fix: "run the Office accessibility checker on it, or publish it as a page or a tagged PDF")
        case .pdf, .page, .video, .other:
            return nil
        }
    }

    /// Where a PDF is: a School Info document (its `url`, where `ocr` can make a copy), or a
    /// link in a body.
    enum DocumentPlace {
        case schoolInfo, linkedFromBody

        var field: String {
            switch self {
            case .schoolInfo: return "url"
            case .linkedFromBody: return "body"
            }
        }
    }

    /// A finding for what the PDF the app serves lacks (the accessible copy's, once there is one).
    static func document(_ problem: SchoolInfoItem.DocumentProblem, which: String, in place: DocumentPlace) -> AccessibilityFinding {
        let field = place.field
        switch problem {
        case .noText:
            return AccessibilityFinding(
                criterion: "1.1.1", name: "Non-text Content", field: field, problem: "\(which) is a scan with no text layer: a screen reader reads nothing",
                fix: place == .schoolInfo
                    ? "`ocr ID` (or [o] in review) makes a searchable copy the export serves; better, ask for the original document"
                    : "ask for the original document (a scan cannot be read aloud), or list it in School Info, where `ocr` makes a searchable copy")
        case .untagged:
            return AccessibilityFinding(
                criterion: "1.3.1", name: "Info and Relationships", field: field,
                problem: "\(which) is not tagged: its headings, lists and tables have no structure",
                fix: "export it tagged from its source (Word: Save as PDF with \"Document structure tags\"); OCR cannot add tags")
        case .noTitle:
            return AccessibilityFinding(
                criterion: "2.4.2", name: "Page Titled", field: field, problem: "\(which) has no title in its properties",
                fix: "set the title in the source document's properties" + (place == .schoolInfo ? "; `ocr ID` gives the copy the item's title" : ""))
        case .noLanguage:
            return AccessibilityFinding(
                criterion: "3.1.1", name: "Language of Page", field: field, problem: "\(which) does not say its language",
                fix: "set the document's language in its source (Word: Review > Language) and export it again")
        }
    }

    static func nonText(_ field: String, _ problem: String) -> AccessibilityFinding {
        AccessibilityFinding(
            criterion: "1.1.1", name: "Non-text Content", field: field, problem: problem,
            fix: "describe what the picture shows: [l] in review, or `edit ID imageAlt=\"…\"` (alt=\"\" only for decoration)")
    }

    static func captions(_ field: String, _ url: String) -> AccessibilityFinding {
        AccessibilityFinding(
            criterion: "1.2.2", name: "Captions (Prerecorded)", field: field, problem: "a video (\(short(url))): its captions cannot be checked from here",
            fix: "open it and check it has accurate captions (not only automatic ones) before publishing")
    }

    /// What is wrong with an image's alt text, or nil: missing, a file name, or a word that says
    /// only that it is a picture.
    public static func altProblem(_ alt: String?, image: String) -> String? {
        guard let alt else { return "has no alt text" }
        let text = alt.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.isEmpty { return nil }  // decorative, by choice
        if ["image", "photo", "picture", "graphic", "img", "untitled", "pic", "photograph", "banner"].contains(text) {
            return "has alt text that says only \"\(alt)\""
        }
        if text.range(of: #"\.(jpe?g|png|gif|webp|heic|svg)$"#, options: .regularExpression) != nil
            || text.range(of: #"^(img|dsc|dscn|image|photo|screenshot|scan)[ _-]?\d+(\.[a-z0-9]+)?$"#, options: .regularExpression) != nil
            || text == (URL(string: image)?.lastPathComponent.lowercased() ?? "")
        {
            return "has a file name for alt text (\"\(alt)\")"
        }
        return nil
    }

    static let vagueLinkWords: Set<String> = [
        "click here", "here", "read more", "more", "learn more", "link", "this", "this link", "click", "details", "more info", "info", "download", "go", "view",
        "continue",
        "continue reading", "click this link",
    ]

    /// What is wrong with a link's text out of context, or nil.
    static func linkTextProblem(_ text: String, href: String?) -> String? {
        let words = TextNormalizer.collapse(text).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " .:!»›>…"))
        if words.isEmpty { return "is empty" }
        if vagueLinkWords.contains(words) { return "says \"\(TextNormalizer.collapse(text))\", which means nothing out of context" }
        if words.hasPrefix("http://") || words.hasPrefix("https://") || words.hasPrefix("www.") || (href.map { words == $0.lowercased() } ?? false) {
            return "is a bare address"
        }
        return nil
    }

    static func isVideo(_ url: String) -> Bool {
        let host = URL(string: url)?.host?.lowercased() ?? ""
        return ["youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be", "vimeo.com", "player.vimeo.com"].contains(host)
    }

    /// Plain text: capitals longer than a line.
    static func text(_ field: String, _ value: String?) -> [AccessibilityFinding] {
        guard let value, let run = capitalsRun(value) else { return [] }
        return [
            AccessibilityFinding(
                criterion: "advisory", name: "readability", field: field,
                problem: "\(run) characters in capitals (\"\(String(value.prefix(40)))…\"): hard to read, read out letter by letter by some screen readers",
                fix: "write it in sentence case")
        ]
    }

    /// The length of the longest run of letters in capitals (with the spaces and punctuation
    /// between them) when it is longer than a line (60 characters); nil otherwise.
    static func capitalsRun(_ text: String) -> Int? {
        var longest = 0, current = 0, letters = 0
        for character in text {
            if character.isLetter {
                if character.isUppercase {
                    current += 1
                    letters += 1
                } else {
                    (current, letters) = (0, 0)
                }
            } else if current > 0 {
                current += 1
            }
            if letters >= 20 { longest = max(longest, current) }
        }
        return longest > 60 ? longest : nil
    }

    /// A body's HTML: images, links, headings, tables, capitals, videos and its language.
    static func html(_ field: String, _ body: String, language: String) -> [AccessibilityFinding] {
        guard let document = try? HTMLDocument(html: "<div>" + body + "</div>") else { return [] }
        var out: [AccessibilityFinding] = []
        for image in (try? document.root.select("img")) ?? [] {
            let src = image.attribute("src") ?? "an image"
            if let problem = altProblem(image.attribute("alt"), image: src) { out.append(nonText(field, "an image (\(short(src))) \(problem)")) }
        }
        for link in (try? document.root.select("a[href]")) ?? [] {
            let href = link.attribute("href") ?? ""
            if link.first("img") == nil, let problem = linkTextProblem(link.text, href: href) {
                out.append(
                    AccessibilityFinding(
                        criterion: "2.4.4", name: "Link Purpose", field: field, problem: "a link to \(short(href)) \(problem)",
                        fix: "make the link's words say where it goes (\"the 2026-27 supply list\"), or edit the body"))
            }
            if isVideo(href) { out.append(captions(field, href)) }
        }
        out += structure(field, document)
        out += text(field, document.root.text)
        if let other = LanguageGuess.otherThan(language, document.root.text) {
            out.append(
                AccessibilityFinding(
                    criterion: "3.1.2", name: "Language of Parts", field: field,
                    problem: "the text reads as \(other), and the app shows it as the district's language",
                    fix: "publish it as an item of its own in \(other) with a note of the language in its title, or add the district's language beside it"))
        }
        return out
    }

    /// Skipped heading levels, bold lines standing for headings, tables without header cells.
    static func structure(_ field: String, _ document: HTMLDocument) -> [AccessibilityFinding] {
        var out: [AccessibilityFinding] = []
        func add(_ problem: String, _ fix: String) {
            out.append(AccessibilityFinding(criterion: "1.3.1", name: "Info and Relationships", field: field, problem: problem, fix: fix))
        }
        var previous: Int?
        for heading in (try? document.root.select("h2, h3, h4, h5, h6")) ?? [] {
            let level = Int(heading.name.dropFirst()) ?? 2
            if let previous, level > previous + 1 {
                add(
                    "a heading skips from level \(previous) to \(level) (\"\(String(heading.text.prefix(40)))\")",
                    "use the next level down (h\(previous + 1)) so the outline holds")
            }
            previous = level
        }
        for paragraph in (try? document.root.select("p")) ?? [] {
            let children = paragraph.children
            guard children.count == 1, ["strong", "b"].contains(children[0].name), children[0].text == paragraph.text else { continue }
            let text = paragraph.text
            guard (3...80).contains(text.count), !text.hasSuffix("."), !text.hasSuffix(":") || text.count < 40 else { continue }
            add("a bold line stands for a heading (\"\(text)\")", "make it a heading (h2 or h3) in the source page")
        }
        for table in (try? document.root.select("table")) ?? [] where table.first("th") == nil {
            add("a table has no header cells", "give its first row (or column) header cells (<th>) in the source page")
        }
        return out
    }

    /// An address as a finding names it: its host and last part (`d.example/…/menu.pdf`), its
    /// host alone for a site's root, the text itself when it is no web address; 60 characters at most.
    static func short(_ url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else { return String(url.prefix(60)) }
        let last = parsed.lastPathComponent
        return String((last.isEmpty || last == "/" ? host : host + "/…/" + last).prefix(60))
    }
}

extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
