import Foundation
import QuireCore

/// The links and anchors at the end of an encoded record (cache version 20): a count, then
/// per link a flag byte (1 Markdown, 2 embed, 4 front matter, 8 angle brackets, 16 a decoded
/// target of its own, 32 a fragment range, 64 a label range), the strings, the ranges and the
/// line and column as u32; then the headings and block ids as string lists.
extension BinaryWriter {
    mutating func links(_ links: [NoteLink], anchors: NoteAnchors) {
        u32(UInt32(links.count))
        for link in links {
            var flags: UInt8 = link.style == .markdown ? 1 : 0
            if link.isEmbed { flags |= 2 }
            if case .frontMatter = link.location { flags |= 4 }
            if link.isAngleBracketed { flags |= 8 }
            if link.target != link.rawTarget { flags |= 16 }
            if link.fragmentRange != nil { flags |= 32 }
            if link.labelRange != nil { flags |= 64 }
            u8(flags)
            if case .frontMatter(let key) = link.location { string(key) }
            string(link.rawTarget)
            if link.target != link.rawTarget { string(link.target) }
            optionalString(link.heading); optionalString(link.blockID); optionalString(link.label)
            optionalString(link.title)
            range(link.range); range(link.targetRange)
            if let fragment = link.fragmentRange { range(fragment) }
            if let label = link.labelRange { range(label) }
            u32(UInt32(clamping: link.line)); u32(UInt32(clamping: link.column))
        }
        strings(anchors.headings)
        strings(anchors.blockIDs)
    }

    private mutating func range(_ range: Range<Int>) {
        u32(UInt32(clamping: range.lowerBound)); u32(UInt32(clamping: range.upperBound))
    }
}

extension BinaryReader {
    mutating func links() throws(CacheError) -> ([NoteLink], NoteAnchors) {
        let links = try linkList()
        return (links, NoteAnchors(headings: try strings(), blockIDs: try strings()))
    }

    /// The links of the record encoded here, the fields before them skipped (what `record()`
    /// reads, in its order, with no value made for them): what a backlink needs of its linking
    /// note, at a fraction of decoding the record.
    mutating func recordLinks() throws(CacheError) -> [NoteLink] {
        try skipToLinks()
        return try linkList()
    }

    /// The links of the record encoded here at `ordinals` (ascending; their places in file
    /// order), each with its ordinal: the links before the last of them that are not asked for
    /// are skipped over (no string made for them), those after it not read. An ordinal past the
    /// record's links gives nothing.
    mutating func recordLinks(at ordinals: [Int]) throws(CacheError) -> [(ordinal: Int, link: NoteLink)] {
        try skipToLinks()
        let count = Int(try u32())
        guard count <= self.count - offset else { throw .corrupt("bad link count") }
        var found: [(ordinal: Int, link: NoteLink)] = []
        found.reserveCapacity(ordinals.count)
        var wanted = ordinals.makeIterator()
        var next = wanted.next()
        for ordinal in 0..<count {
            guard let asked = next else { break }
            if asked == ordinal {
                found.append((ordinal, try link()))
                next = wanted.next()
            } else {
                try skipLink()
            }
        }
        return found
    }

    /// Moves past the fields of a record before its links.
    private mutating func skipToLinks() throws(CacheError) {
        try skipString(); try skipString(); try skipOptionalString(); try skipString()  // path, folder, id, title
        try skipStrings(); try skipOptionalString()  // tags, project
        _ = try u8()  // draft, pinned, title and format flags
        try skipOptionalString()  // color
        if try u8() != 0 { _ = try int() }  // mood
        if try u8() != 0 { try skipValue() }  // priority
        try skipStrings(); try skipDate(); try skipDate()  // aliases, createdAt, updatedAt
        _ = try int(); _ = try u8(); _ = try u8()  // words, the two date sources
        try skipEntries()  // extra front matter
        try skip(Int(try u32()))  // the whole front matter
        let problems = Int(try u32())
        guard problems <= count - offset else { throw .corrupt("bad problem count") }
        for _ in 0..<problems {
            try skipString(); _ = try int(); try skipString()
        }
    }

