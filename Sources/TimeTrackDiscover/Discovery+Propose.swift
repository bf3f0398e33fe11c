import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

extension Discovery {
    /// An emergency banner no recognizer read: proposed as an alert source of its page, once a crawl.
    func proposeAlertBlock(_ document: HTMLDocument, page: URL, state: inout CrawlState) {
        guard !state.result.proposals.contains(where: { $0.kind == .alert }), let block = AlertBlocks.find(in: document) else { return }
        var object = base(id: state.id("alerts"), kind: .alert, importer: .html, url: page.absoluteString)
        object["options"] = .object([
            "item": .string(block.selector),
            "fields": .object([
                "title": .array([.string("h1, h2, h3, h4, strong"), .string("p"), .string(".")]), "message": .string("."), "link": .string("a@href"),
            ]),
        ])
        state.propose(object, origin: .inferred, how: Discovery.inferred, why: "an alert banner: \(block.why)")
    }

    /// The JSON the page's markup names (an events API its script loads): read, and proposed
    /// to the `json` importer when it holds a list of titled, dated objects.
    func proposeJSONEndpoints(_ document: HTMLDocument, page: URL, web: WebClient, state: inout CrawlState) {
        let dates = DateParser(timeZone: settings.zone, reference: settings.now)
        for endpoint in JSONInference.endpoints(in: document, page: page) where CrawlState.site(of: endpoint) == state.site {
            guard !state.proposed(url: endpoint.absoluteString, importer: .json), state.checkedEndpoints.insert(endpoint.absoluteString).inserted,
                let fetched = try? web.get(endpoint, maxBytes: 5_000_000), let json = try? JSONValue(parsing: fetched.data),
                let (kind, options) = JSONInference.infer(json, endpoint: endpoint, dates: dates)
            else { continue }
            var object = base(id: state.id(Discovery.name(of: endpoint, or: "api")), kind: kind, importer: .json, url: endpoint.absoluteString)
            object["options"] = .object(options)
            state.propose(
                object, origin: .inferred, how: Discovery.inferred,
                why: "JSON that \(page.path.isEmpty ? "/" : page.path) loads, \(Discovery.what(kind, options: options))")
        }
    }

    func proposeDocuments(_ page: URL, why: String, state: inout CrawlState) {
        state.propose(
            base(id: state.id(Discovery.name(of: page, or: "documents")), kind: .schoolInfo, importer: .documents, url: page.absoluteString),
            origin: .inferred, how: Discovery.inferred, why: why)
    }
}
