/// Case-insensitive comparisons against an already lowercased value, without allocating for
/// ASCII text (filters run them over every note).
enum CaseFolding {
    /// Whether `text` lowercased equals `lowered` (`under`: or starts with `lowered + "/"`).
    static func matches(_ text: String, _ lowered: String, orUnder under: Bool = false) -> Bool {
        let outer: Bool?? = text.utf8.withContiguousStorageIfAvailable { candidate -> Bool? in
            let inner: Bool?? = lowered.utf8.withContiguousStorageIfAvailable { wanted -> Bool? in
                asciiMatch(candidate, wanted, under: under)
            }
            return inner ?? nil
        }
        if let decided = outer ?? nil { return decided }
        let folded = text.lowercased()
        return folded == lowered || (under && folded.hasPrefix(lowered) && folded.dropFirst(lowered.count).first == "/")
    }

    /// The answer when it can be decided on ASCII bytes alone, else nil.
    @inline(__always)
    private static func asciiMatch(_ candidate: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>,
                                   under: Bool) -> Bool? {
        let shared = min(candidate.count, wanted.count)
        for index in 0..<shared {
            let byte = candidate[index]
            let want = wanted[index]
            if byte >= 0x80 || want >= 0x80 { return nil }
            let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            if folded != want { return isASCII(candidate, from: index) ? false : nil }
        }
        if candidate.count == wanted.count { return true }
        if candidate.count > wanted.count && under && candidate[wanted.count] == 0x2F { return true }
        return isASCII(candidate, from: shared) && isASCII(wanted, from: shared) ? false : nil
    }

    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
