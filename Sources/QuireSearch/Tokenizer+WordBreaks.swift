import CICU

extension Tokenizer {
    /// Whether a scalar belongs to a script written without spaces between words that ICU's
    /// dictionary word breaks segment: Thai, Lao, Khmer, Burmese (Myanmar). All are in the
    /// Basic Multilingual Plane at U+0800 or above: three UTF-8 bytes and one UTF-16 unit each.
    @inline(__always)
    static func isUnspacedScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
             0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F,  // Myanmar and its extensions
             0x1780...0x17FF, 0x19E0...0x19FF:  // Khmer, Khmer symbols
            return true
        default:
            return false
        }
    }

    /// The end of the run of unspaced-script scalars starting at `start` (which is one).
    static func unspacedRunEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 3 <= buffer.count, buffer[index] >= 0xE0, buffer[index] < 0xF0 {
            let value = (UInt32(buffer[index]) & 0x0F) << 12 | (UInt32(buffer[index + 1]) & 0x3F) << 6
                | (UInt32(buffer[index + 2]) & 0x3F)
            guard isUnspacedScript(value) else { break }
            index += 3
        }
        return index
    }

    /// Calls `emit` with the byte range of each word ICU's word-break iterator finds in
    /// `buffer[run]`, a run of unspaced-script scalars (three bytes each). When ICU fails the
    /// whole run is one word, as before segmentation existed.
    static func wordBreaks(_ buffer: UnsafeBufferPointer<UInt8>, run: Range<Int>, _ emit: (Range<Int>) -> Void) {
        var units: [UInt16] = []
        units.reserveCapacity(run.count / 3)
        var index = run.lowerBound
        while index + 3 <= run.upperBound {
            units.append((UInt16(buffer[index]) & 0x0F) << 12 | (UInt16(buffer[index + 1]) & 0x3F) << 6
                | (UInt16(buffer[index + 2]) & 0x3F))
            index += 3
        }
        // A word is at least one unit: at most one pair per unit.
        var bounds = [Int32](repeating: 0, count: 2 * units.count)
        let found = units.withUnsafeBufferPointer { text in
            bounds.withUnsafeMutableBufferPointer { pairs in
                quire_word_breaks(text.baseAddress, Int32(text.count), pairs.baseAddress, Int32(units.count))
            }
        }
        guard found >= 0, Int(found) <= units.count else {
            emit(run)
            return
        }
        for pair in 0..<Int(found) {
            let start = Int(bounds[2 * pair]), end = Int(bounds[2 * pair + 1])
            guard start < end, end <= units.count else { continue }
            emit((run.lowerBound + start * 3)..<(run.lowerBound + end * 3))
        }
    }
}
