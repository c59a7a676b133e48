/// Case-insensitive comparisons against an already lowercased value, without allocating for
/// ASCII text (filters run them over every note).
enum CaseFolding {
    /// Whether `text` lowercased equals `lowered` (`under`: or starts with `lowered + "/"`).
    static func matches(_ text: String, _ lowered: String, orUnder under: Bool = false) -> Bool {
        var text = text
        var lowered = lowered
        let ascii: Bool? = text.withUTF8 { candidate in
            lowered.withUTF8 { wanted in
                guard candidate.count >= wanted.count else {
                    return candidate.allSatisfy { $0 < 0x80 } ? false : nil
                }
                for index in 0..<wanted.count {
                    let byte = candidate[index]
                    if byte >= 0x80 || wanted[index] >= 0x80 { return nil }
                    let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
                    if folded != wanted[index] { return false }
                }
                if candidate.count == wanted.count { return true }
                if !under { return candidate.allSatisfy({ $0 < 0x80 }) ? false : nil }
                return candidate[wanted.count] == 0x2F ? true : (candidate.allSatisfy { $0 < 0x80 } ? false : nil)
            }
        }
        if let ascii { return ascii }
        let folded = text.lowercased()
        return folded == lowered || (under && folded.hasPrefix(lowered) && folded.dropFirst(lowered.count).first == "/")
    }
}
