import Synchronization

/// Hands out a rebuild's notes to the cores so that they finish together: each core starts on
/// its own run of consecutive notes (cut by bytes, `Indexer.sliceBounds`) and takes them one
/// after the other; a core whose run is done takes the later half, by bytes, of the largest run
/// another core has left, which becomes a new slice of its own. Cutting by bytes alone left one
/// core idle for up to a fifth of the rebuild in some runs (the cost of a note is not its bytes
/// alone, and this VM's two cores do not always run alike); a run taken over ends where the
/// other core's run now ends, so every slice still holds consecutive notes.
///
/// A run is split only while its rest weighs at least `minimumSplit` (each new slice learns the
/// vocabulary anew) and at most `maximumRuns` runs are ever made (by default 16, or two per core
/// on more than eight). Positions are offsets into the weights given (the notes in catalog
/// order). Safe to call from several threads at once.
final class SliceSchedule: Sendable {
    /// A run of notes: the next one to hand out and where the run ends.
    struct Run: Equatable, Sendable {
        var next: Int
        var end: Int
    }

    private struct State {
        /// Every run made, in the order made: the first `workers` are the cores' own.
        var runs: [Run]
        /// For each core, the index in `runs` of the run it takes notes from.
        var current: [Int]
    }

    private let state: Mutex<State>
    /// `weights.count + 1` running sums of the notes' weights.
    private let sums: [Int]
    private let minimumSplit: Int
    private let maximumRuns: Int

    /// `bounds`: where each core's run begins, and where the last ends (`Indexer.sliceBounds`);
    /// `weights`: each note's weight, as the bounds were cut by.
    init(bounds: [Int], weights: [Int], minimumSplit: Int, maximumRuns: Int? = nil) {
        var sums = [0]
        sums.reserveCapacity(weights.count + 1)
        for weight in weights { sums.append(sums[sums.count - 1] &+ max(weight, 0)) }
        self.sums = sums
        self.minimumSplit = max(minimumSplit, 1)
        let runs = zip(bounds, bounds.dropFirst()).map { Run(next: $0, end: $1) }
        // By default 16 runs, or two per core on a machine of more than eight.
        self.maximumRuns = max(maximumRuns ?? max(16, 2 * runs.count), runs.count)
        state = Mutex(State(runs: runs, current: Array(runs.indices)))
    }

    /// The next note of `worker`'s run (an offset into the weights), or nil when its run is done.
    func next(worker: Int) -> Int? {
        state.withLock { state -> Int? in
            let run = state.current[worker]
            guard state.runs[run].next < state.runs[run].end else { return nil }
            defer { state.runs[run].next += 1 }
            return state.runs[run].next
        }
    }

    /// Gives `worker`, whose run is done, the later half (by weight) of the heaviest rest of a
    /// run: returns its new run's notes as they are now (the run may yet be split again), or nil
    /// when no rest is worth splitting (the core is then done).
    func split(for worker: Int) -> Range<Int>? {
        state.withLock { state -> Range<Int>? in
            guard state.runs.count < maximumRuns else { return nil }
            var heaviest: Int?
            var heaviestWeight = 0
            for (index, run) in state.runs.enumerated() where run.next < run.end {
                let weight = sums[run.end] - sums[run.next]
                if weight > heaviestWeight {
                    heaviest = index
                    heaviestWeight = weight
                }
            }
            guard let victim = heaviest, heaviestWeight >= minimumSplit else { return nil }
            let run = state.runs[victim]
            guard run.end - run.next >= 2 else { return nil }  // a lone note is not split
            // The first note whose running sum passes half the rest; the owner keeps at least one.
            let half = sums[run.next] + heaviestWeight / 2
            var low = run.next + 1
            var high = run.end - 1
            while low < high {
                let middle = (low + high) / 2
                if sums[middle] < half { low = middle + 1 } else { high = middle }
            }
            state.runs[victim].end = low
            state.runs.append(Run(next: low, end: run.end))
            state.current[worker] = state.runs.count - 1
            return low..<run.end
        }
    }

    /// Every run made so far, in the order made.
    var runs: [Run] { state.withLock { $0.runs } }

    /// The total weight of notes `range` (offsets into the weights).
    func weight(of range: Range<Int>) -> Int { sums[range.upperBound] - sums[range.lowerBound] }
}
