import Foundation
import TimeTrackCore
import TimeTrackKit

/// The PDFs announcements' bodies link to, fetched through the source's fetcher (its caps, its
/// robots.txt, its private-network rule) and checked for a screen reader (`PDFCheck`), for a
/// source whose definition says `"checkPDFs": true`.
///
/// What each lacks goes into the item's
/// `linkedDocuments`, where the accessibility check finds it.
///
/// Bounded: five PDFs an item, forty a run, each fetched once a run however many items link it.
/// Items the item memo found unchanged are not read again, so an unchanged body's PDFs are not
/// fetched again either.
struct LinkedPDFs {
    static let perItem = 5
    static let perRun = 40

    let fetcher: any PageFetcher
    private var checked: [String: [SchoolInfoItem.DocumentProblem]?] = [:]

    init(fetcher: any PageFetcher) {
        self.fetcher = fetcher
    }

    /// Checks the PDFs linked from each announcement's body; re-points the memo entries of the
    /// items it changed at their new content.
    mutating func check(_ result: inout ImportResult, memoEntries: inout [MemoEntry]) {
        for index in result.items.indices {
            guard case .announcement(var announcement) = result.items[index].content, let body = announcement.body else { continue }
            let base = URL(string: result.items[index].pageURL)
            let links = Self.pdfLinks(in: body, base: base).prefix(Self.perItem)
            guard !links.isEmpty else { continue }
            guard PDFCheck.available else {
                result.note(
                    ImportProblem(
                        .warning, "linked PDFs were not checked: poppler-utils is not installed (apt-get install poppler-utils)", location: "checkPDFs"))
                return
            }
            var documents: [LinkedDocument] = []
            for link in links {
                if let problems = problems(of: link, location: result.items[index].location, into: &result) {
                    documents.append(LinkedDocument(url: link, problems: problems))
                }
            }
            guard !documents.isEmpty else { continue }
            let oldHash = result.items[index].prepared?.hash
            announcement.linkedDocuments = documents
            result.items[index].content = .announcement(announcement)
            result.items[index].prepare()
            if let oldHash, let newHash = result.items[index].prepared?.hash {
                // This item's entry only (another item may have the same content).
                let url = ItemMemoKeys.prefix + result.items[index].key
                for entry in memoEntries.indices where memoEntries[entry].url == url && memoEntries[entry].payload.starts(with: Data(oldHash.utf8)) {
                    memoEntries[entry].payload = Data(newHash.utf8) + memoEntries[entry].payload.dropFirst(oldHash.utf8.count)
                }
            }
        }
    }

    /// The problems of one PDF, fetched once a run; nil when it could not be fetched or read
    /// (a warning says why) or the run's budget is spent.
    mutating func problems(of link: String, location: String, into result: inout ImportResult) -> [SchoolInfoItem.DocumentProblem]? {
        if let known = checked[link] { return known }
        guard checked.count < Self.perRun, let url = URL(string: link) else { return nil }
        var found: [SchoolInfoItem.DocumentProblem]?
        do {
            let page = try fetcher.fetch(url)
            result.pagesFetched += 1
            found = try PDFCheck.problems(of: page.data)
        } catch let error as TimeTrackError {
            result.note(ImportProblem(.warning, "a linked PDF was not checked (\(link)): \(error.message)", location: location))
        } catch {
            result.note(ImportProblem(.warning, "a linked PDF was not checked (\(link)): \(error)", location: location))
        }
        checked[link] = found
        return found
    }

    /// The absolute addresses of the PDFs a body links to (by the path's extension, or a file
    /// name in the query), each once, in order.
    static func pdfLinks(in body: String, base: URL?) -> [String] {
        guard body.range(of: "pdf", options: .caseInsensitive) != nil, let document = try? HTMLDocument(html: "<div>" + body + "</div>", url: base) else {
            return []
        }
        var seen = Set<String>(), links: [String] = []
        for anchor in (try? document.root.select("a[href]")) ?? [] {
            guard let href = anchor.attribute("href"), let url = URL(string: href, relativeTo: base)?.absoluteURL,
                ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else {
                continue
            }
            let isPDF = DocumentClassifier.documentType(url: url.absoluteString) == .pdf
            if isPDF, seen.insert(url.absoluteString).inserted { links.append(url.absoluteString) }
        }
        return links
    }
}
