import Foundation
import TimeTrackCore
import TimeTrackDiscover
import TimeTrackExport
import TimeTrackImport
import TimeTrackKit

extension Console {
    /// `--suggest`: the listing discover infers on the page, loaded as the definition so far.
    static func suggest(_ trial: Trial, kindGiven: Bool, session: Session) throws {
        let url =
            trial.baseURL.flatMap(URL.init(string:)) ?? URL(string: trial.target).flatMap { $0.scheme == nil ? nil : $0 } ?? URL(fileURLWithPath: trial.target)
        guard let listing = ListingInference.infer(trial.document, pageURL: url, zone: trial.zone, now: Date()) else {
            session.output.line("suggest: no listing found (no repeated blocks with a date in most of them); set item and fields by hand")
            return
        }
        if !kindGiven { trial.kind = listing.kind }
        trial.item = listing.options["item"]
        trial.fields = listing.options["fields"]?.objectValue ?? [:]
        trial.extraOptions = listing.options.filter { !["item", "fields"].contains($0.key) }
        session.output.line("suggest: \(listing.why); kind \(trial.kind.rawValue). `definition` shows it, `field` changes a field, `save ID` writes it.")
        try report(trial, session, field: nil, all: true)
    }

    /// `detail NAME=SPEC`, `undetail NAME`, `detail-link FIELD`.
    static func detailStep(_ verb: String, _ rest: String, _ trial: Trial, _ session: Session) throws {
        switch verb {
        case "detail-link":
            guard !rest.isEmpty else { throw TimeTrackError(.usage, "detail-link: name the field whose address is each item's page, like detail-link link") }
            try trial.checkField(rest)
            trial.detailLink = rest
            session.output.line("detail pages: each item's \(rest)")
        case "undetail":
            guard !rest.isEmpty else { throw TimeTrackError(.usage, "undetail: name the detail field") }
            trial.detailFields[rest] = nil
            session.output.line("detail fields: " + (trial.detailFields.isEmpty ? "none" : trial.detailFields.keys.sorted().joined(separator: ", ")))
        default:
            guard let equals = rest.firstIndex(of: "=") else {
                throw TimeTrackError(.usage, "detail: write NAME=SPEC, like detail body=article .content@html", fix: "help lists the commands")
            }
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            try trial.checkField(name)
            let before = trial.detailFields[name]
            trial.detailFields[name] = Trial.spec(String(rest[rest.index(after: equals)...]))
            do {
                session.output.line("reading the pages of the first \(Trial.detailItems) items (each item's \(trial.detailLink))")
                try report(trial, session, field: name)
            } catch {
                trial.detailFields[name] = before
                throw error
            }
        }
    }

    /// Where the next-page link points on this page (it is not followed here).
    static func reportNext(_ trial: Trial, _ session: Session) throws {
        guard trial.next != nil else {
            session.output.line("no next-page link: one page")
            return
        }
        guard trial.item != nil, trial.fields["title"] != nil else {
            session.output.line("next page: set item and field title first, then next shows where it points")
            return
        }
        let result = try trial.extract()
        if let next = result.nextPageNotRead {
            session.output.line("next page: " + SafeText.visible(next) + " (extract follows it once saved, up to maxPages)")
        } else {
            session.output.line("next page: the spec finds no link on this page")
        }
    }

    /// What the definition so far gives: counts, problems, and a field's values (or all items).
    static func report(_ trial: Trial, _ session: Session, field: String?, all: Bool = false) throws {
        let out = session.output
        guard trial.item != nil else {
            out.line("set the item selector next: item SEL")
            return
        }
        guard trial.fields["title"] != nil else {
            let matched =
                (trial.item?.stringValue ?? trial.item?.objectValue?["select"]?.stringValue).flatMap { try? Selector($0) }.map {
                    trial.document.root.select($0).count
                } ?? 0
            out.line("the item selector matches \(matched) element\(matched == 1 ? "" : "s"); now give the fields, starting with title: field title=SEL")
            return
        }
        let result: ImportResult
        do {
            result = try trial.extract()
        } catch let error as TimeTrackError where error.code == .configuration {
            // A definition not complete yet (events need start...): say what, keep going.
            out.line("not yet: \(error.context["field"].map { "\($0) " } ?? "")\(error.message)")
            return
        }
        out.line("\(result.items.count) items, \(result.problemCount) problems")
        let shown = all ? result.items : Array(result.items.prefix(5))
        for item in shown {
            let fields = item.content.fields()
            var line = "  " + SafeText.visible(TextNormalizer.truncate(item.content.title, to: 60))
            if let field {
                let stored = Console.storedName(field, kind: trial.kind)
                let shownValue =
                    ["start", "publishedAt", "due"].contains(stored)
                    ? when(item.content, zone: trial.zone) : ItemRendering.value(fields[stored] ?? .null, zone: trial.zone, limit: 70)
                line += "  │ \(field): " + shownValue
            } else if all {
                line +=
                    "  │ " + when(item.content, zone: trial.zone) + "  │ "
                    + ItemRendering.value(fields["link"] ?? fields["url"] ?? .null, zone: trial.zone, limit: 70)
            }
            // What the importer guessed, as review will show it.
            if let guess = item.guesses.first {
                line += "  ⚠ " + SafeText.visible(guess.note) + (item.guesses.count > 1 ? " (+\(item.guesses.count - 1))" : "")
            }
            out.line(line)
        }
        if !all && result.items.count > shown.count { out.line("  … (items shows them all)") }
        for problem in result.problems.prefix(all ? 50 : 3) { out.note("  " + problem.description) }
        for never in result.fieldsNeverRead { out.note("  note: \(never) gave no value for any item: check its selector") }
    }

    /// An item's date as the shell shows it: an all-day event as its day ("(all day)"), not at
    /// 00:00; a timed one with its time, in the source's zone.
    static func when(_ content: ItemContent, zone: TimeZone) -> String {
        switch content {
        case .event(let event): return Display.date(event.start, zone: zone, allDay: event.allDay) + (event.allDay ? " (all day)" : "")
        case .announcement(let announcement): return announcement.publishedAt.map { Display.date($0, zone: zone) } ?? "-"
        case .deadline(let deadline): return Display.date(deadline.due, zone: zone)
        case .alert(let alert): return Display.date(alert.publishedAt ?? alert.expiresAt, zone: zone)
        case .schoolInfo, .post, .absence, .ticket: return content.sortDate.map { Display.date($0, zone: zone) } ?? "-"
        }
    }

    /// The field of the stored model a definition's field name fills.
    static func storedName(_ field: String, kind: ItemKind) -> String {
        switch field {
        case "date": return kind == .event ? "start" : "publishedAt"
        case "time": return "start"
        case "location": return "locationName"
        case "image": return "imageURL"
        default: return field
        }
    }
}
