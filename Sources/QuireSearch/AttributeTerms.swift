import Foundation
import QuireCore

/// The attribute terms of a note (`Attribute.terms`, in the same order) as bytes back to back,
/// made without a string per term: an ASCII value's key (`Attribute.key`, lowercased) and a
/// title's folded words (`Tokenizer.foldedPhrase`) are written straight after the term's
/// prefix; other values go through `Attribute.key` as strings. A term is left out where
/// `Attribute.terms` leaves it out — when it equals one before it as a string (the same bytes,
/// or canonically equivalent text outside ASCII). What a rebuild feeds each note's last field.
struct AttributeTerms {
    /// The terms' bytes back to back.
    private(set) var bytes: [UInt8] = []
    /// Where each term ends in `bytes`.
    private(set) var ends: [Int] = []
    /// Whether each term holds a byte outside ASCII (and may equal other bytes as a string).
    private var beyondASCII: [Bool] = []

    /// The terms of `record` (`headingTitle` names it too).
    init(of record: NoteRecord, headingTitle: String? = nil) {
        bytes.reserveCapacity(256)
        // Tags of one key count once (terms with other prefixes never equal them).
        for tag in record.tags { appendKeyed(Attribute.tag, tag, uniqueFrom: 0) }
        appendKeyed(Attribute.folder, record.folder, uniqueFrom: nil)
        if let value = record.project { appendKeyed(Attribute.project, value, uniqueFrom: nil) }
        if let value = record.color { appendKeyed(Attribute.color, value, uniqueFrom: nil) }
        if let value = record.mood { appendKeyed(Attribute.mood, String(value), uniqueFrom: nil) }
        if record.draft { appendKeyed(Attribute.draft, "", uniqueFrom: nil) }
        if record.pinned { appendKeyed(Attribute.pinned, "", uniqueFrom: nil) }
        let names = ends.count
        appendName(record.title, uniqueFrom: names)
        if let headingTitle { appendName(headingTitle, uniqueFrom: names) }
        for alias in record.aliases { appendName(alias, uniqueFrom: names) }
        // The link terms (`Attribute.linkTerms`): the file name's, then each link's once.
        let links = ends.count
        appendKeyed(Attribute.stem, NoteParser.stem(of: record.path), uniqueFrom: nil)
        for written in record.links {
            guard let key = LinkTarget.nameKey(of: written.target), key.utf8.count <= Attribute.maximumNameBytes else {
                continue
            }
            append(Attribute.link)
            bytes.append(contentsOf: key.utf8)
            endTerm(uniqueFrom: links)
        }
    }

    /// Number of terms.
    var count: Int { ends.count }

    /// Calls `body` with each term's bytes, in order.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in ends {
                body(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// The terms as strings (what `Attribute.terms` gives).
    var strings: [String] {
        var result: [String] = []
        forEach { result.append(String(decoding: $0, as: UTF8.self)) }
        return result
    }

    private mutating func append(_ prefix: String) {
        bytes.append(contentsOf: prefix.utf8)
    }

    /// `prefix` + `Attribute.key(value)`: an ASCII value lowercased as it is copied.
    private mutating func appendKeyed(_ prefix: String, _ value: String, uniqueFrom first: Int?) {
        append(prefix)
        var value = value
        let ascii = value.withUTF8 { source -> Bool in
            guard source.allSatisfy({ $0 < 0x80 }) else { return false }
            for byte in source { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
            return true
        }
        if !ascii { bytes.append(contentsOf: Attribute.key(value).utf8) }
        endTerm(uniqueFrom: first)
    }

    /// `Attribute.name` + the folded words of `text` joined by spaces, unless there are none or
    /// they are longer than `Attribute.maximumNameBytes`.
    private mutating func appendName(_ text: String, uniqueFrom first: Int) {
        let start = bytes.count
        append(Attribute.name)
        let phrase = bytes.count
        Tokenizer.scan(text) { token, _, isASCII, isCJK in
            if bytes.count > phrase { bytes.append(0x20) }
            Tokenizer.appendFolded(token, isASCII: isASCII, isCJK: isCJK, to: &bytes)
        }
        guard bytes.count > phrase, bytes.count - phrase <= Attribute.maximumNameBytes else {
            bytes.removeSubrange(start...)
            return
        }
        endTerm(uniqueFrom: first)
    }

    /// Ends the term being written, or takes it back when `first` is given and one of the terms
    /// from `first` on equals it.
    private mutating func endTerm(uniqueFrom first: Int?) {
        let start = ends.last ?? 0
        let isASCII = bytes.withUnsafeBufferPointer { all in all[start...].allSatisfy { $0 < 0x80 } }
        if let first, first < ends.count {
            let isRepeated = bytes.withUnsafeBufferPointer { all -> Bool in
                let term = UnsafeBufferPointer(rebasing: all[start...])
                var begin = first > 0 ? ends[first - 1] : 0
                for index in first..<ends.count {
                    let other = UnsafeBufferPointer(rebasing: all[begin..<ends[index]])
                    begin = ends[index]
                    if Self.sameBytes(term, other) { return true }
                    // Two ASCII terms are equal as strings only when their bytes are.
                    if isASCII && !beyondASCII[index] { continue }
                    if String(decoding: term, as: UTF8.self) == String(decoding: other, as: UTF8.self) { return true }
                }
                return false
            }
            if isRepeated {
                bytes.removeSubrange(start...)
                return
            }
        }
        ends.append(bytes.count)
        beyondASCII.append(!isASCII)
    }

    /// Whether two terms hold the same bytes.
    private static func sameBytes(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard one.count == other.count else { return false }
        guard let left = one.baseAddress, let right = other.baseAddress else { return true }
        return memcmp(left, right, one.count) == 0
    }
}
