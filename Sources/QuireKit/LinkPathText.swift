import Foundation

/// The path arithmetic and spelling of link targets that a rename rewrites: relative paths
/// between vault paths, and a Markdown destination spelled as the old one was (percent-encoded,
/// in angle brackets, or raw).
enum LinkPathText {
    /// The folder of a vault-relative path (`""` for the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `path` without a trailing `.md` (any case).
    static func withoutExtension(_ path: String) -> String {
        path.lowercased().hasSuffix(".md") ? String(path.dropLast(3)) : path
    }

    /// The bytes of the `%XX` escapes in `text`.
    static func escapes(in text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var found: [UInt8] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"),
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                found.append(value)
                index += 3
            } else {
                index += 1
            }
        }
        return found
    }

    /// `path` spelled as a Markdown destination (without the angle brackets themselves) the way
    /// the old one, `previous`, was: inside angle brackets raw (only `<`, `>` escaped);
    /// percent-encoded when it held escapes (what CommonMark needs escaped, and non-ASCII when
    /// it encoded non-ASCII); else raw — unless raw would break the link (a space, a
    /// parenthesis), then encoded.
    static func destination(_ path: String, angle: Bool, like previous: String) -> String {
        if angle { return encode(path) { "<>\n\r".unicodeScalars.contains($0) } }
        let escapes = escapes(in: previous)
        let needsEncoding: (Unicode.Scalar) -> Bool = { scalar in
            scalar.value < 0x21 || scalar.value == 0x7F || "%<>()[]#?^\\`\"".unicodeScalars.contains(scalar)
                || scalar.properties.isWhitespace
        }
        guard !escapes.isEmpty || path.unicodeScalars.contains(where: needsEncoding) else { return path }
        let encodesNonASCII = escapes.contains { $0 >= 0x80 }
        return encode(path) { needsEncoding($0) || (encodesNonASCII && !$0.isASCII) }
    }

    /// `text` with the scalars `encoded` picks percent-encoded as UTF-8.
    private static func encode(_ text: String, where encoded: (Unicode.Scalar) -> Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            guard encoded(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
        }
        return result
    }

    /// The percent-decoded text of a destination; invalid escapes stay.
    static func decoded(_ destination: String) -> String {
        destination.removingPercentEncoding ?? destination
    }
}
