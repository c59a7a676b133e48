/// The words of a Markdown body as a reader sees them, for snippets: link syntax gives its text
/// (`[text](url)` and `[text][ref]` → text, `[[target|label]]` → label, `[[target]]` → target),
/// images, embeds (`![[…]]`), HTML tags and `data:` URLs are dropped, and `**` / `__` go.
/// Works on bytes, one line at a time for each construct (an unclosed one is kept as written).
enum ReadableText {
    /// How far a construct may reach for its closing bracket, in bytes.
    static let maxConstructBytes = 4096

    /// The readable bytes of `bytes`.
    static func readable(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "!") where next(bytes, index) == UInt8(ascii: "["):
                if let end = linkEnd(bytes, from: index + 1) {
                    index = end.after
                    continue
                }
            case UInt8(ascii: "["):
                if let end = linkEnd(bytes, from: index) {
                    out.append(contentsOf: readable(Array(bytes[end.text])))
                    index = end.after
                    continue
                }
            case UInt8(ascii: "<"):
                if let after = next(bytes, index), isLetter(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: "!"),
                   let close = find(UInt8(ascii: ">"), in: bytes, from: index + 1) {
                    index = close + 1
                    continue
                }
            case UInt8(ascii: "*"), UInt8(ascii: "_"):
                if next(bytes, index) == byte {
                    index += 2
                    continue
                }
            case UInt8(ascii: "d"):
                if isDataURL(bytes, at: index) {
                    while index < bytes.count, !endsURL(bytes[index]) { index += 1 }
                    continue
                }
            default:
                break
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// A link starting with `[` at `start`: the range of the text to show and the index after
    /// the whole construct; nil when it is not one (no closing bracket on the line).
    static func linkEnd(_ bytes: [UInt8], from start: Int) -> (text: Range<Int>, after: Int)? {
        if next(bytes, start) == UInt8(ascii: "[") {
            // [[target]] or [[target|label]]
            guard let close = find(UInt8(ascii: "]"), in: bytes, from: start + 2), next(bytes, close) == UInt8(ascii: "]") else {
                return nil
            }
            let inner = (start + 2)..<close
            let label = bytes[inner].lastIndex(of: UInt8(ascii: "|")).map { ($0 + 1)..<close } ?? inner
            return (label, close + 2)
        }
        guard let close = find(UInt8(ascii: "]"), in: bytes, from: start + 1) else { return nil }
        let text = (start + 1)..<close
        switch next(bytes, close) {
        case UInt8(ascii: "(")?:
            guard let end = find(UInt8(ascii: ")"), in: bytes, from: close + 2) else { return nil }
            return (text, end + 1)
        case UInt8(ascii: "[")?:
            guard let end = find(UInt8(ascii: "]"), in: bytes, from: close + 2) else { return nil }
            return (text, end + 1)
        default:
            return nil
        }
    }

    /// The first `target` at or after `start` on the same line, within `maxConstructBytes`.
    static func find(_ target: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        let limit = min(bytes.count, start + maxConstructBytes)
        while index < limit {
            let byte = bytes[index]
            if byte == target { return index }
            if byte == 0x0A || byte == 0x0D { return nil }
            index += 1
        }
        return nil
    }

    /// Whether a `data:` URL starts at `index` (not inside a word).
    static func isDataURL(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 5 <= bytes.count, bytes[index..<index + 5].elementsEqual("data:".utf8) else { return false }
        return index == 0 || !isLetter(bytes[index - 1]) && !(bytes[index - 1] >= 0x30 && bytes[index - 1] <= 0x39)
    }

    static func endsURL(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ">")
    }

    static func next(_ bytes: [UInt8], _ index: Int) -> UInt8? {
        index + 1 < bytes.count ? bytes[index + 1] : nil
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
