import Foundation
import TimeTrackCore

extension Console {
    /// Commands that take item ids (from their declared arguments).
    static var idCommands: Set<String> { Set(commands.filter { $0.takes(.ids) }.map(\.name)) }
    /// Commands whose words after an item id are the item's fields: `edit ID <TAB>` gives
    /// `title=`, `start=`…; `unlock ID <TAB>` its locked fields.
    static var fieldCommands: [String] { commands.filter { $0.takes(.fields) }.map(\.name) }
    /// Commands whose word is a file (a page, a grade book).
    static var fileCommands: [String] { commands.filter { $0.takes(.path) }.map(\.name) }
    /// Commands whose word is a source id.
    static var sourceCommands: [String] { commands.filter { $0.takes(.sources) }.map(\.name) }

    /// Every option whose value completes to something, with its command (nil: a global
    /// option), command options first so they win over a global option of the same name.
    static var valuedOptions: [(command: String?, option: OptionSpec)] {
        let own: [(command: String?, option: OptionSpec)] = commands.flatMap { command in
            command.options.filter { $0.value != nil }.map { (command: Optional(command.name), option: $0) }
        }
        return own + globalOptions.filter { $0.value != nil }.map { (command: nil, option: $0) }
    }

    /// Global options that take a value, but `--store` (the scripts pass it on to `__complete`).
    static var valuedGlobals: [String] { globalOptions.filter { $0.value != nil && $0.name != "store" }.map { "--" + $0.name } }

    static var completionsCommand: CommandSpec { CompletionsCommand.spec }

    struct CompletionsCommand: ConsoleCommand {
        static let configuration = CommandConfiguration(
            "completions", summary: "print a shell completion script (commands, options, ids, kinds, statuses, files)")
        @Positional("bash|zsh|fish", count: 1...1, completes: [.words(["bash", "zsh", "fish"])]) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            let names = commands.map(\.name)
            let globals = globalOptions.map { "--" + $0.name }
            var perCommand: [String: [String]] = [:]
            for command in commands {
                perCommand[command.name] = command.options.map { "--" + $0.name } + command.arguments.flatMap(\.words)
            }
            let script: String
            switch words[0] {
            case "bash": script = bashScript(names: names, globals: globals, perCommand: perCommand)
            case "zsh": script = zshScript(names: names, globals: globals, perCommand: perCommand)
            case "fish": script = fishScript(perCommand: perCommand)
            default:
                throw TimeTrackError(.usage, "completions: '\(words[0])' is not a shell", fix: "usage: completions bash|zsh|fish")
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
        let values = valuedOptions.map { "    \($0.command ?? "*"):--\($0.option.name)) " + bashArm($0.option.completes) }
        return """
            # timetrack-admin completion for bash: eval "$(timetrack-admin completions bash)"
            _timetrack_admin() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i opts="" store=()
              ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
              for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                  --store) store=(--store "${COMP_WORDS[i+1]}"); ((i++)) ;;
                  \(valuedGlobals.joined(separator: "|"))) ((i++)) ;;
                  --*) ;;
                  *) [[ -z "$cmd" ]] && cmd="${COMP_WORDS[i]}" ;;
                esac
              done
              case "$cmd:$prev" in
            \(values.joined(separator: "\n"))
              esac
              if [[ -z "$cmd" ]]; then
                COMPREPLY=($(compgen -W "\(names.joined(separator: " ")) \(globals.joined(separator: " "))" -- "$cur")); return
              fi
              case "$cmd" in
            \(shellCases(perCommand) { "    \($0)) opts=\"\($1)\" ;;" })
              esac
              case "$cmd" in
                \(fieldCommands.joined(separator: "|"))) local words; words=$(timetrack-admin "${store[@]}" __complete fields\
             "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
                  if [[ -n "$words" ]]; then compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi ;;
              esac
              case "$cmd" in
                \(idCommands.sorted().joined(separator: "|"))) opts="$opts $(timetrack-admin "${store[@]}" __complete ids 2>/dev/null)" ;;
                \(sourceCommands.joined(separator: "|"))) opts="$opts $(timetrack-admin __complete sources 2>/dev/null)" ;;
                \(fileCommands.joined(separator: "|"))) COMPREPLY=($(compgen -W "$opts" -- "$cur") $(compgen -f -- "$cur")); return ;;
              esac
              COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            }
            complete -F _timetrack_admin timetrack-admin
            """
    }

