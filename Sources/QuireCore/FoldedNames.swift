import Foundation

/// Names folded as `EditDistance` folds them (case and accents, outer blanks trimmed), each
/// character numbered (ASCII by its byte, any other character by the order it was first met),
/// kept one after another in one array for `NearNames`.
struct FoldedNames: Sendable {
    private var characters: [Int32] = []
    private var starts: [Int32] = [0]
    private var numbers: [Character: Int32] = [:]

    init(_ names: [String]) {
        characters.reserveCapacity(names.count * 16)
        starts.reserveCapacity(names.count + 1)
        for name in names {
            if !Self.appendASCII(name, to: &characters) {
                for character in EditDistance.fold(name) {
                    if let ascii = character.asciiValue, character.utf8.count == 1 {
                        characters.append(Int32(ascii))
                    } else if let number = numbers[character] {
                        characters.append(number)
                    } else {
                        let number = Int32(128 + numbers.count)
                        numbers[character] = number
                        characters.append(number)
                    }
                }
            }
            starts.append(Int32(characters.count))
        }
    }

    /// The query folded and numbered as the names are; a character no name holds gets a
    /// negative number of its own.
    func characters(of query: String) -> [Int32] {
        var numbered: [Int32] = []
        if Self.appendASCII(query, to: &numbered) { return numbered }
        var unknown: [Character: Int32] = [:]
        for character in EditDistance.fold(query) {
            if let ascii = character.asciiValue, character.utf8.count == 1 {
                numbered.append(Int32(ascii))
            } else if let number = numbers[character] ?? unknown[character] {
                numbered.append(number)
            } else {
                let number = Int32(-1 - unknown.count)
                unknown[character] = number
                numbered.append(number)
            }
        }
        return numbered
    }

    /// The number of characters of name `name` once folded.
    func length(_ name: Int) -> Int { Int(starts[name + 1] - starts[name]) }

    /// Whether name `first` comes before name `second` in the order of their numbers.
    func precedes(_ first: Int, _ second: Int) -> Bool {
        characters.withUnsafeBufferPointer { all in
            let a = all[Int(starts[first])..<Int(starts[first + 1])], b = all[Int(starts[second])..<Int(starts[second + 1])]
            return a.lexicographicallyPrecedes(b)
        }
    }

    /// Below, at or above zero as name `name` comes before, is, or comes after `query`.
    func compare(_ name: Int, with query: [Int32]) -> Int {
        let start = Int(starts[name]), count = length(name)
        for index in 0..<min(count, query.count) where characters[start + index] != query[index] {
            return characters[start + index] < query[index] ? -1 : 1
        }
        return count - query.count
    }

    /// Whether name `name` begins with `query`.
    func hasPrefix(_ name: Int, _ query: [Int32]) -> Bool {
        guard length(name) >= query.count else { return false }
        let start = Int(starts[name])
        for index in 0..<query.count where characters[start + index] != query[index] { return false }
        return true
    }

    /// Calls `body` with each pair of adjacent characters of name `name`, as `pair` makes it.
    func forEachPair(of name: Int, _ body: (UInt64) -> Void) {
        let start = Int(starts[name]), end = Int(starts[name + 1])
        guard end - start >= 2 else { return }
        for index in start + 1..<end { body(Self.pair(characters[index - 1], characters[index])) }
    }

    /// How many of `pairs` (each with how often the query holds it) name `name` holds: per pair,
    /// the fewer of its times in the name and in the query.
    func shared(_ name: Int, _ pairs: [(pair: UInt64, inQuery: Int)]) -> Int {
        let start = Int(starts[name]), end = Int(starts[name + 1])
        guard end - start >= 2 else { return 0 }
        var total = 0
        for (pair, inQuery) in pairs {
            var times = 0
            for index in start + 1..<end where Self.pair(characters[index - 1], characters[index]) == pair { times += 1 }
            total += min(times, inQuery)
        }
        return total
    }

    /// One key for two adjacent characters.
    static func pair(_ first: Int32, _ second: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: first)) << 32 | UInt64(UInt32(bitPattern: second))
    }

    /// The edit distance from `query` to name `name` when it is at most `limit`, else `limit + 1`
    /// (the rows stop once every cell of one is over `limit`).
    /// `rows` are the two rows it works in, kept from one call to the next (many names measured
    /// against one query allocate them once).
    func distance(from query: [Int32], to name: Int, atMost limit: Int, rows: inout ([Int], [Int])) -> Int {
        let start = Int(starts[name]), count = length(name)
        if abs(count - query.count) > limit { return limit + 1 }
        if query.isEmpty || count == 0 { return max(query.count, count) }
        var previous: [Int] = [], current: [Int] = []
        swap(&previous, &rows.0)
        swap(&current, &rows.1)
        defer {
            swap(&previous, &rows.0)
            swap(&current, &rows.1)
        }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...count)
        current.removeAll(keepingCapacity: true)
        current.append(contentsOf: repeatElement(0, count: count + 1))
        for i in 1...query.count {
            current[0] = i
            var smallest = i
            for j in 1...count {
                let substitution = previous[j - 1] + (query[i - 1] == characters[start + j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                smallest = min(smallest, current[j])
            }
            if smallest > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return min(previous[count], limit + 1)
    }

    /// Appends `name` folded when it is ASCII without a carriage return (one character a byte,
    /// trimmed of spaces and tabs, lowercased) and says so; leaves `numbered` alone otherwise.
    private static func appendASCII(_ name: String, to numbered: inout [Int32]) -> Bool {
        var utf8 = name.utf8[...]
        guard !utf8.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return false }
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        for byte in utf8 { numbered.append(Int32(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)) }
        return true
    }
}
