import Foundation

/// Plain SHA-1 and HMAC-SHA-1 (for hashed `known_hosts` entries, short stable ids and pack
/// checksums). Not for security decisions beyond what ssh's and git's own formats require.
public enum SHA1 {
    /// The 20-byte SHA-1 digest of `data`.
    public static func digest(_ data: Data) -> [UInt8] {
        var hasher = SHA1Hasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// The SHA-1 digest of `data` as 40 lowercase hex digits.
    public static func hex(_ data: Data) -> String {
        let table = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in digest(data) {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// HMAC-SHA-1 of `message` under `key`.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(Data(key)) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(Data(block.map { $0 ^ 0x36 } + message))
        return digest(Data(block.map { $0 ^ 0x5c } + inner))
    }
}

/// SHA-1 over bytes given piece by piece (`update` any number of times, then `finalize`).
public struct SHA1Hasher {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    /// Bytes of an incomplete 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// A hasher with nothing hashed yet.
    public init() {
        pending.reserveCapacity(64)
    }

    /// Hashes `bytes` after everything given before.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { block in block.baseAddress.map { compress($0) } }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(base + offset)
            offset += 64
        }
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
        }
    }

    /// Hashes `bytes` after everything given before.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 20-byte digest of everything given (the hasher is spent).
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let saved = length
        update(tail)
        length = saved
        let words = [state.0, state.1, state.2, state.3, state.4]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    /// One 64-byte block.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { words in
            for index in 0..<16 {
                words[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = mixed << 1 | mixed >> 31
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let f: UInt32, k: UInt32
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}
