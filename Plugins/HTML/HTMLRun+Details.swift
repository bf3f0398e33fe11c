import Foundation
import TimeTrackCore
import TimeTrackKit

/// The detail pages of a run (`options.detail`).
///
/// They are fetched in order on this thread (per-host delay, robots.txt, the HTTP cache and
/// Ctrl-C all stay as they are); the pages the memo does not know are parsed on the other
/// cores meanwhile, a window of pages at a time so memory stays flat: window k is parsed while
/// window k+1 is fetched.
extension HTMLRun {
    /// Pages to parse, and their parsing under way.
    typealias DetailParsing = (fresh: [(index: Int, page: FetchedPage)], results: Parallel.Pending<Result<[String: String], any Error>>)

    /// How many detail pages are fetched while the window before them is parsed.
    static let detailWindow = 64

    /// Reads every item's detail page (the address in `linkField`), from the memo where it serves.
    mutating func readDetails(_ linkField: String) throws {
        var parsing: DetailParsing?
        var start = raws.startIndex
        while start < raws.endIndex {
            let end = min(start + Self.detailWindow, raws.endIndex)
            let fresh: [(index: Int, page: FetchedPage)]
            do {
                fresh = try fetchDetails(start..<end, linkField: linkField)
            } catch {
                // Stopped (Ctrl-C): let the window being parsed finish before leaving.
                _ = parsing?.results.wait()
                throw error
            }
            try collect(&parsing)
            let importer = self.importer
            parsing = (fresh, Parallel.start(fresh.map(\.page)) { page in Result { try importer.readDetail(page) } })
            start = end
        }
        try collect(&parsing)
    }

    /// Fetches the detail pages of the items in `range`: what the memo serves is taken, the
    /// pages to parse are returned.
    mutating func fetchDetails(_ range: Range<Int>, linkField: String) throws -> [(index: Int, page: FetchedPage)] {
        var fresh: [(index: Int, page: FetchedPage)] = []
        let wanted = range.compactMap { index in raws[index].raw[linkField].flatMap(URL.init(string:)).map { (index, $0) } }
        for ((index, _), fetched) in zip(wanted, try context.fetchAllRemembered(wanted.map(\.1), signature: signature)) {
            switch fetched {
            case .success(let (page, payload)):
                result.pagesFetched += 1
                pageStamps.append((page.url.absoluteString, page.stamp))
                if !takeRemembered(payload, index: index), let read = readFetched(page, index: index) { fresh.append((index, read)) }
            case .failure(let error):
                notRead(error, index)
            }
        }
        return fresh
    }

    /// Takes a detail page's memo when it serves (its values, or a settled item's digest);
    /// false when the page must be parsed.
    mutating func takeRemembered(_ payload: Data?, index: Int) -> Bool {
        guard let data = payload, let remembered = HTMLImporter.DetailMemo(data) else { return false }
        detailDigests[index] = remembered.digest
        let digest = combined(index)
        if let values = remembered.values {
            digests[index] = digest
            for (name, value) in values { raws[index].raw[name] = value }
            return true
        }
        if let digest, memo?.isSettled(key: raws[index].key, digest: digest) == true {
            // Settled: its stored content came from these very values.
            digests[index] = digest
            return true
        }
        // Remembered without its values, and not settled (edited, say): read again.
        return false
    }

    /// The page's bytes to parse (read now if it was known unchanged by its file's stamp only);
    /// nil, with the item's problem noted, when it cannot be read.
    mutating func readFetched(_ page: FetchedPage, index: Int) -> FetchedPage? {
        do {
            return try context.read(page)
        } catch let error as TimeTrackError where error.code != .interrupted {
            notRead(error, index)
        } catch {
            notRead(TimeTrackError(.fetch, "\(error)", context: ["url": page.url.absoluteString]), index)
        }
        return nil
    }

    /// Takes the values of the window parsed so far into the items.
    mutating func collect(_ parsing: inout DetailParsing?) throws {
        guard let (fresh, pending) = parsing else { return }
        parsing = nil
        for ((index, page), outcome) in zip(fresh, pending.wait()) {
            switch outcome {
            case .success(let values):
                let detail = HTMLImporter.digest(values)
                detailDigests[index] = detail
                digests[index] = combined(index)
                freshDetails.append((index, page, detail, values))
                for (name, value) in values { raws[index].raw[name] = value }
            case .failure(let error as TimeTrackError) where error.code != .interrupted:
                notRead(error, index)
            case .failure(let error):
                throw error
            }
        }
        context.progress?(result.pagesFetched, raws.count)
    }

    /// A detail page that could not be read: the item keeps its listing's fields.
    mutating func notRead(_ error: TimeTrackError, _ index: Int) {
        result.note(ImportProblem(.warning, "detail page not read, kept the listing's fields: \(error.description)", location: raws[index].location))
    }
}