    private mutating func skip(_ length: Int) throws(CacheError) {
        guard length >= 0, length <= count - offset else { throw .corrupt("truncated data") }
        offset += length
    }

    private mutating func skipString() throws(CacheError) { try skip(Int(try u32())) }

    private mutating func skipOptionalString() throws(CacheError) {
        if try u8() != 0 { try skipString() }
    }

    private mutating func skipStrings() throws(CacheError) {
        let size = Int(try u32())
        guard size <= count - offset else { throw .corrupt("bad list length") }
        for _ in 0..<size { try skipString() }
    }

    private mutating func skipDate() throws(CacheError) {
        if try u8() != 0 { try skip(8) }
    }

    /// Moves past what `value(depth:)` reads, checked as it checks (a depth past 64, a list
    /// longer than the bytes left, an unknown tag are corrupt), but no string or value made.
    private mutating func skipValue(depth: Int = 0) throws(CacheError) {
        guard depth < 64 else { throw .corrupt("value nested too deeply") }
        switch try u8() {
        case 0: break
        case 1: try skip(1)
        case 2, 3: try skip(8)
        case 4: try skipString()
        case 5: try skip(8); try skipString()
        case 6:
            let size = Int(try u32())
            guard size <= count - offset else { throw .corrupt("bad list length") }
            for _ in 0..<size { try skipValue(depth: depth + 1) }
        case 7: try skipEntries(depth: depth + 1)
        default: throw .corrupt("unknown value tag")
        }
    }

    /// Moves past what `entries(depth:)` reads (`skipValue`).
    private mutating func skipEntries(depth: Int = 0) throws(CacheError) {
        let size = Int(try u32())
        guard size <= count - offset else { throw .corrupt("bad entry count") }
        for _ in 0..<size {
            try skipString()
            try skipValue(depth: depth)
        }
    }

    /// The links of `links()` without the anchors after them.
    private mutating func linkList() throws(CacheError) -> [NoteLink] {
        let count = Int(try u32())
        guard count <= self.count - offset else { throw .corrupt("bad link count") }
        var links: [NoteLink] = []
        links.reserveCapacity(count)
        for _ in 0..<count { links.append(try link()) }
        return links
    }

    /// One link of a record's list.
    private mutating func link() throws(CacheError) -> NoteLink {
        let flags = try u8()
        let location: NoteLink.Location = flags & 4 != 0 ? .frontMatter(key: try string()) : .body
        let rawTarget = try string()
        let target = flags & 16 != 0 ? try string() : rawTarget
        let heading = try optionalString(), blockID = try optionalString(), label = try optionalString()
        let title = try optionalString()
        let whole = try range(), targetRange = try range()
        let fragment = flags & 32 != 0 ? try range() : nil
        let labelRange = flags & 64 != 0 ? try range() : nil
        let line = Int(try u32()), column = Int(try u32())
        return NoteLink(style: flags & 1 != 0 ? .markdown : .wiki, isEmbed: flags & 2 != 0, location: location,
                        rawTarget: rawTarget, target: target, heading: heading, blockID: blockID, label: label,
                        title: title, isAngleBracketed: flags & 8 != 0, range: whole, targetRange: targetRange,
                        fragmentRange: fragment, labelRange: labelRange, line: line, column: column)
    }

    /// Moves past one link of a record's list (what `link()` reads, no value made).
    private mutating func skipLink() throws(CacheError) {
        let flags = try u8()
        if flags & 4 != 0 { try skipString() }  // front-matter key
        try skipString()  // raw target
        if flags & 16 != 0 { try skipString() }  // decoded target
        for _ in 0..<4 { try skipOptionalString() }  // heading, block id, label, title
        // The two ranges, the fragment's and the label's when there, line and column.
        try skip(16 + (flags & 32 != 0 ? 8 : 0) + (flags & 64 != 0 ? 8 : 0) + 8)
    }

    private mutating func range() throws(CacheError) -> Range<Int> {
        let lower = Int(try u32()), upper = Int(try u32())
        guard lower <= upper else { throw .corrupt("bad link range") }
        return lower..<upper
    }
}
