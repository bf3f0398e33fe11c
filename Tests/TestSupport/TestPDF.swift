import Foundation

/// PDFs written byte by byte for tests: a scan (a JPEG picture of the text and nothing else, as
/// a copier makes) and a text document whose title, language and tags can each be left out.
public enum TestPDF {
    /// A scanned page: the lines drawn by ImageMagick (`convert`, JPEG) and placed as the
    /// page's only content.
    ///
    /// Nil when ImageMagick is missing.
    public static func scanned(_ lines: [String], in folder: TemporaryDirectory) throws -> Data? {
        guard let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let jpeg = folder.path("scan-\(UUID().uuidString).jpg")
        let drawn = try Binaries.runPath(
            convert,
            [
                "-size", "1275x1650", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "40", "-fill", "black", "-annotate", "+100+200",
                lines.joined(separator: "\n"),
                "-rotate", "0.6", "-background", "white", "-flatten", "-colorspace", "Gray", "-quality", "85", jpeg,
            ])
        guard drawn.status == 0, let image = FileManager.default.contents(atPath: jpeg) else { throw TestPDFError.imageMagick(drawn.stderr) }
        let (width, height) = jpegSize(image) ?? (1275, 1650)
        var objects: [Data] = []
        objects.append(Data("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        objects.append(Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8))
        objects.append(Data("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".utf8))
        objects.append(
            Data(
                ("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode"
                    + " /Length \(image.count) >>\nstream\n")
                    .utf8)
                + image + Data("\nendstream".utf8))
        objects.append(stream("q 612 0 0 792 0 0 cm /Im0 Do Q"))
        return file(objects, info: nil)
    }

    /// A text document in Helvetica; `title` in its properties, `language` in its catalog, and
    /// `tagged`: marked content with a structure tree (one paragraph per line).
    public static func text(_ lines: [String], title: String?, language: String?, tagged: Bool) -> Data {
        var content = "BT /F1 14 Tf 72 720 Td 18 TL\n"
        for (index, line) in lines.enumerated() {
            let escaped = line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(
                of: ")", with: "\\)")
            content += tagged ? "/P << /MCID \(index) >> BDC (\(escaped)) ' EMC\n" : "(\(escaped)) '\n"
        }
        content += "ET"
        var catalog = "<< /Type /Catalog /Pages 2 0 R"
        if let language { catalog += " /Lang (\(language))" }
        if tagged { catalog += " /MarkInfo << /Marked true >> /StructTreeRoot 6 0 R" }
        catalog += " >>"
        var objects: [Data] = [
            Data(catalog.utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /StructParents 0 >>".utf8),
            Data("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8),
            stream(content),
        ]
        if tagged {
            let kids = lines.indices.map { "\(8 + $0) 0 R" }.joined(separator: " ")
            objects.append(Data("<< /Type /StructTreeRoot /K [7 0 R] /ParentTree << /Nums [0 [\(kids)]] >> >>".utf8))
            objects.append(Data("<< /Type /StructElem /S /Document /P 6 0 R /K [\(kids)] >>".utf8))
            for index in lines.indices { objects.append(Data("<< /Type /StructElem /S /P /P 7 0 R /Pg 3 0 R /K \(index) >>".utf8)) }
        }
        var info: Int?
        if let title {
            objects.append(Data("<< /Title (\(title)) /Producer (TimeTrack tests) >>".utf8))
            info = objects.count
        }
        return file(objects, info: info)
    }

    static func stream(_ text: String) -> Data {
        Data("<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream".utf8)
    }

    /// The objects numbered from 1, with a cross-reference table and a trailer.
    static func file(_ objects: [Data], info: Int?) -> Data {
        var out = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(index + 1) 0 obj\n".utf8) + object + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Data(String(format: "%010d 00000 n \n", offset).utf8) }
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(info.map { " /Info \($0) 0 R" } ?? "") >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// A baseline JPEG's width and height, from its SOF0 marker.
    static func jpegSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }
}

enum TestPDFError: Error {
    case imageMagick(String)
}
