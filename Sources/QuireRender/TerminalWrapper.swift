/// Wraps styled text to a width in terminal columns: lines break at spaces and between wide
/// (CJK) characters, never inside a word unless the word alone is wider than a line; closing CJK
/// punctuation stays with the character before it.
struct TerminalWrapper {
    let width: Int

    private struct Atom {
        var pieces: [StyledSpan] = []
        var width = 0
        var spaceBefore: StyledSpan?
        var isHardBreak = false
        var endsWide = false

        mutating func append(_ character: Character, _ style: TerminalStyle) {
            if let last = pieces.last, last.style == style {
                pieces[pieces.count - 1].text.append(character)
            } else {
                pieces.append(StyledSpan(text: String(character), style: style))
            }
            width += DisplayWidth.of(character)
        }
    }

    /// Closing punctuation that must not start a line (kinsoku).
    private static let noLineStart: Set<Character> = ["、", "。", "，", "．", "！", "？", "）", "」", "』", "】", "〉", "》", "・", "：", "；", "ー", "…"]

    /// The lines of `spans`; `"\n"` in a span is a hard break. Empty input gives no lines.
    func wrap(_ spans: [StyledSpan]) -> [StyledLine] {
        let atoms = Self.atoms(spans)
        var lines: [StyledLine] = []
        var line = StyledLine()
        var used = 0
        var lineHasContent = false
        func finish() {
            lines.append(line)
            line = StyledLine()
            used = 0
            lineHasContent = false
        }
        for atom in atoms {
            if atom.isHardBreak {
                finish()
                continue
            }
            let space = lineHasContent && atom.spaceBefore != nil ? 1 : 0
            if lineHasContent && used + space + atom.width > width {
                finish()
            }
            if lineHasContent, let spaceBefore = atom.spaceBefore {
                line.spans.append(spaceBefore)
                used += 1
            }
            if atom.width > width - used {
                for piece in atom.pieces {
                    for character in piece.text {
                        let characterWidth = DisplayWidth.of(character)
                        if used + characterWidth > width && used > 0 { finish() }
                        line.spans.append(StyledSpan(text: String(character), style: piece.style))
                        used += characterWidth
                        lineHasContent = true
                    }
                }
                continue
            }
            line.spans += atom.pieces
            used += atom.width
            lineHasContent = true
        }
        if lineHasContent || !line.spans.isEmpty { lines.append(line) }
        return lines
    }

    private static func atoms(_ spans: [StyledSpan]) -> [Atom] {
        var atoms: [Atom] = []
        var word = Atom()
        var pendingSpace: StyledSpan?
        func finishWord() {
            if !word.pieces.isEmpty { atoms.append(word) }
            word = Atom()
        }
        for span in spans {
            for character in span.text {
                if character == "\n" {
                    finishWord()
                    var hardBreak = Atom()
                    hardBreak.isHardBreak = true
                    atoms.append(hardBreak)
                    pendingSpace = nil
                } else if character == " " || character == "\t" {
                    finishWord()
                    if !atoms.isEmpty, atoms.last?.isHardBreak == false { pendingSpace = StyledSpan(text: " ", style: span.style) }
                } else if let scalar = character.unicodeScalars.first, DisplayWidth.isWide(scalar.value) || noLineStart.contains(character) {
                    if noLineStart.contains(character), pendingSpace == nil, word.pieces.isEmpty, !atoms.isEmpty, atoms[atoms.count - 1].endsWide || !atoms[atoms.count - 1].isHardBreak {
                        atoms[atoms.count - 1].append(character, span.style)
                        continue
                    }
                    finishWord()
                    var single = Atom()
                    single.spaceBefore = pendingSpace
                    single.append(character, span.style)
                    single.endsWide = true
                    atoms.append(single)
                    pendingSpace = nil
                } else {
                    if word.pieces.isEmpty {
                        word.spaceBefore = pendingSpace
                        pendingSpace = nil
                    }
                    word.append(character, span.style)
                }
            }
        }
        finishWord()
        return atoms
    }
}
