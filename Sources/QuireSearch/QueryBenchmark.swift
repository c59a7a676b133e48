import Foundation

/// In-process query latency over a fixed mix (what `quire index --bench-queries` prints).
public enum QueryBenchmark {
    /// Latency figures in milliseconds; `description` is the line `quire index --bench-queries`
    /// prints (`Benchmarks/search.sh` reads `p50` and `p99` from it).
    public struct Result: Equatable, Sendable, CustomStringConvertible {
        /// Queries timed (mix size × rounds).
        public var samples: Int
        /// Median latency.
        public var p50: Double
        /// 99th percentile latency.
        public var p99: Double
        /// Slowest query.
        public var max: Double
        /// The mix that was run.
        public var queries: [String]
        /// Each query's slowest time, in the order of `queries`.
        public var slowest: [Double] = []
        /// Each query's median time, in the order of `queries`.
        public var medians: [Double] = []

        /// `p50 0.41 ms p99 3.20 ms max 4.10 ms (320 queries)`.
        public var description: String {
            String(format: "p50 %.2f ms p99 %.2f ms max %.2f ms (%d queries)", p50, p99, max, samples)
        }
    }

    /// A query mix derived from the catalog itself (so it means the same on any vault): the most
    /// frequent word, a middling one, a rare one, a prefix, a phrase, negation, OR, and filters.
    public static func queryMix(for catalog: Catalog) -> [String] {
        let segment = catalog.base
        var byFrequency: [(Int, Int)] = []
        for id in 0..<segment.terms.count {
            let term = segment.terms.term(id)
            guard term.count >= 4, term.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
            byFrequency.append((segment.postings(id).count, id))
        }
        byFrequency.sort { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 > $1.0 }
        guard byFrequency.count >= 10 else { return ["tag:work", "draft:true", "updated:>30d"] }
        func word(_ fraction: Double) -> String {
            segment.terms.term(byFrequency[min(byFrequency.count - 1, Int(Double(byFrequency.count) * fraction))].1)
        }
        let common = word(0)
        let middling = word(0.01)
        let rare = word(0.2)
        let other = word(0.002)
        return [
            common, middling, rare, "\(middling) \(other)", "\"\(common) \(other)\"", String(middling.prefix(3)) + "*",
            "\(middling) -\(other)", "\(rare) OR \(middling)", "title:\(other)", "tag:work draft:true",
            "\(middling) tag:work", "project:\"Toy Story 5\" updated:>90d", "folder:Journal mood:>=4",
            "café", "東京", "",
        ]
    }

    /// Runs every query of `queries` once untimed, then `rounds` times timed (first 20 results,
    /// relevance or list order), and returns the latency percentiles.
    public static func run(_ catalog: Catalog, queries: [String]? = nil, rounds: Int = 20,
                           now: Date = Date()) throws(QueryError) -> Result {
        let mix = queries ?? queryMix(for: catalog)
        let parsed = try mix.map { text throws(QueryError) in try NoteQuery.parse(text, now: now) }
        var samples: [Double] = []
        var perQuery = [[Double]](repeating: [], count: parsed.count)
        // A warm-up round, not timed: a long-running process has decoded the records its
        // queries read (a command decodes those of its hits once).
        for query in parsed { _ = catalog.run(query, limit: 20) }
        for _ in 0..<max(rounds, 1) {
            for (index, query) in parsed.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = catalog.run(query, limit: 20)
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                samples.append(milliseconds)
                perQuery[index].append(milliseconds)
            }
        }
        func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        samples.sort()
        let sortedPerQuery = perQuery.map { $0.sorted() }
        return Result(samples: samples.count, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99),
                      max: samples.last ?? 0, queries: mix, slowest: sortedPerQuery.map { $0.last ?? 0 },
                      medians: sortedPerQuery.map { percentile($0, 0.5) })
    }
}
