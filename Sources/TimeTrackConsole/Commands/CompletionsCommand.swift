import TimeTrackCore

extension Console {
    static var completionsCommand: CommandSpec {
        CommandSpec("completions", usage: "bash|zsh", summary: "print a shell completion script for the one-shot commands", positional: 1...1) { args, session in
            let names = commands.map(\.name).joined(separator: " ")
            let globals = globalOptions.map { "--" + $0.name }.joined(separator: " ")
            var perCommand: [String] = []
            for command in commands where !command.options.isEmpty {
                perCommand.append("    \(command.name)) opts=\"\(command.options.map { "--" + $0.name }.joined(separator: " "))\" ;;")
            }
            switch args.positional[0] {
            case "bash":
                session.output.line(
                    """
                    # timetrack-admin completion for bash: eval "$(timetrack-admin completions bash)"
                    _timetrack_admin() {
                      local cur="${COMP_WORDS[COMP_CWORD]}" cmd="" i opts=""
                      for ((i = 1; i < COMP_CWORD; i++)); do
                        case "${COMP_WORDS[i]}" in --store|--imports|--as) ((i++)) ;; --*) ;; *) cmd="${COMP_WORDS[i]}"; break ;; esac
                      done
                      if [[ -z "$cmd" ]]; then
                        COMPREPLY=($(compgen -W "\(names) \(globals)" -- "$cur")); return
                      fi
                      case "$cmd" in
                    \(perCommand.joined(separator: "\n"))
                      esac
                      case "$cmd" in
                        list) opts="$opts \(ItemKind.plurals.joined(separator: " "))" ;;
                        extract|import) opts="$opts $(timetrack-admin --json sources 2>/dev/null | sed -n 's/.*"id" : "\\([^"]*\\)".*/\\1/p')" ;;
                        completions) opts="bash zsh" ;;
                        help) opts="\(names)" ;;
                      esac
                      COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                    }
                    complete -F _timetrack_admin timetrack-admin
                    """)
            case "zsh":
                session.output.line(
                    """
                    #compdef timetrack-admin
                    # timetrack-admin completion for zsh: timetrack-admin completions zsh > "${fpath[1]}/_timetrack-admin"
                    autoload -U bashcompinit && bashcompinit
                    source <(timetrack-admin completions bash)
                    """)
            default:
                throw TimeTrackError(.usage, "completions: '\(args.positional[0])' is not a shell", fix: "usage: completions bash|zsh")
            }
            return 0
        }
    }

    static var quitCommand: CommandSpec {
        CommandSpec("quit", summary: "leave the console (Ctrl-D does too)") { _, _ in 0 }
    }
}
