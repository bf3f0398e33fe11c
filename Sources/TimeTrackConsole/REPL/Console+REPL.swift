import Foundation
import TimeTrackCore
import TimeTrackImport
import TimeTrackKit

extension Console {
    /// The interactive console on a terminal: prompt, line editing, history, completion.
    static func repl(session: Session) -> Int32 {
        Interrupt.install()
        let historyPath =
            ProcessInfo.processInfo.environment["TIMETRACK_HISTORY"]
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".timetrack_history")
        let reader: LineReader
        if ProcessInfo.processInfo.environment["TIMETRACK_NO_LIBEDIT"] == nil, let edit = EditLineReader(historyPath: historyPath) {
            reader = edit
        } else {
            reader = PlainLineReader()
        }
        EditLineReader.completer = { line, word in completions(line: line, word: word, session: session) }
        session.reader = reader
        let out = session.output
        out.line("timetrack-admin \(version) · store \(session.storeLabel) · as \(session.operatorName.isEmpty ? Session.account : session.operatorName)")
        out.line("Type `help` for commands, `help COMMAND` for one; Ctrl-C cancels, Ctrl-D or `quit` leaves.")
        out.flush()
        let storeName = session.storeName
        var announced = 0
        while true {
            // New pending items announced by the store since the last prompt (PostgreSQL).
            let arrived = session.newlyPending().count
            if arrived > 0 {
                announced += arrived
                out.note("\(announced) new pending (`review` to look)")
            }
            out.flush()
            // No color codes in the prompt: the line editor counts every byte of it as a column.
            let prompt = "\(storeName) (\(session.resolved?.name ?? (session.operatorName.isEmpty ? Session.account : session.operatorName)))> "
            switch reader.read(prompt: prompt, remember: true) {
            case .end:
                out.line()
                reader.save()
                return 0
            case .interrupted:
                continue
            case .line(let typed):
                let text = psqlShortcut(typed)
                let words: [String]
                do { words = try Words.split(text) } catch let error as TimeTrackError {
                    out.error(error)
                    continue
                } catch { continue }
                guard let first = words.first else { continue }
                if first == "quit" || first == "exit" || first == "\\q" {
                    reader.save()
                    return 0
                }
                Interrupt.clear()
                if first == "review" { announced = 0 }
                _ = run(words, in: session)
                reader.save()
                if Interrupt.requested {
                    Interrupt.clear()
                    out.note("(interrupted)")
                }
            }
        }
    }

    /// Commands from stdin, one a line: no prompt, never asks.
    ///
    /// With `bail`, stops at the first failure.
    static func script(session: Session, bail: Bool) -> Int32 {
        var failures = 0, successes = 0
        var lineNumber = 0
        while let typed = readLine(strippingNewline: true) {
            let text = psqlShortcut(typed)
            lineNumber += 1
            let words: [String]
            do { words = try Words.split(text) } catch let error as TimeTrackError {
                session.output.error(TimeTrackError(error.code, "line \(lineNumber): " + error.message, fix: error.fix))
                if bail { return 2 }
                failures += 1
                continue
            } catch { continue }
            guard let first = words.first else { continue }
            if first == "quit" || first == "exit" || first == "\\q" { break }
            session.output.scriptLine = lineNumber
            let code = run(words, in: session)
            session.output.scriptLine = nil
            session.output.flush()
            if code == 0 {
                successes += 1
            } else {
                failures += 1
                if bail {
                    session.output.note("stopped at line \(lineNumber) (--bail)")
                    return 1
                }
            }
        }
        if failures == 0 { return 0 }
        return successes == 0 ? 1 : 3
    }

    /// TAB completion: commands, then each command's options, its options' values and its
    /// arguments, as the command declares them (`Completion`): kinds, statuses, source ids,
    /// item ids, an item's fields, files.
    static func completions(line: String, word: String, session: Session) -> [String] {
        let words = (try? Words.split(line)) ?? line.split(separator: " ").map(String.init)
        let atFirstWord = words.isEmpty || (words.count == 1 && !line.hasSuffix(" "))
        if atFirstWord { return (commands.map(\.name) + ["quit"]).filter { $0.hasPrefix(word) }.sorted() }
        guard let command = command(named: words[0]) else { return [] }
        if word.hasPrefix("--") {
            return command.options.map { "--" + $0.name }.filter { $0.hasPrefix(word) }
        }
        // The words before the one being typed.
        let before = line.hasSuffix(" ") ? words : Array(words.dropLast())
        let options = command.options + globalOptions
        if let last = before.last, last.hasPrefix("--"), let option = options.first(where: { "--" + $0.name == last }), option.value != nil {
            return candidates(option.completes, command: command, before: before, word: word, session: session).filter { $0.hasPrefix(word) }.sorted()
        }
        // Which argument the word is: positional words so far, options and their values left out.
        var position = 0
        var index = 1
        while index < before.count {
            if before[index].hasPrefix("--") {
                if options.first(where: { "--" + $0.name == before[index] })?.value != nil { index += 1 }
            } else {
                position += 1
            }
            index += 1
        }
        guard let completion = command.arguments.isEmpty ? nil : command.arguments[min(position, command.arguments.count - 1)] else { return [] }
        return candidates(completion, command: command, before: before, word: word, session: session).filter { $0.hasPrefix(word) }.sorted()
    }

    /// The words a completion offers at the prompt.
    static func candidates(_ completion: Completion, command: CommandSpec, before: [String], word: String, session: Session) -> [String] {
        switch completion {
        case .words, .commands:
            return completion.words
        case .sources:
            return session.sources().sources.map(\.id)
        case .fields:
            // `edit ID <TAB>`: the item's fields; `unlock ID <TAB>`: its locked ones.
            return fieldCompletions(before, session: session)
        case .ids:
            guard let store = try? session.store() else { return [] }
            let prefix = word.lowercased()
            let deciding = ["approve", "reject", "edit"].contains(command.name)
            return ItemKind.allCases.filter { prefix.isEmpty || prefix.hasPrefix($0.idPrefix) }.flatMap { kind in
                ((try? store.list(ItemQuery(kind: kind, needsReview: deciding, limit: 200))) ?? []).map(\.id)
            }
        case .path:
            let folder = word.contains("/") ? String(word[...(word.lastIndex(of: "/") ?? word.startIndex)]) : ""
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            return entries.filter { !$0.hasPrefix(".") }.prefix(500).map { folder + $0 }
        case .group, .none:
            return []
        }
    }

    /// psql's backslash commands people type out of habit: `\q` quits, `\?` and `\h [CMD]` are help.
    static func psqlShortcut(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed == "\\q" { return "quit" }
        if trimmed == "\\?" || trimmed == "?" { return "help" }
        if trimmed == "\\h" || trimmed.hasPrefix("\\h ") { return "help" + trimmed.dropFirst(2) }
        return line
    }
}
