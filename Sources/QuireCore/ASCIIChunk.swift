/// Eight bytes of text looked at together (one 64-bit word, little-endian): which of them are
/// ASCII letters or digits — the bytes words are made of — without a branch per byte. Each
/// answer is a mask with 0x80 in the bytes that qualify and 0 elsewhere.
public enum ASCIIChunk {
    /// 0x80 in every byte.
    public static let highBits: UInt64 = 0x8080_8080_8080_8080
    /// 0x01 in every byte.
    @usableFromInline static let lowBits: UInt64 = 0x0101_0101_0101_0101

    /// The eight bytes at `base` (which must have eight readable bytes).
    @inlinable @inline(__always)
    public static func load(_ base: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
    }

    /// The `count` (at most eight) bytes at `base` as a little-endian word, zero padded, read
    /// with at most three loads that stay inside those bytes (overlapping loads agree on the
    /// bytes they share).
    @inlinable @inline(__always)
    public static func load(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 8 { return base.loadUnaligned(as: UInt64.self) }
        if count >= 4 {
            let low = UInt64(base.loadUnaligned(as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return low | high << (8 * UInt64(count - 4))
        }
        if count == 0 { return 0 }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count / 2, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
        return first | middle << (8 * UInt64(count / 2)) | last << (8 * UInt64(count - 1))
    }

    /// Whether ASCII `bytes` hold an uppercase letter, eight at a time.
    @inlinable @inline(__always)
    public static func containsUpper(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index &+ 8 <= bytes.count {
            if upperBytes(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) != 0 { return true }
            index &+= 8
        }
        return index < bytes.count && upperBytes(load(raw + index, count: bytes.count &- index)) != 0
    }

    /// How many bytes of `chunk` come before its first non-ASCII byte (8 when there is none).
    @inlinable @inline(__always)
    public static func asciiPrefix(_ chunk: UInt64) -> Int {
        (chunk & highBits).trailingZeroBitCount &>> 3
    }

    /// The first `count` (1 to 8) bytes of `chunk`, the others zero.
    @inlinable @inline(__always)
    public static func prefix(_ chunk: UInt64, _ count: Int) -> UInt64 {
        count >= 8 ? chunk : chunk & ((1 &<< UInt64(count &* 8)) &- 1)
    }

    /// Whether all eight bytes are ASCII.
    @inlinable @inline(__always)
    public static func isASCII(_ chunk: UInt64) -> Bool {
        chunk & highBits == 0
    }

    /// 0x80 in the bytes of an ASCII `chunk` that lie in `low...high` (`high` < 0x80): no sum
    /// carries into the next byte, since every byte is below 0x80.
    @inlinable @inline(__always)
    static func inRange(_ chunk: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        let atLeastLow = chunk &+ lowBits &* UInt64(0x80 - low)
        let aboveHigh = chunk &+ lowBits &* UInt64(0x7F - high)
        return atLeastLow & ~aboveHigh & highBits
    }

    /// Whether every byte of `bytes` lies in `low...high` (`high` < 0x80), eight at a time (the
    /// last eight bytes read once more, overlapping, rather than byte by byte).
    @inlinable
    public static func allInRange(_ bytes: UnsafeRawBufferPointer, _ low: UInt8, _ high: UInt8) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return bytes.allSatisfy { $0 >= low && $0 <= high } }
        func fits(_ chunk: UInt64) -> Bool { isASCII(chunk) && inRange(chunk, low, high) == highBits }
        var index = 0
        while index &+ 8 <= bytes.count {
            if !fits(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
            index &+= 8
        }
        return index == bytes.count || fits(base.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self))
    }

    /// 0x80 in the bytes of an ASCII `chunk` that are letters or digits.
    @inlinable @inline(__always)
    public static func wordBytes(_ chunk: UInt64) -> UInt64 {
        inRange(chunk | lowBits &* 0x20, 0x61, 0x7A) | inRange(chunk, 0x30, 0x39)
    }

    /// How many bytes of `mask` (0x80 or 0 in each byte) are set: a multiply sums the eight
    /// bits into the top byte (a popcount instruction is not in the baseline x86-64 set).
    @inlinable @inline(__always)
    public static func count(_ mask: UInt64) -> Int {
        Int(truncatingIfNeeded: ((mask >> 7) &* lowBits) >> 56)
    }

    /// 0x80 in the bytes of `word` that are zero, exactly (no borrow reaches another byte).
    @inlinable @inline(__always)
    public static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
    }

    /// 0x80 in the bytes of `chunk` equal to `byte`.
    @inlinable @inline(__always)
    public static func bytes(_ chunk: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(chunk ^ (lowBits &* UInt64(byte)))
    }

    /// The first position from `start` on (before `end`) of `bytes` holding `first`, `second` or
    /// `third`, eight bytes at a time; `end` when there is none.
    @inlinable @inline(__always)
    public static func firstIndex(of first: UInt8, _ second: UInt8, _ third: UInt8, in bytes: UnsafeBufferPointer<UInt8>,
                                  from start: Int, end: Int) -> Int {
        guard let base = bytes.baseAddress else { return end }
        var index = start
        while index &+ 8 <= end {
            let chunk = load(base + index)
            let found = self.bytes(chunk, equalTo: first) | self.bytes(chunk, equalTo: second) | self.bytes(chunk, equalTo: third)
            if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte == first || byte == second || byte == third { return index }
            index &+= 1
        }
        return end
    }

    /// 0x80 in the bytes of an ASCII `chunk` that are uppercase letters.
    @inlinable @inline(__always)
    public static func upperBytes(_ chunk: UInt64) -> UInt64 {
        inRange(chunk, 0x41, 0x5A)
    }
}
