import Foundation
import TimeTrackCore

extension HTMLDocument {
    /// The most attributes one element may carry: libxml2 compares each new attribute with
    /// every one before it, so an element with 100,000 costs minutes; real ones have a few dozen.
    public static let maxAttributes = 1_000

    /// Refuses, before libxml2 sees them, the pages whose parse would not be linear in their
    /// size: an element with more than `maxAttributes` attributes, and (XML) a document that
    /// declares entities of its own (`<!ENTITY …>`), whose references can expand a small file into
    /// gigabytes.
    ///
    /// One pass over the bytes.
    static func checkMarkup(_ data: Data, url: URL?, xml: Bool) throws {
        let place = url?.absoluteString ?? "?"
        if xml, data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw TimeTrackError(
                .refusedContent, "the document declares entities of its own (<!ENTITY …>), which can expand without bound; it was not read",
                fix: "feeds need no entity declarations: ask the site for a plain RSS, Atom or XML file", context: ["url": place])
        }
        if let offset = floodedElement(data) {
            throw TimeTrackError(
                .refusedContent,
                "an element near byte \(offset) has more than \(maxAttributes) attributes; the page was not read (it would take minutes to parse)",
                fix: "this is not a real page: check the source's url", context: ["url": place])
        }
    }

    /// The offset of the first tag with more than `maxAttributes` attribute names, or nil.
    ///
    /// Counts words that start after white space inside a tag, outside quoted values: an
    /// overcount (`a = b` is two) only makes the limit reached sooner on pages far from real ones.
    /// A quote opens a value only right after `=` (a stray `'` in a tag is a character), and the
    /// contents of `<script>` and `<style>` are not markup (`for(i=0;i<e.length;i++)` in a
    /// page's script is no tag): real pages with long scripts were refused as floods.
    static func floodedElement(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            var inTag = false, quote: UInt8 = 0, afterSpace = false, afterEquals = false
            var count = 0, start = 0
            while index < bytes.count {
                let byte = bytes[index]
                defer { index += 1 }
                if quote != 0 {
                    if byte == quote { quote = 0 }
                    continue
                }
                if byte == UInt8(ascii: "<") && !inTag {
                    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                    inTag = (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
                    (count, start, afterSpace, afterEquals) = (0, index, false, false)
                    continue
                }
                guard inTag else { continue }
                switch byte {
                case UInt8(ascii: ">"):
                    inTag = false
                    if let name = rawTextElement(bytes, at: start + 1), let close = closing(name, in: bytes, from: index + 1) { index = close - 1 }
                case UInt8(ascii: "\""),
                    UInt8(ascii: "'") where afterEquals:
                    quote = byte
                    afterEquals = false
                case 32, 9, 10, 12, 13: afterSpace = true
                default:
                    afterEquals = byte == UInt8(ascii: "=")
                    if afterSpace && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "/") {
                        count += 1
                        if count > maxAttributes { return start }
                    }
                    afterSpace = false
                }
            }
            return nil
        }
    }

    /// `script` or `style` when the tag whose name starts at `offset` is one of them.
    static func rawTextElement(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> [UInt8]? {
        for name in [Array("script".utf8), Array("style".utf8)] where offset + name.count < bytes.count {
            let matches = name.indices.allSatisfy { (bytes[offset + $0] | 0x20) == name[$0] }
            let after = bytes[offset + name.count]
            if matches && (after == UInt8(ascii: ">") || after == 32 || after == 9 || after == 10 || after == 13 || after == 12) { return name }
        }
        return nil
    }

    /// The offset of `</name` (any case) from `from` on, or nil.
    static func closing(_ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var index = from
        while index + name.count + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "/")
                && name.indices.allSatisfy({ (bytes[index + 2 + $0] | 0x20) == name[$0] })
            {
                return index
            }
            index += 1
        }
        return nil
    }
}
