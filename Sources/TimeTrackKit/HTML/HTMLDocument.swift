import CLibXML2
import CXMLArena
import Foundation
import TimeTrackCore

/// A parsed HTML page: libxml2's forgiving HTML parser with no network, no stderr noise,
/// and links resolved against the page URL and its `<base href>`.
///
/// The document owns the libxml2 tree; `HTMLNode`s keep it alive. Not thread-safe: use a
/// document on one thread.
///
/// Pages up to `arenaPageLimit` bytes are parsed into an arena (`CXMLArena`): libxml2 takes
/// the tree's memory from a few large chunks instead of one `malloc` per node, name and text,
/// and the whole tree goes back in one step when the document is released.
///
/// The tree is read-only: nothing may change it after the parse (an arena's memory cannot be
/// freed node by node, and a change would allocate outside the arena that owns the tree). To
/// change markup, write new text (`Sanitizer.sanitize(…, renaming:)`) and parse that.
public final class HTMLDocument {
    let doc: htmlDocPtr
    /// The arena holding the tree, if it was parsed into one.
    private let arena: OpaquePointer?
    /// Whether the tree has parts outside the arena (it filled up) that `xmlFreeDoc` must free.
    private let needsFree: Bool

    /// Pages larger than this parse with libxml2's own allocations (an arena keeps every
    /// allocation of the parse until the end: about 26 times the page, against 15 for the tree).
    static let arenaPageLimit = 1 << 20
    /// An arena stops growing here; the rest of the parse allocates as usual.
    static let arenaByteLimit = 64 << 20

    /// Parses inside an arena when `bytes` is small enough: `parse` runs with this thread's
    /// libxml2 allocations directed into it.
    private static func parseInArena(bytes: Int, limit: Int?, _ parse: () -> xmlDocPtr?) -> (xmlDocPtr?, OpaquePointer?, Bool) {
        ttxml_install()
        let limit = limit ?? (bytes <= arenaPageLimit ? arenaByteLimit : 0)
        guard limit > 0, let arena = ttxml_arena_begin(limit) else { return (parse(), nil, true) }
        let parsed = parse()
        ttxml_arena_end(arena)
        guard let parsed else {
            ttxml_arena_release(arena)
            return (nil, nil, true)
        }
        return (parsed, arena, ttxml_arena_overflowed(arena) != 0)
    }
    /// The URL the page was read from (or stands for), used to resolve relative links.
    public let url: URL?
    /// The base for relative links: `<base href>` resolved against `url`, else `url`.
    public private(set) var baseURL: URL?
    /// The character encoding the page was decoded with.
    public let encoding: String
    /// Set when a charset declaration contradicted the bytes and was ignored (importers report it).
    public let encodingNote: String?

    /// `<a …/>` as a browser reads it: `<a …>` (the slash dropped), every other byte as it was.
    static func openSelfClosedLinks(_ data: Data) -> Data {
        // Read in place (every page goes through here): bytes are copied only when a slash is dropped.
        let drop: [Int] = data.withUnsafeBytes { bytes in
            var drop: [Int] = []  // positions of the slashes to leave out
            var i = 0
            guard let base = bytes.baseAddress else { return drop }
            while i + 2 < bytes.count {
                // The next "<" (memchr: most of a page is not one).
                guard let found = memchr(base + i, 0x3C, bytes.count - i) else { break }
                i = base.distance(to: UnsafeRawPointer(found))
                guard i + 2 < bytes.count else { break }
                // "<a" or "<A" followed by whitespace or "/".
                guard bytes[i + 1] | 0x20 == 0x61 else {
                    i += 1
                    continue
                }
                switch bytes[i + 2] {
                case 0x20, 0x09, 0x0A, 0x0D, 0x2F: break
                default:
                    i += 1
                    continue
                }
                var j = i + 2
                var quote: UInt8?
                while j < bytes.count {
                    let b = bytes[j]
                    if let q = quote {
                        if b == q { quote = nil }
                    } else if b == 0x22 || b == 0x27 {
                        quote = b
                    } else if b == 0x3E {
                        break
                    }
                    j += 1
                }
                guard j < bytes.count else { break }
                if bytes[j - 1] == 0x2F { drop.append(j - 1) }
                i = j + 1
            }
            return drop
        }
        guard !drop.isEmpty else { return data }
        var out = Data(capacity: data.count)
        var from = data.startIndex
        for position in drop {
            out += data[from..<(data.startIndex + position)]
            from = data.startIndex + position + 1
        }
        out += data[from...]
        return out
    }

