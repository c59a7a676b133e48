import CLibGit2
import Foundation

/// A git object id (SHA-1), copied out of libgit2 into a plain value.
public struct OID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 20 raw bytes.
    public let bytes: [UInt8]

    init(_ oid: git_oid) {
        bytes = withUnsafeBytes(of: oid.id) { Array($0) }
    }

    init(_ pointer: UnsafePointer<git_oid>) {
        self.init(pointer.pointee)
    }

    /// Parses 40 hex digits; nil when the text is not a full object id.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 40 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(20)
        var index = 0
        while index < 40 {
            guard let high = OID.nibble(digits[index]), let low = OID.nibble(digits[index + 1]) else {
                return nil
            }
            result.append(high << 4 | low)
            index += 2
        }
        bytes = result
    }

    /// The id as 40 lowercase hex digits.
    public var hex: String {
        let table = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `length` hex digits.
    public func short(_ length: Int = 7) -> String { String(hex.prefix(length)) }

    /// The hex form.
    public var description: String { hex }

    /// Byte-wise order (the same on every device; used to break ties).
    public static func < (lhs: OID, rhs: OID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// The libgit2 struct form of this id.
    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { buffer in
            for (index, byte) in bytes.enumerated() where index < buffer.count {
                buffer[index] = byte
            }
        }
        return oid
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return char - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension OID {
    /// The id git gives `data` stored as a blob (`git hash-object`), without a repository.
    public static func blob(for data: Data) throws -> OID {
        try LibGit2.ensure()
        var result = git_oid()
        _ = try data.withUnsafeBytes { buffer in
            try check(git_odb_hash(&result, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB), "git_odb_hash")
        }
        return OID(result)
    }
}
