import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// In-process latency of backlink look-ups (what `quire index --bench-links` prints, for
/// `Benchmarks/links.sh`): `Catalog.backlinks(of:)` for a sample of notes spread evenly over
/// the catalog, then for the most linked notes on their own.
public enum LinkBenchmark {
    /// Latency figures in milliseconds.
    public struct Result: Equatable, Sendable, CustomStringConvertible {
        /// Look-ups timed over the sample (notes × rounds).
        public var samples: Int
        /// Median latency over the sample.
        public var p50: Double
        /// 99th percentile over the sample.
        public var p99: Double
        /// Slowest look-up of the sample.
        public var max: Double
        /// The same percentiles in processor time of the measuring thread (what the look-up
        /// costs, without the time a loaded machine takes the processor away).
        public var cpuP50: Double = 0
        /// 99th percentile of processor time.
        public var cpuP99: Double = 0
        /// Backlinks found over the sample's notes (one round).
        public var backlinks: Int
        /// The most linked notes: path, backlinks, median milliseconds.
        public var busiest: [(path: String, backlinks: Int, milliseconds: Double)]

        /// `p50 0.05 ms p99 0.40 ms max 0.90 ms; cpu p50 … p99 … (2000 look-ups, 1234 backlinks)`.
        public var description: String {
            String(format: "p50 %.3f ms p99 %.3f ms max %.3f ms; cpu p50 %.3f ms p99 %.3f ms (%d look-ups, %d backlinks)",
                   p50, p99, max, cpuP50, cpuP99, samples, backlinks)
        }

        public static func == (lhs: Result, rhs: Result) -> Bool {
            lhs.description == rhs.description && lhs.busiest.map(\.path) == rhs.busiest.map(\.path)
        }
    }

    /// Times `backlinks(of:)` for `sampleSize` notes evenly spread over the paths (`rounds`
    /// times each, after one untimed round), and for the `busiest` notes with the most
    /// backlinks among them.
    public static func run(_ catalog: Catalog, sampleSize: Int = 200, rounds: Int = 10, busiest: Int = 3) -> Result {
        let live = catalog.liveSet.members
        let step = Swift.max(1, live.count / Swift.max(1, sampleSize))
        let paths = stride(from: 0, to: live.count, by: step).prefix(sampleSize).map { catalog.path(live[$0]) }
        var counts: [(String, Int)] = []
        for path in paths { counts.append((path, catalog.backlinks(of: path).count)) }
        var samples: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<Swift.max(1, rounds) {
            for path in paths {
                let cpuStart = threadTime()
                samples.append(time { _ = catalog.backlinks(of: path) })
                cpu.append(threadTime() - cpuStart)
            }
        }
        samples.sort()
        cpu.sort()
        func percentile(_ fraction: Double, of sorted: [Double]? = nil) -> Double {
            let values = sorted ?? samples
            return values.isEmpty ? 0 : values[Swift.min(values.count - 1, Int(Double(values.count) * fraction))]
        }
        let top = counts.sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 > $1.1 }.prefix(busiest)
        let busy = top.map { path, count -> (path: String, backlinks: Int, milliseconds: Double) in
            let times = (0..<5).map { _ in time { _ = catalog.backlinks(of: path) } }.sorted()
            return (path, count, times[2])
        }
        return Result(samples: samples.count, p50: percentile(0.5), p99: percentile(0.99), max: samples.last ?? 0,
                      cpuP50: percentile(0.5, of: cpu), cpuP99: percentile(0.99, of: cpu),
                      backlinks: counts.reduce(0) { $0 + $1.1 }, busiest: busy)
    }

    /// Milliseconds of processor time this thread has used.
    private static func threadTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }

    private static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
