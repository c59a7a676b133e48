import Foundation

/// Folds words of ASCII and precomposed Latin letters (U+0080–U+023F) the way the tokenizer
/// folds any word — lowercase, no diacritics — from a table made once with Foundation's own
/// folding of each of those letters: `String.folding` costs a string and a bridge per word,
/// and words like "résumé" or "Zoë" are common in notes.
enum LatinFolding {
    /// The folded UTF-8 of each scalar U+0080..<U+0240 (at `value - 0x80`).
    private static let table: [[UInt8]] = (0x80..<0x240).map { value in
        guard let scalar = Unicode.Scalar(value) else { return [] }
        let folded = String(Character(scalar)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return Array(folded.utf8)
    }

    /// Appends the folded bytes of `word` (valid UTF-8) to `output` and returns true; returns
    /// false, appending nothing, when the word holds anything but ASCII and U+0080–U+023F
    /// (a combining mark, another script): those are folded by Foundation.
    static func appendFolded(_ word: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        var index = 0
        while index < word.count {
            let byte = word[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            guard byte >= 0xC2 && byte <= 0xC8, index + 1 < word.count, word[index + 1] & 0xC0 == 0x80 else { return false }
            index += 2
        }
        index = 0
        while index < word.count {
            let byte = word[index]
            if byte < 0x80 {
                output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                index += 1
            } else {
                let value = Int(byte & 0x1F) << 6 | Int(word[index + 1] & 0x3F)
                output.append(contentsOf: table[value - 0x80])
                index += 2
            }
        }
        return true
    }
}