    static func zshScript(names: [String], globals: [String], perCommand: [String: [String]]) -> String {
        let values = valuedOptions.map { "    \($0.command ?? "*"):--\($0.option.name)) " + zshArm($0.option.completes) }
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
                  \(valuedGlobals.joined(separator: "|"))) ((i++)) ;;
                  --*) ;;
                  *) [[ -z $cmd ]] && cmd=${words[i]} ;;
                esac
              done
              case $cmd:$prev in
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
                \(sourceCommands.joined(separator: "|"))) compadd -- ${(f)"$(timetrack-admin __complete sources 2>/dev/null)"} ;;
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
            lines.append("complete -c timetrack-admin -l \(option.name)" + fishValue(option) + " -d \(fishQuote(option.help))")
        }
        for command in commands {
            for option in command.options {
                lines.append(
                    "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name) -d \(fishQuote(option.help))"
                        + fishValue(option))
            }
        }
        lines.append(
            "complete -c timetrack-admin -n 'timetrack-admin __complete fields (commandline -opc)[2..-1] >/dev/null 2>&1' -a '(timetrack-admin"
                + " __complete fields (commandline -opc)[2..-1] 2>/dev/null)'"
        )
        lines.append(
            "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(idCommands.sorted().joined(separator: " ")); and not timetrack-admin"
                + " __complete fields (commandline -opc)[2..-1] >/dev/null 2>&1' -a '(timetrack-admin __complete ids 2>/dev/null)'"
        )
        for command in commands where !command.arguments.flatMap(\.words).isEmpty {
            lines.append(
                "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(command.name)' -a '\(command.arguments.flatMap(\.words).joined(separator: " "))'"
            )
        }
        lines.append(
            "complete -c timetrack-admin -n '__fish_seen_subcommand_from \(sourceCommands.joined(separator: " "))' -a '(timetrack-admin __complete"
                + " sources 2>/dev/null)'"
        )
        lines.append("complete -c timetrack-admin -n '__fish_seen_subcommand_from \(fileCommands.joined(separator: " "))' -F")
        return lines.joined(separator: "\n")
    }

    /// A bash `case` arm's body for an option's value.
    static func bashArm(_ completion: Completion) -> String {
        switch completion {
        case .words(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;"
        case .path: return "COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"
        case .group: return "COMPREPLY=($(compgen -g -- \"$cur\")); return ;;"
        case .sources: return "COMPREPLY=($(compgen -W \"$(timetrack-admin __complete sources 2>/dev/null)\" -- \"$cur\")); return ;;"
        case .ids: return "COMPREPLY=($(compgen -W \"$(timetrack-admin \"${store[@]}\" __complete ids 2>/dev/null)\" -- \"$cur\")); return ;;"
        case .commands: return "COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " "))\" -- \"$cur\")); return ;;"
        case .none, .fields: return "return ;;"  // free text: nothing to offer
        }
    }

    /// A zsh `case` arm's body for an option's value.
    static func zshArm(_ completion: Completion) -> String {
        switch completion {
        case .words(let words): return "compadd -- \(words.joined(separator: " ")); return ;;"
        case .path: return "_files; return ;;"
        case .group: return "_groups; return ;;"
        case .sources: return "compadd -- ${(f)\"$(timetrack-admin __complete sources 2>/dev/null)\"}; return ;;"
        case .ids: return "compadd -- ${(f)\"$(timetrack-admin $store __complete ids 2>/dev/null)\"}; return ;;"
        case .commands: return "compadd -- \(commands.map(\.name).joined(separator: " ")); return ;;"
        case .none, .fields: return "return ;;"
        }
    }

    /// What fish offers for an option's value (nothing for a flag).
    static func fishValue(_ option: OptionSpec) -> String {
        guard option.value != nil else { return "" }
        switch option.completes {
        case .words(let words): return " -xa '\(words.joined(separator: " "))'"
        case .path: return " -rF"
        case .group: return " -xa '(__fish_complete_groups)'"
        case .sources: return " -xa '(timetrack-admin __complete sources 2>/dev/null)'"
        case .ids: return " -xa '(timetrack-admin __complete ids 2>/dev/null)'"
        case .commands: return " -xa '\(commands.map(\.name).joined(separator: " "))'"
        case .none, .fields: return " -r"
        }
    }

    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// `__complete ids|sources`: the words completion scripts ask for, one a line; hidden from
    /// help.
    ///
    /// Ids are the store's newest 500 the operator may read, without creating anything.
    static var completeCommand: CommandSpec { CompleteCommand.spec }

    struct CompleteCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("__complete", summary: "(for completion scripts)")
        @Positional("ids|sources|fields WORDS...", count: 1...100, completes: []) var words: [String]

        func run(_ session: Session) throws -> Int32 {
            switch words[0] {
            case "fields":
                // Exit 1 with no fields: fish's conditions test the status.
                let words = fieldCompletions(Array(words.dropFirst()), session: session)
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
        guard positional.count >= 2, fieldCommands.contains(positional[0]), session.storeExists, let store = try? session.store(),
            let item = try? store.item(positional[1])
        else { return [] }
        if positional[0] == "unlock" { return item.lockedFields }
        let typed = Set(positional.dropFirst(2).compactMap { $0.split(separator: "=").first.map(String.init) })
        return ItemContent.fieldNames(of: item.kind).filter { !typed.contains($0) }.map { $0 + "=" }
    }

    static var quitCommand: CommandSpec { QuitCommand.spec }

    struct QuitCommand: ConsoleCommand {
        static let configuration = CommandConfiguration("quit", summary: "leave the console (Ctrl-D does too)")

        func run(_ session: Session) throws -> Int32 { 0 }
    }
}
