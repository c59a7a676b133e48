import Foundation
import QuireCore
import QuireSearch

/// `quire list [QUERY…]` — lists notes matching a query, pinned first, then newest first.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List notes matching a query (all by default): pinned first, then the most recently updated.",
        usage: "list [QUERY…] [--sort KEY] [--reverse] [--limit N] [--json | --paths [-0] | --format TEMPLATE]",
        discussion: """
        The query is the arguments joined by spaces (quote it whole if you like). Words must all
        appear; "phrases", prefix*, -word (or NOT), OR and parentheses combine them. Filters:
        tag:x or #x, project:"Toy Story 5", folder:Drafts, draft:true, pinned:true, color:blue,
        mood:>=4, priority:1, title:word, path:'Drafts/*', created:>=2026-01-01, updated:>7d, and
        any other front-matter key as key:value. An argument starting with '-' that is no option
        is a negation; '--' ends the options. See Docs/search.md.
        """,
        examples: [
            "quire list", "quire list tag:character/woody draft:true",
            "quire list project:\"Toy Story 5\" -tag:ending --sort title",
            "quire list updated:>7d --paths | xargs $EDITOR",
            "quire list folder:Journal mood:>=4 --format '{mood}\\t{title}'",
        ],
        options: QueryOutput.options,
        dashPositionals: true,
        positionals: 0...Int.max)

    let output: QueryOutput

    init(_ arguments: ParsedArguments) throws {
        output = try QueryOutput(arguments)
    }

    func run(_ context: CommandContext) throws {
        try output.run(context, ranked: false)
    }
}
