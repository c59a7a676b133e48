/// Case-insensitive comparisons against an already lowercased value, without allocating for
/// ASCII text (filters run them over every note).
enum CaseFolding {
    /// Whether `text` lowercased equals `lowered` (`under`: or starts with `lowered + "/"`).
    static func matches(_ text: String, _ lowered: String, orUnder under: Bool = false) -> Bool {
        if let decided = asciiMatch(text, lowered, under: under) { return decided }
        let folded = text.lowercased()
        return folded == lowered || (under && folded.hasPrefix(lowered) && folded.dropFirst(lowered.count).first == "/")
    }

    /// The answer when the bytes compared are ASCII (lowercasing them is byte for byte), else
    /// nil: a non-ASCII byte in the common part needs real lowercasing.
    @inline(__always)
    private static func asciiMatch(_ text: String, _ lowered: String, under: Bool) -> Bool? {
        var candidate = text.utf8.makeIterator()
        var wanted = lowered.utf8.makeIterator()
        while true {
            switch (candidate.next(), wanted.next()) {
            case (nil, nil):
                return true
            case (let byte?, nil):
                return under && byte == 0x2F
            case (nil, _?):
                return false
            case let (byte?, want?):
                if byte >= 0x80 || want >= 0x80 { return nil }
                let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
                if folded != want { return false }
            }
        }
    }
}
