import Foundation
import QuireCore
import QuireSearch

/// `quire index [--rebuild]` — shows or rebuilds the catalog cache and reports what it did.
struct IndexCommand: Command {
    static let configuration = CommandConfiguration(
        name: "index",
        abstract: "Bring the search catalog up to date (or --rebuild it) and report counts and timing.",
        usage: "index [--rebuild | --walk] [--json] [-q]",
        discussion: """
        The catalog is cached in .quire/cache/ and kept fresh automatically: files whose size,
        times or inode changed are read again, and parsed again only if their content changed.
        When 'quire watch' runs, only the notes it names are looked at. You never need this
        command for correct results; it reports what the indexer did.
        """,
        examples: ["quire index", "quire index --rebuild --json"],
        options: [
            .flag("--rebuild", help: "Ignore the cache and read every note again."),
            .flag("--walk", help: "Compare every note with the catalog even when 'quire watch' runs."),
            .flag("--json", help: "Print the report as JSON."),
            .quiet,
            .flag("--bench-queries", help: "Measure in-process query latency over a fixed query mix (for Benchmarks/search.sh)."),
            .flag("--bench-links", help: "Measure in-process backlink look-ups (for Benchmarks/links.sh)."),
        ])

    let rebuild: Bool
    let walk: Bool
    let json: Bool
    let benchQueries: Bool
    let benchLinks: Bool

    init(_ arguments: ParsedArguments) throws {
        rebuild = arguments.has("--rebuild")
        walk = arguments.has("--walk")
        json = arguments.has("--json")
        benchQueries = arguments.has("--bench-queries")
        benchLinks = arguments.has("--bench-links")
    }

    func run(_ context: CommandContext) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let catalog = try VaultCatalog.open(context, rebuild: rebuild, walk: walk, showProgress: !json)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        let report = catalog.report
        let output = context.output
        if benchLinks {
            let result = LinkBenchmark.run(catalog.catalog)
            output.line("backlinks: " + result.description)
            for busy in result.busiest {
                output.line(String(format: "  busiest: %d backlinks in %.3f ms (%@)", busy.backlinks, busy.milliseconds, busy.path))
            }
            return
        }
        if benchQueries {
            let result = try QueryBenchmark.run(catalog.catalog, now: context.now())
            output.line(String(format: "%d queries × %d samples: p50 %.3f ms, p99 %.3f ms, max %.3f ms",
                               result.queries.count, result.samples, result.p50, result.p99, result.max))
            output.line("    median   slowest  query")
            for (index, query) in result.queries.enumerated() {
                output.line(String(format: "  %8.3f  %8.3f  %@", result.medians[index], result.slowest[index],
                                   query.isEmpty ? "(all notes)" : query))
            }
            return
        }
        if json {
            output.line(JSON.object([
                ("notes", .int(report.total)), ("added", .int(report.added.count)),
                ("changed", .int(report.changed.count)), ("removed", .int(report.removed.count)),
                ("touched", .int(report.touched)), ("failed", .array(report.failed.map {
                    .object([("path", .string($0.path)), ("reason", .string($0.reason.description))])
                })),
                ("notesWithProblems", .int(report.notesWithProblems)),
                ("cacheRebuilt", .bool(report.cacheIssue != nil)), ("cacheWritten", .bool(report.cacheWritten)),
                ("freshness", .object(Self.freshness(catalog.freshness))),
                ("milliseconds", .double((milliseconds * 10).rounded() / 10)),
            ]).rendered(.output))
            return
        }
        output.line("\(report.total) notes indexed in \(String(format: "%.1f", milliseconds)) ms")
        output.line("added \(report.added.count), changed \(report.changed.count), removed \(report.removed.count), unchanged content re-stamped \(report.touched)")
        if let issue = report.cacheIssue, !rebuild { output.line("cache rebuilt (\(issue))") }
        switch catalog.freshness {
        case .watcher(let checked):
            output.line("the watcher named \(Count.of(checked, "note")) to look at; no other note was read or stat'ed")
        case .walk(let said?):
            output.line("every note's stamp compared: the watcher could not vouch for the vault (\(said))")
        case .walk(nil):
            break
        }
        for failure in report.failed {
            output.line("failed: \(context.displayPath(failure.path, vault: catalog.vault)): \(failure.reason)")
        }
        if report.notesWithProblems > 0 {
            output.line("\(ProblemCount.phrase(report.notesWithProblems)) — run 'quire check'")
        }
    }

    /// How the catalog was proven fresh, for `--json`: `method` is `walk` or `watcher`.
    private static func freshness(_ freshness: VaultCatalog.Freshness) -> [(String, JSON)] {
        switch freshness {
        case .watcher(let checked):
            return [("method", .string("watcher")), ("checked", .int(checked))]
        case .walk(let said):
            return [("method", .string("walk")), ("watcherSaid", .string(said))]
        }
    }
}
