import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit
import TimeTrackReview

/// `a11y links ID` and `t` in the review walk: the links of an item whose text says nothing out
/// of context, named from the pages (or PDFs) they go to, shown first and applied as one edit
/// (locked like any edit) when the person says yes.
enum LinkNaming {
    /// At most this many links are fetched for one item.
    static let maxLinks = 10

    /// Proposes names for the item's vague links and applies them when `confirmed` (or when the
    /// person answers yes at the prompt); returns the edited item, or nil when nothing changed.
    static func run(_ item: Item, store: any ItemStore, session: Session, confirmed: Bool) throws -> Item? {
        let out = session.output
        let content = item.pendingContent ?? item.content
        let vague = LinkNames.vague(in: content)
        guard !vague.isEmpty else {
            out.line("\(item.id): no link says nothing out of context; nothing to name")
            return nil
        }
        let names = try fetchNames(vague.prefix(maxLinks), item: item, session: session)
        guard !names.isEmpty else {
            out.line("\(item.id): none of the pages linked gave a title; edit the text yourself (`edit \(item.id) FIELD=…`)")
            return nil
        }
        if !confirmed {
            // The names first: the question is asked on the terminal, past the output's buffer.
            out.flush()
            guard session.interactive, let reader = session.reader,
                case .line(let answer) = reader.read(
                    prompt: "  name \(names.count == 1 ? "this link" : "these \(names.count) links") so? [y/N] ", remember: false),
                ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            else {
                out.line("  nothing changed" + (session.interactive ? "" : " (`a11y links \(item.id) --yes` names them)"))
                return nil
            }
        }
        let changes = LinkNames.changes(content, names: names)
        guard !changes.isEmpty else { return nil }
        let edited = try Lifecycle(store).edit(
            item.id, changes: changes, by: session.operatorName, reason: "link text named from where the links go (WCAG 2.4.4)")
        out.line(
            "\(edited.id): named \(names.count) link(s); locked against re-imports: \(changes.keys.sorted().joined(separator: ", ")) (`undo` takes it back)")
        return edited
    }

    /// Fetches each link's target with the item's source's client and reads its name; prints
    /// each proposal (or why there is none).
    ///
    /// Returns address → name.
    static func fetchNames(_ vague: ArraySlice<LinkNames.Vague>, item: Item, session: Session) throws -> [String: String] {
        guard let sourceID = item.provenance?.sourceID else {
            throw TimeTrackError(
                .usage, "\(item.id) has no source; its links are fetched with its source's settings",
                fix: "edit the link text yourself (`edit \(item.id) FIELD=…`)")
        }
        let client = try session.webClient(for: try session.source(sourceID), cache: nil)
        var names: [String: String] = [:]
        for link in vague {
            guard let url = URL(string: link.url) else { continue }
            let shown = SafeText.visible(String(link.url.prefix(70)))
            do {
                let page = try client.get(url, maxBytes: 20_000_000)
                if let name = LinkNames.name(of: page.data, url: url) {
                    names[link.url] = name
                    session.output.line("  \"\(SafeText.visible(link.text))\" → \"\(name)\"  (\(shown))")
                } else {
                    session.output.line("  \"\(SafeText.visible(link.text))\": \(shown) has no title that says more; left as it is")
                }
            } catch let error as TimeTrackError where error.code != .interrupted {
                session.output.line("  \"\(SafeText.visible(link.text))\": \(shown) could not be read (\(SafeText.visible(error.message))); left as it is")
            }
        }
        return names
    }
}
