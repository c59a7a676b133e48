import Foundation
import QuireCore
import QuireSearch

/// `quire search QUERY…` — full-text search ranked by relevance, with snippets.
struct SearchCommand: Command {
    static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Search notes by relevance (BM25, title boosted), with a matching snippet.",
        usage: "search QUERY… [--sort KEY] [--reverse] [--limit N] [--json | --paths [-0] | --format TEMPLATE]",
        discussion: """
        Same query language as 'quire list' (see Docs/search.md); results are sorted by relevance
        unless --sort says otherwise, a note titled (or aliased) exactly as the query first.
        Matching ignores case and accents ("cafe" finds "Café"); Chinese and Japanese text is
        found by any run of characters, emoji and symbols as written (🔥, C++, C#). A query
        with nothing to search for ('*', '!!!') is an error. --json adds score and snippet.
        """,
        examples: ["quire search cafe", "quire search \"last ride\" project:\"Toy Story 5\"", "quire search 上映 --json",
                   "quire search woody OR buzz -draft:true --limit 5"],
        options: QueryOutput.options,
        dashPositionals: true,
        positionals: 1...Int.max)

    let output: QueryOutput

    init(_ arguments: ParsedArguments) throws {
        output = try QueryOutput(arguments)
    }

    func run(_ context: CommandContext) throws {
        try output.run(context, ranked: true)
    }
}
