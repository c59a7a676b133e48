/// Disarms the raw HTML a note keeps with `--raw-html` (GitHub's tag filter then disarms
/// `<script>`, `<iframe>`, `<style>` and the like): every start tag loses its event attributes
/// (`on…=`) and the URL attributes (`href`, `src`, `action`, …) whose URL runs code or carries a
/// document (`javascript:`, `vbscript:`, `file:`, `data:` other than a PNG, GIF, JPEG or WebP
/// image — cmark-gfm's own rule for Markdown links); a start tag left open at the end of the
/// HTML is written as text. Everything else is kept as written.
enum RawHTMLFilter {
    /// The attributes whose value is a URL a browser follows or loads.
    static let urlAttributes: Set<String> = [
        "href", "src", "srcset", "xlink:href", "action", "formaction", "poster", "background", "data", "cite",
        "codebase", "longdesc", "lowsrc", "dynsrc", "ping",
    ]

    /// Whether `url` uses a scheme that runs code or carries a document. Entities are decoded
    /// and spaces and control characters dropped first, as a browser reads an attribute.
    static func isDangerous(_ url: String) -> Bool {
        let cleaned = String(String.UnicodeScalarView(decodingReferences(url).filter { $0.value > 0x20 })).lowercased()
        if ["javascript:", "vbscript:", "file:"].contains(where: { cleaned.hasPrefix($0) }) { return true }
        guard cleaned.hasPrefix("data:") else { return false }
        return !["png", "gif", "jpeg", "webp"].contains { cleaned.hasPrefix("data:image/" + $0) }
    }

    /// `html` with its start tags disarmed.
    static func filter(_ html: String) -> String {
        let scalars = Array(html.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "<", index + 1 < scalars.count, isASCIILetter(scalars[index + 1]) else {
                output.append(scalars[index])
                index += 1
                continue
            }
            if let (tag, end) = startTag(scalars, at: index) {
                output.append(contentsOf: tag)
                index = end
            } else {
                output.append(contentsOf: "&lt;".unicodeScalars)
                index += 1
            }
        }
        return String(output)
    }

    /// The start tag at `start` (a `<` and a letter) without its dangerous attributes, and the
    /// index after its `>`; nil when it is not closed.
    private static func startTag(_ scalars: [Unicode.Scalar], at start: Int) -> (String.UnicodeScalarView, Int)? {
        var index = start + 1
        while index < scalars.count, !isSpace(scalars[index]), scalars[index] != "/", scalars[index] != ">" { index += 1 }
        var tag = String.UnicodeScalarView(scalars[start..<index])
        while index < scalars.count {
            let attributeStart = index
            while index < scalars.count, isSpace(scalars[index]) || scalars[index] == "/" { index += 1 }
            guard index < scalars.count else { return nil }
            if scalars[index] == ">" {
                tag.append(contentsOf: scalars[attributeStart...index])
                return (tag, index + 1)
            }
            let nameStart = index
            index += 1
            while index < scalars.count, !isSpace(scalars[index]), !"/>=".unicodeScalars.contains(scalars[index]) { index += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<index])).lowercased()
            var value = ""
            var after = index
            while after < scalars.count, isSpace(scalars[after]) { after += 1 }
            if after < scalars.count, scalars[after] == "=" {
                index = after + 1
                while index < scalars.count, isSpace(scalars[index]) { index += 1 }
                guard index < scalars.count else { return nil }
                let valueStart: Int
                if scalars[index] == "\"" || scalars[index] == "'" {
                    let quote = scalars[index]
                    valueStart = index + 1
                    index = valueStart
                    while index < scalars.count, scalars[index] != quote { index += 1 }
                    guard index < scalars.count else { return nil }
                    value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
                    index += 1
                } else {
                    valueStart = index
                    while index < scalars.count, !isSpace(scalars[index]), scalars[index] != ">" { index += 1 }
                    value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
                }
            }
            let dangerous = name.hasPrefix("on") || (urlAttributes.contains(name) && isDangerous(value))
                || (name == "srcset" && value.split(separator: ",").contains { isDangerous(String($0)) })
            if !dangerous { tag.append(contentsOf: scalars[attributeStart..<index]) }
        }
        return nil
    }

    /// `text` with its character references (`&#106;`, `&#x6A`, `&colon;`, `&Tab;`, `&NewLine;`)
    /// decoded, as far as they can spell a scheme.
    private static func decodingReferences(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        let named: [String: Unicode.Scalar] = ["colon": ":", "tab": "\t", "newline": "\n"]
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&" else {
                output.append(scalars[index])
                index += 1
                continue
            }
            var end = index + 1
            var decoded: Unicode.Scalar?
            if end < scalars.count, scalars[end] == "#" {
                end += 1
                let hex = end < scalars.count && (scalars[end] == "x" || scalars[end] == "X")
                if hex { end += 1 }
                let digitsStart = end
                var value: UInt32 = 0
                while end < scalars.count, let digit = Int(String(scalars[end]), radix: hex ? 16 : 10) {
                    value = min(value * (hex ? 16 : 10) + UInt32(digit), 0x110000)
                    end += 1
                }
                if end > digitsStart { decoded = Unicode.Scalar(value) ?? "\u{FFFD}" }
            } else {
                while end < scalars.count, isASCIILetter(scalars[end]) { end += 1 }
                decoded = named[String(String.UnicodeScalarView(scalars[(index + 1)..<end])).lowercased()]
            }
            guard let decoded else {
                output.append(scalars[index])
                index += 1
                continue
            }
            output.append(decoded)
            index = end < scalars.count && scalars[end] == ";" ? end + 1 : end
        }
        return output
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { " \t\n\r\u{0C}".unicodeScalars.contains(scalar) }
    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
}
