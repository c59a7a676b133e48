/// `quire completion bash|zsh|fish` — prints a shell completion script.
struct CompletionCommand: Command {
    static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        usage: "completion SHELL",
        discussion: """
        The script completes commands and options, and asks quire for note titles, tags, folders
        and front-matter keys (read from the catalog). 'make install' installs all three; to try
        one in the current shell: source <(quire completion bash), or quire completion fish | source.
        """,
        examples: ["quire completion bash > ~/.local/share/bash-completion/completions/quire",
                   "quire completion zsh > \"${fpath[1]}/_quire\"", "quire completion fish > ~/.config/fish/completions/quire.fish"],
        positionals: 1...1)

    let script: String

    init(_ arguments: ParsedArguments) throws {
        switch arguments.positionals[0] {
        case "bash": script = Self.bash
        case "zsh": script = Self.zsh
        case "fish": script = Self.fish
        case let other: throw CLIError.usage("no completion for the shell '\(other)'", hint: "use bash, zsh or fish")
        }
    }

    func run(_ context: CommandContext) throws {
        context.output.write(script)
    }

    static let bash = #"""
    # bash completion for quire (quire completion bash)
    _quire() {
        local cur words cword
        if declare -F _get_comp_words_by_ref >/dev/null; then
            _get_comp_words_by_ref -n =: cur words cword
        else
            # Without bash-completion bash splits `tag:work` and `key=value` at : and =
            # (COMP_WORDBREAKS): the words are joined again where no space parted them.
            words=() cword=-1
            local line=${COMP_LINE:0:COMP_POINT} trimmed i
            for ((i = 0; i <= COMP_CWORD; i++)); do
                trimmed=${line#"${line%%[![:space:]]*}"}
                if ((i > 0)) && [[ -n $COMP_LINE && ${#trimmed} -eq ${#line} ]]; then
                    words[cword]+=${COMP_WORDS[i]}
                else
                    words+=("${COMP_WORDS[i]}") cword=$((cword + 1))
                fi
                line=${trimmed#"${COMP_WORDS[i]}"}
            done
            cur=${words[cword]}
        fi
        local IFS=$'\n' candidate
        local -a candidates
        candidates=($(quire __complete "${words[@]:1:cword}" 2>/dev/null))
        COMPREPLY=()
        for candidate in "${candidates[@]}"; do
            if [[ $cur == [\"\']* ]]; then COMPREPLY+=("$candidate"); else COMPREPLY+=("$(printf '%q' "$candidate")"); fi
        done
        if declare -F __ltrim_colon_completions >/dev/null; then
            __ltrim_colon_completions "$cur"
        elif [[ $cur == *[:=]* ]]; then
            # bash replaces only the text after the last : or =: the candidates lose what is before it.
            local prefix=${cur%"${cur##*[:=]}"}
            COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
        fi
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=:] ]] && compopt -o nospace 2>/dev/null
        return 0
    }
    complete -F _quire quire

    """#

    static let zsh = #"""
    #compdef quire
    # zsh completion for quire (quire completion zsh)
    _quire() {
        local -a candidates
        candidates=("${(@f)$(quire __complete "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
        candidates=(${candidates:#})
        local -a plain suffixed
        plain=(${candidates:#*[=:]})
        suffixed=(${(M)candidates:#*[=:]})
        compadd -a plain
        compadd -S '' -a suffixed
    }
    if [ "$funcstack[1]" = "_quire" ]; then _quire "$@"; else compdef _quire quire; fi

    """#

    static let fish = #"""
    # fish completion for quire (quire completion fish)
    complete -c quire -e
    complete -c quire -f -a '(quire __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'

    """#
}
