import Foundation
import TimeTrackCore

extension Console {
    /// Commands that take item ids.
    static let idCommands: Set<String> = [
        "show", "history", "approve", "reject", "edit", "unlock", "archive", "restore", "keep", "revert", "reply", "close", "reopen", "preview", "ocr", "audit",
    ]
    /// Commands whose words after an item id are the item's fields: `edit ID <TAB>` gives
    /// `title=`, `start=`…; `unlock ID <TAB>` its locked fields.
    static let fieldCommands = ["edit", "unlock"]
    /// Commands whose word is a file (a page, a grade book).
    static let fileCommands = ["try", "grades"]
    /// Options whose value is a file or folder.
    static let pathOptions = ["store", "imports", "out", "file", "plugins"]
    /// Values of options that take one of a few words.
    static var optionValues: [String: [String]] {
        [
            "status": ItemStatus.allCases.map(\.rawValue), "kind": ItemKind.plurals, "format": ["json", "ics", "rss"],
            "role": Operator.Role.allCases.map(\.rawValue), "language": ["python", "sh"], "target": ["A", "B", "C", "D"],
            "due-within": ["1d", "2d", "7d", "14d"], "reminders": ["1d,2h", "2d,1h", "3d,1d,1h"],
            "weight": Deadline.Category.allCases.map { $0.rawValue + "=" }, "flag": ["a11y", "privacy"],
        ]
    }

    static var completionsCommand: CommandSpec {
        CommandSpec("completions", usage: "bash|zsh|fish", summary: "print a shell completion script (commands, options, ids, kinds, statuses, files)", positional: 1...1) {
            args, session in
            let names = commands.map(\.name)
            let globals = globalOptions.map { "--" + $0.name }
            var perCommand: [String: [String]] = [:]
            for command in commands {
                var words = command.options.map { "--" + $0.name }
                switch command.name {
                case "list": words += ItemKind.plurals
                case "help": words += names
                case "completions": words += ["bash", "zsh", "fish"]
                case "place", "course": words += ["add", "remove"]
                case "plugin": words += ["new"]
                case "store": words += ["copy", "repair", "grant"]
                case "audit": words += ["verify", "anchor"]
                case "sources": words += ["enable", "disable"]
                case "privacy": words += ["allow", "disallow"]
                case "a11y": words += ["report", "links"]
                default: break
                }
                perCommand[command.name] = words
            }
            let script: String
            switch args.positional[0] {
            case "bash": script = bashScript(names: names, globals: globals, perCommand: perCommand)
            case "zsh": script = zshScript(names: names, globals: globals, perCommand: perCommand)
            case "fish": script = fishScript(perCommand: perCommand)
            default:
                throw TimeTrackError(.usage, "completions: '\(args.positional[0])' is not a shell", fix: "usage: completions bash|zsh|fish")
            }
            session.output.line(script)
            return 0
        }
    }

    /// The word lists both shells use, as `case` arms of shell code.
    static func shellCases(_ perCommand: [String: [String]], arm: (String, String) -> String) -> String {
        perCommand.keys.sorted().map { arm($0, perCommand[$0, default: []].joined(separator: " ")) }.joined(separator: "\n")
    }

    static func bashScript(names: [String], globals: [String], perCommand: [String: [String]]) -> String {
        let values = optionValues.keys.sorted().map { "    --\($0)) COMPREPLY=($(compgen -W \"\(optionValues[$0, default: []].joined(separator: " "))\" -- \"$cur\")); return ;;" }
        return """
            # timetrack-admin completion for bash: eval "$(timetrack-admin completions bash)"
            _timetrack_admin() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i opts="" store=()
              ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
              for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                  --store) store=(--store "${COMP_WORDS[i+1]}"); ((i++)) ;;
                  --imports|--plugins|--as|--group) ((i++)) ;;
                  --*) ;;
                  *) [[ -z "$cmd" ]] && cmd="${COMP_WORDS[i]}" ;;
                esac
              done
              case "$prev" in
                --\(pathOptions.joined(separator: "|--"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                --group) COMPREPLY=($(compgen -g -- "$cur")); return ;;
            \(values.joined(separator: "\n"))
              esac
              if [[ -z "$cmd" ]]; then
                COMPREPLY=($(compgen -W "\(names.joined(separator: " ")) \(globals.joined(separator: " "))" -- "$cur")); return
              fi
              case "$cmd" in
            \(shellCases(perCommand) { "    \($0)) opts=\"\($1)\" ;;" })
              esac
              case "$cmd" in
                \(fieldCommands.joined(separator: "|"))) local words; words=$(timetrack-admin "${store[@]}" __complete fields "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
                  if [[ -n "$words" ]]; then compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi ;;
              esac
              case "$cmd" in
                \(idCommands.sorted().joined(separator: "|"))) opts="$opts $(timetrack-admin "${store[@]}" __complete ids 2>/dev/null)" ;;
                extract|import) opts="$opts $(timetrack-admin __complete sources 2>/dev/null)" ;;
                \(fileCommands.joined(separator: "|"))) COMPREPLY=($(compgen -W "$opts" -- "$cur") $(compgen -f -- "$cur")); return ;;
              esac
              COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            }
            complete -F _timetrack_admin timetrack-admin
            """
    }

