/// A note's front-matter keys with the scalar texts of their values, packed into one byte
/// buffer (a length before each text): the server keeps these for every note, and at 100,000
/// notes a key and an array of values per field were a hundred megabytes of small allocations.
struct PackedFields: Equatable, Sendable {
    private var bytes: [UInt8] = []

    /// Packs `fields` in order.
    init(_ fields: [(key: String, values: [String])]) {
        guard !fields.isEmpty else { return }
        for field in fields {
            append(field.key)
            appendLength(field.values.count)
            for value in field.values { append(value) }
        }
    }

    /// The fields, unpacked, in the order given.
    var fields: [(key: String, values: [String])] {
        var result: [(key: String, values: [String])] = []
        var position = 0
        while position < bytes.count {
            let key = text(at: &position)
            let count = length(at: &position)
            var values: [String] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(text(at: &position)) }
            result.append((key, values))
        }
        return result
    }

    private mutating func append(_ text: String) {
        let utf8 = text.utf8
        appendLength(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    /// A length as LEB128 (seven bits a byte, the high bit set on all but the last).
    private mutating func appendLength(_ value: Int) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private func length(at position: inout Int) -> Int {
        var value: UInt = 0
        var shift: UInt = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            value |= UInt(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        return Int(value)
    }

    private func text(at position: inout Int) -> String {
        let count = length(at: &position)
        let end = min(position + count, bytes.count)
        defer { position = end }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }
}