    /// Parses HTML bytes.
    ///
    /// - Parameters:
    ///   - data: the page's bytes, any size the caller accepted.
    ///   - url: where the page came from (or the public URL it stands for).
    ///   - declaredCharset: the charset from an HTTP `Content-Type` header, if any.
    /// - Throws: `.parse` when libxml2 cannot build any tree (it recovers from almost anything).
    public convenience init(data: Data, url: URL?, declaredCharset: String? = nil) throws {
        try self.init(data: data, url: url, declaredCharset: declaredCharset, arenaLimit: nil)
    }

    /// Parses HTML bytes; `arenaLimit` overrides the arena's size (0: no arena), for tests.
    init(data: Data, url: URL?, declaredCharset: String?, arenaLimit: Int?) throws {
        ttxml_install()  // libxml2's allocator is chosen before its first allocation
        clibxml2_silence()
        let (encoding, note) = Charset.detectWithNote(data, declared: declaredCharset)
        encodingNote = note
        self.encoding = encoding
        self.url = url
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_COMPACT.rawValue)
        // Browsers ignore the slash of `<a href=…/>`: the link holds the text that follows, up
        // to `</a>`. libxml2 makes it an empty element; the slash is dropped first (one scan, only
        // for byte encodings where "<a" is ASCII).
        let data = encoding.lowercased().hasPrefix("utf-16") || encoding.lowercased().hasPrefix("utf-32") ? data : HTMLDocument.openSelfClosedLinks(data)
        try HTMLDocument.checkMarkup(data, url: url, xml: false)
        let urlString = url?.absoluteString
        var (parsed, arena, needsFree) = HTMLDocument.parseInArena(bytes: data.count, limit: arenaLimit) {
            data.withUnsafeBytes { raw -> htmlDocPtr? in
                guard let base = raw.baseAddress, raw.count > 0 else { return nil }
                return htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), urlString, encoding, options)
            }
        }
        if parsed == nil && !data.isEmpty {
            // An encoding libxml2 does not know: read it as Windows-1252, which never fails.
            (parsed, arena, needsFree) = HTMLDocument.parseInArena(bytes: data.count, limit: arenaLimit) {
                data.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return nil }
                    return htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), urlString, "windows-1252", options)
                }
            }
        }
        if parsed == nil {
            // Empty input: an empty document, so selectors simply match nothing.
            (parsed, arena, needsFree) = (htmlReadMemory("<html></html>", 13, urlString, "utf-8", options), nil, true)
        }
        guard let parsed else {
            throw TimeTrackError(.parse, "the page could not be parsed as HTML", context: ["url": url?.absoluteString ?? "?"])
        }
        doc = parsed
        self.arena = arena
        self.needsFree = needsFree
        baseURL = url
        HTMLDocument.numberElements(parsed)
        if let href = HTMLDocument.baseHref(parsed), let resolved = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: url)?.absoluteURL {
            baseURL = resolved
        }
    }

    /// `<base href>`: looked for in `<head>` (and directly under `<html>`, where libxml2 may put
    /// a stray one), not in the whole page: the body is never searched for it.
    static func baseHref(_ doc: htmlDocPtr) -> String? {
        func isElement(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> Bool {
            node.pointee.type == XML_ELEMENT_NODE && node.pointee.name.map { xmlStrcasecmp($0, name) == 0 } == true
        }
        func href(_ node: UnsafeMutablePointer<xmlNode>) -> String? {
            guard let value = xmlGetProp(node, "href") else { return nil }
            defer { clibxml2_free(value) }
            return String(cString: value)
        }
        guard let html = xmlDocGetRootElement(doc) else { return nil }
        var child = html.pointee.children
        while let node = child {
            if isElement(node, "base"), let value = href(node) { return value }
            if isElement(node, "head") {
                var inner = node.pointee.children
                while let element = inner {
                    if isElement(element, "base"), let value = href(element) { return value }
                    inner = element.pointee.next
                }
            }
            if isElement(node, "body") { break }
            child = node.pointee.next
        }
        return nil
    }

    /// Parses XML (feeds) with libxml2's recovering XML parser: no network, no external entities,
    /// no stderr.
    ///
    /// Navigate it with `HTMLNode.children(named:)`; CSS selectors assume HTML names.
    public init(xml data: Data, url: URL?) throws {
        ttxml_install()
        clibxml2_silence()
        try HTMLDocument.checkMarkup(data, url: url, xml: true)
        let options = Int32(
            XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
        let urlString = url?.absoluteString
        var broken: String?
        let (parsed, arena, needsFree) = HTMLDocument.parseInArena(bytes: data.count, limit: nil) {
            data.withUnsafeBytes { raw -> xmlDocPtr? in
                guard let base = raw.baseAddress, raw.count > 0, let context = xmlNewParserCtxt() else { return nil }
                defer { xmlFreeParserCtxt(context) }
                // The first error is where the file broke (the last is only where reading gave up).
                let first = FirstXMLError()
                xmlSetStructuredErrorFunc(Unmanaged.passUnretained(first).toOpaque()) { data, error in
                    guard let data, let error else { return }
                    let first = Unmanaged<FirstXMLError>.fromOpaque(data).takeUnretainedValue()
                    if first.note == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue { first.note = HTMLDocument.breakNote(error.pointee) }
                }
                let document = xmlCtxtReadMemory(context, base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), urlString, nil, options)
                clibxml2_silence()
                // A file that breaks is read as far as it goes (recovery), and says where it broke.
                if context.pointee.wellFormed == 0 { broken = first.note ?? HTMLDocument.breakNote(context.pointee.lastError) }
                return document
            }
        }
        encodingNote = broken
        guard let parsed, xmlDocGetRootElement(parsed) != nil else {
            if let parsed { HTMLDocument.free(parsed, arena: arena, needsFree: needsFree) }
            throw TimeTrackError(.parse, "not well-formed XML", context: ["url": url?.absoluteString ?? "?"])
        }
        doc = parsed
        self.arena = arena
        self.needsFree = needsFree
        self.url = url
        baseURL = url
        encoding = "xml"
        HTMLDocument.numberElements(parsed)
    }

    /// The first error libxml2 reports while an XML file is read.
    final class FirstXMLError {
        var note: String?
    }

    /// Where and why an XML file stopped being well-formed, as a problem's words.
    static func breakNote(_ error: xmlError) -> String {
        let message = error.message.map { TextNormalizer.collapse(String(cString: $0)) } ?? "not well-formed"
        return "the XML is not well-formed at line \(error.line) (\(TextNormalizer.truncate(message, to: 120))): what follows that point may be lost;"
            + " fix the file or ask its publisher"
    }

    /// Numbers the elements in document order (libxml2 keeps the number in each element's
    /// unused `content`), so comparing two nodes' order is one subtraction instead of a walk
    /// over their siblings: sorting a selection and finding the heading before an item stay
    /// linear in the page even with 100,000 items side by side.
    ///
    /// Done once, right after the parse; the tree is not changed after it (arena documents are
    /// read-only).
    static func numberElements(_ doc: xmlDocPtr) {
        _ = xmlXPathOrderDocElems(doc)
    }

    /// The root element.
    public var rootElement: HTMLNode? {
        xmlDocGetRootElement(doc).map { HTMLNode(raw: $0, document: self) }
    }

    /// Parses a UTF-8 string (fixtures, fragments).
    public convenience init(html: String, url: URL? = nil) throws {
        try self.init(data: Data(html.utf8), url: url, declaredCharset: "utf-8")
    }

    deinit { HTMLDocument.free(doc, arena: arena, needsFree: needsFree) }

    /// Frees a tree: node by node when parts of it are outside an arena, then the arena at once.
    private static func free(_ doc: xmlDocPtr, arena: OpaquePointer?, needsFree: Bool) {
        if needsFree { xmlFreeDoc(doc) }
        if let arena { ttxml_arena_release(arena) }
    }

    /// Bytes of the arena holding the tree (0 when it was parsed without one), for tests.
    var arenaBytes: Int { arena.map { ttxml_arena_used($0) } ?? 0 }

    /// The same parse with the import's allocation: the tree in an arena (pages up to
    /// `arenaPageLimit`), given back at once.
    ///
    /// For the benchmark, beside the floor: how much of the import's saving is the arena's.
    public static func parseInArenaAndDiscard(_ data: Data) {
        ttxml_install()
        clibxml2_silence()
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        let (parsed, arena, needsFree) = parseInArena(bytes: data.count, limit: nil) {
            data.withUnsafeBytes { raw -> xmlDocPtr? in
                guard let base = raw.baseAddress, raw.count > 0 else { return nil }
                return htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), nil, "utf-8", options)
            }
        }
        if let parsed { free(parsed, arena: arena, needsFree: needsFree) }
    }

    /// Parses HTML with libxml2 and frees it: nothing else.
    ///
    /// The benchmark's floor, measured in a process of its own that never installs the arena
    /// allocator: libxml2 as it comes.
    public static func parseAndDiscard(_ data: Data) {
        clibxml2_silence()
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return }
            if let doc = htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), nil, "utf-8", options) { xmlFreeDoc(doc) }
        }
    }

    /// The document node: select from here.
    public var root: HTMLNode { HTMLNode(raw: UnsafeMutablePointer<xmlNode>(OpaquePointer(doc)), document: self) }

    /// `scheme://host[:port]` of the base URL, for root-relative links.
    private lazy var originPrefix: String? = {
        guard let base = baseURL, let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = base.host else { return nil }
        return "\(scheme)://\(host)" + (base.port.map { ":\($0)" } ?? "")
    }()

    /// The `<link rel="canonical">` URL, if the page declares one.
    public var canonicalURL: URL? {
        root.first("link[rel=canonical]")?.attribute("href").flatMap { URL(string: $0, relativeTo: baseURL)?.absoluteURL }
    }

    /// Resolves a link found in the page against the base URL.
    ///
    /// Returns nil for empty links and `#` anchors. Other schemes (`mailto:`, `javascript:`)
    /// come back as written, for the caller to judge.
    public func resolve(_ href: String) -> String? {
        // Fast paths for the two common shapes: absolute http(s) and root-relative paths.
        let utf8 = href.utf8
        if let first = utf8.first, first != 32, let last = utf8.last, last != 32, last != 10,
            !utf8.contains(where: { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 92 })
        {
            if href.hasPrefix("https://") || href.hasPrefix("http://") { return href }
            if first == UInt8(ascii: "/"), utf8.count > 1, utf8[utf8.index(after: utf8.startIndex)] != UInt8(ascii: "/"),
                !TextNormalizer.has(href, "/./"), !TextNormalizer.has(href, "/../"), let origin = originPrefix
            {
                return origin + href
            }
        }
        let trimmed = href.trimmingSpacesAndNewlines()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let escaped = trimmed.replacingOccurrences(of: " ", with: "%20")
        if let absolute = URL(string: escaped), absolute.scheme != nil { return absolute.absoluteString }
        guard let resolved = URL(string: escaped, relativeTo: baseURL)?.absoluteURL else { return nil }
        return resolved.absoluteString
    }
}
