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
            withoutActuallyEscaping(transform) { work in
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let start = chunk * chunkSize
                    for index in start..<min(start + chunkSize, items.count) {
                        slots.baseAddress.map { ($0 + index).pointee = work(items[index]) }
                    }
                }
            }
        }
        return results.compactMap { $0 }
    }
}
