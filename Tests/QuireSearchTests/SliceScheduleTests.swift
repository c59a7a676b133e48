import Dispatch
import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// The rebuild's cores share its notes out: a core done with its run takes the later half of
/// the heaviest rest, and every note is handed out once, the runs staying consecutive.
struct SliceScheduleTests {
    /// Takes every note `worker` is handed until its run is done.
    static func drain(_ schedule: SliceSchedule, _ worker: Int) -> [Int] {
        var taken: [Int] = []
        while let note = schedule.next(worker: worker) { taken.append(note) }
        return taken
    }

    @Test func aCoreDoneEarlyTakesTheLaterHalfOfTheOtherRunByWeight() {
        // Two runs of 50 notes; the second run's notes 50..<100 weigh 1,000 each but 90..<100
        // weigh 9,000 each: half the rest by weight ends earlier than half by count.
        var weights = [Int](repeating: 1_000, count: 100)
        for index in 90..<100 { weights[index] = 9_000 }
        let schedule = SliceSchedule(bounds: [0, 50, 100], weights: weights, minimumSplit: 4_000)
        #expect(Self.drain(schedule, 0) == Array(0..<50))
        // The other core has taken ten notes (60 is its next).
        for expected in 50..<60 { #expect(schedule.next(worker: 1) == expected) }
        // Its rest 60..<100 weighs 30,000 + 90,000: half is 60,000, passed at note 90 + 4.
        let taken = schedule.split(for: 0)
        #expect(taken == 94..<100)
        #expect(schedule.runs == [SliceSchedule.Run(next: 50, end: 50), SliceSchedule.Run(next: 60, end: 94),
                                  SliceSchedule.Run(next: 94, end: 100)])
        // Each core goes on with its own run: the first with the part taken over, the second up to it.
        #expect(Self.drain(schedule, 0) == Array(94..<100))
        #expect(Self.drain(schedule, 1) == Array(60..<94))
        // Nothing is left that is worth splitting.
        #expect(schedule.split(for: 0) == nil)
        #expect(schedule.split(for: 1) == nil)
    }

    @Test func aRestLighterThanTheLeastSplitIsNotSplit() {
        let schedule = SliceSchedule(bounds: [0, 10, 20], weights: [Int](repeating: 100, count: 20), minimumSplit: 1_001)
        _ = Self.drain(schedule, 0)
        #expect(schedule.next(worker: 1) == 10)
        // Nine notes of 100 are left: less than the least split.
        #expect(schedule.split(for: 0) == nil)
        #expect(schedule.next(worker: 0) == nil)
        #expect(Self.drain(schedule, 1) == Array(11..<20))
        // A lone note, however heavy, stays with its run.
        let heavy = SliceSchedule(bounds: [0, 1, 3], weights: [1, 1, 1_000_000], minimumSplit: 1)
        _ = Self.drain(heavy, 0)
        #expect(heavy.next(worker: 1) == 1)
        #expect(heavy.split(for: 0) == nil)
    }

    @Test func noMoreRunsThanTheMostAreMade() {
        let schedule = SliceSchedule(bounds: [0, 1, 1_000], weights: [Int](repeating: 10, count: 1_000),
                                     minimumSplit: 1, maximumRuns: 4)
        _ = Self.drain(schedule, 0)
        #expect(schedule.split(for: 0) != nil)
        _ = Self.drain(schedule, 0)
        #expect(schedule.split(for: 0) != nil)
        _ = Self.drain(schedule, 0)
        #expect(schedule.runs.count == 4)
        #expect(schedule.split(for: 0) == nil)
        // By default 16 runs, or two per core past eight cores.
        for cores in [2, 8, 12] {
            let bounds = Indexer.sliceBounds(weights: [Int](repeating: 10, count: 100_000), slices: cores)
            let many = SliceSchedule(bounds: bounds, weights: [Int](repeating: 10, count: 100_000), minimumSplit: 1)
            var made = cores
            while true {
                _ = Self.drain(many, 0)
                guard many.split(for: 0) != nil else { break }
                made += 1
            }
            #expect(made == max(16, 2 * cores), "\(cores) cores")
        }
        // The second core still takes every note of its (shortened) run.
        let rest = Self.drain(schedule, 1)
        #expect(rest.first == 1 && rest == Array(rest[0]...rest[rest.count - 1]))
    }

    /// Several threads taking notes and splitting runs at once, with notes of very different
    /// costs: every note is handed out exactly once, and to the thread whose run holds it.
    @Test func coresTakingNotesAtOnceGetEachNoteOnce() {
        let count = 5_000
        let weights = (0..<count).map { ($0 &* 7_919) % 3_000 + 1 }
        for cores in [2, 3, 4] {
            let bounds = Indexer.sliceBounds(weights: weights, slices: cores)
            let schedule = SliceSchedule(bounds: bounds, weights: weights, minimumSplit: 2_000)
            // Which core took each note, and the runs each core began (by their first note).
            var takenBy = [[Int]](repeating: [], count: cores)
            var begun = [[Int]](repeating: [], count: cores)
            takenBy.withUnsafeMutableBufferPointer { takenBuffer in
                begun.withUnsafeMutableBufferPointer { begunBuffer in
                    let taken = takenBuffer
                    let starts = begunBuffer
                    ParallelMap.perform(iterations: cores) { core in
                        starts[core].append(bounds[core])
                        while true {
                            while let note = schedule.next(worker: core) {
                                taken[core].append(note)
                                // The first core's notes cost far more: the others run out first.
                                if core == 0 { usleep(20) }
                            }
                            guard let run = schedule.split(for: core) else { break }
                            starts[core].append(run.lowerBound)
                        }
                    }
                }
            }
            let all = takenBy.joined().sorted()
            #expect(all == Array(0..<count), "\(cores) cores")
            // Each core's notes, cut where it began a run, are consecutive runs; all runs tile 0..<count.
            var runs: [Range<Int>] = []
            for core in 0..<cores {
                var notes = takenBy[core][...]
                for start in begun[core] {
                    // A run is never empty: its owner keeps a note at least when it is split.
                    #expect(notes.first == start, "core \(core)")
                    var end = start
                    while let first = notes.first, first == end {
                        end += 1
                        notes = notes.dropFirst()
                    }
                    runs.append(start..<end)
                }
                #expect(notes.isEmpty, "core \(core) took notes outside its runs: \(Array(notes.prefix(5)))")
            }
            let tiled = runs.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
            #expect(tiled.first?.lowerBound == 0 && tiled.last?.upperBound == count)
            #expect(zip(tiled, tiled.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "\(tiled)")
            // The slow core's run was shared out.
            #expect(schedule.runs.count > cores, "\(cores) cores: no run was split")
        }
    }
}
