import Foundation
import TimeTrackCore
import TimeTrackImport

#if canImport(Glibc)
import Glibc
#endif

extension Console {
    /// `audit [ID] | verify [--anchor FILE] | anchor --out FILE|--syslog`: the decision log, its
    /// check, and its head written outside the store.
    static var auditCommand: CommandSpec { AuditCommand.spec }

    struct AuditCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "audit",
            summary: "the decision log: who did what, when and why; `audit verify` checks its hash chain, `audit anchor` signs its head outside the store",
            pages: true)
        @Positional("[ID] | verify | anchor", count: 0...1, completes: [.words(["verify", "anchor"]), .ids]) var words: [String]
        @Option("limit", value: "N", in: 1...1_000_000, help: "at most N entries (default 50)") var limit = 50
        @Option("anchor", value: "FILE", completes: .path, help: "verify: also check the log against the last anchor in FILE") var anchor: String?
        @Option("out", value: "FILE", completes: .path, help: "anchor: append the signed head to FILE (keep it where the store's writers cannot write)")
        var out: String?
        @Flag("syslog", help: "anchor: send the signed head to syslog (auth facility)") var syslog: Bool
        @Option(
            "key", value: "FILE", completes: .path,
            help: "the Ed25519 signing key (default $TIMETRACK_ANCHOR_KEY or ~/.config/timetrack-admin/anchor.key; made on first use, readable"
                + " by its owner only)") var key: String?

        func run(_ session: Session) throws -> Int32 {
            let store = try session.store()
            try session.requireAdmin(in: store, for: "read the audit log")
            switch words.first {
            case "verify": return try verifyAudit(store, self, session)
            case "anchor": return try anchorAudit(store, self, session)
            default: break
            }
            let entries = try store.audit(itemID: words.first, limit: limit)
            if session.output.json {
                session.output.printJSON(entries)
                return 0
            }
            if entries.isEmpty {
                session.output.line("no decisions yet")
                return 0
            }
            var table = Table(headers: ["#", "when", "who", "action", "item", "why"])
            let zone = session.districtZone
            for e in entries {
                table.rows.append([
                    String(e.id), Display.date(e.at, zone: zone), e.operatorName, e.action, e.itemID ?? "",
                    [e.reason, e.detail].compactMap { $0 }.joined(separator: " · "),
                ])
            }
            session.output.printTable(table, width: terminalWidth())
            return 0
        }
    }

    /// `audit verify [--anchor FILE]`: the chain, the guards, the operators table, the anchor.
    static func verifyAudit(_ store: any ItemStore, _ command: AuditCommand, _ session: Session) throws -> Int32 {
        var anchor: AuditAnchor?
        if let file = command.anchor {
            let read = try AuditAnchor.last(inFile: file)
            guard try read.signatureHolds(trustedKey: try AnchorKey.trustedPublicKey(command.key)) else {
                session.output.error(
                    TimeTrackError(
                        .storeUnusable, "the anchor's signature does not hold, or it was signed by another key than yours: it cannot be trusted",
                        fix: "anchors are signed with the admins' key (--key); one someone else made proves nothing", context: ["file": file]))
                return 1
            }
            anchor = read
        }
        let result = try store.verifyAudit(anchor: anchor)
        if session.output.json {
            session.output.printJSON(result)
        } else if result.holds {
            let against = anchor.map { " and holds what the anchor of \(Display.date($0.at, zone: session.districtZone)) saw (\($0.entries) entries)" } ?? ""
            session.output.line("the audit log's chain verifies: \(result.entries) entries, none changed, deleted or reordered\(against)")
        } else {
            if !result.missingGuards.isEmpty {
                session.output.error(
                    TimeTrackError(
                        .storeUnusable,
                        "the audit log's append-only guards are missing: \(result.missingGuards.joined(separator: ", ")) (someone dropped or replaced them)",
                        fix: "`timetrack-admin store repair` puts them back; then find out who could write the store"))
            }
            if let problem = result.problem {
                session.output.error(
                    TimeTrackError(
                        .storeUnusable, "the audit log was tampered with: \(problem)",
                        fix: "restore the store from a backup to see what was changed; entries after it may be genuine"))
            }
        }
        return result.holds ? 0 : 1
    }

    /// `audit anchor --out FILE | --syslog`: signs the chain's head and writes it outside the store.
    static func anchorAudit(_ store: any ItemStore, _ command: AuditCommand, _ session: Session) throws -> Int32 {
        let out = command.out
        guard (out != nil) != command.syslog else {
            throw TimeTrackError(
                .usage, "audit anchor: give --out FILE or --syslog",
                fix: "e.g. audit anchor --out /var/log/timetrack/anchors (a place the store's writers cannot write)")
        }
        let anchor = try writeAnchor(store, out: out, key: command.key, session: session)
        if session.output.json {
            session.output.printJSON(
                JSONValue.object([
                    "entries": .number(Double(anchor.entries)), "last": .number(Double(anchor.lastID)), "head": .string(anchor.head),
                    "line": .string(anchor.line),
                ]))
        } else {
            session.output.line(
                "anchored \(anchor.entries) entries (last \(anchor.lastID)) to \(out ?? "syslog"), signed by key \(anchor.publicKey.prefix(16))…")
        }
        return 0
    }

    /// Verifies the log, signs its head and appends the anchor to `out` (nil: syslog).
    static func writeAnchor(_ store: any ItemStore, out: String?, key keyFile: String?, session: Session) throws -> AuditAnchor {
        let result = try store.verifyAudit()
        guard result.holds else {
            throw TimeTrackError(
                .storeUnusable, "the audit log does not verify, so its head is not anchored: \(result.problem ?? result.missingGuards.joined(separator: ", "))",
                fix: "`audit verify` says what is wrong")
        }
        let key = try AnchorKey.load(keyFile, session: session)
        let anchor = try AuditAnchor.signed(entries: result.entries, lastID: result.lastID ?? 0, head: result.lastHash ?? "", at: Date(), privateKey: key)
        if let out {
            try AnchorKey.append(anchor.line + "\n", to: out)
        } else {
            openlog("timetrack-admin", LOG_PID, LOG_AUTH)
            withVaList([anchor.line]) { vsyslog(LOG_NOTICE, "%s", $0) }
            closelog()
        }
        return anchor
    }

    /// Anchors the log's head after a command that wrote to it (an import, a decision).
    ///
    /// To the place `_settings.json` names (`anchor`), signed as `audit anchor` signs. A failure
    /// is said, never fatal: the command's own work is done.
    static func anchorAfterCommand(_ session: Session) {
        guard let store = session.openedItemStore, store.auditEntriesWritten > session.anchoredEntries else { return }
        session.anchoredEntries = store.auditEntriesWritten
        guard let settings = try? FetchSettings.load(folder: session.importsPath), let place = settings.anchor else { return }
        do {
            _ = try writeAnchor(store, out: place == "syslog" ? nil : place, key: settings.anchorKey, session: session)
        } catch let error as TimeTrackError {
            session.output.note("warning: " + "the audit log's head was not anchored to \(place): \(error.message)" + (error.fix.map { "; \($0)" } ?? ""))
        } catch {
            session.output.note("warning: " + "the audit log's head was not anchored to \(place): \(error)")
        }
    }
}
