import Dispatch

/// Runs independent work on every core: `ParallelMap.map(items) { … }` returns the results in
/// the order of `items`. The transform must be safe to call from several threads at once
/// (pure computation, file reads); nothing here touches libgit2 handles.
public enum ParallelMap {
    /// `transform` applied to every element, in chunks of `chunkSize` spread over the cores;
    /// the results keep the order of `items`.
    public static func map<Item, Result>(_ items: [Item], chunkSize: Int = 64,
                                         _ transform: (Item) -> Result) -> [Result] {
        guard items.count > chunkSize else { return items.map(transform) }
        let chunks = (items.count + chunkSize - 1) / chunkSize
        var results = [Result?](repeating: nil, count: items.count)
        results.withUnsafeMutableBufferPointer { output in
            let slots = output
            perform(iterations: chunks) { chunk in
                let start = chunk * chunkSize
                for index in start..<min(start + chunkSize, items.count) {
                    slots.baseAddress.map { ($0 + index).pointee = transform(items[index]) }
                }
            }
        }
        return results.compactMap { $0 }
    }

    /// `body(0)` … `body(iterations - 1)` on every core (`DispatchQueue.concurrentPerform`),
    /// returning when all have run.
    ///
    /// The one place where the compiler's data-race checking is set aside for these loops: the
    /// caller guarantees that the iterations only read what they share, or write disjoint slots
    /// of a buffer, or synchronise themselves (a lock) — as every caller does.
    public static func perform(iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { work in
            let shared = UncheckedSendable(work)
            DispatchQueue.concurrentPerform(iterations: iterations) { shared.value($0) }
        }
    }
}

/// A value handed to the worker threads of `ParallelMap.perform`; see there for the contract.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