    static func zshScript(names: [String], globals: [String], perCommand: [String: [String]]) -> String {
        let values = optionValues.keys.sorted().map { "    --\($0)) compadd -- \(optionValues[$0, default: []].joined(separator: " ")); return ;;" }
        return """
            #compdef timetrack-admin
            # timetrack-admin completion for zsh (native): after compinit, source <(timetrack-admin completions zsh)
            # or save it as _timetrack-admin in a folder of $fpath.
            _timetrack_admin() {
              local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmd="" i
              local -a store
              for ((i = 2; i < CURRENT; i++)); do
                case ${words[i]} in
                  --store) store=(--store ${words[i+1]}); ((i++)) ;;
                  --imports|--plugins|--as|--group) ((i++)) ;;
                  --*) ;;
                  *) [[ -z $cmd ]] && cmd=${words[i]} ;;
                esac
              done
              case $prev in
                --\(pathOptions.joined(separator: "|--"))) _files; return ;;
                --group) _groups; return ;;
            \(values.joined(separator: "\n"))
              esac
              if [[ -z $cmd ]]; then
                compadd -- \(names.joined(separator: " ")) \(globals.joined(separator: " ")); return
              fi
              case $cmd in
            \(shellCases(perCommand) { "    \($0)) compadd -- \($1) ;;" })
              esac
              case $cmd in
                \(fieldCommands.joined(separator: "|")))
                  local -a fields; fields=(${(f)"$(timetrack-admin $store __complete fields ${words[2,CURRENT-1]} 2>/dev/null)"})
                  if (( ${#fields} )); then compadd -S '' -- $fields; return; fi ;;
              esac
              case $cmd in
                \(idCommands.sorted().joined(separator: "|"))) compadd -- ${(f)"$(timetrack-admin $store __complete ids 2>/dev/null)"} ;;
                extract|import) compadd -- ${(f)"$(timetrack-admin __complete sources 2>/dev/null)"} ;;
                \(fileCommands.joined(separator: "|"))) _files ;;
              esac
            }
            if (( $+functions[compdef] )); then compdef _timetrack_admin timetrack-admin; else _timetrack_admin "$@"; fi
            """
    }

    static func fishScript(perCommand: [String: [String]]) -> String {
        var lines = [
            "# timetrack-admin completion for fish: timetrack-admin completions fish > ~/.config/fish/completions/timetrack-admin.fish",
            "complete -c timetrack-admin -f",
        ]
        for command in commands {
            lines.append("complete -c timetrack-admin -n __fish_use_subcommand -a \(command.name) -d \(fishQuote(command.summary))")
        }
        for option in globalOptions {
            lines.append("complete -c timetrack-admin -l \(option.name)" + (option.value != nil ? " -r" : "") + " -d \(fishQuote(option.help))")
        }
        for command in commands {
            for option in command.options {
                var line = "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name) -d \(fishQuote(option.help))"
                if let words = optionValues[option.name] { line += " -xa '\(words.joined(separator: " "))'" } else if pathOptions.contains(option.name) { line += " -rF" } else if option.value != nil { line += " -r" }
                lines.append(line)
            }
        }
        for name in pathOptions { lines.append("complete -c timetrack-admin -l \(name) -rF") }
        lines.append(
            "complete -c timetrack-admin -n 'timetrack-admin __complete fields (commandline -opc)[2..-1] >/dev/null 2>&1' -a '(timetrack-admin __complete fields (commandline -opc)[2..-1] 2>/dev/null)'"
        )
        lines.append(
            "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(idCommands.sorted().joined(separator: " ")); and not timetrack-admin __complete fields (commandline -opc)[2..-1] >/dev/null 2>&1' -a '(timetrack-admin __complete ids 2>/dev/null)'"
        )
        lines.append("complete -c timetrack-admin -n '__fish_seen_subcommand_from list' -a '\(ItemKind.plurals.joined(separator: " "))'")
        lines.append("complete -c timetrack-admin -n '__fish_seen_subcommand_from import extract' -a '(timetrack-admin __complete sources 2>/dev/null)'")
        lines.append("complete -c timetrack-admin -n '__fish_seen_subcommand_from \(fileCommands.joined(separator: " "))' -F")
        return lines.joined(separator: "\n")
    }

    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// `__complete ids|sources`: the words completion scripts ask for, one a line; hidden from
    /// help. Ids are the store's newest 500 the operator may read, without creating anything.
    static var completeCommand: CommandSpec {
        CommandSpec("__complete", usage: "ids|sources|fields WORDS...", summary: "(for completion scripts)", positional: 1...100) { args, session in
            switch args.positional[0] {
            case "fields":
                // Exit 1 with no fields: fish's conditions test the status.
                let words = fieldCompletions(Array(args.positional.dropFirst()), session: session)
                for word in words { session.output.line(word) }
                return words.isEmpty ? 1 : 0
            case "ids":
                guard session.storeExists, let store = try? session.store() else { return 0 }
                for row in (try? session.listVisible(ItemQuery(limit: 500), in: store)) ?? [] { session.output.line(row.id) }
            case "sources":
                for source in session.sources().0 { session.output.line(source.id) }
            default:
                return 2
            }
            return 0
        }
    }

    /// For a command line's words (global options and their values left out): after `edit ID`,
    /// the item's fields as `FIELD=`; after `unlock ID`, its locked fields; else nothing.
    static func fieldCompletions(_ words: [String], session: Session) -> [String] {
        var positional: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") {
                if let option = (globalOptions + commands.flatMap(\.options)).first(where: { "--" + $0.name == word }), option.value != nil { index += 1 }
            } else {
                positional.append(word)
            }
            index += 1
        }
        guard positional.count >= 2, fieldCommands.contains(positional[0]), session.storeExists, let store = try? session.store(), let item = try? store.item(positional[1]) else { return [] }
        if positional[0] == "unlock" { return item.lockedFields }
        let typed = Set(positional.dropFirst(2).compactMap { $0.split(separator: "=").first.map(String.init) })
        return ItemContent.fieldNames(of: item.kind).filter { !typed.contains($0) }.map { $0 + "=" }
    }

    static var quitCommand: CommandSpec {
        CommandSpec("quit", summary: "leave the console (Ctrl-D does too)") { _, _ in 0 }
    }
}
